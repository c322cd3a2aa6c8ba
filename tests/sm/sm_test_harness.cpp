#include "sm_test_harness.h"

#include <stdexcept>

#include "isa/ptx_parser.h"

namespace sm_test {

Kernel::Kernel(const std::string& ptx_file, const std::string& kernel, isa::Dim3 grid, isa::Dim3 block)
    : lm_(std::make_unique<isa::LoadedModule>(isa::parse_ptx_file(ptx_file), mem_)),
      lp_(isa::make_launch(*lm_, kernel, grid, block)) {}

KernelInstance& Kernel::instance(uint32_t registers_per_thread) {
  grid_ = std::make_unique<isa::GridExecution>(*lm_, lp_);
  k_.id = 0;
  k_.name = grid_->kernel().name;
  k_.grid = grid_.get();
  k_.registers_per_thread = registers_per_thread;
  k_.demand.threads = grid_->threads_per_cta();
  k_.demand.warps = grid_->warps_per_cta();
  k_.demand.registers = registers_per_thread * grid_->threads_per_cta();
  k_.demand.shared_bytes = grid_->shared_bytes_per_cta();
  return k_;
}

SmHarness::SmHarness(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t memory_latency)
    : sc_core::sc_module(name),
      clock(ClockDomain::from_mhz("core", 1000)),
      root("gpu"),
      sm("sm", cfg, 0, 1, clock, root),
      checker("checker"),
      memory("memory", SimpleMemoryConfig{memory_latency, 32}, clock, root) {
  sm.memory_socket().bind(checker.in);
  checker.out.bind(memory.in);
  sm.set_completion_callback([this](const CtaCompletion& c) { completions.push_back(c); });
  for (uint32_t i = 0; i < cfg.scheduler.count; ++i)
    sm.core().scheduler(i).set_issue_observer([this](const WarpInstruction& wi) {
      const isa::Module& m = sm.core().warps()[wi.warp].grid->loaded().module();
      const uint32_t f = m.function_at(wi.pc);
      issued.push_back(Issue{wi.issue_cycle, wi.warp, wi.pc, m.functions[f].text[m.functions[f].index_of(wi.pc)]});
    });
}

uint64_t SmHarness::run(KernelInstance& k, uint64_t max_cycles) {
  uint64_t next_cta = 0;
  const uint64_t total = k.grid->cta_count();
  const std::size_t done_before = completions.size();
  while (completions.size() - done_before < total) {
    while (next_cta < total && sm.can_accept_cta(k)) sm.launch_cta(k, next_cta++);
    if (clock.now() > max_cycles)
      throw std::runtime_error("sm harness: kernel " + k.name + " did not finish in " + std::to_string(max_cycles) +
                               " cycles\n" + sm.state_dump());
    sc_core::sc_start(clock.period());
  }
  sc_core::sc_start(clock.period() * 500);  // stores' acknowledgements drain
  checker.check_quiescent();
  return completions.back().finish_cycle;
}

}  // namespace sm_test
