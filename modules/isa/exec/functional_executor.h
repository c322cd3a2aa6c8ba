// Functional SIMT executor: executes one warp instruction when the timing model asks
// (GridExecution::step), or a whole grid as fast as possible (run_grid_functional, the
// speed reference of the timing model). See docs/isa-executor.md.
//
// Typical timing-model use:
//   LoadedModule lm(parse_ptx_file("k.ptx"), mem);
//   LaunchParams lp = make_launch(lm, "kernel", grid, block, dyn_shared);
//   set_kernel_param(lp, lm, 0, &dev_ptr, 8); ...
//   GridExecution grid(lm, lp);
//   CtaContext& cta = grid.start_cta(0);            // CTA scheduler
//   const Instruction* next = grid.peek(cta.warps[w]);  // fetch / issue stages
//   const StepResult& r = grid.step(cta.warps[w]);   // issue: execute functionally
//   ... r.mem.addr for the coalescer, r.at_barrier / warp.status for the scheduler ...
//   grid.retire_cta(cta);                            // when cta.finished()
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "isa/exec/device_memory.h"
#include "isa/exec/exec_counters.h"
#include "isa/exec/global_memory_log.h"
#include "isa/exec/loaded_module.h"
#include "isa/exec/step_result.h"
#include "isa/exec/warp_context.h"
#include "isa/ir.h"

namespace gputlm::isa {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

struct LaunchParams {
  uint32_t kernel = kNone;  // Module::functions index of the .entry
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  std::vector<uint8_t> params;  // kernel parameter buffer (Function::param_bytes)
};

// A launch of `kernel_name` (exact, demangled, or unique prefix; see Module::find_kernel,
// which throws for an unknown or ambiguous name) with a zeroed parameter buffer. Grid and
// block limits are checked when a GridExecution is made from it.
LaunchParams make_launch(const LoadedModule& lm, const std::string& kernel_name, Dim3 grid,
                         Dim3 block, uint32_t dynamic_shared_bytes = 0);
// Writes parameter `index` (declaration order). `bytes` must equal the parameter's size.
void set_kernel_param(LaunchParams& lp, const LoadedModule& lm, uint32_t index, const void* data,
                      uint32_t bytes);

struct ExecOptions {
  // Warp instructions the whole grid may execute before ExecError("instruction limit").
  uint64_t max_warp_instructions = 20'000'000'000ull;
  // Per-thread local memory (frames of the kernel and of called functions).
  uint32_t max_local_bytes_per_thread = 512 * 1024;
  // Nested calls per warp (each frame holds the callee's registers for 32 lanes).
  uint32_t max_call_depth = 1024;
  // Functional runner: instructions a warp runs before the next warp of its CTA gets a
  // turn (a warp also yields at a barrier). Any value gives the same results for
  // race-free kernels; it bounds spinning on flags set by other warps.
  uint32_t quantum = 1024;
  // Functional runner: CTAs resident at once (started in linear order, served round-robin).
  // 1 is fastest; more lets kernels whose CTAs wait for each other (spin on flags another
  // CTA sets) make progress.
  uint32_t resident_ctas = 1;
  // Where device printf (vprintf) writes; nullptr = std::cout. Lanes print in lane order.
  std::ostream* printf_output = nullptr;
};

// Functional state of one kernel launch.
class GridExecution {
 public:
  GridExecution(const LoadedModule& lm, LaunchParams lp, ExecOptions opts = {});
  ~GridExecution();
  GridExecution(const GridExecution&) = delete;
  GridExecution& operator=(const GridExecution&) = delete;

  const LoadedModule& loaded() const { return *lm_; }
  const Function& kernel() const { return *kernel_; }
  const LaunchParams& launch() const { return lp_; }
  uint64_t cta_count() const { return lp_.grid.count(); }
  uint32_t threads_per_cta() const { return threads_per_cta_; }
  uint32_t warps_per_cta() const { return warps_per_cta_; }
  uint32_t shared_bytes_per_cta() const { return shared_bytes_; }

  // Creates CTA `linear_id` (x fastest): shared memory, warps at the kernel's first
  // instruction. The reference stays valid until retire_cta.
  CtaContext& start_cta(uint64_t linear_id);
  // Releases a CTA (normally once finished(); its storage is reused).
  void retire_cta(CtaContext& cta);

  // Executes the next instruction of `w` (which must be Ready). The result lives in
  // w.last until the next step of this warp. No heap allocation in steady state.
  // With `log`, global-memory loads, stores and atomics are checked now but recorded in
  // `log` instead of executed; log->replay() applies them (global_memory_log.h). Kernels
  // for which uses_shared_state_builtins() is true must step without a log.
  const StepResult& step(WarpContext& w, GlobalMemoryLog* log = nullptr);
  // The instruction `w` would execute next, or nullptr if the warp finished.
  const Instruction* peek(const WarpContext& w) const;
  uint64_t peek_pc(const WarpContext& w) const;  // 0 if finished
  // The lanes the next step would run with before its guard (StepResult::active_mask); 0 if finished.
  static uint32_t peek_active_mask(const WarpContext& w) { return w.simt.empty() ? 0 : w.simt.back().mask; }
  // The global addresses the next instruction of `w` would load, without executing it
  // (peek_addresses.cpp; Mascar's stranded-hit count). True for a ld/ldu whose address is
  // [reg + imm] or [global symbol + imm] in global or generic space: `mask` gets the
  // executing lanes whose address is global (generic ones resolving elsewhere are left
  // out) and addr[lane] their addresses. False for anything else (nothing written).
  bool peek_global_load(const WarpContext& w, uint64_t (&addr)[32], uint32_t& mask) const;

  // The kernel (or a function it calls) uses malloc, free, vprintf or __assertfail, which
  // touch device-wide state at issue: run it serially, without a GlobalMemoryLog.
  bool uses_shared_state_builtins() const { return lm_->uses_shared_state_builtins(lp_.kernel); }

  // Throws ExecError naming the CTA and every warp's PC if no warp of `cta` can make
  // progress (all live warps wait at barriers that cannot complete).
  void check_deadlock(const CtaContext& cta) const;

  // %clock / %clock64 source; by default a deterministic counter (warp instructions
  // executed by this grid so far).
  void set_cycle_source(std::function<uint64_t()> src) { cycle_source_ = std::move(src); }

  const ExecCounters& counters() const { return counters_; }
  // The counts of steps taken with a GlobalMemoryLog, added when the log is replayed.
  void add_counters(const ExecCounters& c);

  // Internal to the executor's handlers.
  const ExecOptions& options() const { return opts_; }
  uint64_t cycle() const { return cycle_source_ ? cycle_source_() : counters_.warp_instructions; }
  [[noreturn]] void fail(const WarpContext& w, uint32_t lane, const std::string& what) const;
  void ensure_local(WarpContext& w, uint32_t top);

 private:
  void push_frame(WarpContext& w, uint32_t func, uint32_t call_index);
  void exec_control(WarpContext& w, const Instruction& in, uint32_t exec_mask, StepResult& r);
  void do_exit(WarpContext& w, uint32_t lanes, StepResult& r);
  void do_return(WarpContext& w, uint32_t lanes, StepResult& r);
  void do_barrier(WarpContext& w, const Instruction& in, uint32_t exec_mask, StepResult& r);
  bool try_complete_barrier(CtaContext& cta, uint32_t id);
  void finish_call(WarpContext& w);
  void finish_warp(WarpContext& w, StepResult& r);
  void settle(WarpContext& w, StepResult& r);

  const LoadedModule* lm_;
  LaunchParams lp_;
  ExecOptions opts_;
  const Function* kernel_;
  uint32_t threads_per_cta_, warps_per_cta_, shared_bytes_;
  std::deque<CtaContext> ctas_;  // stable addresses; retired entries are reused
  ExecCounters counters_;
  std::function<uint64_t()> cycle_source_;
};

// Runs every CTA of the launch functionally: up to `resident_ctas` CTAs at a time, started
// in linear order; resident CTAs and the warps of each are served round-robin (a warp runs
// up to `quantum` instructions or until it waits at a barrier). Returns the counters.
// Errors: ExecError (out of bounds, deadlock, limit).
ExecCounters run_grid_functional(const LoadedModule& lm, const LaunchParams& lp,
                                 const ExecOptions& opts = {});

}  // namespace gputlm::isa
