#include "sm_test_harness.h"

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

}  // namespace sm_test
