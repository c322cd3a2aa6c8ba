// GridExecution: CTA/warp lifecycle, the step loop, and launch helpers. Control flow
// (SIMT stack, calls, exit, barriers) lives in simt_control.cpp.
#include "isa/exec/functional_executor.h"

#include "core/log/hex.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "isa/exec/exec_context.h"
#include "isa/exec/int_semantics.h"

namespace gputlm::isa {

LaunchParams make_launch(const LoadedModule& lm, const std::string& kernel_name, Dim3 grid, Dim3 block,
                         uint32_t dynamic_shared_bytes) {
  LaunchParams lp;
  lp.kernel = lm.module().find_kernel_index(kernel_name);
  lp.grid = grid;
  lp.block = block;
  lp.dynamic_shared_bytes = dynamic_shared_bytes;
  lp.params.assign(lm.module().functions[lp.kernel].param_bytes, 0);
  return lp;
}

void set_kernel_param(LaunchParams& lp, const LoadedModule& lm, uint32_t index, const void* data, uint32_t bytes) {
  if (lp.kernel >= lm.module().functions.size()) throw ExecError("set_kernel_param: launch has no kernel");
  const Function& k = lm.module().functions[lp.kernel];
  if (index >= k.params.size())
    throw ExecError("kernel '" + k.name + "' has " + std::to_string(k.params.size()) + " parameters; index " +
                    std::to_string(index) + " is out of range");
  const Param& p = k.params[index];
  if (bytes != p.size)
    throw ExecError("parameter " + std::to_string(index) + " ('" + p.name + "') of kernel '" + k.name + "' is " +
                    std::to_string(p.size) + " bytes, got " + std::to_string(bytes));
  if (lp.params.size() < k.param_bytes) lp.params.resize(k.param_bytes, 0);
  std::memcpy(lp.params.data() + p.offset, data, bytes);
}

GridExecution::GridExecution(const LoadedModule& lm, LaunchParams lp, ExecOptions opts)
    : lm_(&lm), lp_(std::move(lp)), opts_(opts) {
  const Module& m = lm.module();
  if (lp_.kernel >= m.functions.size() || !m.functions[lp_.kernel].is_entry)
    throw ExecError("launch names no .entry kernel of module '" + m.file + "'");
  kernel_ = &m.functions[lp_.kernel];
  const std::string who = "launch of kernel '" + kernel_->name + "': ";
  if (lp_.grid.count() == 0) throw ExecError(who + "grid has zero CTAs");
  if (lp_.block.count() == 0 || lp_.block.count() > 1024)
    throw ExecError(who + "block of " + std::to_string(lp_.block.count()) + " threads (must be 1..1024)");
  if (lp_.block.z > 64) throw ExecError(who + "block.z must be at most 64");
  if (lp_.grid.y > 65535 || lp_.grid.z > 65535) throw ExecError(who + "grid.y and grid.z must be at most 65535");
  if (lp_.params.size() != kernel_->param_bytes)
    throw ExecError(who + "parameter buffer is " + std::to_string(lp_.params.size()) + " bytes, kernel expects " +
                    std::to_string(kernel_->param_bytes));
  threads_per_cta_ = static_cast<uint32_t>(lp_.block.count());
  warps_per_cta_ = (threads_per_cta_ + 31) / 32;
  shared_bytes_ = kernel_->shared_end;
  // Dynamic (extern .shared) arrays start at the module's dynamic_shared_offset.
  if (lp_.dynamic_shared_bytes > 0)
    shared_bytes_ = std::max<uint32_t>(shared_bytes_, m.dynamic_shared_offset + lp_.dynamic_shared_bytes);
}

GridExecution::~GridExecution() = default;

void GridExecution::ensure_local(WarpContext& w, uint32_t top) {
  if (top > opts_.max_local_bytes_per_thread)
    fail(w, 0, "per-thread local memory (frames of called functions) exceeds the limit of " +
                   std::to_string(opts_.max_local_bytes_per_thread) + " bytes (unbounded recursion?)");
  if (top > w.local_capacity) {
    uint32_t cap = std::max<uint32_t>({top, w.local_capacity * 2, 64});
    cap = (cap + 15) & ~15u;
    std::vector<uint8_t> grown(size_t{cap} * 32, 0);
    if (w.local_capacity)
      for (uint32_t l = 0; l < 32; ++l)
        std::memcpy(grown.data() + size_t{l} * cap, w.local.data() + size_t{l} * w.local_capacity, w.local_capacity);
    w.local.swap(grown);
    w.local_capacity = cap;
  }
  w.local_top = top;
}

namespace {
template <class T>
void zeroed(std::vector<T>& v, std::size_t n) {
  v.resize(n);
  if (n != 0) std::memset(v.data(), 0, n * sizeof(T));
}
}  // namespace

void GridExecution::push_frame(WarpContext& w, uint32_t func, uint32_t call_index) {
  const Function& fn = lm_->module().functions[func];
  if (w.depth >= opts_.max_call_depth)
    fail(w, static_cast<uint32_t>(__builtin_ctz(w.simt.back().mask | 0x80000000u)),
         "call depth limit of " + std::to_string(opts_.max_call_depth) + " frames exceeded (unbounded recursion?)");
  uint32_t base = w.depth == 0 ? 0 : (w.local_top + 15) & ~15u;
  if (w.depth == w.frames.size()) w.frames.emplace_back();
  CallFrame& fr = w.frames[w.depth++];
  fr.func = func;
  fr.simt_base = static_cast<uint32_t>(w.simt.size());
  fr.call_index = call_index;
  fr.local_base = base;
  fr.returned_mask = 0;
  fr.activation = ++w.activations;
  // Zeroed with memset: vector::assign fills element by element, and a kernel of a few
  // hundred virtual registers zeroes tens of KB per warp start (bfs: 3 % of a run).
  zeroed(fr.regs, fn.regs.size() * 32);
  zeroed(fr.preds, fn.preds.size());
  zeroed(fr.param_in, size_t{fn.param_bytes} * 32);
  zeroed(fr.param_ret, size_t{fn.return_bytes} * 32);
  zeroed(fr.call_params, size_t{fn.call_param_bytes} * 32);
  ensure_local(w, base + fn.local_bytes);
}

CtaContext& GridExecution::start_cta(uint64_t linear_id) {
  if (linear_id >= cta_count())
    throw ExecError("start_cta(" + std::to_string(linear_id) + "): grid has " + std::to_string(cta_count()) + " CTAs");
  CtaContext* cta = nullptr;
  for (CtaContext& c : ctas_)
    if (!c.in_use) { cta = &c; break; }
  if (!cta) cta = &ctas_.emplace_back();
  cta->in_use = true;
  cta->linear_id = linear_id;
  cta->ctaid = {static_cast<uint32_t>(linear_id % lp_.grid.x),
                static_cast<uint32_t>((linear_id / lp_.grid.x) % lp_.grid.y),
                static_cast<uint32_t>(linear_id / (uint64_t{lp_.grid.x} * lp_.grid.y))};
  cta->shared.assign(shared_bytes_, 0);
  cta->barriers = {};
  cta->warps.resize(warps_per_cta_);
  cta->live_warps = warps_per_cta_;
  for (uint32_t wi = 0; wi < warps_per_cta_; ++wi) {
    WarpContext& w = cta->warps[wi];
    w.cta = cta;
    w.warp_in_cta = wi;
    w.hw_warp_id = wi;
    w.smid = 0;
    w.valid_mask = 0;
    for (uint32_t l = 0; l < 32; ++l) {
      uint32_t t = wi * 32 + l;
      if (t >= threads_per_cta_) { w.tid_x[l] = w.tid_y[l] = w.tid_z[l] = 0; continue; }
      w.valid_mask |= 1u << l;
      w.tid_x[l] = t % lp_.block.x;
      w.tid_y[l] = (t / lp_.block.x) % lp_.block.y;
      w.tid_z[l] = t / (lp_.block.x * lp_.block.y);
    }
    w.status = WarpStatus::Ready;
    w.barrier_id = 0;
    w.exited_mask = ~w.valid_mask;
    w.carry_mask = 0;
    w.instructions = 0;
    w.bar_red = PendingBarRed{};
    w.last = StepResult{};
    w.simt.clear();
    w.simt.reserve(32);
    w.depth = 0;
    w.local_top = 0;
    w.simt.push_back(SimtEntry{lp_.kernel, 0, kNone, w.valid_mask});
    push_frame(w, lp_.kernel, kNone);
  }
  ++counters_.ctas;
  return *cta;
}

void GridExecution::retire_cta(CtaContext& cta) { cta.in_use = false; }

void GridExecution::add_counters(const ExecCounters& c) { counters_.add(c); }

const Instruction* GridExecution::peek(const WarpContext& w) const {
  if (w.simt.empty()) return nullptr;
  const SimtEntry& e = w.simt.back();
  return &lm_->module().functions[e.func].code[e.pc];
}

uint64_t GridExecution::peek_pc(const WarpContext& w) const {
  if (w.simt.empty()) return 0;
  const SimtEntry& e = w.simt.back();
  return lm_->module().functions[e.func].pc_of(e.pc);
}

void GridExecution::fail(const WarpContext& w, uint32_t lane, const std::string& what) const {
  const Module& m = lm_->module();
  const CtaContext& cta = *w.cta;
  std::string msg = "kernel '" + kernel_->name + "', CTA (" + std::to_string(cta.ctaid[0]) + "," +
                    std::to_string(cta.ctaid[1]) + "," + std::to_string(cta.ctaid[2]) + "), thread (" +
                    std::to_string(w.tid_x[lane]) + "," + std::to_string(w.tid_y[lane]) + "," +
                    std::to_string(w.tid_z[lane]) + ") [warp " + std::to_string(w.warp_in_cta) + " lane " +
                    std::to_string(lane) + "]";
  const StepResult& r = w.last;
  if (r.instr && r.function < m.functions.size()) {
    const Function& fn = m.functions[r.function];
    msg += ", PC " + hex(r.pc) + " (" + m.file + ":" + std::to_string(r.instr->line) + ", function '" + fn.name +
           "') '" + (r.index < fn.text.size() ? fn.text[r.index] : std::string(opcode_name(r.instr->op))) + "'";
  }
  throw ExecError(msg + ": " + what);
}

const StepResult& GridExecution::step(WarpContext& w, GlobalMemoryLog* log) {
  StepResult& r = w.last;
  if (w.status != WarpStatus::Ready)
    throw ExecError("step() on warp " + std::to_string(w.warp_in_cta) + " of CTA " + std::to_string(w.cta->linear_id) +
                    (w.status == WarpStatus::Finished ? ", which has finished"
                                                      : ", which waits at barrier " + std::to_string(w.barrier_id)));
  const Module& m = lm_->module();
  SimtEntry& e = w.simt.back();
  const Function& fn = m.functions[e.func];
  const Instruction& in = fn.code[e.pc];
  r.instr = &in;
  r.function = e.func;
  r.index = e.pc;
  r.pc = fn.pc_of(e.pc);
  r.active_mask = e.mask;
  r.is_memory = r.is_branch = r.branch_taken = r.diverged = r.reconverged = false;
  r.is_call = r.is_return = r.at_barrier = r.barrier_arrive = r.barrier_released = r.warp_finished = false;
  r.exited_mask = 0;
  r.barrier_id = 0;
  uint32_t exec = e.mask;
  if (in.guard != kNone) {
    uint32_t p = w.frame().preds[in.guard];
    exec &= in.guard_neg ? ~p : p;
  }
  r.exec_mask = exec;

  uint64_t executed;
  if (log) {
    // A step of a parallel edge: the grid's counters are shared by the SMs, so this SM's
    // counts wait in its log for the edge's end (the limit sees the earlier edges' counts
    // and this SM's).
    log->bind(lm_->memory());
    executed = counters_.warp_instructions + log->count(this, in.cls, sem::popcount32(exec));
  } else {
    executed = ++counters_.warp_instructions;
    counters_.thread_instructions += sem::popcount32(exec);
    ++counters_.per_class[static_cast<size_t>(in.cls)];
  }
  ++w.instructions;
  if (executed > opts_.max_warp_instructions)
    fail(w, e.mask ? static_cast<uint32_t>(__builtin_ctz(e.mask)) : 0,
         "instruction limit of " + std::to_string(opts_.max_warp_instructions) +
             " warp instructions exceeded (infinite loop?)");

  exec_detail::ExecFn h = lm_->handler(e.func, e.pc);
  if (h) {
    if (exec) {
      const size_t logged = log ? log->size() : 0;
      exec_detail::ExecCtx c(*this, *lm_, w, w.frame(), fn, in, exec, r, log);
      h(c);
      // A same-edge redefinition of a register a deferred load of this warp will write.
      if (log && w.deferred_log == log)
        for (uint8_t i = 0; i < in.n_dst_regs; ++i) log->note_write(w, logged, in.dst_regs[i], exec);
    }
    ++w.simt.back().pc;
    settle(w, r);
  } else {
    exec_control(w, in, exec, r);
  }
  return r;
}

void GridExecution::check_deadlock(const CtaContext& cta) const {
  if (cta.finished()) return;
  for (const WarpContext& w : cta.warps)
    if (w.status == WarpStatus::Ready) return;
  std::string msg = "deadlock in kernel '" + kernel_->name + "', CTA (" + std::to_string(cta.ctaid[0]) + "," +
                    std::to_string(cta.ctaid[1]) + "," + std::to_string(cta.ctaid[2]) +
                    "): every live warp waits at a barrier that cannot complete:";
  const Module& m = lm_->module();
  for (const WarpContext& w : cta.warps) {
    if (w.status != WarpStatus::AtBarrier) continue;
    const StepResult& r = w.last;
    const BarrierState& b = cta.barriers[w.barrier_id];
    msg += " warp " + std::to_string(w.warp_in_cta) + " at PC " + hex(r.pc);
    if (r.instr) {
      const Function& fn = m.functions[r.function];
      msg += " '" + (r.index < fn.text.size() ? fn.text[r.index] : std::string("bar")) + "' (line " +
             std::to_string(r.instr->line) + ")";
    }
    msg += " barrier " + std::to_string(w.barrier_id) + " (" + std::to_string(__builtin_popcount(b.arrived)) +
           " warps arrived, " +
           (b.expected ? std::to_string(b.expected) : std::to_string(cta.live_warps)) + " expected);";
  }
  throw ExecError(msg);
}

ExecCounters run_grid_functional(const LoadedModule& lm, const LaunchParams& lp, const ExecOptions& opts) {
  GridExecution g(lm, lp, opts);
  const uint32_t quantum = opts.quantum ? opts.quantum : 1;
  const uint64_t resident = opts.resident_ctas ? opts.resident_ctas : 1;
  std::vector<CtaContext*> active;
  uint64_t next = 0;
  while (next < g.cta_count() || !active.empty()) {
    while (active.size() < resident && next < g.cta_count()) active.push_back(&g.start_cta(next++));
    for (size_t i = 0; i < active.size();) {
      CtaContext& cta = *active[i];
      bool progressed = false;
      for (WarpContext& w : cta.warps) {
        for (uint32_t q = 0; q < quantum && w.status == WarpStatus::Ready; ++q) {
          g.step(w);
          progressed = true;
        }
      }
      if (cta.finished()) {
        g.retire_cta(cta);
        active.erase(active.begin() + static_cast<std::ptrdiff_t>(i));
        continue;
      }
      if (!progressed) g.check_deadlock(cta);  // barriers are CTA-local: no other CTA can help
      ++i;
    }
  }
  return g.counters();
}

}  // namespace gputlm::isa
