// Testbench of the SM front half (SmCore): fetch through a real L1I (mem::Cache) backed by
// a fixed-latency memory, the real scoreboard and schedulers, and a stand-in back end.
// Protocol checkers on the L1I's both sockets. The shared bench (tests/support/sm) records
// every issue and CTA completion and launches CTAs between cycles (the CTA scheduler's
// role); this bench also traces scheduler 0's outcome of every cycle.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/clock/clocked_process.h"
#include "core/tlm/protocol_checker.h"
#include "core/traffic/simple_memory.h"
#include "mem/cache/cache.h"
#include "sm/sm_core.h"
#include "stand_in_back_end.h"
#include "support/sm/sm_test_bench.h"

namespace gputlm::sm::tb {

// Scheduler 0's outcome of one ticked cycle.
struct CycleTrace {
  uint64_t cycle;
  uint32_t issued;
  ElfStall elf;
  KawsStall kaws;
};

class FrontHarness : public test_support::SmTestBench {
 public:
  FrontHarness(sc_core::sc_module_name name, const SmConfig& cfg, std::array<uint32_t, kUnitTypes> latency,
               std::array<uint32_t, kUnitTypes> interval, uint32_t memory_latency = 20);

  stats::Group sm_group;
  SmCore core;
  mem::Cache l1i;
  ProtocolChecker fetch_check, mem_check;
  SimpleMemory memory;
  StandInBackEnd back_end;
  std::vector<CycleTrace> trace;
  // Scheduler 0's trace entry of `cycle` (throws if that cycle was not ticked).
  const CycleTrace& at(uint64_t cycle) const;

 private:
  bool can_accept_cta(const KernelInstance& k) const override { return core.can_accept_cta(k); }
  void launch_cta(KernelInstance& k, uint64_t cta_linear_id) override { core.launch_cta(k, cta_linear_id); }
  std::string state_dump() const override { return core.state_dump(); }
  void check_quiescent() override;
  bool tick(uint64_t cycle);
  std::unique_ptr<ClockedProcess> process_;
};

}  // namespace gputlm::sm::tb
