// Atomics, local memory, constant memory and module globals on real nvcc PTX
// (cu/memory.cu), checked against C++ reference computations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "simt_test_util.h"

using namespace simt_test;

namespace {
const char* kMemoryPtx = "tests/isa/exec/cu/memory.ptx";
}

TEST_CASE("simt: histogram with contended global and shared atomics", "[simt]") {
  TestDevice dev(kMemoryPtx);
  const int n = 10000;
  std::vector<uint32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = uint32_t(i * 2654435761u) >> 7;
  uint64_t din = dev.upload(in), hg = dev.alloc<uint32_t>(16, 0), hs = dev.alloc<uint32_t>(16, 0);
  dev.run("histogram", d1(8), d1(128), 0, din, n, hg, hs);
  std::vector<uint32_t> ref(16, 0);
  for (uint32_t v : in) ++ref[v % 16];
  CHECK(dev.download<uint32_t>(hg, 16) == ref);
  CHECK(dev.download<uint32_t>(hs, 16) == ref);
}

TEST_CASE("simt: 64-bit atomics, CAS loop, inc/dec wrap, float atomics", "[simt]") {
  TestDevice dev(kMemoryPtx);
  const int n = 200;
  std::vector<long long> in(n);
  for (int i = 0; i < n; ++i) in[i] = (long long)(i * 7919 % 1000 - 500) * 1000000007LL;
  uint64_t din = dev.upload(in);
  uint64_t sum = dev.alloc<uint64_t>(1, 0), mn = dev.alloc<long long>(1, std::numeric_limits<long long>::max());
  uint64_t mx = dev.alloc<long long>(1, std::numeric_limits<long long>::min());
  uint64_t dmax = dev.alloc<double>(1, -1e300), inc = dev.alloc<uint32_t>(1, 0), dec = dev.alloc<uint32_t>(1, 0);
  uint64_t fsum = dev.alloc<float>(1, 0.0f), dsum = dev.alloc<double>(1, 0.0);
  dev.run("atomics64", d1(4), d1(64), 0, din, n, sum, mn, mx, dmax, inc, dec, fsum, dsum);
  uint64_t rsum = 0;
  long long rmin = in[0], rmax = in[0];
  double rdmax = -1e300, rdsum = 0;
  for (long long v : in) {
    rsum += uint64_t(v);
    rmin = std::min(rmin, v);
    rmax = std::max(rmax, v);
    rdmax = std::max(rdmax, double(v) * 0.5);
    rdsum += double(v);  // integers below 2^53: exact in any order
  }
  CHECK(dev.download<uint64_t>(sum, 1)[0] == rsum);
  CHECK(dev.download<long long>(mn, 1)[0] == rmin);
  CHECK(dev.download<long long>(mx, 1)[0] == rmax);
  CHECK(dev.download<double>(dmax, 1)[0] == rdmax);
  CHECK(dev.download<uint32_t>(inc, 1)[0] == uint32_t(n % 10));       // wraps to 0 after 9
  CHECK(dev.download<uint32_t>(dec, 1)[0] == uint32_t((6 - n % 6) % 6));  // 0 -> 5 -> 4 ... -> 0
  CHECK(dev.download<float>(fsum, 1)[0] == 0.5f * n);
  CHECK(dev.download<double>(dsum, 1)[0] == rdsum);
}

TEST_CASE("simt: per-thread local arrays indexed dynamically", "[simt]") {
  TestDevice dev(kMemoryPtx);
  std::vector<int> idx(64);
  for (int i = 0; i < 64; ++i) idx[i] = (i * 11 + 5) % 97;
  const int n = 96;
  uint64_t didx = dev.upload(idx), out = dev.alloc<int>(n, 0);
  dev.run("local_array", d1(3), d1(32), 0, didx, out);
  auto o = dev.download<int>(out, n);
  for (int t = 0; t < n; ++t) {
    int s = 0;
    for (int k = 0; k < 6; ++k) s += (idx[(t + k) % 64] % 24) * t + 1;
    CHECK(o[t] == s);
  }
}

TEST_CASE("simt: constant memory and initialised module globals", "[simt]") {
  TestDevice dev(kMemoryPtx);
  const float c[8] = {1.0f, 0.5f, 0.25f, 0.125f, 2.0f, 4.0f, 8.0f, 16.0f};
  std::vector<float> in(64);
  for (int i = 0; i < 64; ++i) in[i] = float(i) * 0.75f - 7.0f;
  uint64_t din = dev.upload(in), out = dev.alloc<float>(64, 0.0f), gout = dev.alloc<long long>(2, 0);
  dev.run("constants", d1(1), d1(64), 0, din, out, gout);
  auto o = dev.download<float>(out, 64);
  for (int t = 0; t < 64; ++t) CHECK(o[t] == std::fma(in[t], c[t % 8], c[(t + 3) % 8]));  // fma.rn.f32 in the PTX
  auto g = dev.download<long long>(gout, 2);
  CHECK(g[0] == 7);
  CHECK(g[1] == 100);
  int counter = 0;
  dev.module().read_symbol("g_counter", 0, &counter, 4);
  CHECK(counter == 99);
  // Constant memory written from the host (cudaMemcpyToSymbol) is what the kernel reads.
  float twos[8] = {2, 2, 2, 2, 2, 2, 2, 2};
  dev.module().write_symbol("c_coeffs", 0, twos, sizeof twos);
  dev.run("constants", d1(1), d1(64), 0, din, out, gout);
  o = dev.download<float>(out, 64);
  for (int t = 0; t < 64; ++t) CHECK(o[t] == std::fma(in[t], 2.0f, 2.0f));
  CHECK_THROWS_WITH(dev.module().write_symbol("c_coeffs", 4, twos, sizeof twos), Catch::Contains("exceeds symbol"));
}

TEST_CASE("functional: counters are consistent and runs are deterministic for any quantum", "[functional]") {
  std::vector<uint32_t> in(5000);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint32_t(i * 40503u) >> 3;
  ExecCounters first{};
  std::vector<uint32_t> first_hist;
  for (uint32_t quantum : {1u, 7u, 1024u}) {
    TestDevice dev(kMemoryPtx);
    dev.options.quantum = quantum;
    uint64_t din = dev.upload(in), hg = dev.alloc<uint32_t>(16, 0), hs = dev.alloc<uint32_t>(16, 0);
    ExecCounters c = dev.run("histogram", d1(4), d1(96), 0, din, int(in.size()), hg, hs);
    auto hist = dev.download<uint32_t>(hg, 16);
    uint64_t per_class = 0;
    for (uint64_t v : c.per_class) per_class += v;
    CHECK(per_class == c.warp_instructions);
    CHECK(c.thread_instructions <= 32 * c.warp_instructions);
    CHECK(c.thread_instructions > 0);
    CHECK(c.ctas == 4);
    CHECK(c.per_class[size_t(OpClass::Atomic)] > 0);
    CHECK(c.per_class[size_t(OpClass::Barrier)] == 2 * 4 * 3);  // 2 barriers x 4 CTAs x 3 warps
    if (quantum == 1) {
      first = c;
      first_hist = hist;
    } else {
      // Same instructions whatever the interleaving of warps (the kernel is race-free).
      CHECK(c.warp_instructions == first.warp_instructions);
      CHECK(c.thread_instructions == first.thread_instructions);
      CHECK(hist == first_hist);
    }
  }
}

TEST_CASE("simt: module variables initialised with addresses of other variables", "[simt]") {
  // cu/relocations.cu: `__device__ int* second = &table[1]` and friends; nvcc writes
  // them as generic(sym)+offset initialisers that the loader patches.
  TestDevice dev("tests/isa/exec/cu/relocations.ptx");
  uint64_t out = dev.alloc<int>(5, 0);
  dev.run("read_through_pointers", d1(1), d1(1), 0, out);
  CHECK(dev.download<int>(out, 5) == std::vector<int>{20, 40, 10, 9, 99});
}
