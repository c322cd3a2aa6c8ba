// Testbench of the SM front half (SmCore): fetch through a real L1I (mem::Cache) backed by
// a fixed-latency memory, the real scoreboard and schedulers, and a stand-in back end.
// Protocol checkers on the L1I's both sockets. The test drives CTA launches between
// cycles (the CTA scheduler's role) and records every issue.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "core/traffic/simple_memory.h"
#include "isa/exec/functional_executor.h"
#include "mem/cache/cache.h"
#include "sm/sm_core.h"
#include "stand_in_back_end.h"

namespace gputlm::sm::tb {

// Scheduler 0's outcome of one ticked cycle.
struct CycleTrace {
  uint64_t cycle;
  uint32_t issued;
  ElfStall elf;
  KawsStall kaws;
};

struct IssueRecord {
  uint64_t cycle;
  uint32_t warp;
  uint32_t scheduler;  // the scheduler that issued it
  uint64_t pc;
  std::string text;
};

// Loads a PTX file and holds one launch of one kernel.
class KernelUnderTest {
 public:
  KernelUnderTest(const std::string& ptx_file, const std::string& kernel, isa::Dim3 grid, isa::Dim3 block);
  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    const uint64_t a = mem_.allocator.allocate(v.size() * sizeof(T));
    mem_.store.write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t addr, std::size_t n) const {
    std::vector<T> v(n);
    mem_.store.read(addr, v.data(), n * sizeof(T));
    return v;
  }
  template <class T>
  void set_param(uint32_t index, T value) {
    isa::set_kernel_param(lp_, *lm_, index, &value, sizeof(T));
  }
  // Creates the grid (after the parameters are set) and the KernelInstance.
  KernelInstance& instance();
  isa::GridExecution& grid() { return *grid_; }

 private:
  isa::DeviceMemory mem_;
  std::unique_ptr<isa::LoadedModule> lm_;
  isa::LaunchParams lp_;
  std::unique_ptr<isa::GridExecution> grid_;
  KernelInstance k_;
};

class FrontHarness : public sc_core::sc_module {
 public:
  FrontHarness(sc_core::sc_module_name name, const SmConfig& cfg, std::array<uint32_t, kUnitTypes> latency,
               std::array<uint32_t, kUnitTypes> interval, uint32_t memory_latency = 20);

  // Launches CTAs of k (in order) whenever the SM accepts one, until all ran; returns
  // the cycle the last CTA completed. Throws if max_cycles pass first.
  uint64_t run(KernelInstance& k, uint64_t max_cycles = 200000);

  ClockDomain clock;
  stats::Group root;
  stats::Group sm_group;
  SmCore core;
  mem::Cache l1i;
  ProtocolChecker fetch_check, mem_check;
  SimpleMemory memory;
  StandInBackEnd back_end;
  std::vector<IssueRecord> issued;
  std::vector<CtaCompletion> completions;
  std::vector<CycleTrace> trace;
  // Scheduler 0's trace entry of `cycle` (throws if that cycle was not ticked).
  const CycleTrace& at(uint64_t cycle) const;

 private:
  bool tick(uint64_t cycle);
  std::unique_ptr<ClockedProcess> process_;
};

}  // namespace gputlm::sm::tb
