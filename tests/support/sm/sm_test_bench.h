// The base of every SM test bench: the whole Sm behind a fixed-latency memory (tests/sm)
// and the front half with a stand-in back end (testbenches/sm/sm). It owns the core clock
// and the statistics root, records every issue and every CTA completion of the SM under
// test, and plays the CTA scheduler: run() launches CTAs between cycles whenever the SM
// accepts one, until all have completed. A derived bench builds the SM, calls observe()
// on its front half and answers the CTA and end-of-run hooks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/stats/stats.h"
#include "isa/analysis/elf.h"
#include "sm/sm_core.h"

namespace gputlm::sm::test_support {

struct IssueRecord {
  uint64_t cycle;
  uint32_t warp;
  uint32_t scheduler;  // the scheduler that issued it
  uint64_t pc;
  std::string text;  // the instruction's PTX text
};

class SmTestBench : public sc_core::sc_module {
 public:
  // Runs every CTA of k to completion (computing k's ELF program points first, as a
  // launcher does, when the SM schedules with elf and k has none), then lets the memory side drain and checks that
  // no request is left; returns the cycle the last CTA finished. Throws
  // std::runtime_error with the SM's state dump if the cycle limit passes first.
  uint64_t run(KernelInstance& k);

  ClockDomain clock;  // the core clock, 1 GHz
  stats::Group root;
  std::vector<IssueRecord> issued;
  std::vector<CtaCompletion> completions;

 protected:
  struct RunLimits {
    uint64_t max_cycles;    // a run that has not finished by this core cycle fails
    uint64_t drain_cycles;  // cycles simulated after the last CTA before the quiescence check
  };
  SmTestBench(sc_core::sc_module_name name, const std::string& stats_root, RunLimits limits);

  // Records every issue of core's schedulers in `issued` and every CTA completion in
  // `completions`.
  void observe(SmCore& core);

 private:
  virtual bool can_accept_cta(const KernelInstance& k) const = 0;
  virtual void launch_cta(KernelInstance& k, uint64_t cta_linear_id) = 0;
  virtual std::string state_dump() const = 0;
  // After the drain: the protocol checkers see no transaction left open.
  virtual void check_quiescent() = 0;

  RunLimits limits_;
  const SmCore* core_ = nullptr;  // set by observe()
  std::vector<std::unique_ptr<isa::analysis::ElfProgramPoints>> elf_;
};

}  // namespace gputlm::sm::test_support
