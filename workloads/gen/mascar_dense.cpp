// Workloads shaped like members of the Mascar paper's suite (002 Table III) the project
// lacked, stencil and n-body side: leukocyte (Rodinia leukocyte: GICOV, dilation, IMGVF)
// and lavamd (Rodinia lavaMD). The CPU references repeat the kernels' arithmetic in the
// PTX's order (fma where it has fma.rn); atanf and expf differ from libm by a few ulp,
// so those outputs carry tolerances.
#include <algorithm>
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

constexpr double kPi = 3.14159265358979323846;

// --- leukocyte (workloads/leukocyte) ---------------------------------------------------------
constexpr int kLkMaxPoints = 150, kLkMaxCircles = 7, kLkThreads = 320, kLkPow2 = 256;

struct LeukoSize {
  int ncircles, npoints, min_radius;  // radii min_radius, +2, ...
  int interior_w, interior_h;         // GICOV pixels (one CTA per row)
  int dilate_radius;
  int ncells, cell_m, cell_n;  // IMGVF cells: up to cell_m x cell_n, a few smaller
  int iterations;
  float cutoff;  // mean change that ends a cell's iterations
};

// One IMGVF iteration on the CPU in the kernel's order; returns the reduction's total.
float imgvf_step(std::vector<float>& f, const float* img, int m, int n, float vx, float vy,
                 float one_over_e) {
  auto he = [](float x) { return std::fma(std::atan(x), 0.318309886183790671538f, 0.5f); };
  std::vector<float> nf(f.size());
  std::vector<float> diff(kLkThreads, 0.0f);
  for (int idx = 0; idx < m * n; ++idx) {
    int i = idx / n, j = idx % n;
    int ru = i == 0 ? 0 : i - 1, rd = i == m - 1 ? m - 1 : i + 1;
    int cl = j == 0 ? 0 : j - 1, cr = j == n - 1 ? n - 1 : j + 1;
    float o = f[idx];
    float U = f[ru * n + j] - o, D = f[rd * n + j] - o, L = f[i * n + cl] - o, R = f[i * n + cr] - o;
    float UR = f[ru * n + cr] - o, DR = f[rd * n + cr] - o, UL = f[ru * n + cl] - o, DL = f[rd * n + cl] - o;
    float s = he((U * -vy) * one_over_e) * U;
    s = std::fma(he((D * vy) * one_over_e), D, s);
    s = std::fma(he((L * -vx) * one_over_e), L, s);
    s = std::fma(he((R * vx) * one_over_e), R, s);
    s = std::fma(he((UR * (vx - vy)) * one_over_e), UR, s);
    s = std::fma(he((DR * (vx + vy)) * one_over_e), DR, s);
    s = std::fma(he((UL * (-vx - vy)) * one_over_e), UL, s);
    s = std::fma(he((DL * (-vx + vy)) * one_over_e), DL, s);
    float nv = std::fma(s, 0.1f, o);  // mu / lambda = 0.5 / 5
    float vi = img[idx];
    nv = std::fma(vi * -0.2f, nv - vi, nv);  // 1 / lambda
    nf[idx] = nv;
    diff[idx % kLkThreads] += std::fabs(nv - o);
  }
  f.swap(nf);
  for (int t = kLkPow2; t < kLkThreads; ++t) diff[t - kLkPow2] += diff[t];
  for (int th = kLkPow2 / 2; th > 0; th /= 2)
    for (int t = 0; t < th; ++t) diff[t] += diff[t + th];
  return diff[0];
}

void gen_leukocyte(Size size, const OutDir& out) {
  const LeukoSize z = size == Size::kSmall ? LeukoSize{2, 24, 6, 64, 20, 3, 15, 16, 20, 3, 0.011f}
                                           : LeukoSize{7, 150, 8, 64, 48, 12, 15, 41, 81, 8, 0.0025f};
  const int max_radius = z.min_radius + 2 * (z.ncircles - 1), border = max_radius + 2;
  const int w = z.interior_w + 2 * border, h = z.interior_h + 2 * border;
  SplitMix64 rng(4401);
  // A frame of bright disks (radius 8..14) on noise; gradients by central differences.
  std::vector<float> img(static_cast<std::size_t>(w) * h);
  for (auto& v : img) v = static_cast<float>(rng.uniform(0, 0.2));
  int ndisks = w * h / 900 + 2;
  for (int d = 0; d < ndisks; ++d) {
    int cx = static_cast<int>(rng.uniform_int(0, w - 1)), cy = static_cast<int>(rng.uniform_int(0, h - 1));
    int r = static_cast<int>(rng.uniform_int(8, 14));
    for (int y = std::max(0, cy - r); y <= std::min(h - 1, cy + r); ++y)
      for (int x = std::max(0, cx - r); x <= std::min(w - 1, cx + r); ++x)
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
          img[static_cast<std::size_t>(y) * w + x] += 0.6f;
  }
  std::vector<float> gx(img.size(), 0.0f), gy(img.size(), 0.0f);
  for (int y = 1; y + 1 < h; ++y)
    for (int x = 1; x + 1 < w; ++x) {
      std::size_t i = static_cast<std::size_t>(y) * w + x;
      gx[i] = (img[i + 1] - img[i - 1]) * 0.5f;
      gy[i] = (img[i + w] - img[i - w]) * 0.5f;
    }
  // Circle tables, as Rodinia builds them: angle n of npoints, offsets rounded per radius.
  std::vector<float> sin_a(kLkMaxPoints, 0.0f), cos_a(kLkMaxPoints, 0.0f);
  std::vector<int32_t> tx(kLkMaxCircles * kLkMaxPoints, 0), ty(tx.size(), 0);
  for (int n = 0; n < z.npoints; ++n) {
    double th = 2 * kPi * n / z.npoints;
    sin_a[n] = static_cast<float>(std::sin(th));
    cos_a[n] = static_cast<float>(std::cos(th));
    for (int k = 0; k < z.ncircles; ++k) {
      int r = z.min_radius + 2 * k;
      tx[k * kLkMaxPoints + n] = static_cast<int32_t>(std::lround(r * std::cos(th)));
      ty[k * kLkMaxPoints + n] = static_cast<int32_t>(std::lround(r * std::sin(th)));
    }
  }
  std::vector<float> gicov(img.size(), 0.0f);
  for (int i = border; i < border + z.interior_h; ++i)
    for (int j = border; j < border + z.interior_w; ++j) {
      float best = 0.0f;
      for (int k = 0; k < z.ncircles; ++k) {
        float sum = 0.0f, m2 = 0.0f, mean = 0.0f;
        for (int n = 0; n < z.npoints; ++n) {
          std::size_t a =
              static_cast<std::size_t>(i + ty[k * kLkMaxPoints + n]) * w + j + tx[k * kLkMaxPoints + n];
          float p = std::fma(gx[a], cos_a[n], gy[a] * sin_a[n]);
          sum = sum + p;
          float delta = p - mean;
          mean = mean + delta / static_cast<float>(n + 1);
          m2 = std::fma(delta, p - mean, m2);
        }
        mean = sum / static_cast<float>(z.npoints);
        float score = (mean * mean) / (m2 / static_cast<float>(z.npoints - 1));
        if (score > best) best = score;
      }
      gicov[static_cast<std::size_t>(i) * w + j] = best;
    }
  const int ssz = 2 * z.dilate_radius + 1;
  std::vector<float> strel(static_cast<std::size_t>(ssz) * ssz);
  for (int ei = 0; ei < ssz; ++ei)
    for (int ej = 0; ej < ssz; ++ej) {
      int dy = ei - z.dilate_radius, dx = ej - z.dilate_radius;
      strel[static_cast<std::size_t>(ei) * ssz + ej] =
          dx * dx + dy * dy <= z.dilate_radius * z.dilate_radius ? 1.0f : 0.0f;
    }
  std::vector<float> dilated(img.size());
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      float best = 0.0f;
      for (int ei = 0; ei < ssz; ++ei)
        for (int ej = 0; ej < ssz; ++ej) {
          int y = i - z.dilate_radius + ei, x = j - z.dilate_radius + ej;
          if (y >= 0 && y < h && x >= 0 && x < w && strel[static_cast<std::size_t>(ei) * ssz + ej] != 0.0f)
            best = std::max(best, gicov[static_cast<std::size_t>(y) * w + x]);
        }
      dilated[static_cast<std::size_t>(i) * w + j] = best;
    }
  // IMGVF cells (at most 41x81, Rodinia's shared array): a bright ring (the cell's edge)
  // on a dim interior, with noise; radius, width, brightness and noise differ per cell,
  // and every third cell is a few rows and columns smaller, as detected cells differ.
  std::vector<int32_t> offsets(z.ncells), ms(z.ncells), ns(z.ncells);
  std::vector<float> cells;
  SplitMix64 cell_rng(4402);  // its own stream: the cells do not depend on the frame's size
  for (int c = 0; c < z.ncells; ++c) {
    int m = z.cell_m - (c % 3 == 2 ? 3 : 0), n = z.cell_n - (c % 3 == 2 ? 6 : 0);
    offsets[c] = static_cast<int32_t>(cells.size());
    ms[c] = m;
    ns[c] = n;
    double rad = cell_rng.uniform(0.25, 0.45) * std::min(m, n), width = cell_rng.uniform(1.5, 4.0);
    double bright = cell_rng.uniform(0.5, 0.9), noise = cell_rng.uniform(0.05, 0.3);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double d = std::sqrt((i - m / 2.0) * (i - m / 2.0) + (j - n / 2.0) * (j - n / 2.0) * 0.25);
        double ring = std::max(0.0, 1.0 - std::fabs(d - rad) / width);
        cells.push_back(static_cast<float>(bright * ring + cell_rng.uniform(0, noise)));
      }
  }
  const float vx = 1.0f, vy = 1.0f, e = 1.0f, cutoff = z.cutoff;
  int converged = 0;
  std::vector<float> field = cells;
  for (int c = 0; c < z.ncells; ++c) {
    int m = ms[c], n = ns[c];
    std::vector<float> f(field.begin() + offsets[c], field.begin() + offsets[c] + m * n);
    for (int it = 0; it < z.iterations; ++it) {
      float mean = imgvf_step(f, &cells[offsets[c]], m, n, vx, vy, 1.0f / e) / static_cast<float>(m * n);
      // The GPU's atanf differs from libm by an ulp or two (a relative 1e-6 in the mean):
      // a mean this close to the cutoff could stop the two at different iterations.
      if (std::fabs(mean - cutoff) < 1e-3f * cutoff)
        throw GenerateError("leukocyte: cell " + std::to_string(c) + " converges too close to the cutoff");
      if (mean < cutoff) {
        ++converged;
        break;
      }
    }
    std::copy(f.begin(), f.end(), field.begin() + offsets[c]);
  }
  out.write("grad_x.bin", gx);
  out.write("grad_y.bin", gy);
  out.write("sin_angle.bin", sin_a);
  out.write("cos_angle.bin", cos_a);
  out.write("tX.bin", tx);
  out.write("tY.bin", ty);
  out.write("strel.bin", strel);
  out.write("cells.bin", cells);
  out.write("offsets.bin", offsets);
  out.write("m.bin", ms);
  out.write("n.bin", ns);
  out.write("gicov_ref.bin", gicov);
  out.write("dilated_ref.bin", dilated);
  out.write("imgvf_ref.bin", field);
  std::printf("leukocyte: %dx%d image, %d circles x %d points, dilation radius %d, %d cells (%d converge)\n",
              w, h, z.ncircles, z.npoints, z.dilate_radius, z.ncells, converged);
}
GPUTLM_WORKLOAD("leukocyte", "Mascar/Rodinia leukocyte: GICOV circles, dilation, IMGVF in shared memory",
                gen_leukocyte);

// --- lavamd (workloads/lavamd) -----------------------------------------------------------------
struct FourVector {
  float v, x, y, z;
};

void gen_lavamd(Size size, const OutDir& out) {
  // Rodinia's space is a cube of boxes1d^3 boxes of 100 particles. On the GTX480 a
  // thread's pair loop is a dependent chain of ~430 cycles per pair (the PTX order, no
  // ptxas scheduling), so the box with the most neighbours sets the run time: medium is a
  // 4x4x2 slab of Rodinia's boxes (at most 17 neighbours), small a 15x2x1 slab of boxes of
  // 16 (at most 5), to stay near 60k cycles.
  const int bxn = size == Size::kSmall ? 15 : 4, byn = size == Size::kSmall ? 2 : 4,
            bzn = size == Size::kSmall ? 1 : 2;
  const int par = size == Size::kSmall ? 16 : 100;  // particles per box
  const int nboxes = bxn * byn * bzn;
  const float alpha = 0.5f;
  // Boxes and their neighbours in Rodinia's order (z, y, x; neighbours l, m, n in -1..1).
  std::vector<int32_t> offset(nboxes), nn(nboxes, 0), nei(static_cast<std::size_t>(nboxes) * 26, 0);
  for (int i = 0; i < bzn; ++i)
    for (int j = 0; j < byn; ++j)
      for (int k = 0; k < bxn; ++k) {
        int box = (i * byn + j) * bxn + k;
        offset[box] = box * par;
        for (int l = -1; l <= 1; ++l)
          for (int m = -1; m <= 1; ++m)
            for (int n = -1; n <= 1; ++n) {
              if (l == 0 && m == 0 && n == 0) continue;
              if (i + l < 0 || i + l >= bzn || j + m < 0 || j + m >= byn || k + n < 0 || k + n >= bxn)
                continue;
              nei[static_cast<std::size_t>(box) * 26 + nn[box]++] = ((i + l) * byn + j + m) * bxn + k + n;
            }
      }
  // Rodinia's inputs: every component (rand() % 10 + 1) / 10.
  SplitMix64 rng(4501);
  auto tenth = [&] { return static_cast<float>(rng.uniform_int(1, 10)) / 10.0f; };
  std::vector<FourVector> rv(static_cast<std::size_t>(nboxes) * par);
  std::vector<float> qv(rv.size());
  for (auto& r : rv) r = FourVector{tenth(), tenth(), tenth(), tenth()};
  for (auto& q : qv) q = tenth();
  const float a2 = (alpha + alpha) * alpha;
  std::vector<FourVector> fv(rv.size(), FourVector{0, 0, 0, 0});
  for (int bx = 0; bx < nboxes; ++bx)
    for (int k = 0; k <= nn[bx]; ++k) {
      int p = k == 0 ? bx : nei[static_cast<std::size_t>(bx) * 26 + k - 1];
      for (int w = 0; w < par; ++w) {
        const FourVector a = rv[offset[bx] + w];
        FourVector& acc = fv[offset[bx] + w];
        for (int j = 0; j < par; ++j) {
          const FourVector bb = rv[offset[p] + j];
          float dot = std::fma(a.z, bb.z, std::fma(a.x, bb.x, a.y * bb.y));
          float r2 = (a.v + bb.v) - dot;
          float vij = std::exp(-(a2 * r2));
          float fs = vij + vij;
          float q = qv[offset[p] + j];
          acc.v = std::fma(q, vij, acc.v);
          acc.x = std::fma(q, (a.x - bb.x) * fs, acc.x);
          acc.y = std::fma(q, (a.y - bb.y) * fs, acc.y);
          acc.z = std::fma(q, (a.z - bb.z) * fs, acc.z);
        }
      }
    }
  out.write("box_offset.bin", offset);
  out.write("box_nn.bin", nn);
  out.write("box_nei.bin", nei);
  out.write("rv.bin", rv);
  out.write("qv.bin", qv);
  out.write("fv_ref.bin", fv);
  std::printf("lavamd: %d boxes of %d particles\n", nboxes, par);
}
GPUTLM_WORKLOAD("lavamd", "Mascar/Rodinia lavaMD: pair forces over neighbouring boxes, shared memory",
                gen_lavamd);

}  // namespace
}  // namespace gputlm::workloads
