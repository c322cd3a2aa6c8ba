// Streaming and memory-divergent workloads: vecadd, saxpy, lbm, strided, conv1d.
// Each CPU reference repeats the kernel's arithmetic in the same order (with fmaf where
// nvcc contracts to fma.rn), so results agree to rounding.
#include <algorithm>
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

void gen_vecadd(Size size, const OutDir& out) {
  std::size_t n = size == Size::kSmall ? 4096 : (1u << 20);
  auto a = random_f32(101, n, -1, 1), b = random_f32(102, n, -1, 1);
  std::vector<float> c(n);
  for (std::size_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
  out.write("a.bin", a);
  out.write("b.bin", b);
  out.write("c_ref.bin", c);
}
GPUTLM_WORKLOAD("vecadd", "streaming: c = a + b, grid-stride loop", gen_vecadd);

void gen_saxpy(Size size, const OutDir& out) {
  std::size_t n = size == Size::kSmall ? 16384 : (1u << 20);
  const float a = 2.0f;
  auto x = random_f32(201, n, -1, 1), y = random_f32(202, n, -1, 1);
  out.write("x.bin", x);
  out.write("y.bin", y);
  for (std::size_t i = 0; i < n; ++i) y[i] = std::fma(a, x[i], y[i]);
  out.write("y_ref.bin", y);
}
GPUTLM_WORKLOAD("saxpy", "streaming: y = a x + y", gen_saxpy);

constexpr float kLbmW[9] = {4.f / 9,  1.f / 9,  1.f / 9,  1.f / 9, 1.f / 9,
                            1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};
constexpr int kLbmDx[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kLbmDy[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};

void gen_lbm(Size size, const OutDir& out) {
  int nx = size == Size::kSmall ? 64 : 512, ny = size == Size::kSmall ? 32 : 512;
  std::size_t cells = static_cast<std::size_t>(nx) * ny;
  const float omega = 1.2f;
  SplitMix64 rng(301);
  std::vector<float> src(9 * cells), dst(9 * cells);
  // Near-equilibrium populations: weight times (1 +- 5%), always positive.
  for (int q = 0; q < 9; ++q)
    for (std::size_t c = 0; c < cells; ++c)
      src[q * cells + c] = kLbmW[q] * static_cast<float>(rng.uniform(0.95, 1.05));
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      std::size_t c = static_cast<std::size_t>(y) * nx + x;
      float f[9], rho = 0, ux = 0, uy = 0;
      for (int q = 0; q < 9; ++q) {
        f[q] = src[q * cells + c];
        rho += f[q];
        ux += f[q] * static_cast<float>(kLbmDx[q]);
        uy += f[q] * static_cast<float>(kLbmDy[q]);
      }
      ux /= rho;
      uy /= rho;
      float usq = 1.5f * (ux * ux + uy * uy);
      for (int q = 0; q < 9; ++q) {
        float cu = 3.f * (kLbmDx[q] * ux + kLbmDy[q] * uy);
        float feq = kLbmW[q] * rho * (1.f + cu + 0.5f * cu * cu - usq);
        int tx = (x + kLbmDx[q] + nx) % nx, ty = (y + kLbmDy[q] + ny) % ny;
        dst[q * cells + static_cast<std::size_t>(ty) * nx + tx] = f[q] + omega * (feq - f[q]);
      }
    }
  out.write("src.bin", src);
  out.write("dst_ref.bin", dst);
}
GPUTLM_WORKLOAD("lbm", "streaming, 9 loads + 9 stores per thread: D2Q9 collide-stream",
                gen_lbm);

void gen_strided(Size size, const OutDir& out) {
  int n = size == Size::kSmall ? 8192 : (1 << 20);
  int stride = size == Size::kSmall ? 33 : 1021;
  auto in = random_u32(401, static_cast<std::size_t>(n));
  std::vector<uint32_t> res(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    long long j = (static_cast<long long>(i) * stride) % n;
    res[static_cast<std::size_t>(i)] = in[static_cast<std::size_t>(j)] * 2654435761u +
                                       static_cast<uint32_t>(i);
  }
  out.write("in.bin", in);
  out.write("out_ref.bin", res);
}
GPUTLM_WORKLOAD("strided", "uncoalesced: strided gather", gen_strided);

constexpr float kTaps[9] = {0.0125f, 0.05f, 0.1f, 0.2f, 0.275f, 0.2f, 0.1f, 0.05f, 0.0125f};

void gen_conv1d(Size size, const OutDir& out) {
  int n = size == Size::kSmall ? 8192 : (1 << 20);
  const float gain = 1.25f;
  auto in = random_f32(501, static_cast<std::size_t>(n), -4, 4);
  std::vector<float> res(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    float acc = 0.f;
    for (int k = 0; k < 9; ++k) {
      int j = std::min(std::max(i + k - 4, 0), n - 1);
      acc = std::fma(kTaps[k], in[static_cast<std::size_t>(j)], acc);
    }
    res[static_cast<std::size_t>(i)] = gain * acc;
  }
  out.write("in.bin", in);
  out.write("out_ref.bin", res);
}
GPUTLM_WORKLOAD("conv1d", "constant memory: 9-tap convolution, __constant__ taps", gen_conv1d);

}  // namespace
}  // namespace gputlm::workloads
