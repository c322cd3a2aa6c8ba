// Workloads shaped like the ELF paper's dense suite members: backprop, blackscholes,
// fdtd3d, lud, srad. Each CPU reference repeats its kernel's arithmetic in the kernel's
// order (fma where the PTX has fma.rn, separate mul/sub where it does not).
#include <algorithm>
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// --- backprop: bp_layerforward then bp_adjust_weights (workloads/backprop) ---------------
void gen_backprop(Size size, const OutDir& out) {
  const int hid = 16, height = 16;
  int nblocks = size == Size::kSmall ? 16 : 4096;
  int in = nblocks * height;
  std::size_t nw = static_cast<std::size_t>(in + 1) * (hid + 1);
  auto input = random_f32(3101, in + 1, 0, 1);
  auto weights = random_f32(3102, nw, -0.5, 0.5);
  auto oldw = random_f32(3103, nw, -0.05, 0.05);
  auto delta = random_f32(3104, hid + 1, -0.1, 0.1);
  out.write("input.bin", input);
  out.write("weights.bin", weights);
  out.write("oldw.bin", oldw);
  out.write("delta.bin", delta);
  auto at = [&](int row, int col) { return static_cast<std::size_t>(row) * (hid + 1) + col; };
  std::vector<float> partial(static_cast<std::size_t>(nblocks) * hid);
  for (int by = 0; by < nblocks; ++by) {
    float wm[16][16];
    for (int ty = 0; ty < height; ++ty)
      for (int tx = 0; tx < hid; ++tx)
        wm[ty][tx] = weights[at(height * by + ty + 1, tx + 1)] * input[height * by + ty + 1];
    for (int i = 1; i <= 4; ++i) {
      int p = 1 << i;
      for (int ty = 0; ty < height; ty += p)
        for (int tx = 0; tx < hid; ++tx) wm[ty][tx] = wm[ty][tx] + wm[ty + p / 2][tx];
    }
    for (int tx = 0; tx < hid; ++tx) partial[static_cast<std::size_t>(by) * hid + tx] = wm[0][tx];
  }
  const float eta = 0.3f, momentum = 0.3f;
  for (int row = 1; row <= in; ++row)
    for (int col = 1; col <= hid; ++col) {
      std::size_t k = at(row, col);
      float dw = std::fma(eta * delta[col], input[row], momentum * oldw[k]);
      weights[k] = weights[k] + dw;
      oldw[k] = dw;
    }
  for (int col = 1; col <= hid; ++col) {  // the bias row
    float db = std::fma(oldw[col], momentum, eta * delta[col]);
    weights[col] = weights[col] + db;
    oldw[col] = db;
  }
  out.write("partial_ref.bin", partial);
  out.write("weights_ref.bin", weights);
  out.write("oldw_ref.bin", oldw);
}
GPUTLM_WORKLOAD("backprop", "ELF/Rodinia BP: layer forward (shared tree) + weight adjust",
                gen_backprop);

// --- blackscholes -------------------------------------------------------------------------
float bs_cnd(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267794f;
  float k = 1.0f / std::fma(std::fabs(d), 0.2316419f, 1.0f);
  float poly = std::fma(k, std::fma(k, std::fma(k, std::fma(k, A5, A4), A3), A2), A1);
  float cnd = (std::exp((d * -0.5f) * d) * RSQRT2PI) * (k * poly);
  return d > 0 ? 1.0f - cnd : cnd;
}

void gen_blackscholes(Size size, const OutDir& out) {
  // ilp: 004 Table 2's BS, (480, 128): 61440 options, one per thread of 480 CTAs of 128.
  std::size_t n = size == Size::kSmall ? 8192 : size == Size::kIlp ? 61440 : (std::size_t{1} << 21);
  const float r = 0.02f, v = 0.30f;
  auto price = random_f32(3201, n, 5, 30), strike = random_f32(3202, n, 1, 100),
       years = random_f32(3203, n, 0.25, 10);
  std::vector<float> call(n), put(n);
  for (std::size_t i = 0; i < n; ++i) {
    float s = price[i], x = strike[i], t = years[i];
    float sqrt_t = std::sqrt(t);
    float d1 = std::fma(std::fma(v * 0.5f, v, r), t, std::log(s / x)) / (sqrt_t * v);
    float d2 = d1 - sqrt_t * v;
    float cnd1 = bs_cnd(d1), cnd2 = bs_cnd(d2);
    float exp_rt = std::exp(-(t * r));
    float xe = x * exp_rt;
    call[i] = s * cnd1 - xe * cnd2;
    put[i] = xe * (1.0f - cnd2) - s * (1.0f - cnd1);
  }
  out.write("price.bin", price);
  out.write("strike.bin", strike);
  out.write("years.bin", years);
  out.write("call_ref.bin", call);
  out.write("put_ref.bin", put);
}
GPUTLM_WORKLOAD_SIZES("blackscholes", "ELF/SDK BS: per-option fp32 expf/logf/sqrtf, grid-stride",
                      gen_blackscholes, sizes_with_ilp());

// --- fdtd3d: radius-4 star stencil on a volume padded by 4 ---------------------------------
void gen_fdtd3d(Size size, const OutDir& out) {
  const int r = 4;
  int dimx = size == Size::kSmall ? 64 : 512, dimy = size == Size::kSmall ? 32 : 256,
      dimz = size == Size::kSmall ? 16 : 32;
  long sy = dimx + 2 * r, sz = sy * (dimy + 2 * r);
  std::size_t total = static_cast<std::size_t>(sz) * (dimz + 2 * r);
  auto in = random_f32(3301, total, 0, 1);
  std::vector<float> stencil{-2.5f, 0.6f, -0.15f, 0.05f, -0.01f}, res(total, 0.f);
  for (int z = 0; z < dimz; ++z)
    for (int y = 0; y < dimy; ++y)
      for (int x = 0; x < dimx; ++x) {
        long c = (z + r) * sz + (y + r) * sy + x + r;
        float sum[5];
        for (int i = 1; i <= r; ++i)
          sum[i] = ((((in[c + i * sz] + in[c - i * sz]) + in[c - i * sy]) + in[c + i * sy]) +
                    in[c - i]) + in[c + i];
        float value = std::fma(in[c], stencil[0], stencil[1] * sum[1]);
        for (int i = 2; i <= r; ++i) value = std::fma(stencil[i], sum[i], value);
        res[c] = value;
      }
  out.write("input.bin", in);
  out.write("stencil.bin", stencil);
  out.write("output_ref.bin", res);
}
GPUTLM_WORKLOAD("fdtd3d", "ELF/SDK FDTD3d: radius-4 z-marching stencil, long unrolled body",
                gen_fdtd3d);

// --- lud: the three kernels, thread by thread (each phase's threads are independent) ------
void lud_diagonal(std::vector<float>& m, int dim, int off) {
  float sh[16][16];
  for (int i = 0; i < 16; ++i)
    for (int t = 0; t < 16; ++t) sh[i][t] = m[static_cast<std::size_t>(off + i) * dim + off + t];
  for (int i = 0; i < 15; ++i) {
    for (int t = i + 1; t < 16; ++t) {
      float v = sh[t][i];
      for (int j = 0; j < i; ++j) {
        float p = sh[t][j] * sh[j][i];
        v = v - p;
      }
      sh[t][i] = v / sh[i][i];
    }
    for (int t = i + 1; t < 16; ++t) {
      float v = sh[i + 1][t];
      for (int j = 0; j < i + 1; ++j) {
        float p = sh[i + 1][j] * sh[j][t];
        v = v - p;
      }
      sh[i + 1][t] = v;
    }
  }
  for (int i = 1; i < 16; ++i)
    for (int t = 0; t < 16; ++t) m[static_cast<std::size_t>(off + i) * dim + off + t] = sh[i][t];
}

void lud_perimeter(std::vector<float>& m, int dim, int off, int nblocks) {
  auto e = [&](int row, int col) -> float& { return m[static_cast<std::size_t>(row) * dim + col]; };
  for (int b = 0; b < nblocks; ++b) {
    int c0 = off + (b + 1) * 16;
    float dia[16][16], row[16][16], col[16][16];
    for (int i = 0; i < 16; ++i)
      for (int t = 0; t < 16; ++t) {
        dia[i][t] = e(off + i, off + t);
        row[i][t] = e(off + i, c0 + t);
        col[i][t] = e(c0 + i, off + t);
      }
    for (int t = 0; t < 16; ++t)
      for (int i = 1; i < 16; ++i) {
        float v = row[i][t];
        for (int j = 0; j < i; ++j) {
          float p = dia[i][j] * row[j][t];
          v = v - p;
        }
        row[i][t] = v;
      }
    for (int t = 0; t < 16; ++t)
      for (int i = 0; i < 16; ++i) {
        float v = col[t][i];
        for (int j = 0; j < i; ++j) {
          float p = col[t][j] * dia[j][i];
          v = v - p;
        }
        col[t][i] = v / dia[i][i];
      }
    for (int i = 0; i < 16; ++i)
      for (int t = 0; t < 16; ++t) {
        if (i > 0) e(off + i, c0 + t) = row[i][t];
        e(c0 + i, off + t) = col[i][t];
      }
  }
}

void lud_internal(std::vector<float>& m, int dim, int off, int nblocks) {
  std::vector<float> snap = m;  // every CTA reads the perimeter, none writes it
  auto s = [&](int row, int col) { return snap[static_cast<std::size_t>(row) * dim + col]; };
  for (int by = 0; by < nblocks; ++by)
    for (int bx = 0; bx < nblocks; ++bx) {
      int r0 = off + (by + 1) * 16, c0 = off + (bx + 1) * 16;
      for (int ty = 0; ty < 16; ++ty)
        for (int tx = 0; tx < 16; ++tx) {
          float sum = 0.f;
          for (int i = 0; i < 16; ++i) sum = std::fma(s(r0 + ty, off + i), s(off + i, c0 + tx), sum);
          float& d = m[static_cast<std::size_t>(r0 + ty) * dim + c0 + tx];
          d = d - sum;
        }
    }
}

void gen_lud(Size size, const OutDir& out) {
  int n = size == Size::kSmall ? 64 : 512;
  auto m = random_f32(3401, static_cast<std::size_t>(n) * n, 0, 1);
  for (int i = 0; i < n; ++i) m[static_cast<std::size_t>(i) * n + i] += static_cast<float>(n) * 0.5f;
  out.write("m.bin", m);
  int off = 0;
  for (; off < n - 16; off += 16) {
    int nb = (n - off) / 16 - 1;
    lud_diagonal(m, n, off);
    lud_perimeter(m, n, off, nb);
    lud_internal(m, n, off, nb);
  }
  lud_diagonal(m, n, off);
  out.write("m_ref.bin", m);
}
GPUTLM_WORKLOAD("lud", "ELF/Rodinia LUD: diagonal/perimeter/internal 16x16 blocks per step",
                gen_lud);

// --- srad: srad_1 then srad_2, iterated ------------------------------------------------------
constexpr int kSradIterations = 4;

void gen_srad(Size size, const OutDir& out) {
  int n = size == Size::kSmall ? 64 : 512;
  const float q0sqr = 0.07f, lambda = 0.5f;
  std::size_t nn = static_cast<std::size_t>(n) * n;
  auto j = random_f32(3501, nn, 1.0, 2.718281828);
  out.write("j.bin", j);
  std::vector<float> nc(nn), sc(nn), wc(nn), ec(nn), c(nn);
  auto idx = [&](int row, int col) { return static_cast<std::size_t>(row) * n + col; };
  for (int it = 0; it < kSradIterations; ++it) {
    for (int row = 0; row < n; ++row)
      for (int col = 0; col < n; ++col) {
        std::size_t k = idx(row, col);
        float jc = j[k];
        float vn = j[idx(std::max(row - 1, 0), col)] - jc;
        float vs = j[idx(std::min(row + 1, n - 1), col)] - jc;
        float vw = j[idx(row, std::max(col - 1, 0))] - jc;
        float ve = j[idx(row, std::min(col + 1, n - 1))] - jc;
        float g2 = std::fma(ve, ve, std::fma(vw, vw, std::fma(vn, vn, vs * vs))) / (jc * jc);
        float l = (((vn + vs) + vw) + ve) / jc;
        float num = std::fma(g2, 0.5f, (l * l) * -0.0625f);
        float den = std::fma(l, 0.25f, 1.0f);
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / ((q0sqr + 1.0f) * q0sqr);
        float coef = 1.0f / (den + 1.0f);
        c[k] = coef < 0.f ? 0.f : (coef > 1.f ? 1.f : coef);
        nc[k] = vn;
        sc[k] = vs;
        wc[k] = vw;
        ec[k] = ve;
      }
    for (int row = 0; row < n; ++row)
      for (int col = 0; col < n; ++col) {
        std::size_t k = idx(row, col);
        float cc = c[k], cs = c[idx(std::min(row + 1, n - 1), col)],
              ce = c[idx(row, std::min(col + 1, n - 1))];
        float d_sum = std::fma(ce, ec[k], std::fma(cc, wc[k], std::fma(cc, nc[k], cs * sc[k])));
        j[k] = std::fma(lambda * 0.25f, d_sum, j[k]);
      }
  }
  out.write("j_ref.bin", j);
  out.write("c_ref.bin", c);
}
GPUTLM_WORKLOAD("srad", "ELF/Rodinia SRAD: derivative/coefficient + update kernels, iterated",
                gen_srad);

}  // namespace
}  // namespace gputlm::workloads
