// A whole Sm behind a fixed-latency memory (in place of interconnect + L2 + DRAM), with a
// protocol checker on its memory socket. The shared bench (tests/support/sm) records every
// issue and CTA completion and launches CTAs between cycles (the CTA scheduler's role).
#pragma once

#include "core/tlm/protocol_checker.h"
#include "core/traffic/simple_memory.h"
#include "sm/sm.h"
#include "support/sm/sm_test_bench.h"

namespace sm_test {

using namespace gputlm;
using namespace gputlm::sm;
using namespace gputlm::sm::test_support;

class SmHarness : public SmTestBench {
 public:
  SmHarness(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t memory_latency = 50);

  // The statistic at `path` (e.g. "sm0.laws.cycles") over the whole run; a test failure
  // when there is none.
  double stat(const std::string& path) const;

  Sm sm;
  ProtocolChecker checker;
  SimpleMemory memory;

 private:
  bool can_accept_cta(const KernelInstance& k) const override { return sm.can_accept_cta(k); }
  void launch_cta(KernelInstance& k, uint64_t cta_linear_id) override { sm.launch_cta(k, cta_linear_id); }
  std::string state_dump() const override { return sm.state_dump(); }
  void check_quiescent() override { checker.check_quiescent(); }
};

// Runs cu/ccws_reuse.ptx on `tb`: `warps` warps in one CTA, each reading its own `lines`
// lines `reps` times, input word i = i * in_mul + in_add; every thread's sum is checked
// against a CPU reference. Returns the simulated cycles.
uint64_t run_reuse_kernel(SmHarness& tb, uint32_t warps, int lines, int reps, int in_mul, int in_add);

}  // namespace sm_test
