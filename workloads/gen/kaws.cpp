// Workloads shaped like members of the KAWS paper's suite (003 Table 2) the project lacked:
// pathfinder (Rodinia PathFinder), quasirandom (CUDA SDK quasirandomGenerator), conv3d
// (Polybench-GPU 3DConvolution), mm3 (Polybench-GPU 3MM) and resnet (a small ResNet-like
// stack after Tango's ResNet); see docs/workloads.md. Each CPU reference repeats its
// kernel's arithmetic in the PTX's order (std::fma where the PTX has fma.rn, separate
// rounded operations where it does not), so every output but quasirandom's normals is
// exact. The launch lists of the specs (workloads/<name>/spec_*.json) follow the parameter
// structs below.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// No a * b + c below may become an fma: x86-64 without -mfma cannot contract, and the
// pragmas forbid it on hosts that can (GCC contracts by default in GNU mode).
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

// --- pathfinder (workloads/pathfinder) ----------------------------------------------------
struct PfParams {
  int cols, rows, pyramid;  // launches = ceil((rows - 1) / pyramid); CTAs = ceil(cols / (256 - 2 pyramid))
};
// Rodinia's run `pathfinder 100000 100 20`: 463 CTAs of 256, 5 launches (003 Table 2: PF
// 5 kernels x 463 CTAs).
constexpr PfParams kPfSmall{2000, 51, 20};     // 10 CTAs, 3 launches (20, 20, 10 rows)
constexpr PfParams kPfMedium{100000, 100, 20};  // 463 CTAs, 5 launches (20, 20, 20, 20, 19 rows)

void gen_pathfinder(Size size, const OutDir& out) {
  const PfParams& z = size == Size::kSmall ? kPfSmall : kPfMedium;
  const std::size_t cols = static_cast<std::size_t>(z.cols);
  SplitMix64 rng(5101);
  std::vector<int32_t> grid(cols * z.rows);
  for (auto& v : grid) v = static_cast<int32_t>(rng.uniform_int(0, 9));  // Rodinia: rand() % 10
  std::vector<int32_t> row0(grid.begin(), grid.begin() + cols);
  std::vector<int32_t> wall(grid.begin() + cols, grid.end());  // rows 1 .. rows-1
  out.write("row0.bin", row0);
  out.write("wall.bin", wall);
  // The plain row-by-row recurrence; the launches' pyramids compute the same integers.
  // Launch k reads buffer k % 2 (r0, r1) and writes the other; r0 starts as row 0.
  std::vector<int32_t> buf[2] = {row0, std::vector<int32_t>(cols, 0)};
  int src = 0;
  for (int t = 0; t < z.rows - 1; t += z.pyramid) {
    const int iteration = std::min(z.pyramid, z.rows - 1 - t);
    std::vector<int32_t> cur = buf[src], next(cols);
    for (int i = 0; i < iteration; ++i) {
      const int32_t* w = &wall[static_cast<std::size_t>(t + i) * cols];
      for (std::size_t x = 0; x < cols; ++x) {
        int32_t left = cur[x == 0 ? 0 : x - 1], up = cur[x], right = cur[x + 1 == cols ? x : x + 1];
        next[x] = std::min(std::min(left, up), right) + w[x];
      }
      std::swap(cur, next);
    }
    buf[1 - src] = cur;
    src = 1 - src;
  }
  out.write("r0_ref.bin", buf[0]);
  out.write("r1_ref.bin", buf[1]);
}
GPUTLM_WORKLOAD("pathfinder", "KAWS/Rodinia PathFinder: row DP, shared pyramid + halo, barriers",
                gen_pathfinder);

// --- quasirandom (workloads/quasirandom) ---------------------------------------------------
constexpr int kQrDims = 3, kQrBits = 31;

struct QrParams {
  unsigned n;        // points per dimension per qrng_generate launch
  int launches;      // qrng_generate launches, then as many qrng_inverse_cnd launches
  int gen_ctas;      // qrng_generate grid (CTAs of 128 x 3)
  int icnd_ctas;     // qrng_inverse_cnd grid (CTAs of 128)
};
// The SDK runs 21 + 21 launches (a warm-up and 20 timed, of each kernel) of 128 CTAs on
// 2^20 points per dimension (003 Table 2: QRG 42 kernels x 128 CTAs); medium keeps the
// launches and grids with 2^16 points per launch (4 per generating thread, 12 per
// inverse-CND thread) for the host-time budget (2^15: 27 s on the GTX480 config).
constexpr QrParams kQrSmall{4096, 2, 16, 16};
constexpr QrParams kQrMedium{65536, 21, 128, 128};

// GF(2) polynomials as bit masks (bit d: coefficient of x^d).
int gf2_degree(uint64_t p) {
  int d = -1;
  for (; p; p >>= 1) ++d;
  return d;
}
uint64_t gf2_mod(uint64_t a, uint64_t b) {
  const int db = gf2_degree(b);
  for (int da = gf2_degree(a); da >= db; da = gf2_degree(a)) a ^= b << (da - db);
  return a;
}
uint64_t gf2_mul(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  for (; b; b >>= 1, a <<= 1)
    if (b & 1) r ^= a;
  return r;
}

// The direction numbers of Niederreiter's base-2 sequence (Bratley, Fox and Niederreiter,
// ACM TOMACS 2(3) 1992), built as the SDK builds its table: dimension d uses the d-th
// irreducible polynomial p over GF(2) (x, x + 1, x^2 + x + 1, ...) of degree e. Output digit
// r (0 the most significant) is r = Q e + u; b = p^(Q+1) of degree m; the sequence v has
// v[t] = 0 for t < m - e, 1 for m - e <= t < m, and v[t] = XOR_{s=1..m} b_(m-s) v[t-s]
// beyond; the generator matrix entry for digit r and index bit i is v[i + u].
// table[d][i] holds column i as a 31-bit number (digit r at bit 30 - r).
std::vector<uint32_t> niederreiter_table() {
  std::vector<uint32_t> polys;
  for (uint32_t p = 2; static_cast<int>(polys.size()) < kQrDims; ++p) {
    bool irreducible = true;
    for (uint32_t q : polys)
      if (gf2_degree(q) < gf2_degree(p) && gf2_mod(p, q) == 0) irreducible = false;
    if (irreducible) polys.push_back(p);
  }
  std::vector<uint32_t> table(kQrDims * kQrBits, 0);
  for (int d = 0; d < kQrDims; ++d) {
    const int e = gf2_degree(polys[d]);
    uint64_t b = 1;
    std::vector<int> v;
    for (int r = 0; r < kQrBits; ++r) {
      const int u = r % e;
      if (u == 0) {  // next power of p
        b = gf2_mul(b, polys[d]);
        const int m = gf2_degree(b);  // up to 32 (e = 2, Q = 15)
        v.assign(kQrBits + e, 0);
        for (int t = m - e; t < m && t < static_cast<int>(v.size()); ++t) v[t] = 1;
        for (int t = m; t < static_cast<int>(v.size()); ++t)
          for (int s = 1; s <= m; ++s) v[t] ^= static_cast<int>((b >> (m - s)) & 1) & v[t - s];
      }
      for (int i = 0; i < kQrBits; ++i)
        if (v[i + u]) table[d * kQrBits + i] |= 1u << (kQrBits - 1 - r);
    }
  }
  // Dimension 0 (p = x) is van der Corput's: column i is digit i.
  for (int i = 0; i < kQrBits; ++i)
    if (table[i] != 1u << (kQrBits - 1 - i)) throw GenerateError("quasirandom: bad dimension-0 table");
  // Every dimension's generator matrix is invertible over GF(2) (Gaussian elimination).
  for (int d = 0; d < kQrDims; ++d) {
    std::vector<uint32_t> col(table.begin() + d * kQrBits, table.begin() + (d + 1) * kQrBits);
    int rank = 0;
    for (int bit = kQrBits - 1; bit >= 0; --bit) {
      auto it = std::find_if(col.begin() + rank, col.end(), [&](uint32_t c) { return (c >> bit) & 1; });
      if (it == col.end()) continue;
      std::swap(*it, col[rank]);
      for (int k = 0; k < kQrBits; ++k)
        if (k != rank && ((col[k] >> bit) & 1)) col[k] ^= col[rank];
      ++rank;
    }
    if (rank != kQrBits) throw GenerateError("quasirandom: singular generator matrix");
  }
  return table;
}

// The kernel's moro_inv_cnd in the PTX's order; lg2 stands for lg2.approx.f32.
template <class Lg2>
float moro_inv_cnd(float p, Lg2 lg2) {
  const float a1 = 2.50662823884f, a2 = -18.61500062529f, a3 = 41.39119773534f,
              a4 = -25.44106049637f;
  const float b1 = -8.4735109309f, b2 = 23.08336743743f, b3 = -21.06224101826f,
              b4 = 3.13082909833f;
  const float c1 = 0.337475482272615f, c2 = 0.976169019091719f, c3 = 0.160797971491821f,
              c4 = 2.76438810333863E-02f, c5 = 3.8405729373609E-03f, c6 = 3.951896511919E-04f,
              c7 = 3.21767881768E-05f, c8 = 2.888167364E-07f, c9 = 3.960315187E-07f;
  const float y = p + -0.5f;
  if (std::fabs(y) < 0.42f) {
    const float z = y * y;
    const float num = y * std::fma(z, std::fma(z, std::fma(z, a4, a3), a2), a1);
    const float den = std::fma(z, std::fma(z, std::fma(z, std::fma(z, b4, b3), b2), b1), 1.0f);
    return num / den;
  }
  const float q = y > 0 ? 1.0f - p : p;
  const float nlog = lg2(q) * -0.693147182f;  // -__logf(q): lg2.approx, times -ln 2
  const float z = lg2(nlog) * 0.693147182f;   // __logf(...)
  float s = std::fma(z, c9, c8);
  s = std::fma(z, s, c7);
  s = std::fma(z, s, c6);
  s = std::fma(z, s, c5);
  s = std::fma(z, s, c4);
  s = std::fma(z, s, c3);
  s = std::fma(z, s, c2);
  s = std::fma(z, s, c1);
  return y < 0 ? -s : s;
}

// Tolerance of the normals (the specs repeat it). Only lg2.approx is not exactly rounded:
// PTX bounds its error by 2^-22 (absolute, in log2 units); the generator recomputes every
// tail sample with both lg2 results moved by -2^-21, 0 and +2^-21 (twice the bound) and
// requires each difference to stay within half of this tolerance.
constexpr float kQrRtol = 2e-6f, kQrAtol = 2e-6f;

void gen_quasirandom(Size size, const OutDir& out) {
  const QrParams& z = size == Size::kSmall ? kQrSmall : kQrMedium;
  const std::vector<uint32_t> table = niederreiter_table();
  out.write("table.bin", table);
  const std::size_t total = static_cast<std::size_t>(z.n) * z.launches;  // points per dimension
  std::vector<float> q(kQrDims * total), normal(kQrDims * total);
  for (int d = 0; d < kQrDims; ++d)
    for (std::size_t idx = 0; idx < total; ++idx) {  // launch idx / n, seed (idx / n) * n
      uint32_t result = 0, data = static_cast<uint32_t>(idx);
      for (int bit = 0; bit < kQrBits; ++bit, data >>= 1)
        if (data & 1) result ^= table[d * kQrBits + bit];
      q[d * total + idx] = static_cast<float>(result + 1) * 0x1p-31f;  // INT_SCALE = 2^-31
    }
  auto exact_lg2 = [](float x) { return std::log2(x); };
  double worst = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    normal[i] = moro_inv_cnd(q[i], exact_lg2);
    for (float d1 : {-0x1p-21f, 0.f, 0x1p-21f})
      for (float d2 : {-0x1p-21f, 0.f, 0x1p-21f}) {
        int call = 0;
        float moved = moro_inv_cnd(q[i], [&](float x) { return std::log2(x) + (call++ == 0 ? d1 : d2); });
        if (std::isinf(normal[i])) continue;
        worst = std::max(worst, std::fabs(double(moved) - double(normal[i])) /
                                    (double(kQrAtol) + double(kQrRtol) * std::fabs(double(normal[i]))));
      }
  }
  if (worst > 0.5)
    throw GenerateError("quasirandom: lg2.approx's error bound uses " + std::to_string(worst) +
                        " of the normals' tolerance (at most 0.5)");
  out.write("q_ref.bin", q);
  out.write("normal_ref.bin", normal);
}
GPUTLM_WORKLOAD("quasirandom", "KAWS/SDK quasirandomGenerator: Niederreiter + Moro inverse CND",
                gen_quasirandom);

// --- conv3d (workloads/conv3d) --------------------------------------------------------------
struct C3Params {
  int ni, nj, nk;  // ni - 2 launches, each (nk / 32) x (nj / 8) CTAs of 32 x 8
};
// Polybench's 256^3 is 254 launches of 256 CTAs (003 Table 2: 3DCV 254 x 256), ~210 s of
// host time on the GTX480 config (16 launches: 333k cycles, 13 s); medium keeps the 256 x 256
// planes (256 CTAs per launch) and half the planes: ni = 130, 128 launches.
constexpr C3Params kC3Small{6, 32, 64};       // 4 launches of 8 CTAs
constexpr C3Params kC3Medium{130, 256, 256};

void gen_conv3d(Size size, const OutDir& out) {
  const C3Params& z = size == Size::kSmall ? kC3Small : kC3Medium;
  const std::size_t nk = z.nk, p = static_cast<std::size_t>(z.nj) * z.nk;
  std::vector<float> a = random_f32(5301, p * z.ni, -1, 1), b(a.size(), 0.f);
  out.write("a.bin", a);
  const float c11 = +2, c21 = +5, c31 = -8, c12 = -3, c22 = +6, c32 = -9, c13 = +4, c23 = +7,
              c33 = +10;
  for (int i = 1; i < z.ni - 1; ++i)
    for (int j = 1; j < z.nj - 1; ++j)
      for (int k = 1; k < z.nk - 1; ++k) {
        auto at = [&](int ii, int jj, int kk) { return a[ii * p + jj * nk + kk]; };
        const float m1 = at(i - 1, j - 1, k - 1), p1 = at(i + 1, j - 1, k - 1);
        // The PTX: the first two terms as mul + fma, `- 8 * a` as mul + sub, the rest fma.
        float acc = std::fma(m1, c11, p1 * c13);
        acc = std::fma(m1, c21, acc);
        acc = std::fma(p1, c23, acc);
        acc = acc - m1 * -c31;
        acc = std::fma(p1, c33, acc);
        acc = std::fma(at(i, j - 1, k), c12, acc);
        acc = std::fma(at(i, j, k), c22, acc);
        acc = std::fma(at(i, j + 1, k), c32, acc);
        acc = std::fma(at(i - 1, j - 1, k + 1), c11, acc);
        acc = std::fma(at(i + 1, j - 1, k + 1), c13, acc);
        acc = std::fma(at(i - 1, j, k + 1), c21, acc);
        acc = std::fma(at(i + 1, j, k + 1), c23, acc);
        acc = acc - at(i - 1, j + 1, k + 1) * -c31;
        acc = std::fma(at(i + 1, j + 1, k + 1), c33, acc);
        b[i * p + j * nk + k] = acc;
      }
  out.write("b_ref.bin", b);
}
GPUTLM_WORKLOAD("conv3d", "KAWS/Polybench 3DConvolution: one launch per i-plane, 32x8 CTAs",
                gen_conv3d);

// --- mm3 (workloads/mm3) ---------------------------------------------------------------------
struct Mm3Params {
  int ni, nj, nk, nl, nm;  // E = A (ni x nk) B (nk x nj), F = C (nj x nm) D (nm x nl), G = E F
};
// Polybench's 512 (003 Table 2: 3MM 3 x 1024 CTAs) is 8x medium's work (84 M warp
// instructions, ~6 min of host time on the GTX480 config; 256: 10.5 M, 44 s), so medium
// is 256: 3 launches of 256 CTAs.
constexpr Mm3Params kMm3Small{64, 64, 32, 64, 32};  // 16 CTAs of 32 x 8 per launch
constexpr Mm3Params kMm3Medium{256, 256, 256, 256, 256};

// c (rows x cols) = a (rows x inner) * b (inner x cols), summed by fma in k order from 0.
std::vector<float> mm3_multiply(int rows, int cols, int inner, const std::vector<float>& a,
                                const std::vector<float>& b) {
  std::vector<float> c(static_cast<std::size_t>(rows) * cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      float acc = 0.f;
      for (int k = 0; k < inner; ++k)
        acc = std::fma(a[static_cast<std::size_t>(i) * inner + k], b[static_cast<std::size_t>(k) * cols + j], acc);
      c[static_cast<std::size_t>(i) * cols + j] = acc;
    }
  return c;
}

void gen_mm3(Size size, const OutDir& out) {
  const Mm3Params& z = size == Size::kSmall ? kMm3Small : kMm3Medium;
  auto n = [](int r, int c) { return static_cast<std::size_t>(r) * c; };
  auto a = random_f32(5401, n(z.ni, z.nk), -1, 1), b = random_f32(5402, n(z.nk, z.nj), -1, 1),
       c = random_f32(5403, n(z.nj, z.nm), -1, 1), d = random_f32(5404, n(z.nm, z.nl), -1, 1);
  out.write("a.bin", a);
  out.write("b.bin", b);
  out.write("c.bin", c);
  out.write("d.bin", d);
  auto e = mm3_multiply(z.ni, z.nj, z.nk, a, b);
  auto f = mm3_multiply(z.nj, z.nl, z.nm, c, d);
  auto g = mm3_multiply(z.ni, z.nl, z.nj, e, f);
  out.write("e_ref.bin", e);
  out.write("f_ref.bin", f);
  out.write("g_ref.bin", g);
}
GPUTLM_WORKLOAD("mm3", "KAWS/Polybench 3MM: three plain (untiled) matrix multiply launches",
                gen_mm3);

// --- resnet (workloads/resnet) -----------------------------------------------------------------
// Launch list (the specs repeat it): conv_in 3 -> c channels at h x h with ReLU; stage 1:
// blocks1 residual blocks at h x h, each conv + ReLU, conv, add + ReLU; 2x2 max pooling;
// stage 2: blocks2 blocks at h/2 x h/2; then one resnet_fc launch per entry of fc (ReLU on
// all but the last). Activations rotate through act0, act1, act2 (conv_in writes act0; a
// block with input X and free Y, Z runs conv X -> Y, conv Y -> Z, add X + Z -> Y, and its
// output Y is the next input, with free Z, X); the pooling writes the first free buffer.
// FC layers write fc_a, fc_b alternately, the last one logits. Conv and add launches use
// CTAs of 64 threads, one per output; fc one CTA of 64 per output.
struct RnParams {
  int c, h, blocks1, blocks2;
  std::vector<int> fc;  // outputs of each fully connected layer
};
// 003 Table 2: RN 38 kernels of 64 or 256 CTAs. Medium: 1 + 18 + 1 + 15 + 3 = 38 launches,
// 19 of 256 CTAs (stage 1: 16 x 32 x 32 outputs) and 19 of 64 (pooling, stage 2, fc).
RnParams rn_params(Size size) {
  if (size == Size::kSmall) return {8, 16, 1, 0, {16}};  // 6 launches: 32, 32, 32, 32, 8, 16 CTAs
  return {16, 32, 6, 5, {64, 64, 64}};
}

constexpr int kRnFcThreads = 64;

struct RnNet {
  std::vector<float> weights, bias;
  std::vector<float> act[3], fc_a, fc_b, logits;
};

void rn_conv(const std::vector<float>& in, const RnNet& net, std::vector<float>& out, int cin,
             int cout, int h, std::size_t w_off, std::size_t b_off, bool relu) {
  const int w = h, hw = h * w;
  for (int co = 0; co < cout; ++co)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float acc = net.bias[b_off + co];
        for (int ci = 0; ci < cin; ++ci) {
          const float* ip = &in[static_cast<std::size_t>(ci) * hw];
          const float* wp = &net.weights[w_off + static_cast<std::size_t>(co * cin + ci) * 9];
          for (int ky = 0; ky < 3; ++ky) {
            const int yy = y + ky - 1;
            if (yy < 0 || yy >= h) continue;
            for (int kx = 0; kx < 3; ++kx) {
              const int xx = x + kx - 1;
              if (xx < 0 || xx >= w) continue;
              acc = std::fma(wp[ky * 3 + kx], ip[yy * w + xx], acc);
            }
          }
        }
        out[static_cast<std::size_t>(co) * hw + y * w + x] = relu ? std::max(acc, 0.f) : acc;
      }
}

void rn_fc(const std::vector<float>& in, const RnNet& net, std::vector<float>& out, int k,
           int outputs, std::size_t w_off, std::size_t b_off, bool relu) {
  for (int o = 0; o < outputs; ++o) {
    float partial[kRnFcThreads];
    const float* wp = &net.weights[w_off + static_cast<std::size_t>(o) * k];
    for (int t = 0; t < kRnFcThreads; ++t) {
      float sum = 0.f;
      for (int f = t; f < k; f += kRnFcThreads) sum = std::fma(in[f], wp[f], sum);
      partial[t] = sum;
    }
    for (int half = kRnFcThreads / 2; half > 0; half /= 2)
      for (int t = 0; t < half; ++t) partial[t] = partial[t + half] + partial[t];
    const float v = partial[0] + net.bias[b_off + o];
    out[o] = relu ? std::max(v, 0.f) : v;
  }
}

void gen_resnet(Size size, const OutDir& out) {
  const RnParams z = rn_params(size);
  const std::size_t hw = static_cast<std::size_t>(z.h) * z.h, act_n = z.c * hw;
  SplitMix64 rng(5501);
  RnNet net;
  // Weights and biases in launch order; conv weights uniform in +-1/sqrt(9 cin) (the second
  // conv of a block half that, so the residual sums stay of order one), fc in +-1/sqrt(k).
  auto add_layer = [&](std::size_t nw, std::size_t nb, double scale) {
    std::pair<std::size_t, std::size_t> off{net.weights.size(), net.bias.size()};
    for (std::size_t i = 0; i < nw; ++i) net.weights.push_back(static_cast<float>(rng.uniform(-scale, scale)));
    for (std::size_t i = 0; i < nb; ++i) net.bias.push_back(static_cast<float>(rng.uniform(-0.1, 0.1)));
    return off;
  };
  std::vector<float> image = random_f32(5502, 3 * hw, 0, 1);
  for (auto& a : net.act) a.assign(act_n, 0.f);
  int cur = 0;
  auto conv_layer = [&](const std::vector<float>& in, std::vector<float>& dst, int cin, int h,
                        double gain, bool relu) {
    auto [wo, bo] = add_layer(static_cast<std::size_t>(z.c) * cin * 9, z.c, gain / std::sqrt(9.0 * cin));
    rn_conv(in, net, dst, cin, z.c, h, wo, bo, relu);
  };
  auto stage = [&](int blocks, int h) {
    const std::size_t n = static_cast<std::size_t>(z.c) * h * h;
    for (int blk = 0; blk < blocks; ++blk) {
      const int x = cur, y = (cur + 1) % 3, zz = (cur + 2) % 3;
      conv_layer(net.act[x], net.act[y], z.c, h, 1.0, true);
      conv_layer(net.act[y], net.act[zz], z.c, h, 0.5, false);
      for (std::size_t i = 0; i < n; ++i) net.act[y][i] = std::max(net.act[x][i] + net.act[zz][i], 0.f);
      cur = y;
    }
  };
  conv_layer(image, net.act[0], 3, z.h, 1.0, true);
  stage(z.blocks1, z.h);
  {  // 2x2 max pooling into the first free buffer
    const int dst = (cur + 1) % 3, h = z.h, oh = h / 2;
    for (int ch = 0; ch < z.c; ++ch)
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < oh; ++x) {
          const float* ip = &net.act[cur][static_cast<std::size_t>(ch) * h * h + (2 * y) * h + 2 * x];
          net.act[dst][static_cast<std::size_t>(ch) * oh * oh + y * oh + x] =
              std::max(std::max(ip[0], ip[1]), std::max(ip[h], ip[h + 1]));
        }
    cur = dst;
  }
  stage(z.blocks2, z.h / 2);
  int k = z.c * (z.h / 2) * (z.h / 2);
  const std::vector<float>* in = &net.act[cur];
  const std::size_t max_fc = *std::max_element(z.fc.begin(), z.fc.end());
  net.fc_a.assign(max_fc, 0.f);
  net.fc_b.assign(max_fc, 0.f);
  for (std::size_t l = 0; l < z.fc.size(); ++l) {
    const bool last = l + 1 == z.fc.size();
    std::vector<float>& dst = last ? net.logits : (l % 2 == 0 ? net.fc_a : net.fc_b);
    if (last) dst.assign(z.fc[l], 0.f);
    auto [wo, bo] = add_layer(static_cast<std::size_t>(z.fc[l]) * k, z.fc[l], 1.0 / std::sqrt(double(k)));
    rn_fc(*in, net, dst, k, z.fc[l], wo, bo, !last);
    in = &dst;
    k = z.fc[l];
  }
  out.write("image.bin", image);
  out.write("weights.bin", net.weights);
  out.write("bias.bin", net.bias);
  for (int i = 0; i < 3; ++i) out.write("act" + std::to_string(i) + "_ref.bin", net.act[i]);
  if (z.fc.size() > 1) out.write("fc_a_ref.bin", net.fc_a);
  if (z.fc.size() > 2) out.write("fc_b_ref.bin", net.fc_b);
  out.write("logits_ref.bin", net.logits);
}
GPUTLM_WORKLOAD("resnet", "KAWS/Tango ResNet-like: 3x3 conv + ReLU, residual add, pool, fc stack",
                gen_resnet);

}  // namespace
}  // namespace gputlm::workloads
