#include "toy_harness.h"

namespace gputlm::sm::tb {

SmConfig toy_sm_config(const std::string& policy, uint32_t schedulers) {
  SmConfig cfg;
  cfg.scheduler.policy = policy;
  cfg.scheduler.count = schedulers;
  cfg.operand_collector.schedulers = schedulers;
  cfg.scheduler.dual_issue = false;
  cfg.fetch.width = 8;
  cfg.fetch.ibuffer_entries = 8;
  return cfg;
}

ToyHarness::ToyHarness(sc_core::sc_module_name name, const SmConfig& cfg, const ToyMachine& m)
    : SmTestBench(name, "tb", RunLimits{100000, 100}),
      sm_group(root, "sm0"),
      core("core", cfg, 0, clock, sm_group),
      l1i("l1i", cfg.l1i, clock, sm_group),
      fetch_check("fetch_check"),
      memory("memory", SimpleMemoryConfig{10, 16}, clock, root),
      back_end("back_end", clock, m.alu_latency, m.load_latency, m.mshrs, m.saturation_margin) {
  core.fetch().l1i.bind(fetch_check.in);
  fetch_check.out.bind(l1i.upstream);
  l1i.downstream.bind(memory.in);
  core.issue_status.bind(back_end.status_export);
  for (uint32_t i = 0; i < cfg.scheduler.count; ++i) core.scheduler(i).issue.bind(back_end.issue_in);
  back_end.writeback_out.bind(core.writeback_in);
  if (MascarState* s = core.mascar()) {
    s->set_memory(&back_end);
    back_end.state = s;
  }
  observe(core);
  process_ = std::make_unique<ClockedProcess>("tick", clock, [this](uint64_t c) { return tick(c); });
  core.set_waker([this] { process_->wake(); });
  back_end.set_waker([this] { process_->wake(); });
}

bool ToyHarness::tick(uint64_t cycle) {
  bool busy = back_end.tick(cycle);
  const bool saturated = back_end.memory_saturated();
  busy = core.tick_issue(cycle) || busy;
  if (const MascarState* s = core.mascar(); s && core.resident_ctas() > 0)
    trace.push_back(ToyCycle{cycle, saturated, s->mode(), s->owner(), s->stall_bits(core.warps())});
  busy = core.tick_fetch(cycle) || busy;
  return busy;
}

}  // namespace gputlm::sm::tb
