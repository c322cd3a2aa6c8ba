// Calls to the CUDA runtime's device-side functions that PTX declares `.extern` and the
// driver normally provides: vprintf (device printf), __assertfail (device assert), malloc
// and free (device heap).
// They execute as one instruction (no call frame).
#include <cctype>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "isa/exec/exec_context.h"

namespace gputlm::isa::exec_detail {

namespace {

// Bytes of call argument `i` for `lane` (a call-sequence .param, a register or an immediate).
uint64_t call_arg(ExecCtx& c, uint32_t i, uint32_t lane, uint32_t bytes) {
  const Operand& o = c.fn.operand_pool[c.in.call_arg_first + i];
  uint64_t v = 0;
  if ((o.kind == OperandKind::SymAddr || o.kind == OperandKind::Mem) && o.symbol != kNone) {
    const Symbol& s = c.lm.module().symbols[o.symbol];
    uint64_t off = s.offset + static_cast<uint64_t>(o.offset);
    if (s.kind != SymbolKind::CallParam || off > c.fn.call_param_bytes || c.fn.call_param_bytes - off < bytes)
      c.grid.fail(c.w, lane, "call argument " + std::to_string(i) + " is not a call-sequence .param");
    std::memcpy(&v, c.f.call_params.data() + size_t{lane} * c.fn.call_param_bytes + off, bytes);
  } else if (o.kind == OperandKind::Reg) {
    v = c.f.regs[size_t{o.index} * 32 + lane];
  } else if (o.kind == OperandKind::Imm) {
    v = o.bits;
  }
  return v;
}

void set_call_ret(ExecCtx& c, uint32_t lane, uint64_t value, uint32_t bytes = 4) {
  if (c.in.call_ret_count == 0) return;
  const Operand& o = c.fn.operand_pool[c.in.call_ret_first];
  if ((o.kind == OperandKind::SymAddr || o.kind == OperandKind::Mem) && o.symbol != kNone) {
    const Symbol& s = c.lm.module().symbols[o.symbol];
    uint64_t off = s.offset + static_cast<uint64_t>(o.offset);
    if (s.kind == SymbolKind::CallParam && off <= c.fn.call_param_bytes && c.fn.call_param_bytes - off >= bytes)
      std::memcpy(c.f.call_params.data() + size_t{lane} * c.fn.call_param_bytes + off, &value, bytes);
  } else if (o.kind == OperandKind::Reg) {
    c.f.regs[size_t{o.index} * 32 + lane] = value;
  }
}

uint8_t read_byte(ExecCtx& c, uint32_t lane, uint64_t generic) {
  uint64_t a;
  StateSpace s = resolve_generic(generic, &a);
  uint8_t b = 0;
  mem_read(c, s, lane, a, &b, 1);
  return b;
}

std::string read_string(ExecCtx& c, uint32_t lane, uint64_t generic) {
  std::string out;
  if (generic == 0) return "(null)";
  for (uint32_t i = 0; i < 65536; ++i) {
    uint8_t b = read_byte(c, lane, generic + i);
    if (b == 0) return out;
    out.push_back(static_cast<char>(b));
  }
  c.grid.fail(c.w, lane, "unterminated string passed to printf/assert");
}

// Reads the next argument of `bytes` from the packed argument buffer (each argument aligned
// to its own size, as nvcc lays it out).
uint64_t next_arg(ExecCtx& c, uint32_t lane, uint64_t buf, uint64_t* off, uint32_t bytes) {
  *off = (*off + bytes - 1) / bytes * bytes;
  uint64_t a;
  StateSpace s = resolve_generic(buf + *off, &a);
  uint64_t v = 0;
  mem_read(c, s, lane, a, &v, bytes);
  *off += bytes;
  return v;
}

// Formats one printf call: the conversions CUDA's device printf supports.
std::string format(ExecCtx& c, uint32_t lane, const std::string& fmt, uint64_t buf) {
  std::string out;
  uint64_t off = 0;
  char tmp[512];
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out.push_back(fmt[i]);
      continue;
    }
    size_t start = i++;
    if (i < fmt.size() && fmt[i] == '%') {
      out.push_back('%');
      continue;
    }
    while (i < fmt.size() && std::strchr("-+ #0", fmt[i])) ++i;
    while (i < fmt.size() && (std::isdigit(static_cast<unsigned char>(fmt[i])) || fmt[i] == '.')) ++i;
    int longs = 0;
    while (i < fmt.size() && std::strchr("hlLzjt", fmt[i])) {
      if (fmt[i] == 'l' || fmt[i] == 'L' || fmt[i] == 'z' || fmt[i] == 'j' || fmt[i] == 't') ++longs;
      ++i;
    }
    if (i >= fmt.size()) {
      out += fmt.substr(start);
      break;
    }
    char conv = fmt[i];
    std::string spec = fmt.substr(start, i - start);
    // Strip length modifiers; pass the value at full width.
    std::string base;
    for (char ch : spec)
      if (!std::strchr("hlLzjt", ch)) base.push_back(ch);
    switch (conv) {
      case 'd': case 'i': {
        int64_t v = longs ? static_cast<int64_t>(next_arg(c, lane, buf, &off, 8))
                          : static_cast<int32_t>(next_arg(c, lane, buf, &off, 4));
        std::snprintf(tmp, sizeof tmp, (base + "ll" + conv).c_str(), static_cast<long long>(v));
        break;
      }
      case 'u': case 'x': case 'X': case 'o': {
        uint64_t v = longs ? next_arg(c, lane, buf, &off, 8) : static_cast<uint32_t>(next_arg(c, lane, buf, &off, 4));
        std::snprintf(tmp, sizeof tmp, (base + "ll" + conv).c_str(), static_cast<unsigned long long>(v));
        break;
      }
      case 'c': {
        int v = static_cast<int>(next_arg(c, lane, buf, &off, 4));
        std::snprintf(tmp, sizeof tmp, (base + conv).c_str(), v);
        break;
      }
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
        double v = sem::f64_from_bits(next_arg(c, lane, buf, &off, 8));  // floats are promoted
        std::snprintf(tmp, sizeof tmp, (base + conv).c_str(), v);
        break;
      }
      case 's': {
        std::string s = read_string(c, lane, next_arg(c, lane, buf, &off, 8));
        std::snprintf(tmp, sizeof tmp, (base + conv).c_str(), s.c_str());
        break;
      }
      case 'p': {
        uint64_t v = next_arg(c, lane, buf, &off, 8);
        std::snprintf(tmp, sizeof tmp, "0x%llx", static_cast<unsigned long long>(v));
        break;
      }
      default:
        c.grid.fail(c.w, lane, std::string("printf conversion '%") + conv + "' is not supported");
    }
    out += tmp;
  }
  return out;
}

// malloc/free mutate the device allocator and vprintf writes the shared output stream at
// issue: with a GlobalMemoryLog (SMs stepping in parallel threads) neither is safe nor in SM
// order. Such kernels run serially (LoadedModule::uses_shared_state_builtins); a step with
// a log that reaches one anyway is an error rather than a silent race.
void refuse_with_log(ExecCtx& c, const char* what) {
  if (c.log)
    c.grid.fail(c.w, static_cast<uint32_t>(__builtin_ctz(c.mask)),
                std::string(what) + " touches device-wide state and cannot run with a GlobalMemoryLog attached; "
                                    "run this kernel serially (LoadedModule::uses_shared_state_builtins)");
}

void h_vprintf(ExecCtx& c) {
  refuse_with_log(c, "device printf (vprintf)");
  std::ostream& os = c.grid.options().printf_output ? *c.grid.options().printf_output : std::cout;
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t fmt_addr = call_arg(c, 0, l, 8);
    uint64_t buf = c.in.call_arg_count > 1 ? call_arg(c, 1, l, 8) : 0;
    os << format(c, l, read_string(c, l, fmt_addr), buf);
    set_call_ret(c, l, 0);
  });
  os.flush();
}

void h_assertfail(ExecCtx& c) {
  uint32_t l = static_cast<uint32_t>(__builtin_ctz(c.mask));
  std::string msg = read_string(c, l, call_arg(c, 0, l, 8));
  std::string file = c.in.call_arg_count > 1 ? read_string(c, l, call_arg(c, 1, l, 8)) : "?";
  uint32_t line = c.in.call_arg_count > 2 ? static_cast<uint32_t>(call_arg(c, 2, l, 4)) : 0;
  std::string func = c.in.call_arg_count > 3 ? read_string(c, l, call_arg(c, 3, l, 8)) : "?";
  c.grid.fail(c.w, l, "device assertion '" + msg + "' failed at " + file + ":" + std::to_string(line) + " in " + func);
}

// Device-side malloc/free: allocations of the device's global allocator, made lane by lane
// in lane order (deterministic addresses); free(0) is a no-op, freeing anything that is not
// a live allocation is an error.
void h_malloc(ExecCtx& c) {
  refuse_with_log(c, "device malloc");
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t bytes = call_arg(c, 0, l, 8);
    uint64_t p = c.lm.memory().allocator.allocate(bytes);
    set_call_ret(c, l, p, 8);
  });
}
void h_free(ExecCtx& c) {
  refuse_with_log(c, "device free");
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t p = call_arg(c, 0, l, 8);
    if (p == 0) return;
    try {
      c.lm.memory().allocator.release(p);
    } catch (const std::exception& e) {
      c.grid.fail(c.w, l, std::string("device free: ") + e.what());
    }
  });
}

}  // namespace

ExecFn select_builtin_call(const Function& callee) {
  if (callee.name == "vprintf") return &h_vprintf;
  if (callee.name == "__assertfail") return &h_assertfail;
  if (callee.name == "malloc") return &h_malloc;
  if (callee.name == "free") return &h_free;
  return nullptr;
}

}  // namespace gputlm::isa::exec_detail
