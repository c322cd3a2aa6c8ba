// SIMT control flow of GridExecution: the PDOM reconvergence stack (divergent branches,
// reconvergence at the immediate post-dominator), calls and returns with per-warp call
// frames, exit, and CTA barriers (bar.sync / bar.arrive / bar.red).
#include <algorithm>
#include <cstring>

#include "isa/exec/exec_context.h"
#include "isa/exec/functional_executor.h"
#include "isa/exec/int_semantics.h"

namespace gputlm::isa {

namespace {

inline uint32_t first_lane(uint32_t m) { return m ? static_cast<uint32_t>(__builtin_ctz(m)) : 0; }

// Where a call argument / return operand lives in the caller's frame for one lane.
uint8_t* caller_slot(const Module& m, const Function& caller_fn, CallFrame& caller, const Operand& o, uint32_t lane,
                     uint32_t bytes, uint64_t* reg_tmp) {
  if ((o.kind == OperandKind::SymAddr || o.kind == OperandKind::Mem) && o.symbol != kNone) {
    const Symbol& s = m.symbols[o.symbol];
    uint64_t off = s.offset + static_cast<uint64_t>(o.offset);
    if (s.kind != SymbolKind::CallParam || off > caller_fn.call_param_bytes || caller_fn.call_param_bytes - off < bytes)
      return nullptr;
    return caller.call_params.data() + size_t{lane} * caller_fn.call_param_bytes + off;
  }
  if (o.kind == OperandKind::Reg) return reinterpret_cast<uint8_t*>(&caller.regs[size_t{o.index} * 32 + lane]);
  if (o.kind == OperandKind::Imm) {
    *reg_tmp = o.bits;
    return reinterpret_cast<uint8_t*>(reg_tmp);
  }
  return nullptr;
}

}  // namespace

void GridExecution::exec_control(WarpContext& w, const Instruction& in, uint32_t exec, StepResult& r) {
  switch (in.op) {
    case Opcode::Bra: {
      r.is_branch = true;
      SimtEntry& e = w.simt.back();
      uint32_t taken = exec, not_taken = e.mask & ~exec;
      if (taken == 0) {
        ++e.pc;
      } else if (not_taken == 0) {
        e.pc = in.target;
        r.branch_taken = true;
      } else {
        r.branch_taken = r.diverged = true;
        SimtEntry cur = e;
        // No post-dominator inside the function (paths end in exit/ret): the paths meet
        // again, if at all, where the enclosing entry reconverges.
        uint32_t rpc = in.reconv == kNone ? cur.rpc : in.reconv;
        if (rpc == cur.rpc) {
          // Same reconvergence point as the current entry: the entry below already waits
          // there with these lanes, so replace the current entry by the two paths.
          w.simt.pop_back();
        } else {
          e.pc = rpc;  // the current entry waits at the reconvergence point with all lanes
        }
        // A path that starts at the reconvergence point needs no entry of its own.
        if (cur.pc + 1 != rpc) w.simt.push_back(SimtEntry{cur.func, cur.pc + 1, rpc, not_taken});
        if (in.target != rpc) w.simt.push_back(SimtEntry{cur.func, in.target, rpc, taken});
      }
      settle(w, r);
      return;
    }
    case Opcode::Call: {
      r.is_call = true;
      SimtEntry& e = w.simt.back();
      ++e.pc;  // the return point; the caller's entry waits there for every lane
      if (exec == 0) {
        settle(w, r);
        return;
      }
      const Module& m = lm_->module();
      const Function& callee = m.functions[in.callee];
      uint32_t caller_func = e.func;
      if (in.call_arg_count != callee.params.size() || in.call_ret_count != callee.returns.size())
        fail(w, first_lane(exec), "call passes " + std::to_string(in.call_arg_count) + " arguments and " +
                                      std::to_string(in.call_ret_count) + " return values; '" + callee.name +
                                      "' declares " + std::to_string(callee.params.size()) + " and " +
                                      std::to_string(callee.returns.size()));
      uint32_t call_index = e.pc - 1;
      push_frame(w, in.callee, call_index);
      w.simt.push_back(SimtEntry{in.callee, 0, kNone, exec});
      const Function& caller_fn = m.functions[caller_func];
      CallFrame& caller = w.frames[w.depth - 2];
      CallFrame& fr = w.frames[w.depth - 1];
      for (uint32_t i = 0; i < in.call_arg_count; ++i) {
        const Operand& a = caller_fn.operand_pool[in.call_arg_first + i];
        const Param& p = callee.params[i];
        for (uint32_t l = 0; l < 32; ++l) {
          if (!((exec >> l) & 1)) continue;
          uint64_t tmp = 0;
          uint32_t n = p.size;
          if (a.kind == OperandKind::Reg || a.kind == OperandKind::Imm) n = std::min<uint32_t>(n, 8);
          uint8_t* s = caller_slot(m, caller_fn, caller, a, l, n, &tmp);
          if (!s) fail(w, l, "call argument " + std::to_string(i) + " is not a call-sequence .param or register");
          std::memcpy(fr.param_in.data() + size_t{l} * callee.param_bytes + p.offset, s, n);
        }
      }
      settle(w, r);
      return;
    }
    case Opcode::Ret:
      if (w.depth <= 1) {
        do_exit(w, exec, r);  // ret from the kernel entry ends the threads
      } else {
        do_return(w, exec, r);
      }
      return;
    case Opcode::Exit:
      do_exit(w, exec, r);
      return;
    case Opcode::Trap:
      if (exec) fail(w, first_lane(exec), "trap instruction executed");
      ++w.simt.back().pc;
      settle(w, r);
      return;
    case Opcode::Bar:
      do_barrier(w, in, exec, r);
      return;
    default:
      fail(w, first_lane(exec), std::string("internal: no handler for '") + opcode_name(in.op) + "'");
  }
}

void GridExecution::do_exit(WarpContext& w, uint32_t lanes, StepResult& r) {
  ++w.simt.back().pc;
  if (lanes) {
    w.exited_mask |= lanes;
    r.exited_mask = lanes;
    for (SimtEntry& e : w.simt) e.mask &= ~lanes;
  }
  settle(w, r);
}

void GridExecution::do_return(WarpContext& w, uint32_t lanes, StepResult& r) {
  r.is_return = true;
  ++w.simt.back().pc;
  if (lanes) {
    CallFrame& fr = w.frame();
    fr.returned_mask |= lanes;
    for (size_t i = fr.simt_base; i < w.simt.size(); ++i) w.simt[i].mask &= ~lanes;
  }
  settle(w, r);
}

void GridExecution::finish_call(WarpContext& w) {
  const Module& m = lm_->module();
  CallFrame& fr = w.frames[w.depth - 1];
  CallFrame& caller = w.frames[w.depth - 2];
  const Function& callee = m.functions[fr.func];
  const Function& caller_fn = m.functions[caller.func];
  const Instruction& call = caller_fn.code[fr.call_index];
  uint32_t lanes = fr.returned_mask & ~w.exited_mask;
  for (uint32_t i = 0; i < call.call_ret_count && lanes; ++i) {
    const Operand& o = caller_fn.operand_pool[call.call_ret_first + i];
    const Param& p = callee.returns[i];
    for (uint32_t l = 0; l < 32; ++l) {
      if (!((lanes >> l) & 1)) continue;
      uint64_t tmp = 0;
      uint32_t n = p.size;
      if (o.kind == OperandKind::Reg) n = std::min<uint32_t>(n, 8);
      uint8_t* d = o.kind == OperandKind::Imm ? nullptr : caller_slot(m, caller_fn, caller, o, l, n, &tmp);
      if (!d) fail(w, l, "call return value " + std::to_string(i) + " is not a call-sequence .param or register");
      std::memcpy(d, fr.param_ret.data() + size_t{l} * callee.return_bytes + p.offset, n);
    }
  }
  w.local_top = fr.local_base;
  --w.depth;
}

void GridExecution::settle(WarpContext& w, StepResult& r) {
  for (;;) {
    if (w.depth > 1 && w.simt.size() == w.frame().simt_base) {
      finish_call(w);
      r.is_return = true;
      continue;
    }
    if (w.simt.empty()) break;
    const SimtEntry& t = w.simt.back();
    if (t.mask == 0) {
      w.simt.pop_back();
      continue;
    }
    if (t.pc == t.rpc) {
      w.simt.pop_back();
      r.reconverged = true;
      continue;
    }
    if (t.pc == kNone) fail(w, first_lane(t.mask), "internal: SIMT entry without a reconvergence point has live lanes");
    break;
  }
  if (w.simt.empty() && w.status != WarpStatus::Finished) finish_warp(w, r);
}

void GridExecution::finish_warp(WarpContext& w, StepResult& r) {
  w.status = WarpStatus::Finished;
  r.warp_finished = true;
  CtaContext& cta = *w.cta;
  --cta.live_warps;
  // Exited warps no longer count: barriers that waited only for this warp complete now.
  for (uint32_t id = 0; id < kNumBarriers; ++id)
    if (cta.barriers[id].arrived && try_complete_barrier(cta, id)) r.barrier_released = true;
}

void GridExecution::do_barrier(WarpContext& w, const Instruction& in, uint32_t exec, StepResult& r) {
  ++w.simt.back().pc;
  if (exec == 0) {
    settle(w, r);
    return;
  }
  exec_detail::ExecCtx c(*this, *lm_, w, w.frame(), lm_->module().functions[r.function], in, exec, r);
  bool red = in.bar == BarKind::Red;
  uint32_t k = red ? 1 : 0;  // bar.red has the destination first
  uint32_t lane = first_lane(exec);
  uint64_t id = exec_detail::src(c, k)[lane];
  if (id >= kNumBarriers) fail(w, lane, "barrier id " + std::to_string(id) + " (must be 0..15)");
  CtaContext& cta = *w.cta;
  BarrierState& b = cta.barriers[id];
  bool counted = (in.flags & kBarrierExplicitCount) != 0;
  if (counted) {
    uint64_t threads = exec_detail::src(c, k + 1)[lane];
    if (threads == 0 || threads % 32 != 0 || threads > uint64_t{warps_per_cta_} * 32)
      fail(w, lane, "barrier thread count " + std::to_string(threads) +
                        " (must be a non-zero multiple of 32, at most the CTA's " +
                        std::to_string(warps_per_cta_ * 32) + " threads)");
    b.expected = static_cast<uint32_t>(threads / 32);
  }
  b.arrived |= 1u << w.warp_in_cta;
  r.barrier_id = static_cast<uint32_t>(id);
  if (red) {
    uint32_t p = exec_detail::pred_mask(c, in.ops[k + (counted ? 2 : 1)]) & exec;
    b.red_popc += sem::popcount32(p);
    b.red_all = b.red_all && p == exec;
    b.red_any = b.red_any || p != 0;
    w.bar_red = PendingBarRed{true, in.boolop, exec, p, in.ops[0]};
  }
  if (in.bar == BarKind::Arrive) {
    r.barrier_arrive = true;
  } else {
    w.status = WarpStatus::AtBarrier;
    w.barrier_id = static_cast<uint32_t>(id);
    b.waiting |= 1u << w.warp_in_cta;
    r.at_barrier = true;
  }
  if (try_complete_barrier(cta, static_cast<uint32_t>(id))) r.barrier_released = true;
  if (w.status == WarpStatus::Ready) settle(w, r);
  else {
    // The warp's own stack may still need to pop (bar.sync right before a reconvergence
    // point); it does not change what the warp waits for.
    StepResult tmp;
    settle(w, tmp);
    r.reconverged = tmp.reconverged;
  }
}

bool GridExecution::try_complete_barrier(CtaContext& cta, uint32_t id) {
  BarrierState& b = cta.barriers[id];
  if (b.arrived == 0) return false;
  if (b.expected) {
    if (sem::popcount32(b.arrived) < b.expected) return false;
  } else {
    uint32_t live = 0;
    for (const WarpContext& w : cta.warps)
      if (w.status != WarpStatus::Finished) live |= 1u << w.warp_in_cta;
    if (live & ~b.arrived) return false;
  }
  for (WarpContext& w : cta.warps) {
    if (!((b.waiting >> w.warp_in_cta) & 1)) continue;
    if (w.status == WarpStatus::AtBarrier && w.barrier_id == id) w.status = WarpStatus::Ready;
    if (w.bar_red.active) {
      CallFrame& fr = w.frame();
      const PendingBarRed& pr = w.bar_red;
      if (pr.dst.kind == OperandKind::Reg) {
        uint64_t v = pr.op == BoolOp::Popc ? b.red_popc
                     : pr.op == BoolOp::And ? uint64_t(b.red_all)
                                            : uint64_t(b.red_any);
        for (uint32_t l = 0; l < 32; ++l)
          if ((pr.lanes >> l) & 1) fr.regs[size_t{pr.dst.index} * 32 + l] = v;
      } else if (pr.dst.kind == OperandKind::Pred) {
        bool v = pr.op == BoolOp::And ? b.red_all : pr.op == BoolOp::Or ? b.red_any : b.red_popc != 0;
        uint32_t& p = fr.preds[pr.dst.index];
        p = (p & ~pr.lanes) | (v ? pr.lanes : 0);
      }
      w.bar_red.active = false;
    }
  }
  b = BarrierState{};
  return true;
}

}  // namespace gputlm::isa
