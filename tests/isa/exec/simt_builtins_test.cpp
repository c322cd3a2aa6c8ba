// Device printf (vprintf) and assert (__assertfail) on nvcc PTX (cu/printf.cu).
#include <catch2/catch.hpp>

#include <sstream>

#include "simt_test_util.h"

using namespace simt_test;

TEST_CASE("simt: device printf formats every lane's arguments in lane order", "[simt]") {
  TestDevice dev("tests/isa/exec/cu/printf.ptx");
  std::ostringstream os;
  dev.options.printf_output = &os;
  uint64_t none = 0;
  dev.run("hello", d1(1), d1(32), 0, 1000, 1.5f, none);
  CHECK(os.str() ==
        "t=0 v=0 f=0.00 hex=ff other|\n"
        "t=1 v=1000 f=1.50 hex=100 one|\n"
        "t=2 v=2000 f=3.00 hex=101 other|\n");
}

TEST_CASE("simt: a failing device assert is an error with its message", "[simt]") {
  TestDevice dev("tests/isa/exec/cu/printf.ptx");
  std::vector<int> v(32, 1);
  v[7] = -3;
  uint64_t dv = dev.upload(v);
  CHECK_THROWS_WITH(dev.run("check", d1(1), d1(32), 0, dv),
                    Catch::Contains("device assertion 'v[threadIdx.x] >= 0' failed") &&
                        Catch::Contains("printf.cu") && Catch::Contains("thread (7,0,0)"));
  std::vector<int> ok(32, 2);
  uint64_t dok = dev.upload(ok);
  CHECK_NOTHROW(dev.run("check", d1(1), d1(32), 0, dok));
}

TEST_CASE("simt: device malloc and free", "[simt]") {
  TestDevice dev("tests/isa/exec/cu/printf.ptx");
  uint64_t out = dev.alloc<int>(64, -1);
  size_t live_before = dev.memory().allocator.live().size();
  dev.run("heap", d1(1), d1(64), 0, out);
  auto o = dev.download<int>(out, 64);
  for (int t = 0; t < 64; ++t) CHECK(o[t] == t * (t * (t + 1) / 2));
  CHECK(dev.memory().allocator.live().size() == live_before);  // every allocation was freed
}
