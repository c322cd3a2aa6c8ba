// Workloads shaped like members of the LAWS thesis' sensitive set (001 Tables 2.2 / 3.2)
// the project lacked; see docs/workloads.md. Irregular members: invindex (MARS Inverted
// Index, type II) and cfd (Rodinia CFD euler3d, type III).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// --- invindex: inverted-index build over a synthetic HTML-like corpus (workloads/invindex) --

// Each lane of a warp walks its own document, so a warp's byte load touches up to 32
// lines; the simulated cost grows with lines x bytes, which bounds the sizes (small: 2 warps
// per SM on the GTX480; medium: 16 warps per SM on thesis Table 2.1, whose 512 current lines
// overflow the 256-line L1D, and short documents to stay within the host-time budget).
struct InvindexParams {
  int ndocs;     // documents = map threads
  int mean_len;  // body length in bytes: 0.75x..1.25x of it, plus the html header/footer
  int cap;       // pair slots per document (the generator never writes more real links)
  int nurls;     // url ids 0 .. nurls-1 (at most 5 digits)
};

InvindexParams invindex_params(Size size) {
  if (size == Size::kSmall) return {960, 96, 8, 1000};
  return {15360, 64, 8, 5000};
}

constexpr char kInvLinkPrefix[] = "<a href=\"url";  // the kernel's kLinkPrefix

// The CPU reference: every occurrence of the prefix followed by one or more digits and a
// closing quote, inside [begin, end). The kernel finds the same links with a byte-wise state
// machine; this search is written independently of it.
std::vector<int32_t> invindex_parse(const std::string& text, std::size_t begin,
                                    std::size_t end) {
  std::vector<int32_t> urls;
  const std::size_t plen = sizeof(kInvLinkPrefix) - 1;
  std::size_t at = begin;
  for (;;) {
    std::size_t p = text.find(kInvLinkPrefix, at);
    if (p == std::string::npos || p + plen > end) break;
    std::size_t q = p + plen;
    uint32_t url = 0;
    while (q < end && text[q] >= '0' && text[q] <= '9') url = url * 10 + (text[q++] - '0');
    if (q > p + plen && q < end && text[q] == '"') urls.push_back(static_cast<int32_t>(url));
    at = p + 1;
  }
  return urls;
}

void gen_invindex(Size size, const OutDir& out) {
  const InvindexParams P = invindex_params(size);
  if (P.nurls > 100000) throw GenerateError("invindex: url ids must have at most 5 digits");
  SplitMix64 rng(5101);
  auto word = [&](std::string& s) {
    int len = static_cast<int>(rng.uniform_int(2, 9));
    for (int k = 0; k < len; ++k) s += static_cast<char>('a' + rng.uniform_int(0, 25));
  };
  // Skewed url ids: P(url < k) = (k / nurls)^(1/3), so the lowest ids are hot.
  auto skewed_url = [&]() {
    double u = rng.unit();
    return std::min(P.nurls - 1, static_cast<int>(u * u * u * P.nurls));
  };
  std::string text;
  std::vector<uint32_t> doc_start{0};
  std::vector<std::vector<int32_t>> inserted(P.ndocs);
  for (int d = 0; d < P.ndocs; ++d) {
    const std::size_t target =
        text.size() + static_cast<std::size_t>(rng.uniform_int(P.mean_len * 3 / 4, P.mean_len * 5 / 4));
    text += "<html><body><p>";
    while (text.size() < target) {
      const int kind = static_cast<int>(rng.uniform_int(0, 99));
      if (kind < 70) {  // plain words
        word(text);
        text += ' ';
      } else if (kind < 84) {  // a link: <a href="urlNNN">anchor</a>
        if (static_cast<int>(inserted[d].size()) == P.cap) continue;
        int url = skewed_url();
        // 1 in 8 links is preceded by a stray '<' (the matcher must restart on it).
        text += rng.uniform_int(0, 7) == 0 ? "<<a href=\"url" : "<a href=\"url";
        text += std::to_string(url) + "\">";
        word(text);
        text += "</a> ";
        inserted[d].push_back(url);
      } else if (kind < 90) {  // plain tags
        static const char* const kTags[] = {"</p><p>", "<b>", "</b> ", "<i>", "</i> ", "<br> "};
        text += kTags[rng.uniform_int(0, 5)];
      } else {  // near misses, none of which is a link
        static const char* const kDecoys[] = {
            "<a href=\"http://w", "<a name=\"url", "<img src=\"url", "<a href=\"ur",
            "<a href=\"url\">", "<a  href=\"url", "<a href='url"};
        const int which = static_cast<int>(rng.uniform_int(0, 6));
        text += kDecoys[which];
        if (which != 4) {
          text += std::to_string(skewed_url());
          // A number ended by something other than a quote is no link either.
          text += rng.uniform_int(0, 1) ? "\">" : "x\">";
        }
        word(text);
        text += ' ';
      }
    }
    text += "</p></body></html>\n";
    doc_start.push_back(static_cast<uint32_t>(text.size()));
  }
  if (text.size() > 0xffffffffu) throw GenerateError("invindex: corpus exceeds 4 GiB");

  std::vector<int32_t> pairs(static_cast<std::size_t>(P.ndocs) * P.cap * 2, -1);
  std::vector<int32_t> counts(P.ndocs), url_count(P.nurls, 0);
  std::size_t links = 0;
  for (int d = 0; d < P.ndocs; ++d) {
    std::vector<int32_t> urls = invindex_parse(text, doc_start[d], doc_start[d + 1]);
    if (urls != inserted[d])
      throw GenerateError("invindex: the parsed links of document " + std::to_string(d) +
                          " differ from the inserted ones");
    counts[d] = static_cast<int32_t>(urls.size());
    for (std::size_t k = 0; k < urls.size(); ++k) {
      std::size_t slot = static_cast<std::size_t>(d) * P.cap + k;
      pairs[2 * slot] = urls[k];
      pairs[2 * slot + 1] = d;
      ++url_count[urls[k]];
    }
    links += urls.size();
  }
  std::vector<uint8_t> bytes(text.begin(), text.end());
  out.write("doc_start.bin", doc_start);
  out.write("text.bin", bytes);
  out.write("pairs_ref.bin", pairs);
  out.write("counts_ref.bin", counts);
  out.write("url_count_ref.bin", url_count);
  std::printf("invindex: %d documents, %zu bytes of text, %zu links, hottest url %d links\n",
              P.ndocs, text.size(), links, *std::max_element(url_count.begin(), url_count.end()));
}
GPUTLM_WORKLOAD("invindex",
                "LAWS/MARS Inverted Index: per-document byte scans for links, then url counts",
                gen_invindex);

// --- cfd: unstructured finite-volume Rusanov fluxes, Rodinia CFD shaped (workloads/cfd) ---

struct CfdParams {
  int nx, ny, nz;  // the cells form an nx x ny x nz grid before renumbering
  int window;      // cells are shuffled within windows of this many Morton-ordered cells
  int iterations;  // cfd_flux + cfd_time_step pairs
};

CfdParams cfd_params(Size size) {
  if (size == Size::kSmall) return {16, 16, 8, 256, 2};
  return {40, 32, 32, 256, 2};
}

constexpr float kCfdDt = 0.02f;
constexpr float kCfdGamma = 1.4f, kCfdGammaMinus1 = 0.4f;

// The kernel's State and arithmetic, operation for operation (each line one IEEE-rounded
// float operation, std::fma where the kernel has __fmaf_rn). a * b + c must not be
// contracted into an fma here: x86-64 without -mfma cannot, and the pragmas below forbid it
// on hosts with fma instructions (GCC contracts by default in GNU mode).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
struct CfdState {
  float rho, mx, my, mz, e, vx, vy, vz, p, c;
};

CfdState cfd_state(const std::vector<float>& vars, int n, int cell) {
  CfdState s;
  s.rho = vars[cell];
  s.mx = vars[static_cast<std::size_t>(n) + cell];
  s.my = vars[2 * static_cast<std::size_t>(n) + cell];
  s.mz = vars[3 * static_cast<std::size_t>(n) + cell];
  s.e = vars[4 * static_cast<std::size_t>(n) + cell];
  s.vx = s.mx / s.rho;
  s.vy = s.my / s.rho;
  s.vz = s.mz / s.rho;
  float speed_sqd = s.vx * s.vx;
  speed_sqd = std::fma(s.vy, s.vy, speed_sqd);
  speed_sqd = std::fma(s.vz, s.vz, speed_sqd);
  float kinetic = (0.5f * s.rho) * speed_sqd;
  s.p = kCfdGammaMinus1 * (s.e - kinetic);
  s.c = std::sqrt((kCfdGamma * s.p) / s.rho);
  return s;
}

float cfd_vn(const CfdState& s, float nx, float ny, float nz) {
  float vn = s.vx * nx;
  vn = std::fma(s.vy, ny, vn);
  return std::fma(s.vz, nz, vn);
}

float cfd_rusanov_add(float acc, float fi, float fj, float ui, float uj, float lambda) {
  float s = std::fma(-lambda, uj - ui, fi + fj);
  return std::fma(-0.5f, s, acc);
}

// Morton code of (x, y, z): bit b of x, y, z lands at 3b, 3b+1, 3b+2.
uint64_t cfd_morton(uint32_t x, uint32_t y, uint32_t z) {
  uint64_t code = 0;
  for (int b = 0; b < 21; ++b)
    code |= ((uint64_t{x} >> b & 1) << (3 * b)) | ((uint64_t{y} >> b & 1) << (3 * b + 1)) |
            ((uint64_t{z} >> b & 1) << (3 * b + 2));
  return code;
}

void gen_cfd(Size size, const OutDir& out) {
  const CfdParams P = cfd_params(size);
  const int n = P.nx * P.ny * P.nz;
  const std::size_t N = static_cast<std::size_t>(n);
  SplitMix64 rng(5201);

  // Renumbering: Morton order of the grid (locality-preserving), then a random shuffle
  // inside every window of P.window consecutive cells (irregular: a warp's neighbours are
  // spread over the lines of its whole window).
  auto grid_index = [&](int x, int y, int z) { return (z * P.ny + y) * P.nx + x; };
  std::vector<int> order(N);  // order[new id] = grid index
  std::iota(order.begin(), order.end(), 0);
  std::vector<uint64_t> code(N);
  for (int z = 0; z < P.nz; ++z)
    for (int y = 0; y < P.ny; ++y)
      for (int x = 0; x < P.nx; ++x) code[grid_index(x, y, z)] = cfd_morton(x, y, z);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return code[a] < code[b]; });
  for (std::size_t w = 0; w < N; w += P.window) {
    std::size_t end = std::min(N, w + P.window);
    for (std::size_t i = end - 1; i > w; --i)  // Fisher-Yates within the window
      std::swap(order[i], order[w + rng.uniform_int(0, static_cast<int64_t>(i - w))]);
  }
  std::vector<int> id_of(N);  // grid index -> new id
  for (std::size_t i = 0; i < N; ++i) id_of[order[i]] = static_cast<int>(i);

  // Faces: 0 = -x, 1 = +x, 2 = y and 3 = z, towards +y/+z when x+y+z is even and -y/-z
  // when odd (so the neighbour across face 2 or 3 has the opposite parity and points back:
  // the adjacency is symmetric, each cell has 4 faces, as a tetrahedral mesh's cells).
  // A face's normal is its axis times an area in [0.8, 1.2] plus tangential components in
  // [-0.15, 0.15]; the cell across an interior face stores the negated normal.
  std::vector<int32_t> nbr(4 * N);
  std::vector<float> normals(12 * N);
  std::vector<bool> done(4 * N, false);
  for (int z = 0; z < P.nz; ++z)
    for (int y = 0; y < P.ny; ++y)
      for (int x = 0; x < P.nx; ++x) {
        const int cell = id_of[grid_index(x, y, z)];
        const int s = (x + y + z) % 2 == 0 ? 1 : -1;
        const int dirs[4][3] = {{-1, 0, 0}, {1, 0, 0}, {0, s, 0}, {0, 0, s}};
        for (int f = 0; f < 4; ++f) {
          if (done[static_cast<std::size_t>(f) * N + cell]) continue;
          const int ox = x + dirs[f][0], oy = y + dirs[f][1], oz = z + dirs[f][2];
          const bool inside = ox >= 0 && ox < P.nx && oy >= 0 && oy < P.ny && oz >= 0 && oz < P.nz;
          const int other = inside ? id_of[grid_index(ox, oy, oz)] : -1;
          float nv[3];
          const float area = static_cast<float>(rng.uniform(0.8, 1.2));
          for (int k = 0; k < 3; ++k)
            nv[k] = dirs[f][k] != 0 ? static_cast<float>(dirs[f][k]) * area
                                    : static_cast<float>(rng.uniform(-0.15, 0.15));
          nbr[static_cast<std::size_t>(f) * N + cell] = other;
          for (int k = 0; k < 3; ++k) normals[static_cast<std::size_t>(f * 3 + k) * N + cell] = nv[k];
          done[static_cast<std::size_t>(f) * N + cell] = true;
          if (other >= 0) {  // the same face seen from the other cell: -x <-> +x, y <-> y, z <-> z
            const int g = f == 0 ? 1 : f == 1 ? 0 : f;
            nbr[static_cast<std::size_t>(g) * N + other] = cell;
            for (int k = 0; k < 3; ++k)
              normals[static_cast<std::size_t>(g * 3 + k) * N + other] = -nv[k];
            done[static_cast<std::size_t>(g) * N + other] = true;
          }
        }
      }

  // Initial state: density 0.9..1.1, velocity (0.5, 0.1, -0.1) +- 0.15, pressure
  // (1 +- 0.1) / gamma; energy density = p / (gamma - 1) + rho |v|^2 / 2.
  std::vector<float> vars(5 * N), inv_volume(N);
  for (std::size_t c = 0; c < N; ++c) {
    const double rho = rng.uniform(0.9, 1.1);
    const double v[3] = {0.5 + rng.uniform(-0.15, 0.15), 0.1 + rng.uniform(-0.15, 0.15),
                         -0.1 + rng.uniform(-0.15, 0.15)};
    const double p = rng.uniform(0.9, 1.1) / 1.4;
    vars[c] = static_cast<float>(rho);
    for (int k = 0; k < 3; ++k) vars[(1 + k) * N + c] = static_cast<float>(rho * v[k]);
    vars[4 * N + c] =
        static_cast<float>(p / 0.4 + 0.5 * rho * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    inv_volume[c] = static_cast<float>(1.0 / rng.uniform(0.8, 1.2));
  }
  out.write("nbr.bin", nbr);
  out.write("normals.bin", normals);
  out.write("vars.bin", vars);
  out.write("inv_volume.bin", inv_volume);

  std::vector<float> fluxes(5 * N);
  float min_p = 1e30f, min_rho = 1e30f;
  for (int it = 0; it < P.iterations; ++it) {
    for (int cell = 0; cell < n; ++cell) {  // cfd_flux
      const CfdState me = cfd_state(vars, n, cell);
      min_p = std::min(min_p, me.p);
      min_rho = std::min(min_rho, me.rho);
      float acc[5] = {0.f, 0.f, 0.f, 0.f, 0.f};
      for (int f = 0; f < 4; ++f) {
        const int other = nbr[static_cast<std::size_t>(f) * N + cell];
        const float nx = normals[static_cast<std::size_t>(f * 3 + 0) * N + cell];
        const float ny = normals[static_cast<std::size_t>(f * 3 + 1) * N + cell];
        const float nz = normals[static_cast<std::size_t>(f * 3 + 2) * N + cell];
        if (other >= 0) {
          const CfdState nb = cfd_state(vars, n, other);
          float nlen = nx * nx;
          nlen = std::fma(ny, ny, nlen);
          nlen = std::sqrt(std::fma(nz, nz, nlen));
          const float vn_i = cfd_vn(me, nx, ny, nz), vn_j = cfd_vn(nb, nx, ny, nz);
          const float lambda = std::max(std::fma(me.c, nlen, std::fabs(vn_i)),
                                        std::fma(nb.c, nlen, std::fabs(vn_j)));
          acc[0] = cfd_rusanov_add(acc[0], me.rho * vn_i, nb.rho * vn_j, me.rho, nb.rho, lambda);
          acc[1] = cfd_rusanov_add(acc[1], std::fma(me.mx, vn_i, me.p * nx),
                                   std::fma(nb.mx, vn_j, nb.p * nx), me.mx, nb.mx, lambda);
          acc[2] = cfd_rusanov_add(acc[2], std::fma(me.my, vn_i, me.p * ny),
                                   std::fma(nb.my, vn_j, nb.p * ny), me.my, nb.my, lambda);
          acc[3] = cfd_rusanov_add(acc[3], std::fma(me.mz, vn_i, me.p * nz),
                                   std::fma(nb.mz, vn_j, nb.p * nz), me.mz, nb.mz, lambda);
          acc[4] = cfd_rusanov_add(acc[4], (me.e + me.p) * vn_i, (nb.e + nb.p) * vn_j, me.e,
                                   nb.e, lambda);
        } else {
          acc[1] = std::fma(-me.p, nx, acc[1]);
          acc[2] = std::fma(-me.p, ny, acc[2]);
          acc[3] = std::fma(-me.p, nz, acc[3]);
        }
      }
      for (int v = 0; v < 5; ++v) fluxes[v * N + cell] = acc[v];
    }
    for (std::size_t cell = 0; cell < N; ++cell) {  // cfd_time_step
      const float factor = kCfdDt * inv_volume[cell];
      for (int v = 0; v < 5; ++v)
        vars[v * N + cell] = std::fma(factor, fluxes[v * N + cell], vars[v * N + cell]);
    }
  }
  // The flow must stay physical (positive density and pressure: no NaN from sqrtf).
  if (!(min_p > 0.f) || !(min_rho > 0.f))
    throw GenerateError("cfd: the state became unphysical (density or pressure <= 0)");
  out.write("vars_ref.bin", vars);
  out.write("fluxes_ref.bin", fluxes);
  std::size_t walls = 0;
  for (int32_t v : nbr) walls += v < 0;
  std::printf("cfd: %d cells (%dx%dx%d), %zu wall faces, %d iterations, min p %.3f, min rho %.3f\n",
              n, P.nx, P.ny, P.nz, walls, P.iterations, min_p, min_rho);
}
GPUTLM_WORKLOAD("cfd", "LAWS/Rodinia CFD: unstructured Rusanov fluxes and time steps", gen_cfd);

}  // namespace
}  // namespace gputlm::workloads
