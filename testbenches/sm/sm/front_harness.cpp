#include "front_harness.h"

#include <stdexcept>

#include "isa/ptx_parser.h"

namespace gputlm::sm::tb {

KernelUnderTest::KernelUnderTest(const std::string& ptx_file, const std::string& kernel, isa::Dim3 grid,
                                 isa::Dim3 block)
    : lm_(std::make_unique<isa::LoadedModule>(isa::parse_ptx_file(ptx_file), mem_)),
      lp_(isa::make_launch(*lm_, kernel, grid, block)) {}

KernelInstance& KernelUnderTest::instance() {
  grid_ = std::make_unique<isa::GridExecution>(*lm_, lp_);
  k_.id = 0;
  k_.name = grid_->kernel().name;
  k_.grid = grid_.get();
  k_.demand.threads = grid_->threads_per_cta();
  k_.demand.warps = grid_->warps_per_cta();
  k_.demand.registers = 0;
  k_.demand.shared_bytes = grid_->shared_bytes_per_cta();
  return k_;
}

FrontHarness::FrontHarness(sc_core::sc_module_name name, const SmConfig& cfg, std::array<uint32_t, kUnitTypes> latency,
                           std::array<uint32_t, kUnitTypes> interval, uint32_t memory_latency)
    : sc_core::sc_module(name),
      clock(ClockDomain::from_mhz("core", 1000)),
      root("tb"),
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
  for (uint32_t i = 0; i < cfg.scheduler.count; ++i) {
    core.scheduler(i).issue.bind(back_end.issue_in);
    core.scheduler(i).set_issue_observer([this](const WarpInstruction& wi) {
      const isa::Module& m = core.warps()[wi.warp].grid->loaded().module();
      const uint32_t f = m.function_at(wi.pc);
      issued.push_back(IssueRecord{wi.issue_cycle, wi.warp, wi.issue_scheduler, wi.pc,
                                   m.functions[f].text[m.functions[f].index_of(wi.pc)]});
    });
  }
  back_end.writeback_out.bind(core.writeback_in);
  core.set_completion_callback([this](const CtaCompletion& c) { completions.push_back(c); });
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

uint64_t FrontHarness::run(KernelInstance& k, uint64_t max_cycles) {
  uint64_t next_cta = 0;
  const uint64_t total = k.grid->cta_count();
  while (completions.size() < total) {
    while (next_cta < total && core.can_accept_cta(k)) core.launch_cta(k, next_cta++);
    if (clock.now() > max_cycles)
      throw std::runtime_error("front harness: kernel " + k.name + " did not finish in " + std::to_string(max_cycles) +
                               " cycles\n" + core.state_dump());
    sc_core::sc_start(clock.period());
  }
  // Let the L1I and memory drain (no requests should be left).
  sc_core::sc_start(clock.period() * 200);
  fetch_check.check_quiescent();
  mem_check.check_quiescent();
  return completions.back().finish_cycle;
}

}  // namespace gputlm::sm::tb
