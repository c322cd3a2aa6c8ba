// Workloads shaped like seed 004's Table 2 (issue 16 point 6): ray, fft, dxtc, scalarprod,
// conv2d and sgemv, and the variants nqueen_ilp, storegpu_ilp and scan_ilp of existing
// workloads with Table 2's CTA shapes. Each has small (tests), medium (experiments) and
// ilp (Table 2's grid and CTA; the spec's `registers` sets Table 2's CTAs per SM on
// configs/ilp_baseline.json) sizes.
//
// The float references repeat the kernels' arithmetic in the kernels' order: ray and fft
// are compiled with -fmad=false and computed here without fma; scalarprod, conv2d and
// sgemv are fma chains in PTX and std::fma here. This file is compiled with
// -ffp-contract=off (workloads/CMakeLists.txt), so every float result is bit-exact.
#include <algorithm>
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// Picks a size's value: small, medium, ilp.
template <class T>
T by_size(Size size, T small, T medium, T ilp) {
  if (size == Size::kSmall) return small;
  if (size == Size::kMedium) return medium;
  if (size == Size::kIlp) return ilp;
  throw GenerateError(std::string("no size '") + size_name(size) + "'");
}

// --- nqueen_ilp: nqueen's search with CTAs of 96 (15360 B of shared memory) ----------------
void gen_nqueen_ilp(Size size, const OutDir& out) {
  // ilp: Table 2's input 8 (512 threads with work; the grid's other CTAs return at once).
  out.write("counts_ref.bin", nqueen_counts(by_size(size, 9, 13, 8)));
}

// --- storegpu_ilp: 128-byte chunks, CTAs of 128 (16 KiB of shared memory) -----------------
void gen_storegpu_ilp(Size size, const OutDir& out) {
  const int words = 32, nchunks = by_size(size, 512, 16384, 49152);
  const uint32_t seed = 0x5eed1234u;
  auto data = random_u32(6101, static_cast<std::size_t>(nchunks) * words);
  std::vector<uint32_t> digests(static_cast<std::size_t>(nchunks));
  for (int c = 0; c < nchunks; ++c)
    digests[static_cast<std::size_t>(c)] =
        storegpu_digest(&data[static_cast<std::size_t>(c) * words], words, seed ^ static_cast<uint32_t>(c));
  out.write("data.bin", data);
  out.write("digests_ref.bin", digests);
}

// --- scan_ilp: inclusive prefix sum, CTAs of 128 ------------------------------------------
void gen_scan_ilp(Size size, const OutDir& out) {
  // At most 256 CTAs of 128: the CTA totals are scanned by one CTA of <= 256 threads.
  write_scan_input(out, 6201, by_size<std::size_t>(size, 8192, 32768, 32768));
}

// --- ray: primary and shadow rays against spheres -----------------------------------------
struct Sphere {
  float x, y, z, r;
};

// The kernel's per-pixel arithmetic, operation for operation (ray.cu).
float ray_pixel(int x, int y, int width, int height, const std::vector<Sphere>& sph, float lx, float ly,
                float lz) {
  const int nspheres = static_cast<int>(sph.size());
  float dx = (static_cast<float>(x) + 0.5f - 0.5f * static_cast<float>(width)) / (0.5f * static_cast<float>(width));
  float dy = (static_cast<float>(y) + 0.5f - 0.5f * static_cast<float>(height)) / (0.5f * static_cast<float>(height));
  float dz = -1.5f;
  const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
  dx = dx / len;
  dy = dy / len;
  dz = dz / len;
  float tmin = 1e30f;
  int id = -1;
  for (int s = 0; s < nspheres; ++s) {
    const Sphere& c = sph[static_cast<std::size_t>(s)];
    const float b = dx * c.x + dy * c.y + dz * c.z;
    const float q = c.x * c.x + c.y * c.y + c.z * c.z - c.r * c.r;
    const float disc = b * b - q;
    if (disc > 0.0f) {
      const float t = b - std::sqrt(disc);
      if (t > 1e-3f && t < tmin) {
        tmin = t;
        id = s;
      }
    }
  }
  if (id < 0) return 0.0f;
  const Sphere& c = sph[static_cast<std::size_t>(id)];
  const float px = tmin * dx, py = tmin * dy, pz = tmin * dz;
  const float nx = (px - c.x) / c.r, ny = (py - c.y) / c.r, nz = (pz - c.z) / c.r;
  float ux = lx - px, uy = ly - py, uz = lz - pz;
  const float dist = std::sqrt(ux * ux + uy * uy + uz * uz);
  ux = ux / dist;
  uy = uy / dist;
  uz = uz / dist;
  const float lambert = nx * ux + ny * uy + nz * uz;
  bool lit = lambert > 0.0f;
  for (int s = 0; s < nspheres && lit; ++s) {
    if (s == id) continue;
    const Sphere& o = sph[static_cast<std::size_t>(s)];
    const float ox = o.x - px, oy = o.y - py, oz = o.z - pz;
    const float b = ux * ox + uy * oy + uz * oz;
    const float q = ox * ox + oy * oy + oz * oz - o.r * o.r;
    const float disc = b * b - q;
    if (disc > 0.0f) {
      const float t = b - std::sqrt(disc);
      if (t > 1e-3f && t < dist) lit = false;
    }
  }
  const float albedo = static_cast<float>(id + 1) / static_cast<float>(nspheres);
  return 0.1f + (lit ? albedo * lambert : 0.0f);
}

void gen_ray(Size size, const OutDir& out) {
  const int width = by_size(size, 64, 512, 512), height = width, nspheres = 8;
  const float lx = 4.0f, ly = 5.0f, lz = 1.0f;  // the spec's light position
  SplitMix64 rng(6301);
  std::vector<Sphere> sph;
  std::vector<float> packed;
  for (int s = 0; s < nspheres; ++s) {
    Sphere c{static_cast<float>(rng.uniform(-1.6, 1.6)), static_cast<float>(rng.uniform(-1.6, 1.6)),
             static_cast<float>(rng.uniform(-7.0, -3.0)), static_cast<float>(rng.uniform(0.3, 1.0))};
    sph.push_back(c);
    packed.insert(packed.end(), {c.x, c.y, c.z, c.r});
  }
  std::vector<float> image(static_cast<std::size_t>(width) * height);
  std::size_t hits = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const float v = ray_pixel(x, y, width, height, sph, lx, ly, lz);
      image[static_cast<std::size_t>(y) * width + x] = v;
      hits += v != 0.0f;
    }
  // A scene the camera misses would test nothing: most pixels must be background, but not all.
  if (hits < image.size() / 10 || hits == image.size())
    throw GenerateError("ray: the spheres cover " + std::to_string(hits) + " of " + std::to_string(image.size()) +
                        " pixels");
  out.write("spheres.bin", packed);
  out.write("image_ref.bin", image);
}

// --- fft: batched 128-point radix-2 FFTs --------------------------------------------------
void gen_fft(Size size, const OutDir& out) {
  const int n = 128, log2n = 7, batches = by_size(size, 16, 1024, 128);
  auto in = random_f32(6401, static_cast<std::size_t>(batches) * n * 2, -1, 1);
  std::vector<float> twiddle(n);  // (cos, sin) of -2 pi k / n, k < n / 2
  for (int k = 0; k < n / 2; ++k) {
    const double a = -2.0 * M_PI * k / n;
    twiddle[static_cast<std::size_t>(2 * k)] = static_cast<float>(std::cos(a));
    twiddle[static_cast<std::size_t>(2 * k + 1)] = static_cast<float>(std::sin(a));
  }
  std::vector<float> res(in.size());
  std::vector<float> re(n), im(n);
  for (int f = 0; f < batches; ++f) {
    const std::size_t base = static_cast<std::size_t>(f) * n;
    for (int t = 0; t < n; ++t) {
      int rev = 0;
      for (int b = 0; b < log2n; ++b) rev |= ((t >> b) & 1) << (log2n - 1 - b);
      re[static_cast<std::size_t>(rev)] = in[2 * (base + static_cast<std::size_t>(t))];
      im[static_cast<std::size_t>(rev)] = in[2 * (base + static_cast<std::size_t>(t)) + 1];
    }
    for (int s = 0; s < log2n; ++s) {
      const int half = 1 << s;
      for (int t = 0; t < n / 2; ++t) {
        const int pos = t & (half - 1);
        const auto i = static_cast<std::size_t>(((t >> s) << (s + 1)) + pos);
        const auto j = i + static_cast<std::size_t>(half);
        const std::size_t w = static_cast<std::size_t>(pos << (log2n - 1 - s));
        const float wx = twiddle[2 * w], wy = twiddle[2 * w + 1];
        const float vx = re[j] * wx - im[j] * wy;
        const float vy = re[j] * wy + im[j] * wx;
        const float ux = re[i], uy = im[i];
        re[i] = ux + vx;
        im[i] = uy + vy;
        re[j] = ux - vx;
        im[j] = uy - vy;
      }
    }
    for (int t = 0; t < n; ++t) {
      res[2 * (base + static_cast<std::size_t>(t))] = re[static_cast<std::size_t>(t)];
      res[2 * (base + static_cast<std::size_t>(t)) + 1] = im[static_cast<std::size_t>(t)];
    }
  }
  out.write("in.bin", in);
  out.write("twiddle.bin", twiddle);
  out.write("out_ref.bin", res);
}

// --- dxtc: DXT1 compression of 4x4 blocks -------------------------------------------------
uint32_t expand565(uint32_t c, int channel) {
  if (channel == 0) {
    const uint32_t v = (c >> 11) & 31u;
    return (v << 3) | (v >> 2);
  }
  if (channel == 1) {
    const uint32_t v = (c >> 5) & 63u;
    return (v << 2) | (v >> 4);
  }
  const uint32_t v = c & 31u;
  return (v << 3) | (v >> 2);
}

void gen_dxtc(Size size, const OutDir& out) {
  // ilp: 131072 blocks = Table 2's 1024 CTAs x 128 threads (a 2048 x 1024 image).
  const int width_blocks = by_size(size, 16, 512, 512), height_blocks = by_size(size, 16, 256, 256);
  const int width = width_blocks * 4, height = height_blocks * 4;
  // Smooth gradients with noise, so blocks have a spread of colours (and a few are flat).
  SplitMix64 rng(6501);
  std::vector<uint32_t> rgba(static_cast<std::size_t>(width) * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const uint32_t noise = static_cast<uint32_t>(rng.next() >> 40);
      const bool flat = ((x / 4) + (y / 4)) % 17 == 0;
      const uint32_t r = flat ? 200u : (static_cast<uint32_t>(x * 3 + y) + (noise & 31u)) & 255u;
      const uint32_t g = flat ? 40u : (static_cast<uint32_t>(y * 5) + ((noise >> 5) & 63u)) & 255u;
      const uint32_t b = flat ? 90u : (static_cast<uint32_t>(x ^ y) + ((noise >> 11) & 15u)) & 255u;
      rgba[static_cast<std::size_t>(y) * width + x] = r | (g << 8) | (b << 16) | (255u << 24);
    }
  const int nblocks = width_blocks * height_blocks;
  std::vector<uint32_t> res(static_cast<std::size_t>(nblocks) * 2);
  for (int blk = 0; blk < nblocks; ++blk) {
    const int bx = blk % width_blocks, by = blk / width_blocks;
    uint32_t texel[16], lo[3] = {255u, 255u, 255u}, hi[3] = {0u, 0u, 0u};
    for (int i = 0; i < 16; ++i) {
      const uint32_t p = rgba[static_cast<std::size_t>(by * 4 + (i >> 2)) * width + bx * 4 + (i & 3)];
      texel[i] = p;
      for (int ch = 0; ch < 3; ++ch) {
        const uint32_t v = (p >> (8 * ch)) & 255u;
        lo[ch] = std::min(lo[ch], v);
        hi[ch] = std::max(hi[ch], v);
      }
    }
    const uint32_t c0 = ((hi[0] >> 3) << 11) | ((hi[1] >> 2) << 5) | (hi[2] >> 3);
    const uint32_t c1 = ((lo[0] >> 3) << 11) | ((lo[1] >> 2) << 5) | (lo[2] >> 3);
    int pal[4][3];
    for (int ch = 0; ch < 3; ++ch) {
      const int e0 = static_cast<int>(expand565(c0, ch)), e1 = static_cast<int>(expand565(c1, ch));
      pal[0][ch] = e0;
      pal[1][ch] = e1;
      pal[2][ch] = (2 * e0 + e1) / 3;
      pal[3][ch] = (e0 + 2 * e1) / 3;
    }
    uint32_t indices = 0;
    if (c0 != c1) {
      for (int i = 0; i < 16; ++i) {
        int best = 0, best_d = 0x7fffffff;
        for (int k = 0; k < 4; ++k) {
          int d = 0;
          for (int ch = 0; ch < 3; ++ch) {
            const int e = static_cast<int>((texel[i] >> (8 * ch)) & 255u) - pal[k][ch];
            d += e * e;
          }
          if (d < best_d) {
            best_d = d;
            best = k;
          }
        }
        indices |= static_cast<uint32_t>(best) << (2 * i);
      }
    }
    res[2 * static_cast<std::size_t>(blk)] = c0 | (c1 << 16);
    res[2 * static_cast<std::size_t>(blk) + 1] = indices;
  }
  out.write("rgba.bin", rgba);
  out.write("blocks_ref.bin", res);
}

// --- scalarprod: one dot product per CTA of 128 -------------------------------------------
void gen_scalarprod(Size size, const OutDir& out) {
  const int threads = 128, n = 256, pairs = by_size(size, 64, 2048, 2048);  // Table 2: (2048, 256)
  const std::size_t total = static_cast<std::size_t>(pairs) * n;
  auto a = random_f32(6601, total, -1, 1), b = random_f32(6602, total, -1, 1);
  std::vector<float> res(static_cast<std::size_t>(pairs));
  std::vector<float> partial(threads);
  for (int p = 0; p < pairs; ++p) {
    const std::size_t base = static_cast<std::size_t>(p) * n;
    for (std::size_t t = 0; t < partial.size(); ++t) {
      float acc = 0.0f;
      for (std::size_t i = t; i < static_cast<std::size_t>(n); i += partial.size())
        acc = std::fma(a[base + i], b[base + i], acc);
      partial[t] = acc;
    }
    for (std::size_t stride = partial.size() / 2; stride > 0; stride >>= 1)
      for (std::size_t t = 0; t < stride; ++t) partial[t] += partial[t + stride];
    res[static_cast<std::size_t>(p)] = partial[0];
  }
  out.write("a.bin", a);
  out.write("b.bin", b);
  out.write("out_ref.bin", res);
}

// --- conv2d: direct 5x5 binomial filter, clamped borders ----------------------------------
void gen_conv2d(Size size, const OutDir& out) {
  const int width = by_size(size, 64, 512, 512), height = width;
  auto in = random_f32(6701, static_cast<std::size_t>(width) * height, 0, 1);
  const float row[5] = {1.0f / 16, 4.0f / 16, 6.0f / 16, 4.0f / 16, 1.0f / 16};
  std::vector<float> res(in.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float acc = 0.0f;
      for (int dy = 0; dy < 5; ++dy)
        for (int dx = 0; dx < 5; ++dx) {
          const int gx = std::min(std::max(x + dx - 2, 0), width - 1);
          const int gy = std::min(std::max(y + dy - 2, 0), height - 1);
          acc = std::fma(in[static_cast<std::size_t>(gy) * width + gx], row[dy] * row[dx], acc);
        }
      res[static_cast<std::size_t>(y) * width + x] = acc;
    }
  out.write("in.bin", in);
  out.write("out_ref.bin", res);
}

// --- sgemv: y = A x, A column-major -------------------------------------------------------
void gen_sgemv(Size size, const OutDir& out) {
  const int rows = by_size(size, 4096, 131072, 131072), cols = 32;  // Table 2: (128K, 32)
  const auto nr = static_cast<std::size_t>(rows), nc = static_cast<std::size_t>(cols);
  auto a = random_f32(6801, nr * nc, -1, 1), x = random_f32(6802, nc, -1, 1);
  std::vector<float> y(nr);
  for (std::size_t r = 0; r < nr; ++r) {
    float acc = 0.0f;
    for (std::size_t c = 0; c < nc; ++c) acc = std::fma(a[c * nr + r], x[c], acc);
    y[r] = acc;
  }
  out.write("a.bin", a);
  out.write("x.bin", x);
  out.write("y_ref.bin", y);
}

}  // namespace

GPUTLM_WORKLOAD_SIZES("nqueen_ilp", "004 NQU: n-queens, CTAs of 96 with 15360 B shared", gen_nqueen_ilp,
                      sizes_with_ilp());
GPUTLM_WORKLOAD_SIZES("storegpu_ilp", "004 STO: chunk hashing, CTAs of 128 with 16 KiB shared", gen_storegpu_ilp,
                      sizes_with_ilp());
GPUTLM_WORKLOAD_SIZES("scan_ilp", "004 Scan: multi-CTA prefix sum, CTAs of 128 (3 launches)", gen_scan_ilp,
                      sizes_with_ilp());
GPUTLM_WORKLOAD_SIZES("ray", "004 RAY: primary + shadow rays vs spheres, hit records in shared", gen_ray,
                      sizes_with_ilp());
GPUTLM_WORKLOAD_SIZES("fft", "004 FFT: 128-point radix-2 FFT per CTA of 64 in shared memory", gen_fft,
                      sizes_with_ilp());
GPUTLM_WORKLOAD_SIZES("dxtc", "004 DT: DXT1 compression, one 4x4 block per thread", gen_dxtc, sizes_with_ilp());
GPUTLM_WORKLOAD_SIZES("scalarprod", "004 SCP: one dot product per CTA, shared-memory tree", gen_scalarprod,
                      sizes_with_ilp());
GPUTLM_WORKLOAD_SIZES("conv2d", "004 Con: direct 5x5 convolution, 16x16 tiles + halo in shared", gen_conv2d,
                      sizes_with_ilp());
GPUTLM_WORKLOAD_SIZES("sgemv", "004 MV: fp32 column-major matrix-vector, one row per thread", gen_sgemv,
                      sizes_with_ilp());

}  // namespace gputlm::workloads
