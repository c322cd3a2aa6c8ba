// SIMT control flow on real nvcc PTX (cu/control.cu): nested divergence reconverging,
// early exit, loops with break/continue; and the executor's error reports.
#include <catch2/catch.hpp>

#include "simt_test_util.h"

using namespace simt_test;

namespace {
const char* kControlPtx = "tests/isa/exec/cu/control.ptx";
}

TEST_CASE("simt: nested divergence computes every path and reconverges", "[simt]") {
  TestDevice dev(kControlPtx);
  const int n = 128;
  uint64_t out = dev.alloc<int>(n, 0), mask = dev.alloc<uint32_t>(n, 0);
  dev.run("nested_divergence", d1(2), d1(64), 0, out, mask);
  auto o = dev.download<int>(out, n);
  auto m = dev.download<uint32_t>(mask, n);
  for (int t = 0; t < n; ++t) {
    int x;
    if (t & 1) {
      if ((t & 3) == 1) x = t * 3;
      else x = t * 5 + (t % 7 == 0 ? 100 : 0);
    } else {
      x = t % 3 == 0 ? -t : t + 1000;
    }
    CHECK(o[t] == x);
    CHECK(m[t] == 0xFFFFFFFFu);  // all 32 lanes active again after the if/else nest
  }
}

TEST_CASE("simt: threads exiting early leave the rest running", "[simt]") {
  TestDevice dev(kControlPtx);
  const int total = 128, live = 70;
  uint64_t out = dev.alloc<int>(total, 12345);
  dev.run("early_exit", d1(1), d1(total), 0, out, live);
  auto o = dev.download<int>(out, total);
  for (int t = 0; t < total; ++t) {
    if (t >= live) {
      CHECK(o[t] == 12345);
      continue;
    }
    int s = 0, r = 0;
    bool left = false;
    for (int i = 0; i < 10 && !left; ++i) {
      s += i * t;
      if (t % 5 == 0 && i == 3) { r = -s; left = true; }
    }
    CHECK(o[t] == (left ? r : s));
  }
}

TEST_CASE("simt: loops with break and continue reconverge at the loop exit", "[simt]") {
  TestDevice dev(kControlPtx);
  const int n = 64;
  uint64_t out = dev.alloc<int>(n, 0), mask = dev.alloc<uint32_t>(n, 0);
  dev.run("loop_break_continue", d1(1), d1(n), 0, out, mask);
  auto o = dev.download<int>(out, n);
  auto m = dev.download<uint32_t>(mask, n);
  for (int t = 0; t < n; ++t) {
    int s = 0;
    for (int i = 0; i < t; ++i) {
      if (i % 3 == 0) continue;
      if (s > 50) break;
      s += i;
      int j = 0;
      while (j * j <= i) ++j;
      s += j;
    }
    CHECK(o[t] == s);
    CHECK(m[t] == 0xFFFFFFFFu);
  }
}

TEST_CASE("simt: an infinite loop ends with an instruction-limit error", "[simt]") {
  TestDevice dev(kControlPtx);
  dev.options.max_warp_instructions = 20000;
  uint64_t flag = dev.alloc<int>(1, 0);
  try {
    dev.run("spin_forever", d1(1), d1(32), 0, flag);
    FAIL("expected an instruction-limit error");
  } catch (const ExecError& e) {
    std::string msg = e.what();
    CHECK_THAT(msg, Catch::Contains("instruction limit of 20000"));
    CHECK_THAT(msg, Catch::Contains("spin_forever"));
    CHECK_THAT(msg, Catch::Contains("PC 0x"));
  }
}

TEST_CASE("simt: an out-of-bounds store names kernel, thread, instruction and address", "[simt]") {
  TestDevice dev(kControlPtx);
  const int n = 32;
  uint64_t p = dev.alloc<int>(n, 0);
  uint64_t bad = p + uint64_t(n + 4096) * 4;
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(bad));
  try {
    dev.run("out_of_bounds", d1(1), d1(32), 0, p, n);
    FAIL("expected an out-of-bounds error");
  } catch (const ExecError& e) {
    std::string msg = e.what();
    CHECK_THAT(msg, Catch::Contains("out-of-bounds global write of 4 bytes"));
    CHECK_THAT(msg, Catch::Contains(hex));
    CHECK_THAT(msg, Catch::Contains("kernel 'out_of_bounds'"));
    CHECK_THAT(msg, Catch::Contains("thread (5,0,0)"));
    CHECK_THAT(msg, Catch::Contains("st.global.u32"));
  }
}

TEST_CASE("simt: a kernel whose entry is unknown is a clear error", "[simt]") {
  TestDevice dev(kControlPtx);
  CHECK_THROWS_WITH(dev.run("no_such_kernel", d1(1), d1(32), 0), Catch::Contains("no_such_kernel"));
}

TEST_CASE("functional: CTAs that wait for each other need resident_ctas > 1", "[functional]") {
  {
    TestDevice dev(kControlPtx);
    dev.options.max_warp_instructions = 50000;
    uint64_t flag = dev.alloc<int>(1, 0), out = dev.alloc<int>(1, 0);
    CHECK_THROWS_WITH(dev.run("cta_handshake", d1(2), d1(64), 0, flag, out), Catch::Contains("instruction limit"));
  }
  TestDevice dev(kControlPtx);
  dev.options.max_warp_instructions = 50000;
  dev.options.resident_ctas = 2;
  uint64_t flag = dev.alloc<int>(1, 0), out = dev.alloc<int>(1, 0);
  ExecCounters c = dev.run("cta_handshake", d1(2), d1(64), 0, flag, out);
  CHECK(dev.download<int>(out, 1)[0] == 42);
  CHECK(c.ctas == 2);
}
