#include "front_harness.h"

#include <stdexcept>

namespace gputlm::sm::tb {

FrontHarness::FrontHarness(sc_core::sc_module_name name, const SmConfig& cfg, std::array<uint32_t, kUnitTypes> latency,
                           std::array<uint32_t, kUnitTypes> interval, uint32_t memory_latency)
    // 200 drain cycles: the L1I and the memory empty (no request should be left).
    : SmTestBench(name, "tb", RunLimits{200000, 200}),
      sm_group(root, "sm0"),
      core("core", cfg, 0, clock, sm_group),
      l1i("l1i", cfg.l1i, clock, sm_group),
      fetch_check("fetch_check"),
      mem_check("mem_check"),
      memory("memory", SimpleMemoryConfig{memory_latency, 16}, clock, root),
      back_end("back_end", clock, cfg.scheduler.count, latency, interval) {
  core.fetch().l1i.bind(fetch_check.in);
  fetch_check.out.bind(l1i.upstream);
  l1i.downstream.bind(mem_check.in);
  mem_check.out.bind(memory.in);
  core.issue_status.bind(back_end.status_export);
  for (uint32_t i = 0; i < cfg.scheduler.count; ++i) core.scheduler(i).issue.bind(back_end.issue_in);
  back_end.writeback_out.bind(core.writeback_in);
  observe(core);
  process_ = std::make_unique<ClockedProcess>("tick", clock, [this](uint64_t c) { return tick(c); });
  core.set_waker([this] { process_->wake(); });
  back_end.set_waker([this] { process_->wake(); });
}

bool FrontHarness::tick(uint64_t cycle) {
  bool busy = back_end.tick(cycle);
  busy = core.tick_issue(cycle) || busy;
  if (core.resident_ctas() > 0) {
    const WarpScheduler& s0 = core.scheduler(0);
    trace.push_back(CycleTrace{cycle, s0.last_issued(), s0.last_elf_stall(), s0.last_kaws_stall()});
  }
  busy = core.tick_fetch(cycle) || busy;
  return busy;
}

const CycleTrace& FrontHarness::at(uint64_t cycle) const {
  for (const CycleTrace& t : trace)
    if (t.cycle == cycle) return t;
  throw std::runtime_error("front harness: cycle " + std::to_string(cycle) + " was not ticked");
}

void FrontHarness::check_quiescent() {
  fetch_check.check_quiescent();
  mem_check.check_quiescent();
}

}  // namespace gputlm::sm::tb
