// runtime: the host API (malloc, memcpy, memset, symbols, launch, synchronize) on the
// functional backend, and its error reporting.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "runtime/runtime.h"
#include "test_support.h"

using namespace gputlm::runtime;
using namespace gputlm::runtime::test;

TEST_CASE("runtime malloc, memcpy, launch and synchronize run saxpy", "[runtime]") {
  Runtime rt;
  ModuleId m = rt.load_module(saxpy_ptx());
  const int n = 1000;  // not a multiple of the block: the kernel's bound check matters
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = static_cast<float>(3 * i);
  }
  DevicePtr dx = rt.malloc(n * 4), dy = rt.malloc(n * 4);
  REQUIRE(dx.addr != 0);
  REQUIRE(dx.addr % 256 == 0);
  rt.memcpy_to_device(dx, x.data(), n * 4);
  rt.memcpy_to_device(dy, y.data(), n * 4);
  std::size_t id = rt.launch(m, "saxpy", {(n + 255) / 256}, {256}, 0, {n, 0.5f, dx, dy});
  rt.synchronize();
  REQUIRE(rt.results().size() == 1);
  const LaunchResult& r = rt.results()[id];
  CHECK(r.kernel == "saxpy");
  CHECK(r.ctas == 4);
  CHECK(r.warp_instructions > 0);
  CHECK(r.thread_instructions > r.warp_instructions);
  REQUIRE(r.resources.has_value());  // saxpy.resources.json sits beside the PTX
  CHECK(r.resources->registers > 0);
  std::vector<float> out(n);
  rt.memcpy_to_host(out.data(), dy, n * 4);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == 0.5f * x[i] + y[i]);
  rt.free(dx);
  rt.free(dy);
}

TEST_CASE("runtime converts arguments to each declared parameter type", "[runtime]") {
  Runtime rt;
  ModuleId m = rt.load_module(params_ptx());
  DevicePtr out = rt.malloc(6 * 8);
  rt.memset(out, 0xab, 6 * 8);
  // short is declared .u16 by nvcc, so -2 is stored as its two's complement.
  rt.launch(m, "store_params", {1}, {32}, 0, {255, -2, -5, 1ull << 40, 1.5f, 2.25, out});
  rt.synchronize();
  uint64_t v[6];
  rt.memcpy_to_host(v, out, sizeof v);
  CHECK(v[0] == 255);
  CHECK(v[1] == static_cast<uint64_t>(int64_t{-2}));  // the kernel sign-extends its short
  CHECK(v[2] == static_cast<uint64_t>(int64_t{-5}));
  CHECK(v[3] == (1ull << 40));
  float e;
  uint32_t ebits = static_cast<uint32_t>(v[4]);
  std::memcpy(&e, &ebits, 4);
  CHECK(e == 1.5f);
  double f;
  std::memcpy(&f, &v[5], 8);
  CHECK(f == 2.25);
}

TEST_CASE("runtime rejects arguments out of range, of the wrong kind or count", "[runtime]") {
  Runtime rt;
  ModuleId m = rt.load_module(params_ptx());
  DevicePtr out = rt.malloc(64);
  try {
    rt.launch(m, "store_params", {1}, {32}, 0, {300, 0, 0, 0, 0.f, 0.0, out});
    FAIL("300 for a .u8 parameter was accepted");
  } catch (const ArgError& e) {
    CHECK(e.index() == 0);
    CHECK_THAT(e.what(), Catch::Contains("300 is out of range for u8"));
  }
  try {
    rt.launch(m, "store_params", {1}, {32}, 0, {1, 0, 1.5, 0, 0.f, 0.0, out});
    FAIL("1.5 for an integer parameter was accepted");
  } catch (const ArgError& e) {
    CHECK(e.index() == 2);
    CHECK_THAT(e.what(), Catch::Contains("not an integer"));
  }
  CHECK_THROWS_WITH(rt.launch(m, "store_params", {1}, {32}, 0, {1, 2}),
                    Catch::Contains("takes 7 parameters, but 2"));
  CHECK_THROWS_WITH(rt.launch(m, "store_param_typo", {1}, {32}, 0, {}), Catch::Contains("store_param_typo"));
}

TEST_CASE("runtime copies to and from __constant__ and __device__ symbols", "[runtime]") {
  Runtime rt;
  ModuleId m = rt.load_module(params_ptx());
  int table[4] = {10, 20, 30, 40};
  rt.copy_to_symbol(m, "kTable", table, sizeof table);
  DevicePtr out = rt.malloc(16);
  int init[4] = {1, 2, 3, 4};
  rt.memcpy_to_device(out, init, sizeof init);
  rt.launch(m, "use_symbols", {1}, {32}, 0, {out});
  rt.launch(m, "use_symbols", {1}, {32}, 0, {out});
  rt.synchronize();
  int got[4];
  rt.memcpy_to_host(got, out, sizeof got);
  for (int i = 0; i < 4; ++i) CHECK(got[i] == init[i] + 2 * table[i]);
  int counter = 0;
  rt.copy_from_symbol(m, "gCounter", &counter, sizeof counter);
  CHECK(counter == 2);
  DevicePtr gaddr = rt.symbol_address(m, "gCounter");
  int via_addr = 0;
  rt.memcpy_to_host(&via_addr, gaddr, 4);
  CHECK(via_addr == 2);
  CHECK_THROWS_WITH(rt.copy_to_symbol(m, "kTable", table, 32), Catch::Contains("kTable"));
  CHECK_THROWS_WITH(rt.copy_to_symbol(m, "noSuchSymbol", table, 4), Catch::Contains("noSuchSymbol"));
}

TEST_CASE("runtime rejects memory operations outside allocations", "[runtime]") {
  Runtime rt;
  DevicePtr a = rt.malloc(100);
  std::vector<uint8_t> buf(200);
  CHECK_THROWS_WITH(rt.memcpy_to_device(a, buf.data(), 101), Catch::Contains("run past the end"));
  CHECK_THROWS_WITH(rt.memcpy_to_host(buf.data(), DevicePtr{8}, 4), Catch::Contains("not in any allocation"));
  CHECK_THROWS_WITH(rt.memset(a + 50, 0, 51), Catch::Contains("run past the end"));
  CHECK_THROWS_WITH(rt.free(a + 4), Catch::Contains("not the start of an allocation"));
  CHECK_THROWS_AS(rt.malloc(0), RuntimeError);
  rt.memset(a + 50, 7, 50);
  uint8_t last = 0;
  rt.memcpy_to_host(&last, a + 99, 1);
  CHECK(last == 7);
  rt.free(a);
  CHECK_THROWS_WITH(rt.memcpy_to_device(a, buf.data(), 4), Catch::Contains("not in any allocation"));
}
