// Device printf (vprintf), assert (__assertfail) and malloc/free on nvcc PTX (cu/printf.cu),
// and their exclusion from stepping with a GlobalMemoryLog.
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

TEST_CASE("global memory log: kernels using malloc or free or printf or assert must run serially", "[simt][memlog]") {
  TestDevice dev("tests/isa/exec/cu/printf.ptx");
  const Module& m = dev.module().module();
  for (const char* k : {"hello", "check", "heap"})
    CHECK(dev.module().uses_shared_state_builtins(m.find_kernel_index(k)));
  TestDevice mem("tests/isa/exec/cu/memory.ptx"), calls("tests/isa/exec/cu/warp_calls.ptx");
  CHECK_FALSE(mem.module().uses_shared_state_builtins(mem.module().module().find_kernel_index("histogram")));
  CHECK_FALSE(calls.module().uses_shared_state_builtins(calls.module().module().find_kernel_index("calls")));

  // Through a device function: the kernel inherits its callee's use.
  TestDevice indirect(TestDevice::Text{}, ".version 7.5\n.target sm_75\n.address_size 64\n" R"(
.extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);
.visible .func (.param .b64 r) grab(.param .b64 n)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [n];
  {
  .param .b64 param0;
  .param .b64 retval0;
  st.param.b64 [param0+0], %rd1;
  call.uni (retval0), malloc, (param0);
  ld.param.b64 %rd2, [retval0+0];
  }
  st.param.b64 [r], %rd2;
  ret;
}
.visible .entry uses_heap(.param .u64 p)
{
  .reg .b64 %rd<3>;
  mov.u64 %rd1, 16;
  {
  .param .b64 param0;
  .param .b64 retval0;
  st.param.b64 [param0+0], %rd1;
  call.uni (retval0), grab, (param0);
  ld.param.b64 %rd2, [retval0+0];
  }
  ret;
}
.visible .entry plain(.param .u64 p)
{
  ret;
}
)", "indirect_heap.ptx");
  const Module& im = indirect.module().module();
  CHECK(indirect.module().uses_shared_state_builtins(im.find_kernel_index("uses_heap")));
  CHECK_FALSE(indirect.module().uses_shared_state_builtins(im.find_kernel_index("plain")));

  // Stepping such a kernel with a log is an error naming the way out (without one it runs:
  // "device malloc and free" above).
  uint64_t out = dev.alloc<int>(32, -1);
  GridExecution g(dev.module(), dev.launch("heap", d1(1), d1(32), 0, out));
  CHECK(g.uses_shared_state_builtins());
  CtaContext& cta = g.start_cta(0);
  GlobalMemoryLog log;
  std::string msg;
  try {
    for (int guard = 0; guard < 10000 && !cta.finished(); ++guard) {
      g.step(cta.warps[0], &log);
      log.replay(dev.memory());
    }
  } catch (const ExecError& e) {
    msg = e.what();
  }
  CHECK_THAT(msg, Catch::Contains("device malloc") && Catch::Contains("run this kernel serially"));
}
