#include "sm_test_harness.h"

#include <catch2/catch.hpp>
#include <vector>

#include "support/sm/ptx_kernel.h"

namespace sm_test {

SmHarness::SmHarness(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t memory_latency)
    // 500 drain cycles: the stores' acknowledgements come back through the memory.
    : SmTestBench(name, "gpu", RunLimits{500000, 500}),
      sm("sm", cfg, 0, 1, clock, root),
      checker("checker"),
      memory("memory", SimpleMemoryConfig{memory_latency, 32}, clock, root) {
  sm.memory_socket().bind(checker.in);
  checker.out.bind(memory.in);
  observe(sm.core());
}

double SmHarness::stat(const std::string& path) const {
  const stats::Stat* s = root.find(path);
  if (s == nullptr) FAIL("no statistic " << path);
  return s->scalar(stats::View::Total);
}

uint64_t run_reuse_kernel(SmHarness& tb, uint32_t warps, int lines, int reps, int in_mul, int in_add) {
  PtxKernel k("tests/sm/cu/ccws_reuse.ptx", "ccws_reuse", {1, 1, 1}, {32 * warps, 1, 1});
  std::vector<int> in(static_cast<std::size_t>(32) * warps * static_cast<uint32_t>(lines));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i) * in_mul + in_add;
  const uint64_t in_addr = k.upload(in);
  const uint64_t out_addr = k.upload(std::vector<int>(32 * warps, 0));
  k.set_param<uint64_t>(0, in_addr);
  k.set_param<uint64_t>(1, out_addr);
  k.set_param<int>(2, lines);
  k.set_param<int>(3, reps);
  const uint64_t cycles = tb.run(k.instance());
  const std::vector<int> out = k.download<int>(out_addr, 32 * warps);
  for (uint32_t t = 0; t < 32 * warps; ++t) {
    const uint32_t warp = t / 32, lane = t % 32;
    int want = 0;
    for (int rep = 0; rep < reps; ++rep)
      for (int i = 0; i < lines; ++i) {
        const std::size_t line = static_cast<std::size_t>(warp) * static_cast<uint32_t>(lines) + static_cast<uint32_t>(i);
        want += in[line * 32 + lane] ^ rep;
      }
    INFO("thread " << t);
    REQUIRE(out[t] == want);
  }
  return cycles;
}

}  // namespace sm_test
