// Branch-heavy, shared-memory-heavy, barrier and atomic workloads: nqueen, storegpu,
// tailwork, histogram, atomics, scan, reduce, nw.
#include <algorithm>
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

bool place(uint32_t all, int col, uint32_t& cols, uint32_t& ld, uint32_t& rd) {
  uint32_t bit = 1u << col;
  if ((cols | ld | rd) & bit) return false;
  cols |= bit;
  ld = ((ld | bit) << 1) & all;
  rd = (rd | bit) >> 1;
  return true;
}

uint32_t count_completions(uint32_t all, uint32_t cols, uint32_t ld, uint32_t rd) {
  if (cols == all) return 1;
  uint32_t count = 0;
  for (uint32_t av = all & ~(cols | ld | rd); av != 0; av &= av - 1) {
    uint32_t bit = av & (0u - av);
    count += count_completions(all, cols | bit, ((ld | bit) << 1) & all, (rd | bit) >> 1);
  }
  return count;
}

void gen_nqueen(Size size, const OutDir& out) {
  int n = size == Size::kSmall ? 10 : 13;
  const std::vector<uint32_t> counts = nqueen_counts(n);
  uint64_t total = 0;
  for (uint32_t c : counts) total += c;
  out.write("counts_ref.bin", counts);
  std::printf("nqueen: n=%d, %d prefixes, %llu solutions\n", n, n * n * n,
              static_cast<unsigned long long>(total));
}
GPUTLM_WORKLOAD("nqueen", "branch-heavy, 16 KiB shared per CTA: n-queens", gen_nqueen);

uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
}  // namespace

std::vector<uint32_t> nqueen_counts(int n) {
  const int nprefix = n * n * n;
  const uint32_t all = (1u << n) - 1;
  std::vector<uint32_t> counts(static_cast<std::size_t>(nprefix));
  for (int t = 0; t < nprefix; ++t) {
    uint32_t cols = 0, ld = 0, rd = 0;
    bool ok = true;
    for (int r = 0, digits = t; r < 3 && ok; ++r, digits /= n) ok = place(all, digits % n, cols, ld, rd);
    counts[static_cast<std::size_t>(t)] = ok ? count_completions(all, cols, ld, rd) : 0;
  }
  return counts;
}

void write_scan_input(const OutDir& out, uint64_t seed, std::size_t n) {
  auto in = random_u32(seed, n);
  for (auto& v : in) v &= 0xffffu;
  std::vector<uint32_t> res(n);
  uint32_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) res[i] = acc += in[i];
  out.write("in.bin", in);
  out.write("out_ref.bin", res);
}

uint32_t storegpu_digest(const uint32_t* chunk, int words, uint32_t seed) {
  uint32_t h = seed;
  for (int w = 0; w < words; ++w) {
    uint32_t k = chunk[w];
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    k *= 0x1b873593u;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5u + 0xe6546b64u;
  }
  h ^= static_cast<uint32_t>(words) * 4u;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

namespace {
void gen_storegpu(Size size, const OutDir& out) {
  const int words_per_chunk = 128;
  int nchunks = size == Size::kSmall ? 256 : 16384;
  const uint32_t seed = 0x5eed1234u;
  auto data = random_u32(1501, static_cast<std::size_t>(nchunks) * words_per_chunk);
  std::vector<uint32_t> digests(static_cast<std::size_t>(nchunks));
  for (int c = 0; c < nchunks; ++c)
    digests[c] = storegpu_digest(&data[static_cast<std::size_t>(c) * words_per_chunk], words_per_chunk,
                                 seed ^ static_cast<uint32_t>(c));
  out.write("data.bin", data);
  out.write("digests_ref.bin", digests);
}
GPUTLM_WORKLOAD("storegpu", "low TLP, 32 KiB shared per CTA: chunk hashing", gen_storegpu);

void gen_tailwork(Size size, const OutDir& out) {
  int ctas = size == Size::kSmall ? 30 : 36, threads = size == Size::kSmall ? 64 : 256;
  int base_iters = size == Size::kSmall ? 50 : 2000;
  auto seeds = random_u32(1601, static_cast<std::size_t>(ctas) * threads);
  std::vector<uint32_t> res(seeds.size());
  for (int b = 0; b < ctas; ++b) {
    int iters = base_iters * (1 + (b * 7) % 5);
    for (int t = 0; t < threads; ++t) {
      uint32_t x = seeds[static_cast<std::size_t>(b) * threads + t];
      for (int k = 0; k < iters; ++k) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 13;
        x += static_cast<uint32_t>(k);
      }
      res[static_cast<std::size_t>(b) * threads + t] = x;
    }
  }
  out.write("seeds.bin", seeds);
  out.write("out_ref.bin", res);
}
GPUTLM_WORKLOAD("tailwork", "few CTAs of uneven work (KAWS tail effect)", gen_tailwork);

void gen_histogram(Size size, const OutDir& out) {
  std::size_t n = size == Size::kSmall ? 65536 : (1u << 22);
  auto in = random_u32(1701, n);
  // Skew: a quarter of the values repeat one constant, so one bin is hot (atomic contention).
  for (std::size_t i = 0; i < n; i += 4) in[i] = 0x01020304u;
  std::vector<uint32_t> bins(256, 0);
  for (uint32_t v : in) ++bins[(v ^ (v >> 8) ^ (v >> 16)) & 255u];
  out.write("in.bin", in);
  out.write("bins_ref.bin", bins);
}
GPUTLM_WORKLOAD("histogram", "atomics: 256-bin histogram, shared then global atomics",
                gen_histogram);

// Global atomics under contention (one launch per pattern, atomics.cu). Sizes are the
// threads of each launch; the data of add_hist is skewed so one bin is hot.
void gen_atomics(Size size, const OutDir& out) {
  const bool small = size == Size::kSmall;
  const int32_t cas_n = small ? 256 : 1024, add_n = small ? 3840 : 61440;
  const std::size_t hist_n = small ? 16384 : (1u << 20);
  auto in = random_u32(1901, hist_n);
  for (std::size_t i = 0; i < hist_n; i += 8) in[i] = 7;  // an eighth of the values: one bin
  std::vector<int32_t> counters = {cas_n, add_n};
  std::vector<int32_t> warps(static_cast<std::size_t>(add_n / 32), 32);
  std::vector<int32_t> bins(256, 0);
  for (uint32_t v : in) ++bins[v & 255u];
  std::vector<int32_t> own(static_cast<std::size_t>(add_n));
  for (int32_t t = 0; t < add_n; ++t) own[static_cast<std::size_t>(t)] = t;
  out.write("in.bin", in);
  out.write("counters_ref.bin", counters);
  out.write("warps_ref.bin", warps);
  out.write("bins_ref.bin", bins);
  out.write("own_ref.bin", own);
}
GPUTLM_WORKLOAD("atomics", "atomics: one-word CAS loop, one word, per-warp words, histogram bins, uncontended",
                gen_atomics);

void gen_scan(Size size, const OutDir& out) { write_scan_input(out, 1801, size == Size::kSmall ? 8192 : 65536); }
GPUTLM_WORKLOAD("scan", "barriers: multi-CTA inclusive prefix sum (3 launches)", gen_scan);

// Needleman-Wunsch: the (n+1)^2 score matrix of two random sequences over a 4-letter
// alphabet (match +5, mismatch -4, gap penalty 10), row 0 and column 0 preset to
// -penalty * index as the kernels expect; the reference fills it row by row.
void gen_nw(Size size, const OutDir& out) {
  const int n = size == Size::kSmall ? 64 : 512, cols = n + 1, penalty = 10;
  auto a = random_u32(1901, n), b = random_u32(1902, n);
  std::vector<int32_t> reference(std::size_t(cols) * cols, 0), score(std::size_t(cols) * cols, 0);
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) reference[std::size_t(i) * cols + j] = (a[i - 1] & 3) == (b[j - 1] & 3) ? 5 : -4;
  for (int i = 0; i <= n; ++i) {
    score[std::size_t(i) * cols] = -i * penalty;
    score[i] = -i * penalty;
  }
  out.write("reference.bin", reference);
  out.write("score.bin", score);
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) {
      const std::size_t k = std::size_t(i) * cols + j;
      score[k] = std::max({score[k - cols - 1] + reference[k], score[k - 1] - penalty, score[k - cols] - penalty});
    }
  out.write("score_ref.bin", score);
}
GPUTLM_WORKLOAD("nw", "wavefront DP: Needleman-Wunsch in 16x16 shared tiles, one launch per tile diagonal",
                gen_nw);

// One CTA of reduce_sum: grid-stride partial sums, shared-memory tree down to 32, then
// the shfl.down tree, in exactly the kernel's order.
float reduce_cta(const std::vector<float>& in, int cta, int ctas) {
  const int threads = 256;
  float s[threads];
  for (int t = 0; t < threads; ++t) {
    float acc = 0.f;
    for (std::size_t i = static_cast<std::size_t>(cta) * threads + t; i < in.size();
         i += static_cast<std::size_t>(ctas) * threads)
      acc += in[i];
    s[t] = acc;
  }
  for (int w = threads / 2; w >= 32; w >>= 1)
    for (int t = 0; t < w; ++t) s[t] += s[t + w];
  // shfl.down by off: lane t adds lane t+off; lanes past 31 return their own value, but
  // only lane 0's result is kept and it never reads past lane 31.
  for (int off = 16; off > 0; off >>= 1)
    for (int t = 0; t + off < 32; ++t) s[t] += s[t + off];
  return s[0];
}

void gen_reduce(Size size, const OutDir& out) {
  std::size_t n = size == Size::kSmall ? 65536 : (1u << 22);
  int ctas = size == Size::kSmall ? 16 : 256;
  auto in = random_f32(1901, n, 0, 1);
  std::vector<float> partial(static_cast<std::size_t>(ctas));
  for (int b = 0; b < ctas; ++b) partial[b] = reduce_cta(in, b, ctas);
  std::vector<float> total{reduce_cta(partial, 0, 1)};
  out.write("in.bin", in);
  out.write("partial_ref.bin", partial);
  out.write("total_ref.bin", total);
}
GPUTLM_WORKLOAD("reduce", "barriers + shuffles: two-launch float sum", gen_reduce);

}  // namespace
}  // namespace gputlm::workloads
