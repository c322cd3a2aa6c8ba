// Testbench only: the SM front half (SmCore: fetch through a real L1I, I-buffers,
// scoreboard, schedulers) on the toy back end of Mascar's Fig. 3 (toy_back_end.h), which
// is also MascarState's memory side. Every ticked cycle is traced: the saturation flag the
// state read, its mode, owner and WST stall bits after the schedulers.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/clock/clocked_process.h"
#include "core/tlm/protocol_checker.h"
#include "core/traffic/simple_memory.h"
#include "mem/cache/cache.h"
#include "sm/sm_core.h"
#include "support/sm/sm_test_bench.h"
#include "toy_back_end.h"

namespace gputlm::sm::tb {

struct ToyCycle {
  uint64_t cycle;
  bool saturated;  // the flag begin_cycle read
  MascarState::Mode mode;
  int32_t owner;
  uint64_t stall;
};

struct ToyMachine {
  uint32_t alu_latency = 14;  // only the exits wait for it (see mascar_toy_tb.cpp)
  uint32_t load_latency = 5;
  uint32_t mshrs = 2;         // 0: unlimited
  uint32_t saturation_margin = 2;
  uint32_t schedulers = 1;
};

class ToyHarness : public test_support::SmTestBench {
 public:
  ToyHarness(sc_core::sc_module_name name, const SmConfig& cfg, const ToyMachine& m);

  stats::Group sm_group;
  SmCore core;
  mem::Cache l1i;
  ProtocolChecker fetch_check;
  SimpleMemory memory;
  ToyBackEnd back_end;
  std::vector<ToyCycle> trace;  // with sm.scheduler.policy = mascar

 private:
  bool can_accept_cta(const KernelInstance& k) const override { return core.can_accept_cta(k); }
  void launch_cta(KernelInstance& k, uint64_t cta_linear_id) override { core.launch_cta(k, cta_linear_id); }
  std::string state_dump() const override { return core.state_dump(); }
  void check_quiescent() override { fetch_check.check_quiescent(); }
  bool tick(uint64_t cycle);
  std::unique_ptr<ClockedProcess> process_;
};

// The toy machine's SM configuration: `policy`, single issue per scheduler, I-buffers and
// fetch wide enough to hold a whole toy warp program, no dual issue.
SmConfig toy_sm_config(const std::string& policy, uint32_t schedulers = 1);

// The toy kernels' PTX (from the repository root, where the testbenches run).
inline constexpr const char* kToyPtx = "testbenches/sm/mascar/toy.ptx";

}  // namespace gputlm::sm::tb
