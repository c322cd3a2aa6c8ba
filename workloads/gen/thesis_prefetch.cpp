// Workloads of the thesis' prefetching and MSHR chapters (001 Table 4.4, Table 5.2; issue 17
// point 4) that the suite lacked: mersenne (SDK MersenneTwister, Table 4.4's Merse), triad
// (SHOC Triad, Table 5.2's TR), convsep (SDK convolutionSeparable, Table 4.4's Conv and
// Table 5.2's CS) and transpose (SDK transpose, Table 5.2's TP). This file is compiled with -ffp-contract=off
// (workloads/CMakeLists.txt): the fma of triad is written out, nothing else is contracted.
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// --- triad: c = a + s * b ---------------------------------------------------------------
void gen_triad(Size size, const OutDir& out) {
  // Table 5.2: 32768 CTAs of 128 (4M floats per array); medium keeps 8192 CTAs (12 MB).
  const std::size_t n = static_cast<std::size_t>(by_size(size, 64, 8192)) * 128;
  const float s = 1.75f;  // the spec's argument
  auto a = random_f32(7101, n, -1, 1), b = random_f32(7102, n, -1, 1);
  std::vector<float> c(n);
  for (std::size_t i = 0; i < n; ++i) c[i] = std::fma(s, b[i], a[i]);  // the kernel's fma.rn.f32
  out.write("a.bin", a);
  out.write("b.bin", b);
  out.write("c_ref.bin", c);
}

// --- mersenne: per-thread Mersenne twisters, then Box-Muller ------------------------------
constexpr int kMtMm = 9, kMtNn = 19;

void gen_mersenne(Size size, const OutDir& out) {
  // Table 4.4: 32 CTAs of 128 = 4096 generators (medium); small: 4 CTAs of 128.
  const int rngs = by_size(size, 512, 4096), per_rng = by_size(size, 32, 256);
  // Per generator: matrix_a, mask_b, mask_c, seed. The SDK reads dcmt-made parameters from
  // MersenneTwister.dat; random words give the same work (the twister's period is no concern).
  auto params = random_u32(7201, static_cast<std::size_t>(rngs) * 4);
  std::vector<float> data(static_cast<std::size_t>(rngs) * per_rng);
  for (int r = 0; r < rngs; ++r) {
    const uint32_t* p = &params[static_cast<std::size_t>(r) * 4];
    uint32_t mt[kMtNn];
    mt[0] = p[3];
    for (int s = 1; s < kMtNn; ++s) mt[s] = 1812433253u * (mt[s - 1] ^ (mt[s - 1] >> 30)) + static_cast<uint32_t>(s);
    int s = 0;
    uint32_t next = mt[0];
    for (int k = 0; k < per_rng; ++k) {
      int s1 = s + 1, sm = s + kMtMm;
      if (s1 >= kMtNn) s1 -= kMtNn;
      if (sm >= kMtNn) sm -= kMtNn;
      const uint32_t cur = next;
      next = mt[s1];
      uint32_t x = (cur & 0xFFFFFFFEu) | (next & 1u);
      x = mt[sm] ^ (x >> 1) ^ ((x & 1u) ? p[0] : 0u);
      mt[s] = x;
      s = s1;
      x ^= x >> 12;
      x ^= (x << 7) & p[1];
      x ^= (x << 15) & p[2];
      x ^= x >> 18;
      // cvt.rn.f32.u32, add.rn 1.0, then a multiply by 2^-32 (the division by a power of two): exact.
      data[static_cast<std::size_t>(r) + static_cast<std::size_t>(k) * rngs] =
          (static_cast<float>(x) + 1.0f) / 4294967296.0f;
    }
  }
  for (int r = 0; r < rngs; ++r)
    for (int k = 0; k < per_rng; k += 2) {
      float& u1 = data[static_cast<std::size_t>(r) + static_cast<std::size_t>(k) * rngs];
      float& u2 = data[static_cast<std::size_t>(r) + static_cast<std::size_t>(k + 1) * rngs];
      const double radius = std::sqrt(-2.0 * std::log(static_cast<double>(u1)));
      const double phi = 6.28318530717958647692 * static_cast<double>(u2);
      u1 = static_cast<float>(radius * std::cos(phi));
      u2 = static_cast<float>(radius * std::sin(phi));
    }
  out.write("params.bin", params);
  out.write("data_ref.bin", data);
}

// --- convsep: separable 17-tap filter, rows then columns ------------------------------------
// convsep.cu's c_taps, written with the same literals.
constexpr int kRadius = 8;
constexpr float kTaps[2 * kRadius + 1] = {0.0025f, 0.005f, 0.0125f, 0.025f, 0.04f, 0.06f, 0.08f, 0.1f, 0.125f,
                                          0.1f,    0.08f,  0.06f,   0.04f,  0.025f, 0.0125f, 0.005f, 0.0025f};

// One pass along rows (dx = 1) or columns (dx = 0): zero outside the image, the kernel's fma
// order (j = -R .. R, tap R - j).
std::vector<float> convsep_pass(const std::vector<float>& in, int width, int height, bool rows) {
  std::vector<float> res(in.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float sum = 0.0f;
      for (int j = -kRadius; j <= kRadius; ++j) {
        const int sx = rows ? x + j : x, sy = rows ? y : y + j;
        const float v = sx < 0 || sx >= width || sy < 0 || sy >= height
                            ? 0.0f
                            : in[static_cast<std::size_t>(sy) * width + sx];
        sum = std::fma(kTaps[kRadius - j], v, sum);
      }
      res[static_cast<std::size_t>(y) * width + x] = sum;
    }
  return res;
}

void gen_convsep(Size size, const OutDir& out) {
  // Rows: CTAs of 16 x 4 covering 128 x 4; columns: 16 x 8 covering 16 x 64. 512 x 512 gives
  // 001 Table 4.4's grids (4, 128) and (32, 8).
  const int width = by_size(size, 128, 512), height = by_size(size, 64, 512);
  auto in = random_f32(7301, static_cast<std::size_t>(width) * height, -1, 1);
  const auto tmp = convsep_pass(in, width, height, true);
  out.write("in.bin", in);
  out.write("tmp_ref.bin", tmp);
  out.write("out_ref.bin", convsep_pass(tmp, width, height, false));
}

// --- transpose: copy and four transposes of one square matrix -------------------------------
void gen_transpose(Size size, const OutDir& out) {
  const int n = by_size(size, 128, 1024);  // Table 5.2: 4096 CTAs of 256 = 2048 x 2048
  auto in = random_f32(7401, static_cast<std::size_t>(n) * n, -1, 1);
  std::vector<float> t(in.size());
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      t[static_cast<std::size_t>(x) * n + y] = in[static_cast<std::size_t>(y) * n + x];
  out.write("in.bin", in);  // also the copy kernel's expected output
  out.write("transposed_ref.bin", t);
}

}  // namespace

GPUTLM_WORKLOAD("triad", "SHOC Triad (001 Table 5.2 TR): c = a + s*b, CTAs of 128", gen_triad);
GPUTLM_WORKLOAD("convsep", "SDK convolutionSeparable (001 Conv / CS): 17-tap rows then columns, shared tiles + halo",
                gen_convsep);
GPUTLM_WORKLOAD("transpose", "SDK transpose (001 Table 5.2 TP): copy, naive, shared tile, padded tile, diagonal",
                gen_transpose);
GPUTLM_WORKLOAD("mersenne", "SDK MersenneTwister (001 Table 4.4 Merse): per-thread twisters, then Box-Muller",
                gen_mersenne);

}  // namespace gputlm::workloads
