#include "support/sm/sm_test_bench.h"

#include <stdexcept>

#include "sm/scheduler/policies/elf_policy.h"

namespace gputlm::sm::test_support {

SmTestBench::SmTestBench(sc_core::sc_module_name name, const std::string& stats_root, RunLimits limits)
    : sc_core::sc_module(name), clock(ClockDomain::from_mhz("core", 1000)), root(stats_root), limits_(limits) {}

void SmTestBench::observe(SmCore& core) {
  core_ = &core;
  core.set_completion_callback([this](const CtaCompletion& c) { completions.push_back(c); });
  for (uint32_t i = 0; i < core.scheduler_count(); ++i)
    core.scheduler(i).set_issue_observer([this, &core](const WarpInstruction& wi) {
      const isa::Module& m = core.warps()[wi.warp].grid->loaded().module();
      const uint32_t f = m.function_at(wi.pc);
      issued.push_back(IssueRecord{wi.issue_cycle, wi.warp, wi.issue_scheduler, wi.pc,
                                   m.functions[f].text[m.functions[f].index_of(wi.pc)]});
    });
}

uint64_t SmTestBench::run(KernelInstance& k) {
  if (k.elf == nullptr && core_ != nullptr) {
    elf_.push_back(make_elf_program_points(core_->config().scheduler, k.grid->kernel()));
    k.elf = elf_.back().get();
  }
  uint64_t next_cta = 0;
  const uint64_t total = k.grid->cta_count();
  const std::size_t done_before = completions.size();
  while (completions.size() - done_before < total) {
    while (next_cta < total && can_accept_cta(k)) launch_cta(k, next_cta++);
    if (clock.now() > limits_.max_cycles)
      throw std::runtime_error(std::string(name()) + ": kernel " + k.name + " did not finish in " +
                               std::to_string(limits_.max_cycles) + " cycles\n" + state_dump());
    sc_core::sc_start(clock.period());
  }
  sc_core::sc_start(clock.period() * static_cast<double>(limits_.drain_cycles));
  check_quiescent();
  return completions.back().finish_cycle;
}

}  // namespace gputlm::sm::test_support
