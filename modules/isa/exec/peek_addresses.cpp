// GridExecution::peek_global_load: the addresses a warp's next load will read, computed
// from its current registers the way the memory handlers compute them (handlers_memory.cpp)
// but without executing anything. Registers change only when the warp itself executes, so
// the result holds until its next step.
#include "isa/exec/exec_context.h"
#include "isa/exec/functional_executor.h"

namespace gputlm::isa {

bool GridExecution::peek_global_load(const WarpContext& w, uint64_t (&addr)[32], uint32_t& mask) const {
  if (w.status != WarpStatus::Ready || w.simt.empty()) return false;
  const Module& m = lm_->module();
  const SimtEntry& e = w.simt.back();
  const Function& fn = m.functions[e.func];
  if (e.pc >= fn.code.size()) return false;
  const Instruction& in = fn.code[e.pc];
  if (in.op != Opcode::Ld && in.op != Opcode::Ldu) return false;
  const bool generic = in.space == StateSpace::None || in.space == StateSpace::Generic;
  if (!generic && in.space != StateSpace::Global) return false;
  const Operand& op = in.ops[1];
  if (op.kind != OperandKind::Mem) return false;
  uint64_t disp = static_cast<uint64_t>(op.offset);
  if (op.symbol != kNone) {
    const Symbol& s = m.symbols[op.symbol];
    if (s.kind != SymbolKind::Global) return false;
    disp += lm_->global_base() + s.offset;
  }
  uint32_t exec = e.mask;
  const CallFrame& f = w.frame();
  if (in.guard != kNone) exec &= in.guard_neg ? ~f.preds[in.guard] : f.preds[in.guard];
  const uint64_t* base = op.index != kNone ? &f.regs[size_t{op.index} * 32] : nullptr;
  const uint64_t wrap = (base && type_bytes(op.type) == 4) || m.address_size == 32 ? 0xFFFFFFFFull : ~0ull;
  mask = 0;
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(exec & (1u << l))) continue;
    uint64_t a = ((base ? base[l] : 0) + disp) & wrap;
    if (generic && exec_detail::resolve_generic(a, &a) != StateSpace::Global) continue;
    addr[l] = a;
    mask |= 1u << l;
  }
  return true;
}

}  // namespace gputlm::isa
