// Microbenchmarks (workloads/micro/<name>/, docs/platforms/fermi_micro.md): inputs and CPU
// references of their checked outputs. Their timing buffers are written unchecked;
// `gputlm micro` turns them into latencies and throughputs. Small size only (registered
// so: workload-gen refuses any other size before writing).
#include <cmath>

#include "workload_gen.h"

namespace gputlm::workloads {
namespace {

void need_small(Size size, const char* name) {
  if (size != Size::kSmall) throw GenerateError(std::string(name) + " has only a small size");
}

// Pointer chase (latency.cu): a code warm-up launch, then four regions of one word per
// 128 B line, 32 words apart. L1: 4 KB cycle; L2: 64 KB cycle; DRAM: a line sequence read
// cold, and a 1 MB cycle (larger than the 768 KB L2) after one warm-up pass. Region
// starts and steps repeat spec_small.json's launches.
void gen_latency(Size size, const OutDir& out) {
  need_small(size, "micro/latency");
  const uint32_t kStride = 32;
  const uint32_t starts[] = {0, 1024, 17408, 21504, 21504 + 262144};  // L1, L2, DRAM cold, DRAM > L2, end
  const uint32_t l1 = starts[0], l2 = starts[1], dram = starts[2], big = starts[3];
  std::vector<uint32_t> a(starts[4]);
  for (int r = 0; r < 4; ++r)
    for (uint32_t i = starts[r]; i < starts[r + 1]; ++i)
      a[i] = starts[r] + (i - starts[r] + kStride) % (starts[r + 1] - starts[r]);
  struct Launch { uint32_t start; int warm, steps; };
  const Launch launches[] = {{l1, 4, 4}, {l1, 32, 64},  {l1, 32, 128}, {l2, 512, 64},
                             {l2, 512, 128}, {dram, 0, 32}, {dram + 32 * kStride, 0, 64},
                             {big, 8192, 64}, {big, 8192, 128}};
  std::vector<uint32_t> result;
  for (const Launch& l : launches) {
    uint32_t j = l.start;
    for (int i = 0; i < l.warm; ++i) j = a[j];
    result.push_back(j);
    for (int i = 0; i < l.steps; ++i) j = a[j];
    result.push_back(j);
  }
  out.write("chain.bin", a);
  out.write("result_ref.bin", result);
}
GPUTLM_WORKLOAD_SIZES("micro/latency", "microbenchmark: pointer-chase latency in L1, L2 and DRAM", gen_latency, {Size::kSmall});

// Streaming 16-byte loads (bandwidth.cu) over u32 a[i] = i: uint4 q holds 4q .. 4q+3.
// passes = the summed ones: L1 sums only its warm-up pass (its timed loads are sunk).
void gen_bandwidth(Size size, const OutDir& out) {
  need_small(size, "micro/bandwidth");
  const uint32_t ctas = 15, threads = 1024;
  struct Launch { uint32_t base, cta_chunks, warp_first, step, n, passes; };
  const Launch launches[] = {{0, 0, 0, 1, 16, 1}, {512, 64, 1, 32, 2, 1 + 4}, {31232, 256, 1, 32, 8, 1}};
  std::vector<uint32_t> sums;
  for (const Launch& l : launches)
    for (uint32_t b = 0; b < ctas; ++b)
      for (uint32_t t = 0; t < threads; ++t) {
        const uint32_t first = l.base + b * l.cta_chunks * 32 + (t >> 5) * l.warp_first * 32 + (t & 31);
        uint32_t s = 0;
        for (uint32_t k = 0; k < l.n; ++k) s += 16 * (first + 32 * k * l.step) + 6;
        sums.push_back(s * l.passes);
      }
  out.write("sums_ref.bin", sums);
}
GPUTLM_WORKLOAD_SIZES("micro/bandwidth", "microbenchmark: L1, L2 and DRAM load bandwidth", gen_bandwidth, {Size::kSmall});

// Shared-memory banks (shared.cu): each thread's words of the last iteration, summed.
void gen_shared(Size size, const OutDir& out) {
  need_small(size, "micro/shared");
  const uint32_t threads = 512, iters = 8;
  auto in = random_u32(2101, 4096);
  std::vector<uint32_t> sums;
  for (uint32_t stride = 1; stride <= 32; stride *= 2)
    for (uint32_t t = 0; t < threads; ++t) {
      const uint32_t p = ((t & 31) * stride + 512 * (iters - 1)) & 2047;
      uint32_t s = 0;
      for (uint32_t k = 0; k < 16; ++k) s += in[p + 32 * k];
      sums.push_back(s);
    }
  out.write("in.bin", in);
  out.write("sums_ref.bin", sums);
}
GPUTLM_WORKLOAD_SIZES("micro/shared", "microbenchmark: shared-memory bank conflicts, stride 1 to 32", gen_shared, {Size::kSmall});

// Arithmetic throughput (sfu.cu; 1 untimed + iters timed steps), with the functional model's sin.approx / rsqrt.approx
// (float_semantics.cpp: std::sin in float, 1 / sqrt in double).
void gen_sfu(Size size, const OutDir& out) {
  need_small(size, "micro/sfu");
  const int threads = 512, iters = 32;
  std::vector<float> res;
  for (int t = 0; t < threads; ++t) {
    float x[4];
    for (int c = 0; c < 4; ++c) x[c] = static_cast<float>(t) * (1.0f / 512) + 0.25f * static_cast<float>(c);
    for (int i = 0; i < 1 + iters; ++i)
      for (float& v : x) v = std::sin(v);
    res.push_back(x[0] + x[1] + x[2] + x[3]);
  }
  for (int t = 0; t < threads; ++t) {
    float x[4];
    x[0] = 1.0f + static_cast<float>(t) * (1.0f / 512);
    for (int c = 1; c < 4; ++c) x[c] = x[0] + 0.25f * static_cast<float>(c);
    for (int i = 0; i < 1 + iters; ++i)
      for (float& v : x) v = static_cast<float>(1.0 / std::sqrt(static_cast<double>(v)));
    res.push_back(x[0] + x[1] + x[2] + x[3]);
  }
  for (int t = 0; t < threads; ++t) {
    float x[8], s = 0;
    for (int c = 0; c < 8; ++c) x[c] = static_cast<float>(t) * (1.0f / 512) + 0.125f * static_cast<float>(c);
    for (int i = 0; i < (1 + iters) * 4; ++i)
      for (float& v : x) v = std::fma(v, 0.5f, 0.25f);
    for (float v : x) s += v;
    res.push_back(s);
  }
  out.write("out_ref.bin", res);
}
GPUTLM_WORKLOAD_SIZES("micro/sfu", "microbenchmark: SFU (sin, rsqrt) and FP32 fma throughput", gen_sfu, {Size::kSmall});

// Global atomics (atomic.cu): 3840 threads x 4 atomicAdd(+1) on one word, per-warp
// words, own words. The returned values on a word of n increments are 0 .. n-1.
void gen_atomic(Size size, const OutDir& out) {
  need_small(size, "micro/atomic");
  const uint32_t threads = 3840, iters = 4;
  auto tri = [](uint32_t n) { return n * (n - 1) / 2; };
  const uint32_t n_one = threads * iters, n_warp = 32 * iters;
  out.write("one_ref.bin", std::vector<uint32_t>{n_one});
  out.write("warp_ref.bin", std::vector<uint32_t>(threads / 32, n_warp));
  out.write("own_ref.bin", std::vector<uint32_t>(threads, iters));
  out.write("total_ref.bin", std::vector<uint32_t>{tri(n_one), threads / 32 * tri(n_warp), threads * tri(iters)});
}
GPUTLM_WORKLOAD_SIZES("micro/atomic", "microbenchmark: global atomicAdd on one word, per-warp words, own words",
                      gen_atomic, {Size::kSmall});

// Divergence (divergence.cu): lane l runs path l mod paths; each lane's x after 1 + reps.
void gen_divergence(Size size, const OutDir& out) {
  need_small(size, "micro/divergence");
  const uint32_t seed = 12345, reps = 4;
  std::vector<uint32_t> res;
  for (uint32_t paths = 1; paths <= 32; paths *= 2)
    for (uint32_t l = 0; l < 32; ++l) {
      uint32_t x = seed ^ l;
      const uint32_t p = l & (paths - 1);
      for (uint32_t r = 0; r <= reps; ++r)
        for (int k = 0; k < 8; ++k) {
          x = x * 1664525u + 1013904223u + p;
          x ^= x >> 13;
        }
      res.push_back(x);
    }
  out.write("out_ref.bin", res);
}
GPUTLM_WORKLOAD_SIZES("micro/divergence", "microbenchmark: branch divergence, 1 to 32 paths per warp", gen_divergence, {Size::kSmall});

}  // namespace
}  // namespace gputlm::workloads
