// Workloads shaped like the ELF paper's irregular suite members: btree, particlefilter,
// radixsort, tpacf. Data-dependent control flow and addresses; the CPU references
// compute the same results (tpacf's float dot products in the kernel's fma order).
#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

// --- btree: B+tree of order 64 stored as an array of nodes, one CTA per query ------------
constexpr int kBtOrder = 64, kBtNodeInts = 2 * (kBtOrder + 1), kBtFill = 48;

void gen_btree(Size size, const OutDir& out) {
  int nrec = size == Size::kSmall ? 16384 : (1 << 20);
  int nq = size == Size::kSmall ? 64 : 8192;
  SplitMix64 rng(3601);
  std::vector<int32_t> rec_keys(nrec), records(nrec);
  int32_t k = 0;
  for (int i = 0; i < nrec; ++i) {
    k += static_cast<int32_t>(rng.uniform_int(1, 1000));
    rec_keys[i] = k;
    records[i] = static_cast<int32_t>(rng.uniform_int(0, (1 << 30) - 1));
  }
  // Levels bottom-up: a node is (keys, children); leaves point at records.
  struct Node {
    std::vector<int32_t> keys, idx;
  };
  std::vector<std::vector<Node>> levels(1);
  for (int i = 0; i < nrec; i += kBtFill) {
    Node nd;
    for (int j = i; j < std::min(i + kBtFill, nrec); ++j) {
      nd.keys.push_back(rec_keys[j]);
      nd.idx.push_back(j);
    }
    levels[0].push_back(nd);
  }
  while (levels.back().size() > 1) {
    const auto& below = levels.back();
    std::vector<Node> up;
    for (std::size_t i = 0; i < below.size(); i += kBtFill) {
      Node nd;
      for (std::size_t j = i; j < std::min(i + kBtFill, below.size()); ++j) {
        nd.keys.push_back(below[j].keys[0]);
        nd.idx.push_back(static_cast<int32_t>(j));  // index within the level below, fixed up next
      }
      up.push_back(nd);
    }
    levels.push_back(up);
  }
  // Number nodes top-down (root 0), level by level.
  int height = static_cast<int>(levels.size()) - 1;
  std::vector<int> first(levels.size());
  int total = 0;
  for (int l = height; l >= 0; --l) {
    first[l] = total;
    total += static_cast<int>(levels[l].size());
  }
  std::vector<int32_t> knodes(static_cast<std::size_t>(total) * kBtNodeInts, 0);
  for (int l = height; l >= 0; --l)
    for (std::size_t n = 0; n < levels[l].size(); ++n) {
      int32_t* p = &knodes[static_cast<std::size_t>(first[l] + n) * kBtNodeInts];
      const Node& nd = levels[l][n];
      for (int j = 0; j <= kBtOrder; ++j) p[j] = j < static_cast<int>(nd.keys.size()) ? nd.keys[j] : INT_MAX;
      for (std::size_t j = 0; j < nd.idx.size(); ++j)
        p[kBtOrder + 1 + j] = l == 0 ? nd.idx[j] : first[l - 1] + nd.idx[j];
    }
  // Queries: 3 of 4 an existing key, the rest any key in range (mostly misses).
  std::vector<int32_t> keys(nq), ans(nq, -1);
  for (int q = 0; q < nq; ++q) {
    if (rng.uniform_int(0, 3) != 0) {
      int r = static_cast<int>(rng.uniform_int(0, nrec - 1));
      keys[q] = rec_keys[r];
    } else {
      keys[q] = static_cast<int32_t>(rng.uniform_int(rec_keys[0], rec_keys[nrec - 1]));
    }
    auto it = std::lower_bound(rec_keys.begin(), rec_keys.end(), keys[q]);
    if (it != rec_keys.end() && *it == keys[q]) ans[q] = records[it - rec_keys.begin()];
  }
  out.write("knodes.bin", knodes);
  out.write("records.bin", records);
  out.write("keys.bin", keys);
  out.write("ans_ref.bin", ans);
  std::printf("btree: %d records, %d nodes, height %d, %d queries\n", nrec, total, height, nq);
}
GPUTLM_WORKLOAD("btree", "ELF/Rodinia B+tree findK: one CTA per query walks root to leaf",
                gen_btree);

// --- particlefilter: likelihood + normalize -------------------------------------------------
void gen_particlefilter(Size size, const OutDir& out) {
  int np = size == Size::kSmall ? 4096 : (1 << 18);
  const int block = 256, isz = 128, radius = 3;
  int nblocks = (np + block - 1) / block;
  SplitMix64 rng(3701);
  std::vector<uint8_t> frame(static_cast<std::size_t>(isz) * isz);
  const int ox = 64, oy = 64, orad = 6;  // the object: a disk of intensity 140 on 100
  for (int x = 0; x < isz; ++x)
    for (int y = 0; y < isz; ++y) {
      int base = (x - ox) * (x - ox) + (y - oy) * (y - oy) <= orad * orad ? 140 : 100;
      frame[static_cast<std::size_t>(x) * isz + y] = static_cast<uint8_t>(base + rng.uniform_int(0, 20) - 10);
    }
  std::vector<int32_t> objxy;  // (dy, dx) pairs of the disk's offsets
  for (int dx = -radius; dx <= radius; ++dx)
    for (int dy = -radius; dy <= radius; ++dy)
      if (dx * dx + dy * dy <= radius * radius) {
        objxy.push_back(dy);
        objxy.push_back(dx);
      }
  int count = static_cast<int>(objxy.size() / 2);
  auto ax = random_f32(3702, np, ox - 6, ox + 6), ay = random_f32(3703, np, oy - 6, oy + 6);
  auto nx = random_f32(3704, np, -1, 1), ny = random_f32(3705, np, -1, 1);
  out.write("frame.bin", frame);
  out.write("objxy.bin", objxy);
  out.write("array_x.bin", ax);
  out.write("array_y.bin", ay);
  out.write("noise_x.bin", nx);
  out.write("noise_y.bin", ny);
  std::vector<float> w(np), partial(nblocks);
  for (int i = 0; i < np; ++i) {
    float x = std::fma(nx[i], 5.0f, ax[i] + 1.0f), y = std::fma(ny[i], 2.0f, ay[i] - 2.0f);
    ax[i] = x;
    ay[i] = y;
    int rx = static_cast<int>(std::floor(x + 0.5f)), ry = static_cast<int>(std::floor(y + 0.5f));
    float sum = 0.f;
    for (int k = 0; k < count; ++k) {
      int ind = std::abs((rx + objxy[k * 2 + 1]) * isz + ry + objxy[k * 2]);
      if (ind >= isz * isz) ind = 0;
      float v = frame[ind];
      sum = sum + ((v - 100.f) * (v - 100.f) - (v - 140.f) * (v - 140.f)) / 50.f;
    }
    float lik = sum / static_cast<float>(count);
    w[i] = (1.0f / static_cast<float>(np)) * std::exp(lik);
  }
  for (int b = 0; b < nblocks; ++b) {
    std::vector<float> buf(block, 0.f);
    for (int t = 0; t < block && b * block + t < np; ++t) buf[t] = w[b * block + t];
    for (int s = block / 2; s > 0; s >>= 1)
      for (int t = 0; t < s; ++t) buf[t] = buf[t] + buf[t + s];
    partial[b] = buf[0];
  }
  float total = 0.f;
  for (float p : partial) total = total + p;
  for (auto& v : w) v = v / total;
  out.write("array_x_ref.bin", ax);
  out.write("array_y_ref.bin", ay);
  out.write("weights_ref.bin", w);
  out.write("partial_ref.bin", partial);
  std::printf("particlefilter: %d particles, %d offsets\n", np, count);
}
GPUTLM_WORKLOAD("particlefilter", "ELF/Rodinia PF: per-particle pixel gathers, expf, reductions",
                gen_particlefilter);

// --- radixsort: 4 passes of 4 bits over 16-bit keys; stable -----------------------------------
void gen_radixsort(Size size, const OutDir& out) {
  std::size_t n = size == Size::kSmall ? 4096 : (std::size_t{1} << 18);
  SplitMix64 rng(3801);
  std::vector<uint32_t> keys(n), vals(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = static_cast<uint32_t>(rng.uniform_int(0, 65535));
    vals[i] = static_cast<uint32_t>(i);
  }
  out.write("keys.bin", keys);
  out.write("vals.bin", vals);
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  std::vector<uint32_t> sk(n), sv(n);
  for (std::size_t i = 0; i < n; ++i) {
    sk[i] = keys[order[i]];
    sv[i] = vals[order[i]];
  }
  out.write("keys_ref.bin", sk);
  out.write("vals_ref.bin", sv);
}
GPUTLM_WORKLOAD("radixsort", "ELF/SDK RS: block sort + offsets + scan + reorder, 4 passes",
                gen_radixsort);

// --- tpacf: angular-distance histogram of point pairs -----------------------------------------
constexpr int kTpBins = 32;
constexpr double kPi = 3.14159265358979323846;

void gen_tpacf(Size size, const OutDir& out) {
  int n = size == Size::kSmall ? 512 : 4096;
  SplitMix64 rng(3901);
  std::vector<float> px(n), py(n), pz(n);
  for (int i = 0; i < n; ++i) {
    double z = rng.uniform(-1, 1), phi = rng.uniform(0, 2 * kPi), rr = std::sqrt(1 - z * z);
    px[i] = static_cast<float>(rr * std::cos(phi));
    py[i] = static_cast<float>(rr * std::sin(phi));
    pz[i] = static_cast<float>(z);
  }
  // Descending cosines of angles log-spaced from 0.5 to 179 degrees; sentinels 2 and -2.
  std::vector<float> binb(kTpBins + 1);
  binb[0] = 2.0f;
  binb[kTpBins] = -2.0f;
  for (int k = 1; k < kTpBins; ++k) {
    double deg = 0.5 * std::pow(179.0 / 0.5, (k - 1) / double(kTpBins - 2));
    binb[k] = static_cast<float>(std::cos(deg * kPi / 180.0));
  }
  std::vector<uint32_t> hist(kTpBins, 0);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      float dot = std::fma(pz[i], pz[j], std::fma(px[i], px[j], py[i] * py[j]));
      int lo = 0, hi = kTpBins;
      while (hi > lo + 1) {
        int mid = (lo + hi) / 2;
        if (dot >= binb[mid]) hi = mid;
        else lo = mid;
      }
      ++hist[lo];
    }
  out.write("px.bin", px);
  out.write("py.bin", py);
  out.write("pz.bin", pz);
  out.write("binb.bin", binb);
  out.write("hist_ref.bin", hist);
}
GPUTLM_WORKLOAD("tpacf", "ELF/Parboil TPACF: pair angles, constant-memory binary search, atomics",
                gen_tpacf);

}  // namespace
}  // namespace gputlm::workloads
