// CTA barriers and shared memory on real nvcc PTX (cu/sync.cu).
#include <catch2/catch.hpp>

#include "simt_test_util.h"

using namespace simt_test;

namespace {
const char* kSyncPtx = "tests/isa/exec/cu/sync.ptx";
}

TEST_CASE("simt: barriers complete when the threads that exited no longer count", "[simt]") {
  TestDevice dev(kSyncPtx);
  const int ctas = 3, block = 128, live = 48;  // warps 2, 3 exit whole; warp 1 exits half
  std::vector<int> in(ctas * block);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int(i * 7 % 31) - 9;
  uint64_t din = dev.upload(in), dout = dev.alloc<int>(ctas, 0);
  dev.run("barrier_with_exited", d1(ctas), d1(block), 0, din, dout, live);
  auto out = dev.download<int>(dout, ctas);
  for (int b = 0; b < ctas; ++b) {
    int s = 0;
    for (int i = 0; i < live; ++i) s += in[b * block + i];
    CHECK(out[b] == s);
  }
}

TEST_CASE("simt: shared-memory tree reduction in dynamic shared memory", "[simt]") {
  TestDevice dev(kSyncPtx);
  const int n = 5000, block = 256, grid = (n + 2 * block - 1) / (2 * block);
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float((i * 37) % 101) * 0.25f - 3.0f;
  uint64_t din = dev.upload(in), dout = dev.alloc<float>(grid, 0.0f);
  dev.run("shared_reduce", d1(grid), d1(block), block * 4, din, dout, n);
  auto out = dev.download<float>(dout, grid);
  for (int b = 0; b < grid; ++b) {
    std::vector<float> s(block);
    for (int t = 0; t < block; ++t) {
      int i = b * block * 2 + t;
      float v = 0.0f;
      if (i < n) v += in[i];
      if (i + block < n) v += in[i + block];
      s[t] = v;
    }
    for (int h = block / 2; h > 0; h >>= 1)
      for (int t = 0; t < h; ++t) s[t] += s[t + h];
    CHECK(out[b] == s[0]);  // same association order: bit-exact
  }
}

TEST_CASE("simt: bar.red popc/and/or (syncthreads_count/and/or)", "[simt]") {
  TestDevice dev(kSyncPtx);
  const int ctas = 2, block = 96;
  std::vector<int> in(ctas * block);
  for (int i = 0; i < ctas * block; ++i) in[i] = (i * 13) % 40;
  in[block + 5] = 42;   // CTA 1 has a 42
  in[block + 7] = -1;   // ...and a negative value
  uint64_t din = dev.upload(in), dout = dev.alloc<int>(ctas * 3, -7);
  dev.run("barrier_reductions", d1(ctas), d1(block), 0, din, dout);
  auto out = dev.download<int>(dout, ctas * 3);
  for (int b = 0; b < ctas; ++b) {
    int cnt = 0;
    bool all = true, any = false;
    for (int t = 0; t < block; ++t) {
      int v = in[b * block + t];
      cnt += v > 10;
      all = all && v >= 0;
      any = any || v == 42;
    }
    CHECK(out[b * 3 + 0] == cnt);
    CHECK((out[b * 3 + 1] != 0) == all);
    CHECK((out[b * 3 + 2] != 0) == any);
  }
  CHECK(out[2 * 0 + 2] == 0);  // CTA 0 has no 42 (values are 0..39)
}

TEST_CASE("simt: a barrier deadlock is reported with the CTA and every warp's PC", "[simt]") {
  TestDevice dev(kSyncPtx);
  uint64_t out = dev.alloc<int>(64, 0);
  try {
    dev.run("barrier_deadlock", d1(1), d1(64), 0, out);
    FAIL("expected a deadlock error");
  } catch (const ExecError& e) {
    std::string msg = e.what();
    CHECK_THAT(msg, Catch::Contains("deadlock in kernel 'barrier_deadlock', CTA (0,0,0)"));
    CHECK_THAT(msg, Catch::Contains("warp 0 at PC 0x"));
    CHECK_THAT(msg, Catch::Contains("warp 1 at PC 0x"));
    CHECK_THAT(msg, Catch::Contains("barrier 1"));
    CHECK_THAT(msg, Catch::Contains("barrier 2"));
  }
}
