#include "isa/exec/loaded_module.h"

#include <cstring>

#include "isa/exec/exec_context.h"

namespace gputlm::isa {

namespace exec_detail {

namespace {
void h_nop(ExecCtx&) {}
}  // namespace

ExecFn select_handler(const Module& m, const Function& fn, uint32_t index) {
  const Instruction& in = fn.code[index];
  auto unsupported = [&](const std::string& why) -> ExecFn {
    throw ExecError(m.file + ":" + std::to_string(in.line) + ":" + std::to_string(in.column) +
                    ": unsupported instruction '" + (index < fn.text.size() ? fn.text[index] : opcode_name(in.op)) +
                    "' in function '" + fn.name + "'" + (why.empty() ? "" : ": " + why));
  };
  ExecFn h = nullptr;
  if ((in.type == ScalarType::F16 || in.type == ScalarType::F16x2) && in.op != Opcode::Cvt && in.op != Opcode::Mov &&
      in.op != Opcode::Ld && in.op != Opcode::Ldu && in.op != Opcode::St && in.op != Opcode::Selp &&
      in.op != Opcode::Atom && in.op != Opcode::Red) {
    h = select_half_handler(in);
    if (!h) return unsupported("no semantics for this half-precision form");
    return h;
  }
  switch (in.op) {
    case Opcode::Bra: case Opcode::Ret: case Opcode::Exit: case Opcode::Bar: case Opcode::Trap:
      return nullptr;  // executed by the core (control flow, barriers)
    case Opcode::Call:
      if (in.callee == kNone || in.callee >= m.functions.size()) return unsupported("indirect calls are not supported");
      if (m.functions[in.callee].is_declaration) {
        if (ExecFn b = select_builtin_call(m.functions[in.callee])) return b;
        return unsupported("callee '" + m.functions[in.callee].name + "' has no body in this module");
      }
      return nullptr;
    case Opcode::BarWarpSync: case Opcode::Membar: case Opcode::Fence: case Opcode::Nanosleep:
    case Opcode::Discard: case Opcode::Brkpt:
      // No functional effect in a simulator that executes a warp in lock step and
      // performs memory operations in program order.
      return &h_nop;
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Div:
    case Opcode::Abs: case Opcode::Neg: case Opcode::Min: case Opcode::Max:
      h = is_float(in.type) ? select_float_handler(in) : select_alu_handler(in);
      break;
    case Opcode::Fma: case Opcode::Copysign: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Rcp:
    case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2: case Opcode::Ex2: case Opcode::Tanh:
    case Opcode::Testp:
      h = select_float_handler(in);
      break;
    case Opcode::Setp: case Opcode::Set: case Opcode::Selp: case Opcode::Slct: case Opcode::Mov:
    case Opcode::Cvt: case Opcode::Cvta: case Opcode::Isspacep:
      h = select_data_handler(in);
      break;
    case Opcode::Ld: case Opcode::Ldu: case Opcode::St: case Opcode::Atom: case Opcode::Red:
    case Opcode::Prefetch: case Opcode::Prefetchu: {
      // The value operand's element count must match .vN (the handlers rely on it).
      if (in.op == Opcode::Ld || in.op == Opcode::Ldu || in.op == Opcode::St) {
        const Operand& v = in.ops[in.op == Opcode::St ? 1 : 0];
        uint32_t n = v.kind == OperandKind::Vector ? v.count : 1;
        if (n != in.vec)
          return unsupported("value operand has " + std::to_string(n) + " elements, the access is .v" +
                             std::to_string(in.vec));
      }
      h = select_memory_handler(in);
      break;
    }
    case Opcode::Shfl: case Opcode::Vote: case Opcode::Match: case Opcode::Activemask:
      h = select_warp_handler(in);
      break;
    case Opcode::Count_:
      break;
    default:
      h = select_alu_handler(in);
      break;
  }
  if (!h) return unsupported(std::string("no semantics for this type/modifier combination (.") + type_name(in.type) + ")");
  return h;
}

}  // namespace exec_detail

LoadedModule::LoadedModule(Module module, DeviceMemory& mem) : module_(std::move(module)), mem_(&mem) {
  handlers_.resize(module_.functions.size());
  for (uint32_t f = 0; f < module_.functions.size(); ++f) {
    const Function& fn = module_.functions[f];
    handlers_[f].resize(fn.code.size());
    for (uint32_t i = 0; i < fn.code.size(); ++i) handlers_[f][i] = exec_detail::select_handler(module_, fn, i);
  }
  if (module_.global_bytes > 0) global_base_ = mem_->allocator.allocate(module_.global_bytes);
  const_bank_.assign(module_.const_bytes, 0);
  for (const Symbol& s : module_.symbols) {
    if (s.init.empty()) continue;
    if (s.kind == SymbolKind::Global) {
      mem_->store.write(global_base_ + s.offset, s.init.data(), s.init.size());
    } else if (s.kind == SymbolKind::Const) {
      if (s.offset + s.init.size() > const_bank_.size())
        throw ExecError(module_.file + ":" + std::to_string(s.line) + ": initialiser of constant '" + s.name +
                        "' exceeds the constant segment");
      std::memcpy(const_bank_.data() + s.offset, s.init.data(), s.init.size());
    }
  }
  apply_relocations();
  find_shared_state_builtins();
}

// Functions that call, directly or through calls, a runtime builtin touching device-wide
// state at issue: malloc/free (the allocator), vprintf (the output stream, in SM order only
// when serial), __assertfail (reads its strings from global memory).
void LoadedModule::find_shared_state_builtins() {
  const size_t n = module_.functions.size();
  shared_state_builtins_.assign(n, 0);
  auto callees = [&](uint32_t f, auto&& visit) {
    for (const Instruction& in : module_.functions[f].code)
      if (in.op == Opcode::Call && in.callee < n) visit(in.callee);
  };
  for (uint32_t f = 0; f < n; ++f)
    callees(f, [&](uint32_t c) {
      const Function& fn = module_.functions[c];
      if (fn.is_declaration && (fn.name == "malloc" || fn.name == "free" || fn.name == "vprintf" ||
                                fn.name == "__assertfail"))
        shared_state_builtins_[f] = 1;
    });
  for (bool changed = true; changed;) {  // propagate to callers (recursion: a fixed point)
    changed = false;
    for (uint32_t f = 0; f < n; ++f) {
      if (shared_state_builtins_[f]) continue;
      callees(f, [&](uint32_t c) { shared_state_builtins_[f] |= shared_state_builtins_[c]; });
      changed = changed || shared_state_builtins_[f];
    }
  }
}

// Address-valued initialisers (`.u64 p = generic(x)+4`): the address of x is only known
// once the global segment is placed, so the parser records them and they are patched here.
void LoadedModule::apply_relocations() {
  for (const Symbol& s : module_.symbols) {
    for (const Relocation& r : s.relocations) {
      if (r.symbol >= module_.symbols.size())
        throw ExecError(module_.file + ":" + std::to_string(s.line) + ": initialiser of '" + s.name +
                        "' refers to an unknown symbol");
      const Symbol& target = module_.symbols[r.symbol];
      uint64_t address;
      if (target.kind == SymbolKind::Global)
        address = global_base_ + target.offset;  // global addresses are their own generic addresses
      else if (target.kind == SymbolKind::Const)
        address = (r.generic ? kConstWindowBase : 0) + target.offset;
      else
        throw ExecError(module_.file + ":" + std::to_string(s.line) + ": initialiser of '" + s.name +
                        "' takes the address of '" + target.name + "', a " + symbol_kind_name(target.kind) +
                        " symbol (only .global and .const addresses are known at load time)");
      address += static_cast<uint64_t>(r.addend);
      if (r.bytes > 8 || r.offset + r.bytes > s.size)
        throw ExecError(module_.file + ":" + std::to_string(s.line) + ": address initialiser outside '" +
                        s.name + "'");
      uint8_t bytes[8];
      std::memcpy(bytes, &address, 8);  // little-endian, truncated to the element width
      if (s.kind == SymbolKind::Global)
        mem_->store.write(global_base_ + s.offset + r.offset, bytes, r.bytes);
      else if (s.kind == SymbolKind::Const)
        std::memcpy(const_bank_.data() + s.offset + r.offset, bytes, r.bytes);
    }
  }
}

namespace {
const Symbol& data_symbol(const Module& m, const std::string& name) {
  uint32_t i = m.find_symbol(name);
  if (i == kNone) throw ExecError("module '" + m.file + "' has no symbol '" + name + "'");
  const Symbol& s = m.symbols[i];
  if (s.kind != SymbolKind::Global && s.kind != SymbolKind::Const)
    throw ExecError("symbol '" + name + "' is a " + symbol_kind_name(s.kind) + ", not a .global or .const variable");
  return s;
}
void check_range(const Symbol& s, uint64_t offset, uint64_t bytes) {
  if (offset > s.size || s.size - offset < bytes)
    throw ExecError("access of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                    " exceeds symbol '" + s.name + "' of " + std::to_string(s.size) + " bytes");
}
}  // namespace

uint64_t LoadedModule::global_symbol_address(const std::string& name) const {
  const Symbol& s = data_symbol(module_, name);
  if (s.kind != SymbolKind::Global) throw ExecError("symbol '" + name + "' is not a .global variable");
  return global_base_ + s.offset;
}

void LoadedModule::write_symbol(const std::string& name, uint64_t offset, const void* src, uint64_t bytes) {
  const Symbol& s = data_symbol(module_, name);
  check_range(s, offset, bytes);
  if (s.kind == SymbolKind::Global) mem_->store.write(global_base_ + s.offset + offset, src, bytes);
  else std::memcpy(const_bank_.data() + s.offset + offset, src, bytes);
}

void LoadedModule::read_symbol(const std::string& name, uint64_t offset, void* dst, uint64_t bytes) const {
  const Symbol& s = data_symbol(module_, name);
  check_range(s, offset, bytes);
  if (s.kind == SymbolKind::Global) mem_->store.read(global_base_ + s.offset + offset, dst, bytes);
  else std::memcpy(dst, const_bank_.data() + s.offset + offset, bytes);
}

}  // namespace gputlm::isa
