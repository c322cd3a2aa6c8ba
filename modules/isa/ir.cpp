// Type/name helpers and Module lookups for the IR (ir.h).
#include "isa/ir.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace gputlm::isa {

uint32_t type_bytes(ScalarType t) {
  switch (t) {
    case ScalarType::None: return 0;
    case ScalarType::Pred: return 1;
    case ScalarType::B8: case ScalarType::U8: case ScalarType::S8: return 1;
    case ScalarType::B16: case ScalarType::U16: case ScalarType::S16:
    case ScalarType::F16: case ScalarType::BF16: return 2;
    case ScalarType::B32: case ScalarType::U32: case ScalarType::S32: case ScalarType::F32:
    case ScalarType::F16x2: case ScalarType::BF16x2: return 4;
    case ScalarType::B64: case ScalarType::U64: case ScalarType::S64: case ScalarType::F64:
      return 8;
    case ScalarType::B128: return 16;
  }
  return 0;
}

bool is_float(ScalarType t) {
  return t == ScalarType::F16 || t == ScalarType::F16x2 || t == ScalarType::BF16 ||
         t == ScalarType::BF16x2 || t == ScalarType::F32 || t == ScalarType::F64;
}
bool is_signed_int(ScalarType t) {
  return t == ScalarType::S8 || t == ScalarType::S16 || t == ScalarType::S32 || t == ScalarType::S64;
}
bool is_unsigned_int(ScalarType t) {
  return t == ScalarType::U8 || t == ScalarType::U16 || t == ScalarType::U32 || t == ScalarType::U64;
}
bool is_bits(ScalarType t) {
  return t == ScalarType::B8 || t == ScalarType::B16 || t == ScalarType::B32 ||
         t == ScalarType::B64 || t == ScalarType::B128;
}

const char* type_name(ScalarType t) {
  switch (t) {
    case ScalarType::None: return "none";
    case ScalarType::Pred: return "pred";
    case ScalarType::B8: return "b8";
    case ScalarType::B16: return "b16";
    case ScalarType::B32: return "b32";
    case ScalarType::B64: return "b64";
    case ScalarType::B128: return "b128";
    case ScalarType::U8: return "u8";
    case ScalarType::U16: return "u16";
    case ScalarType::U32: return "u32";
    case ScalarType::U64: return "u64";
    case ScalarType::S8: return "s8";
    case ScalarType::S16: return "s16";
    case ScalarType::S32: return "s32";
    case ScalarType::S64: return "s64";
    case ScalarType::F16: return "f16";
    case ScalarType::F16x2: return "f16x2";
    case ScalarType::BF16: return "bf16";
    case ScalarType::BF16x2: return "bf16x2";
    case ScalarType::F32: return "f32";
    case ScalarType::F64: return "f64";
  }
  return "?";
}

const char* space_name(StateSpace s) {
  switch (s) {
    case StateSpace::None: return "none";
    case StateSpace::Reg: return "reg";
    case StateSpace::Param: return "param";
    case StateSpace::Global: return "global";
    case StateSpace::Shared: return "shared";
    case StateSpace::Local: return "local";
    case StateSpace::Const: return "const";
    case StateSpace::Generic: return "generic";
    case StateSpace::Texture: return "texture";
  }
  return "?";
}

const char* opcode_name(Opcode op) {
  static const char* const names[] = {
      "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs", "neg", "min",
      "max", "fma", "addc", "subc", "madc", "and", "or", "xor", "not", "cnot", "shl", "shr",
      "shf", "popc", "clz", "brev", "bfe", "bfi", "bfind", "prmt", "lop3", "dp4a", "dp2a",
      "copysign", "sqrt", "rsqrt", "rcp", "sin", "cos", "lg2", "ex2", "tanh", "testp", "setp",
      "set", "selp", "slct", "mov", "cvt", "cvta", "isspacep", "ld", "ldu", "st", "prefetch",
      "prefetchu", "discard", "atom", "red", "bar", "bar.warp.sync", "membar", "fence", "bra",
      "call", "ret", "exit", "trap", "brkpt", "nanosleep", "shfl", "vote", "activemask",
      "match"};
  static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(Opcode::Count_),
                "opcode name table out of sync");
  auto i = static_cast<size_t>(op);
  return i < static_cast<size_t>(Opcode::Count_) ? names[i] : "?";
}

const char* special_reg_name(SpecialReg r) {
  switch (r) {
    case SpecialReg::None: return "none";
    case SpecialReg::Tid: return "%tid";
    case SpecialReg::Ntid: return "%ntid";
    case SpecialReg::Ctaid: return "%ctaid";
    case SpecialReg::Nctaid: return "%nctaid";
    case SpecialReg::Laneid: return "%laneid";
    case SpecialReg::Warpid: return "%warpid";
    case SpecialReg::Nwarpid: return "%nwarpid";
    case SpecialReg::Smid: return "%smid";
    case SpecialReg::Nsmid: return "%nsmid";
    case SpecialReg::Gridid: return "%gridid";
    case SpecialReg::Clock: return "%clock";
    case SpecialReg::Clock64: return "%clock64";
    case SpecialReg::Globaltimer: return "%globaltimer";
    case SpecialReg::GlobaltimerLo: return "%globaltimer_lo";
    case SpecialReg::GlobaltimerHi: return "%globaltimer_hi";
    case SpecialReg::LanemaskEq: return "%lanemask_eq";
    case SpecialReg::LanemaskLe: return "%lanemask_le";
    case SpecialReg::LanemaskLt: return "%lanemask_lt";
    case SpecialReg::LanemaskGe: return "%lanemask_ge";
    case SpecialReg::LanemaskGt: return "%lanemask_gt";
    case SpecialReg::Envreg: return "%envreg";
    case SpecialReg::DynamicSmemSize: return "%dynamic_smem_size";
    case SpecialReg::TotalSmemSize: return "%total_smem_size";
    case SpecialReg::Pm: return "%pm";
  }
  return "?";
}

const char* op_class_name(OpClass c) {
  switch (c) {
    case OpClass::IntAlu: return "int_alu";
    case OpClass::IntMul: return "int_mul";
    case OpClass::IntDiv: return "int_div";
    case OpClass::Fp32: return "fp32";
    case OpClass::Fp64: return "fp64";
    case OpClass::Fp16: return "fp16";
    case OpClass::Sfu: return "sfu";
    case OpClass::Conv: return "conv";
    case OpClass::MemGlobal: return "mem_global";
    case OpClass::MemLocal: return "mem_local";
    case OpClass::MemShared: return "mem_shared";
    case OpClass::MemConst: return "mem_const";
    case OpClass::MemParam: return "mem_param";
    case OpClass::MemTexture: return "mem_texture";
    case OpClass::MemGeneric: return "mem_generic";
    case OpClass::Atomic: return "atomic";
    case OpClass::Branch: return "branch";
    case OpClass::Barrier: return "barrier";
    case OpClass::Membar: return "membar";
    case OpClass::Call: return "call";
    case OpClass::Ret: return "ret";
    case OpClass::Exit: return "exit";
    case OpClass::Nop: return "nop";
  }
  return "?";
}

const char* latency_class_name(LatencyClass c) {
  switch (c) {
    case LatencyClass::IntAlu: return "int_alu";
    case LatencyClass::IntMul: return "int_mul";
    case LatencyClass::IntDiv: return "int_div";
    case LatencyClass::Fp32: return "fp32";
    case LatencyClass::Fp32Div: return "fp32_div";
    case LatencyClass::Fp64: return "fp64";
    case LatencyClass::Fp64Div: return "fp64_div";
    case LatencyClass::Fp16: return "fp16";
    case LatencyClass::Sfu: return "sfu";
    case LatencyClass::Conv: return "conv";
    case LatencyClass::Memory: return "memory";
    case LatencyClass::Control: return "control";
    case LatencyClass::Barrier: return "barrier";
    case LatencyClass::Nop: return "nop";
  }
  return "?";
}

const char* symbol_kind_name(SymbolKind k) {
  switch (k) {
    case SymbolKind::Global: return "global";
    case SymbolKind::Const: return "const";
    case SymbolKind::Shared: return "shared";
    case SymbolKind::ExternShared: return "extern shared";
    case SymbolKind::Local: return "local";
    case SymbolKind::KernelParam: return "kernel param";
    case SymbolKind::FuncParam: return "func param";
    case SymbolKind::FuncReturn: return "func return";
    case SymbolKind::CallParam: return "call param";
    case SymbolKind::Function: return "function";
  }
  return "?";
}

uint32_t Function::index_of(uint64_t pc) const {
  if (pc < pc_base || (pc - pc_base) % kInstrBytes != 0) return kNone;
  uint64_t i = (pc - pc_base) / kInstrBytes;
  return i < code.size() ? static_cast<uint32_t>(i) : kNone;
}

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !out) return mangled;
  return std::string(out.get());
}

uint32_t Module::find_function(const std::string& name) const {
  for (uint32_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name) return i;
  return kNone;
}

uint32_t Module::find_symbol(const std::string& name) const {
  for (uint32_t i = 0; i < symbols.size(); ++i)
    if (symbols[i].name == name && symbols[i].function == kNone) return i;
  return kNone;
}

uint32_t Module::function_at(uint64_t pc) const {
  for (uint32_t i = 0; i < functions.size(); ++i)
    if (functions[i].index_of(pc) != kNone) return i;
  return kNone;
}

uint32_t Module::find_kernel_index(const std::string& name) const {
  std::vector<uint32_t> kernels;
  for (uint32_t i = 0; i < functions.size(); ++i)
    if (functions[i].is_entry) kernels.push_back(i);
  // "void scale<float, 3>(float*, float, long long)" -> "scale<float, 3>": drop the
  // argument list and, for templates, the return type (both at template depth 0).
  auto demangled_name = [](const std::string& d) {
    int depth = 0;
    size_t end = d.size(), start = 0;
    for (size_t i = 0; i < d.size(); ++i) {
      char c = d[i];
      if (c == '<') ++depth;
      else if (c == '>' && depth > 0) --depth;
      else if (depth == 0 && c == '(') {
        end = i;
        break;
      } else if (depth == 0 && c == ' ') {
        start = i + 1;
      }
    }
    return d.substr(start, end - start);
  };
  // 1. exact mangled name, 2. exact demangled name (with or without the argument list),
  // 3. unique prefix of either.
  for (uint32_t i : kernels)
    if (functions[i].name == name) return i;
  std::vector<uint32_t> hits;
  for (uint32_t i : kernels) {
    std::string d = demangle(functions[i].name);
    if (d == name || demangled_name(d) == name) hits.push_back(i);
  }
  if (hits.empty()) {
    for (uint32_t i : kernels) {
      std::string d = demangle(functions[i].name);
      if (functions[i].name.compare(0, name.size(), name) == 0 ||
          d.compare(0, name.size(), name) == 0 ||
          demangled_name(d).compare(0, name.size(), name) == 0)
        hits.push_back(i);
    }
  }
  if (hits.size() == 1 && !name.empty()) return hits[0];
  std::string list;
  for (uint32_t i : (hits.empty() ? kernels : hits))
    list += "\n  " + functions[i].name + "  (" + demangle(functions[i].name) + ")";
  if (hits.empty() || name.empty())
    throw std::runtime_error(file + ": no kernel named '" + name + "'; kernels in module:" +
                             (list.empty() ? std::string(" (none)") : list));
  throw std::runtime_error(file + ": kernel name '" + name + "' is ambiguous; candidates:" + list);
}

const Function& Module::find_kernel(const std::string& name) const {
  return functions[find_kernel_index(name)];
}

}  // namespace gputlm::isa
