// Workloads shaped like members of the Mascar paper's suite (002 Table III) the project
// lacked, memory side: mummer (Rodinia MUMmerGPU), sad (Parboil SAD), mrig (Parboil
// MRI-Gridding). The CPU references compute the kernels' results on their own (integer
// walks and sums; mrig's float kernel weights in the PTX's fma order, so the fixed-point
// grid is exact).
#include <algorithm>
#include <array>
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// --- mummer: suffix-tree walks of short reads (workloads/mummer) --------------------------
constexpr int kMmNodeInts = 8;  // child[A,C,G,T], edge start, edge length, leaf suffix, 0
constexpr uint8_t kMmTerminator = 4;

// A suffix tree of s (codes 0..3, ending in the unique terminator 4) built by inserting
// every suffix naively: walk down while the suffix matches, split the edge where it stops
// and hang a leaf there. O(n * depth); random DNA keeps the depth near log4(n).
struct SuffixTree {
  struct Node {
    std::array<int32_t, 5> child;  // A, C, G, T, terminator
    int32_t start, len, suffix;
  };
  std::vector<Node> nodes;

  int32_t add(int32_t start, int32_t len, int32_t suffix) {
    Node nd{};
    nd.child.fill(-1);
    nd.start = start;
    nd.len = len;
    nd.suffix = suffix;
    nodes.push_back(nd);
    return static_cast<int32_t>(nodes.size() - 1);
  }

  explicit SuffixTree(const std::vector<uint8_t>& s) {
    const int32_t n = static_cast<int32_t>(s.size());
    add(0, 0, -1);  // root
    for (int32_t i = 0; i < n; ++i) {
      int32_t node = 0, pos = i;
      for (;;) {
        int32_t ch = nodes[node].child[s[pos]];
        if (ch < 0) {
          int32_t leaf = add(pos, n - pos, i);
          nodes[node].child[s[pos]] = leaf;
          break;
        }
        int32_t k = 1;
        while (k < nodes[ch].len && s[nodes[ch].start + k] == s[pos + k]) ++k;
        if (k == nodes[ch].len) {  // the whole edge matched: go down
          node = ch;
          pos += k;
          continue;
        }
        int32_t mid = add(nodes[ch].start, k, -1);  // split the edge after k characters
        nodes[mid].child[s[nodes[ch].start + k]] = ch;
        nodes[ch].start += k;
        nodes[ch].len -= k;
        nodes[node].child[s[pos]] = mid;
        int32_t leaf = add(pos + k, n - pos - k, i);
        nodes[mid].child[s[pos + k]] = leaf;
        break;
      }
    }
  }
};

void gen_mummer(Size size, const OutDir& out) {
  // Small: the tree (13k nodes, 0.4 MB) fits the 768 KB L2; medium's (426k nodes, 13.6 MB) does not.
  const int ref_len = size == Size::kSmall ? 8192 : 262144;
  const int nreads = size == Size::kSmall ? 960 : 9600;
  const int read_len = 18, min_match = 14, npos = read_len - min_match + 1;
  SplitMix64 rng(4101);
  std::vector<uint8_t> ref(ref_len + 1);
  for (int i = 0; i < ref_len; ++i) ref[i] = static_cast<uint8_t>(rng.uniform_int(0, 3));
  ref[ref_len] = kMmTerminator;
  SuffixTree tree(ref);
  std::vector<int32_t> nodes(tree.nodes.size() * kMmNodeInts, 0);
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const auto& nd = tree.nodes[i];
    int32_t* p = &nodes[i * kMmNodeInts];
    for (int c = 0; c < 4; ++c) p[c] = nd.child[c];
    p[4] = nd.start;
    p[5] = nd.len;
    p[6] = nd.suffix;
  }
  // Reads: 7 in 8 copied from the reference with a 1-in-16 substitution rate (matches
  // run until the next error), the rest random (matches stop after a few levels).
  std::vector<uint8_t> reads(static_cast<std::size_t>(nreads) * read_len);
  for (int r = 0; r < nreads; ++r) {
    uint8_t* rd = &reads[static_cast<std::size_t>(r) * read_len];
    bool from_ref = rng.uniform_int(0, 7) != 0;
    int at = static_cast<int>(rng.uniform_int(0, ref_len - read_len));
    for (int k = 0; k < read_len; ++k) {
      uint8_t c = from_ref ? ref[at + k] : static_cast<uint8_t>(rng.uniform_int(0, 3));
      if (from_ref && rng.uniform_int(0, 15) == 0) c = static_cast<uint8_t>((c + rng.uniform_int(1, 3)) & 3);
      rd[k] = c;
    }
  }
  std::vector<int32_t> len_ref(static_cast<std::size_t>(nreads) * npos), node_ref(len_ref.size());
  for (int r = 0; r < nreads; ++r) {
    const uint8_t* rd = &reads[static_cast<std::size_t>(r) * read_len];
    for (int qs = 0; qs < npos; ++qs) {
      int node = 0, matched = 0;
      while (qs + matched < read_len) {
        int child = nodes[node * kMmNodeInts + rd[qs + matched]];
        if (child < 0) break;
        int start = nodes[child * kMmNodeInts + 4], len = nodes[child * kMmNodeInts + 5];
        int k = 1;
        while (k < len && qs + matched + k < read_len && ref[start + k] == rd[qs + matched + k]) ++k;
        matched += k;
        node = child;
        if (k < len) break;
      }
      len_ref[static_cast<std::size_t>(r) * npos + qs] = matched;
      node_ref[static_cast<std::size_t>(r) * npos + qs] = node;
    }
  }
  // The walks' lengths must be the longest prefixes of the read's suffixes that occur in
  // the reference: the tree is this file's own construction, so check it by brute force
  // (small input only; the medium one would take minutes).
  if (size == Size::kSmall)
    for (int r = 0; r < nreads; ++r)
      for (int qs = 0; qs < npos; ++qs) {
        const uint8_t* q = &reads[static_cast<std::size_t>(r) * read_len + qs];
        int best = 0;
        for (int at = 0; at < ref_len && best < read_len - qs; ++at) {
          int k = 0;
          while (k < read_len - qs && at + k < ref_len && ref[at + k] == q[k]) ++k;
          best = std::max(best, k);
        }
        if (best != len_ref[static_cast<std::size_t>(r) * npos + qs])
          throw GenerateError("mummer: the suffix tree walk disagrees with a brute-force search");
      }
  out.write("nodes.bin", nodes);
  out.write("ref.bin", ref);
  out.write("reads.bin", reads);
  out.write("match_len_ref.bin", len_ref);
  out.write("match_node_ref.bin", node_ref);
  std::printf("mummer: reference %d, %zu nodes, %d reads of %d\n", ref_len, tree.nodes.size(), nreads,
              read_len);
}
GPUTLM_WORKLOAD("mummer", "Mascar/Rodinia MUMmerGPU: per-read suffix-tree walks (pointer chasing)",
                gen_mummer);

// --- sad: 4x4 SADs over a +-16 window, then 8x8/8x4/4x8 sums (workloads/sad) ---------------
constexpr int kSadRange = 16, kSadDim = 33, kSadMaxPos = 1089, kSadPadded = 1096;

void gen_sad(Size size, const OutDir& out) {
  const int mbw = size == Size::kSmall ? 2 : 8, mbh = size == Size::kSmall ? 2 : 5;
  const int w = mbw * 16, h = mbh * 16, nmb = mbw * mbh;
  SplitMix64 rng(4201);
  // Reference frame: a 4x4 box blur of random bytes (smooth enough that SADs vary); the
  // current frame is it moved by (3, -2) pixels with +-4 of noise.
  std::vector<int> raw(static_cast<std::size_t>(w + 3) * (h + 3));
  for (auto& v : raw) v = static_cast<int>(rng.uniform_int(0, 255));
  std::vector<uint16_t> ref(static_cast<std::size_t>(w) * h), frame(ref.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int s = 0;
      for (int dy = 0; dy < 4; ++dy)
        for (int dx = 0; dx < 4; ++dx) s += raw[static_cast<std::size_t>(y + dy) * (w + 3) + x + dx];
      ref[static_cast<std::size_t>(y) * w + x] = static_cast<uint16_t>(s / 16);
    }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int sx = std::clamp(x + 3, 0, w - 1), sy = std::clamp(y - 2, 0, h - 1);
      int v = ref[static_cast<std::size_t>(sy) * w + sx] + static_cast<int>(rng.uniform_int(-4, 4));
      frame[static_cast<std::size_t>(y) * w + x] = static_cast<uint16_t>(std::clamp(v, 0, 255));
    }
  // sad4: row (mb * 16 + 4 * by + bx), one entry per search position, padding 0.
  std::vector<uint16_t> sad4(static_cast<std::size_t>(nmb) * 16 * kSadPadded, 0);
  for (int fy = 0; fy < h; fy += 4)
    for (int fx = 0; fx < w; fx += 4) {
      int mb = (fy / 16) * mbw + fx / 16, blk = ((fy / 4) & 3) * 4 + ((fx / 4) & 3);
      uint16_t* row = &sad4[static_cast<std::size_t>(mb * 16 + blk) * kSadPadded];
      for (int pos = 0; pos < kSadMaxPos; ++pos) {
        int ox = fx - kSadRange + pos % kSadDim, oy = fy - kSadRange + pos / kSadDim;
        int s = 0;
        for (int y = 0; y < 4; ++y)
          for (int x = 0; x < 4; ++x) {
            int sx = std::clamp(ox + x, 0, w - 1), sy = std::clamp(oy + y, 0, h - 1);
            s += std::abs(ref[static_cast<std::size_t>(sy) * w + sx] -
                          frame[static_cast<std::size_t>(fy + y) * w + fx + x]);
          }
        row[pos] = static_cast<uint16_t>(s);
      }
    }
  // The larger blocks: sums of 4x4 rows; positions 0..1089 (the kernel adds u16 pairs, so
  // it also writes the first padding entry, 0 + 0), the rest stays 0.
  std::vector<uint16_t> s88(static_cast<std::size_t>(nmb) * 4 * kSadPadded, 0),
      s84(static_cast<std::size_t>(nmb) * 8 * kSadPadded, 0), s48(s84.size(), 0);
  auto r4 = [&](int mb, int blk) { return &sad4[static_cast<std::size_t>(mb * 16 + blk) * kSadPadded]; };
  for (int mb = 0; mb < nmb; ++mb)
    for (int by = 0; by < 4; ++by)
      for (int bx = 0; bx < 4; ++bx) {
        const uint16_t* a = r4(mb, by * 4 + bx);
        for (int pos = 0; pos <= kSadMaxPos; ++pos) {
          // 8x4 row by, column bx/2; 4x8 row by/2, column bx; 8x8 (by/2, bx/2).
          s84[static_cast<std::size_t>(mb * 8 + by * 2 + bx / 2) * kSadPadded + pos] += a[pos];
          s48[static_cast<std::size_t>(mb * 8 + (by / 2) * 4 + bx) * kSadPadded + pos] += a[pos];
          s88[static_cast<std::size_t>(mb * 4 + (by / 2) * 2 + bx / 2) * kSadPadded + pos] += a[pos];
        }
      }
  out.write("frame.bin", frame);
  out.write("ref.bin", ref);
  out.write("sad4_ref.bin", sad4);
  out.write("sad8x8_ref.bin", s88);
  out.write("sad8x4_ref.bin", s84);
  out.write("sad4x8_ref.bin", s48);
  std::printf("sad: %dx%d pixels, %d macroblocks, %d 4x4 blocks\n", w, h, nmb, nmb * 16);
}
GPUTLM_WORKLOAD("sad", "Mascar/Parboil SAD: 4x4 SADs over a +-16 window, then 8x8/8x4/4x8 sums", gen_sad);

// --- mrig: binning, scan, reorder, gridding (workloads/mrig) --------------------------------
struct MrigSample {
  float real, imag, kx, ky, kz, sdc;
};

// The kernel's weight of a sample at squared distance v, in the PTX's operation order.
float mrig_weight(float v, float beta, float sdc) {
  float t = std::sqrt(std::fma(v, -0.16f, 1.0f)) * beta;
  float z = t * t;
  static const float kNum[] = {0.3807e-19f, 0.4799e-16f, 0.4351e-13f, 0.3009e-10f, 0.1602e-7f,
                               0.6548e-5f,  0.2025e-2f,  0.4630e0f,   0.7543e2f,   0.8307e4f,
                               0.5716e6f,   0.2164e8f,   0.3566e9f,   0.1440e10f};
  float num = 0.2105e-22f;
  for (float c : kNum) num = std::fma(z, num, c);
  float den = std::fma(z, std::fma(z, z - 0.307646912682801e4f, 0.347626332405882e7f), -0.144e10f);
  return sdc * (-num / den);
}

void gen_mrig(Size size, const OutDir& out) {
  const int gx = 64, gy = size == Size::kSmall ? 16 : 32, gz = size == Size::kSmall ? 4 : 16;
  const int n = size == Size::kSmall ? 192 : 2048;
  const float beta = 4.0f;
  const int nbins = gx * gy * gz;
  SplitMix64 rng(4301);
  // k-space samples crowd the centre (as radial/spiral trajectories do): each coordinate
  // is the mean of two uniforms a quarter of the time, uniform otherwise; 1 in 32 has
  // value 0 (the kernel skips it).
  std::vector<MrigSample> samples(n);
  auto coord = [&](int g) {
    double u = rng.uniform(0, 1);
    if (rng.uniform_int(0, 3) == 0) u = 0.5 * (u + rng.uniform(0, 1));
    // u * g may round up to g in float: keep the sample inside the grid.
    return std::min(static_cast<float>(u * g), std::nextafter(static_cast<float>(g), 0.0f));
  };
  for (auto& s : samples) {
    bool zero = rng.uniform_int(0, 31) == 0;
    s.real = zero ? 0.0f : static_cast<float>(rng.uniform(-1, 1));
    s.imag = zero ? 0.0f : static_cast<float>(rng.uniform(-1, 1));
    s.kx = coord(gx);
    s.ky = coord(gy);
    s.kz = coord(gz);
    s.sdc = static_cast<float>(rng.uniform(0.25, 1));
  }
  std::vector<uint32_t> count(nbins, 0);
  for (const auto& s : samples)
    ++count[(static_cast<uint32_t>(s.kz) * gy + static_cast<uint32_t>(s.ky)) * gx +
            static_cast<uint32_t>(s.kx)];
  std::vector<uint32_t> start(nbins + 1, 0);
  for (int b = 0; b < nbins; ++b) start[b + 1] = start[b] + count[b];
  // Gridding: the same cells as the kernel's tile search reach every sample within the
  // cutoff, so a direct search over the cutoff's bounding box gives the same sums.
  std::vector<int32_t> grid(static_cast<std::size_t>(nbins) * 2, 0);
  std::vector<int64_t> magnitude(grid.size(), 0);  // sum of |terms|: the kernel's sums never wrap
  std::vector<uint32_t> density(nbins, 0);
  for (const auto& s : samples) {
    if (!((s.real != 0.0f || s.imag != 0.0f) && s.sdc != 0.0f)) continue;
    const int cx = static_cast<int>(s.kx), cy = static_cast<int>(s.ky), cz = static_cast<int>(s.kz);
    for (int Z = std::max(0, cz - 3); Z <= std::min(gz - 1, cz + 3); ++Z)
      for (int Y = std::max(0, cy - 3); Y <= std::min(gy - 1, cy + 3); ++Y)
        for (int X = std::max(0, cx - 3); X <= std::min(gx - 1, cx + 3); ++X) {
          float dx = s.kx - static_cast<float>(X), dy = s.ky - static_cast<float>(Y);
          float dz = s.kz - static_cast<float>(Z);
          float v = std::fma(dz, dz, std::fma(dx, dx, dy * dy));
          if (!(v < 6.25f)) continue;
          float w = mrig_weight(v, beta, s.sdc);
          std::size_t idx = (static_cast<std::size_t>(Z) * gy + Y) * gx + X;
          int32_t re = static_cast<int32_t>(std::nearbyint(s.real * w * 65536.0f));
          int32_t im = static_cast<int32_t>(std::nearbyint(s.imag * w * 65536.0f));
          grid[2 * idx] += re;
          grid[2 * idx + 1] += im;
          magnitude[2 * idx] += std::abs(re);
          magnitude[2 * idx + 1] += std::abs(im);
          ++density[idx];
        }
  }
  if (*std::max_element(magnitude.begin(), magnitude.end()) >= (int64_t{1} << 31))
    throw GenerateError("mrig: a grid point's 16.16 sum could overflow int32");
  out.write("samples.bin", samples);
  out.write("bin_count_ref.bin", count);
  out.write("bin_start_ref.bin", start);
  out.write("grid_ref.bin", grid);
  out.write("density_ref.bin", density);
  std::printf("mrig: %dx%dx%d grid, %d samples, max %u per bin, max density %u\n", gx, gy, gz, n,
              *std::max_element(count.begin(), count.end()),
              *std::max_element(density.begin(), density.end()));
}
GPUTLM_WORKLOAD("mrig", "Mascar/Parboil MRI-Gridding: atomic binning, scan, reorder, KB gridding", gen_mrig);

}  // namespace
}  // namespace gputlm::workloads
