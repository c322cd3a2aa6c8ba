// Memory handlers: ld/ldu/st/atom/red/prefetch in every state space, with generic
// address resolution and bounds checks; per-lane addresses are recorded in the step
// result for the coalescer.
#include <algorithm>

#include "core/log/hex.h"
#include <cstdio>

#include "isa/exec/convert_semantics.h"
#include "isa/exec/exec_context.h"
#include "isa/exec/warp_collectives.h"

namespace gputlm::isa::exec_detail {

StateSpace resolve_generic(uint64_t generic, uint64_t* addr) {
  if (generic >= kSharedWindowBase && generic < kSharedWindowBase + kWindowBytes) {
    *addr = generic - kSharedWindowBase;
    return StateSpace::Shared;
  }
  if (generic >= kLocalWindowBase && generic < kLocalWindowBase + kWindowBytes) {
    *addr = generic - kLocalWindowBase;
    return StateSpace::Local;
  }
  if (generic >= kConstWindowBase && generic < kConstWindowBase + kWindowBytes) {
    *addr = generic - kConstWindowBase;
    return StateSpace::Const;
  }
  if (generic >= kParamWindowBase && generic < kParamWindowBase + 4 * kWindowBytes) {
    *addr = generic - kParamWindowBase;
    return StateSpace::Param;
  }
  *addr = generic;
  return StateSpace::Global;
}

namespace {


[[noreturn]] void out_of_bounds(ExecCtx& c, StateSpace s, uint32_t lane, uint64_t addr, uint32_t bytes,
                                bool write, const std::string& limit) {
  c.grid.fail(c.w, lane, std::string("out-of-bounds ") + space_name(s) + (write ? " write" : " read") + " of " +
                             std::to_string(bytes) + " bytes at address " + hex(addr) + " (" + limit + ")");
}

// Pointer to `bytes` bytes at `addr` of a non-global space for `lane`, or an error.
uint8_t* space_ptr(ExecCtx& c, StateSpace s, uint32_t lane, uint64_t addr, uint32_t bytes, bool write) {
  switch (s) {
    case StateSpace::Shared: {
      std::vector<uint8_t>& sh = c.w.cta->shared;
      if (addr > sh.size() || sh.size() - addr < bytes)
        out_of_bounds(c, s, lane, addr, bytes, write, "CTA shared memory is " + std::to_string(sh.size()) + " bytes");
      return sh.data() + addr;
    }
    case StateSpace::Local: {
      if (addr > c.w.local_top || c.w.local_top - addr < bytes)
        out_of_bounds(c, s, lane, addr, bytes, write,
                      "the thread's local frames are " + std::to_string(c.w.local_top) + " bytes");
      return c.w.local.data() + size_t{lane} * c.w.local_capacity + addr;
    }
    case StateSpace::Const: {
      const std::vector<uint8_t>& cb = c.lm.const_bank();
      if (write) c.grid.fail(c.w, lane, "store to constant memory at address " + hex(addr));
      if (addr > cb.size() || cb.size() - addr < bytes)
        out_of_bounds(c, s, lane, addr, bytes, write, "constant bank 0 is " + std::to_string(cb.size()) + " bytes");
      return const_cast<uint8_t*>(cb.data() + addr);
    }
    case StateSpace::Param: {
      uint64_t area = addr & kParamAreaMask, off = addr & 0xFFFFFFFFull;
      if ((addr >> 34) != 0) out_of_bounds(c, s, lane, addr, bytes, write, "not a parameter address");
      std::vector<uint8_t>* v = nullptr;
      uint32_t stride = 0;
      const char* what = "";
      if (area == kParamAreaKernel) {
        if (write) c.grid.fail(c.w, lane, "store to the kernel parameter buffer at offset " + hex(off));
        const std::vector<uint8_t>& p = c.grid.launch().params;
        if (off > p.size() || p.size() - off < bytes)
          out_of_bounds(c, s, lane, addr, bytes, write, "kernel parameters are " + std::to_string(p.size()) + " bytes");
        return const_cast<uint8_t*>(p.data() + off);
      } else if (area == kParamAreaFuncIn) {
        v = &c.f.param_in; stride = c.fn.param_bytes; what = "function parameters";
      } else if (area == kParamAreaFuncRet) {
        v = &c.f.param_ret; stride = c.fn.return_bytes; what = "function return parameters";
      } else {
        v = &c.f.call_params; stride = c.fn.call_param_bytes; what = "call parameters";
      }
      if (off > stride || stride - off < bytes)
        out_of_bounds(c, s, lane, addr, bytes, write, std::string(what) + " are " + std::to_string(stride) + " bytes");
      return v->data() + size_t{lane} * stride + off;
    }
    default:
      c.grid.fail(c.w, lane, std::string("memory access in unsupported space ") + space_name(s));
  }
}

void check_global(ExecCtx& c, uint32_t lane, uint64_t addr, uint32_t bytes, bool write) {
  if (addr >= c.global_lo && addr + bytes <= c.global_hi && addr + bytes >= addr) return;
  uint64_t start = 0, size = 0;
  if (!c.lm.memory().allocator.find(addr, &start, &size) || addr + bytes > start + size || addr + bytes < addr)
    out_of_bounds(c, StateSpace::Global, lane, addr, bytes, write, "outside every live allocation and module symbol");
  c.global_lo = start;
  c.global_hi = start + size;
}

}  // namespace

void mem_read(ExecCtx& c, StateSpace s, uint32_t lane, uint64_t addr, void* out, uint32_t bytes) {
  if (s == StateSpace::Global) {
    check_global(c, lane, addr, bytes, false);
    c.lm.memory().store.read(addr, out, bytes);
    return;
  }
  std::memcpy(out, space_ptr(c, s, lane, addr, bytes, false), bytes);
}

void mem_write(ExecCtx& c, StateSpace s, uint32_t lane, uint64_t addr, const void* in, uint32_t bytes) {
  if (s == StateSpace::Global) {
    check_global(c, lane, addr, bytes, true);
    c.lm.memory().store.write(addr, in, bytes);
    return;
  }
  std::memcpy(space_ptr(c, s, lane, addr, bytes, true), in, bytes);
}

namespace {

// Computes and records every executing lane's address in the step result; for a generic
// access also each lane's resolved space (r.mem.space when they agree, else mixed_spaces).
void compute_addresses(ExecCtx& c, const Operand& m, AccessKind kind) {
  MemAccess& mem = c.r.mem;
  c.r.is_memory = true;
  mem.kind = kind;
  mem.element_bytes = static_cast<uint8_t>(type_bytes(c.in.type));
  mem.elements = c.in.vec;
  mem.lane_mask = c.mask;
  mem.mixed_spaces = false;
  uint64_t sym = m.symbol != kNone ? symbol_value(c, m.symbol) : 0;
  uint64_t disp = sym + static_cast<uint64_t>(m.offset);
  const uint64_t* base = m.index != kNone ? &c.f.regs[size_t{m.index} * 32] : nullptr;
  // Address arithmetic is as wide as the address: [reg+imm] through a 32-bit register
  // (the 32-bit spaces; the decoder refuses it for generic/.global in 64-bit modules), or
  // any address of a .address_size 32 module, wraps modulo 2^32. nvcc relies on it:
  // Rodinia's NW forms `temp - 64*tid` in a 32-bit register and adds a positive offset.
  const uint64_t wrap = (base && type_bytes(m.type) == 4) || c.lm.module().address_size == 32
                            ? 0xFFFFFFFFull
                            : ~0ull;
  bool generic = c.in.space == StateSpace::None || c.in.space == StateSpace::Generic;
  if (!generic) {
    mem.space = c.in.space;
    for_each_lane(c.mask, [&](uint32_t l) { mem.addr[l] = ((base ? base[l] : 0) + disp) & wrap; });
    return;
  }
  StateSpace first = StateSpace::None;
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t a;
    StateSpace s = resolve_generic(((base ? base[l] : 0) + disp) & wrap, &a);
    mem.addr[l] = a;
    mem.lane_space[l] = s;
    if (first == StateSpace::None) first = s;
    else if (s != first) mem.mixed_spaces = true;
  });
  mem.space = mem.mixed_spaces ? StateSpace::Generic : first;
}

inline StateSpace lane_space(const ExecCtx& c, uint32_t l) {
  return c.r.mem.mixed_spaces ? c.r.mem.lane_space[l] : c.r.mem.space;
}

// Operand rows of a possibly-vector value operand / destination.
uint32_t value_rows(ExecCtx& c, const Operand& o, const uint64_t* rows[8], uint32_t slot) {
  if (o.kind != OperandKind::Vector) {
    rows[0] = src(c, o, slot);
    return 1;
  }
  for (uint32_t i = 0; i < o.count; ++i) rows[i] = src(c, c.fn.operand_pool[o.first + i], slot + i);
  return o.count;
}

// --- Deferred global lanes (a GlobalMemoryLog is attached to the step) ----------------
// Bounds checks run here, at issue, exactly as without a log; the memory access itself is
// recorded and applied by GlobalMemoryLog::replay.

// The registers a deferred load/atomic writes: named by frame index and activation, since
// the frame may return (or the frames vector grow) before replay.
GlobalMemoryLog::Dest log_dest(const ExecCtx& c, const Operand& d) {
  GlobalMemoryLog::Dest r;
  r.warp = &c.w;
  r.frame = c.w.depth - 1;
  r.activation = c.f.activation;
  if (d.kind == OperandKind::Vector) {
    for (uint32_t i = 0; i < d.count && i < 8; ++i) {
      const Operand& e = c.fn.operand_pool[d.first + i];
      r.regs[i] = e.kind == OperandKind::Reg ? e.index : kNone;
    }
  } else {
    r.regs[0] = d.kind == OperandKind::Reg ? d.index : kNone;
  }
  return r;
}

// Records a load of `lanes` whose addresses were appended from `addr_first`.
void log_load(ExecCtx& c, uint32_t eb, bool sign, uint32_t lanes, uint32_t addr_first, uint64_t span_lo = 0,
              uint64_t span_hi = 0) {
  GlobalMemoryLog::Op op;
  op.kind = GlobalMemoryLog::Kind::Load;
  op.element_bytes = static_cast<uint8_t>(eb);
  op.elements = c.in.vec;
  op.sign_extend = sign;
  op.type = c.in.type;
  op.lane_mask = lanes;
  op.addr_first = addr_first;
  op.value_first = c.log->next_value();
  op.span_lo = span_lo;
  op.span_hi = span_hi;
  op.dest = log_dest(c, c.in.ops[0]);
  c.log->add_op(op);
}

// st with a log: global lanes are checked and recorded with their data; other lanes of a
// generic access are written now.
void log_store(ExecCtx& c, const uint64_t* const rows[8], uint32_t n, uint32_t eb) {
  GlobalMemoryLog& log = *c.log;
  const uint32_t addr_first = log.next_addr(), value_first = log.next_value();
  uint32_t deferred = 0;
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t a = c.r.mem.addr[l];
    StateSpace s = lane_space(c, l);
    if (s != StateSpace::Global) {
      for (uint32_t i = 0; i < n; ++i) mem_write(c, s, l, a + uint64_t{i} * eb, &rows[i][l], eb);
      return;
    }
    for (uint32_t i = 0; i < n; ++i) {
      check_global(c, l, a + uint64_t{i} * eb, eb, true);
      log.add_value(rows[i][l]);
    }
    log.add_addr(a);
    deferred |= 1u << l;
  });
  if (!deferred) return;
  GlobalMemoryLog::Op op;
  op.kind = GlobalMemoryLog::Kind::Store;
  op.element_bytes = static_cast<uint8_t>(eb);
  op.elements = static_cast<uint8_t>(n);
  op.type = c.in.type;
  op.lane_mask = deferred;
  op.addr_first = addr_first;
  op.value_first = value_first;
  log.add_op(op);
}

// Loads of EB-byte elements. Shared, const and global memory take a tight per-lane loop;
// other spaces and mixed generic accesses go through mem_read.
template <uint32_t EB, bool Sign>
void h_ld(ExecCtx& c) {
  compute_addresses(c, c.in.ops[1], AccessKind::Load);
  const Operand& d = c.in.ops[0];
  const uint32_t n = c.in.vec;
  uint64_t* rows[8];
  if (d.kind == OperandKind::Vector) {
    for (uint32_t i = 0; i < d.count && i < 8; ++i) rows[i] = dst(c, c.fn.operand_pool[d.first + i]);
  } else {
    rows[0] = dst(c, d);
  }
  const MemAccess& mem = c.r.mem;
  const uint32_t bytes = EB * n;
  auto put_elems = [&](uint32_t l, const uint8_t* p) {
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, p + i * EB, EB);
      rows[i][l] = Sign ? sem::extend_to_64(v, c.in.type) : v;
    }
  };
  if (!mem.mixed_spaces && (mem.space == StateSpace::Shared || mem.space == StateSpace::Const)) {
    bool sh = mem.space == StateSpace::Shared;
    const uint8_t* base = sh ? c.w.cta->shared.data() : c.lm.const_bank().data();
    uint64_t size = sh ? c.w.cta->shared.size() : c.lm.const_bank().size();
    for_each_lane(c.mask, [&](uint32_t l) {
      uint64_t a = mem.addr[l];
      if (a > size || size - a < bytes) space_ptr(c, mem.space, l, a, bytes, false);  // reports the error
      put_elems(l, base + a);
    });
    return;
  }
  if (!mem.mixed_spaces && mem.space == StateSpace::Global) {
    BackingStore& store = c.lm.memory().store;
    // Every lane's bytes lie in one span of at most two pages of one allocation (coalesced
    // or mildly strided): check and read the span once instead of once per lane.
    uint64_t lo = ~uint64_t{0}, hi = 0;
    for_each_lane(c.mask, [&](uint32_t l) {
      lo = std::min(lo, mem.addr[l]);
      hi = std::max(hi, mem.addr[l] + bytes);
    });
    constexpr uint64_t kSpan = GlobalMemoryLog::kSpanBytes;
    if (hi > lo && hi - lo <= kSpan) {
      bool inside = lo >= c.global_lo && hi <= c.global_hi;
      uint64_t start = 0, size = 0;
      if (!inside && c.lm.memory().allocator.find(lo, &start, &size) && hi <= start + size) {
        inside = true;
        c.global_lo = start;
        c.global_hi = start + size;
      }
      if (inside) {
        if (c.log) {
          const uint32_t first = c.log->next_addr();
          for_each_lane(c.mask, [&](uint32_t l) { c.log->add_addr(mem.addr[l]); });
          log_load(c, EB, Sign, c.mask, first, lo, hi);
          return;
        }
        uint8_t span[kSpan];
        store.read(lo, span, hi - lo);
        for_each_lane(c.mask, [&](uint32_t l) { put_elems(l, span + (mem.addr[l] - lo)); });
        return;
      }
    }
    if (c.log) {
      const uint32_t first = c.log->next_addr();
      for_each_lane(c.mask, [&](uint32_t l) {
        check_global(c, l, mem.addr[l], bytes, false);
        c.log->add_addr(mem.addr[l]);
      });
      log_load(c, EB, Sign, c.mask, first);
      return;
    }
    for_each_lane(c.mask, [&](uint32_t l) {
      uint64_t a = mem.addr[l];
      check_global(c, l, a, bytes, false);
      uint8_t buf[EB * 8];
      store.read(a, buf, bytes);
      put_elems(l, buf);
    });
    return;
  }
  uint32_t deferred = 0;  // global lanes of a mixed generic access, with a log
  const uint32_t first = c.log ? c.log->next_addr() : 0;
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t a = mem.addr[l];
    StateSpace s = lane_space(c, l);
    if (s == StateSpace::Global && c.log) {
      for (uint32_t i = 0; i < n; ++i) check_global(c, l, a + uint64_t{i} * EB, EB, false);
      c.log->add_addr(a);
      deferred |= 1u << l;
      return;
    }
    uint8_t buf[EB * 8];
    for (uint32_t i = 0; i < n; ++i) mem_read(c, s, l, a + uint64_t{i} * EB, buf + i * EB, EB);
    put_elems(l, buf);
  });
  if (deferred) log_load(c, EB, Sign, deferred, first);
}

template <uint32_t EB>
ExecFn pick_ld(bool sign) {
  return sign ? &h_ld<EB, true> : &h_ld<EB, false>;
}

void h_st(ExecCtx& c) {
  compute_addresses(c, c.in.ops[0], AccessKind::Store);
  const uint64_t* rows[8];
  value_rows(c, c.in.ops[1], rows, 1);
  uint32_t n = c.in.vec, eb = type_bytes(c.in.type);
  if (c.log) {
    log_store(c, rows, n, eb);
    return;
  }
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t a = c.r.mem.addr[l];
    StateSpace s = lane_space(c, l);
    for (uint32_t i = 0; i < n; ++i) mem_write(c, s, l, a + uint64_t{i} * eb, &rows[i][l], eb);
  });
}

// atom/red with a log: global lanes are checked and recorded with their operands
// (replayed in lane order); shared lanes of a generic access update memory now.
template <bool Returns>
void log_atomic(ExecCtx& c, const uint64_t* b, const uint64_t* e, uint64_t* d, uint32_t eb, uint64_t wm) {
  GlobalMemoryLog& log = *c.log;
  const bool sign = is_signed_int(c.in.type);
  const uint32_t addr_first = log.next_addr(), value_first = log.next_value();
  uint32_t deferred = 0;
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t a = c.r.mem.addr[l], old = 0;
    StateSpace s = lane_space(c, l);
    if (s == StateSpace::Global) {
      check_global(c, l, a, eb, false);
      log.add_addr(a);
      log.add_value(b[l]);
      log.add_value(e[l]);
      deferred |= 1u << l;
      return;
    }
    if (s != StateSpace::Shared) c.grid.fail(c.w, l, std::string("atomic on ") + space_name(s) + " memory");
    mem_read(c, s, l, a, &old, eb);
    uint64_t nv = sem::atomic_update(c.in.atom, c.in.type, old, b[l], e[l]) & wm;
    mem_write(c, s, l, a, &nv, eb);
    if (Returns) d[l] = sign ? sem::extend_to_64(old, c.in.type) : old;
  });
  if (!deferred) return;
  GlobalMemoryLog::Op op;
  op.kind = GlobalMemoryLog::Kind::Atomic;
  op.element_bytes = static_cast<uint8_t>(eb);
  op.sign_extend = sign;
  op.type = c.in.type;
  op.atom = c.in.atom;
  op.lane_mask = deferred;
  op.addr_first = addr_first;
  op.value_first = value_first;
  if (Returns) op.dest = log_dest(c, c.in.ops[0]);
  log.add_op(op);
}

template <bool Returns>
void h_atom(ExecCtx& c) {
  const Operand& m = c.in.ops[Returns ? 1 : 0];
  compute_addresses(c, m, Returns ? AccessKind::Atomic : AccessKind::Reduction);
  const uint64_t* b = src(c, Returns ? 2 : 1);
  const uint64_t* e = c.in.atom == AtomOp::Cas ? src(c, 3) : b;
  uint64_t* d = Returns ? dst(c, 0) : nullptr;
  uint32_t eb = type_bytes(c.in.type);
  uint64_t wm = eb >= 8 ? ~uint64_t{0} : ((uint64_t{1} << (8 * eb)) - 1);
  if (c.log) {
    log_atomic<Returns>(c, b, e, d, eb, wm);
    return;
  }
  // Lanes update memory one after another in lane order (deterministic serialisation).
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t a = c.r.mem.addr[l], old = 0;
    StateSpace s = lane_space(c, l);
    if (s != StateSpace::Global && s != StateSpace::Shared)
      c.grid.fail(c.w, l, std::string("atomic on ") + space_name(s) + " memory");
    mem_read(c, s, l, a, &old, eb);
    uint64_t nv = sem::atomic_update(c.in.atom, c.in.type, old, b[l], e[l]) & wm;
    mem_write(c, s, l, a, &nv, eb);
    if (Returns) d[l] = is_signed_int(c.in.type) ? sem::extend_to_64(old, c.in.type) : old;
  });
}

void h_prefetch(ExecCtx& c) {
  // No architectural effect; the timing model sees the addresses.
  compute_addresses(c, c.in.ops[0], AccessKind::None);
}

bool atom_type_ok(const Instruction& in) {
  ScalarType t = in.type;
  switch (in.atom) {
    case AtomOp::Add:
      return t == ScalarType::U32 || t == ScalarType::S32 || t == ScalarType::U64 || t == ScalarType::F32 ||
             t == ScalarType::F64 || t == ScalarType::F16 || t == ScalarType::F16x2 || t == ScalarType::BF16 ||
             t == ScalarType::BF16x2;
    case AtomOp::Min: case AtomOp::Max:
      return t == ScalarType::U32 || t == ScalarType::S32 || t == ScalarType::U64 || t == ScalarType::S64;
    case AtomOp::Inc: case AtomOp::Dec: return t == ScalarType::U32;
    case AtomOp::And: case AtomOp::Or: case AtomOp::Xor:
      return t == ScalarType::B32 || t == ScalarType::B64 || t == ScalarType::U32 || t == ScalarType::S32 ||
             t == ScalarType::U64 || t == ScalarType::S64;
    case AtomOp::Cas: case AtomOp::Exch:
      return type_bytes(t) == 2 || type_bytes(t) == 4 || type_bytes(t) == 8;
    case AtomOp::None: return false;
  }
  return false;
}

}  // namespace

ExecFn select_memory_handler(const Instruction& in) {
  switch (in.op) {
    case Opcode::Ld: case Opcode::Ldu: {
      if (in.vec > 8) return nullptr;
      bool sign = is_signed_int(in.type);
      switch (type_bytes(in.type)) {
        case 1: return pick_ld<1>(sign);
        case 2: return pick_ld<2>(sign);
        case 4: return pick_ld<4>(sign);
        case 8: return pick_ld<8>(sign);
        default: return nullptr;
      }
    }
    case Opcode::St:
      if (type_bytes(in.type) == 0 || type_bytes(in.type) > 8 || in.vec > 8) return nullptr;
      return &h_st;
    case Opcode::Atom: return atom_type_ok(in) ? &h_atom<true> : nullptr;
    case Opcode::Red: return atom_type_ok(in) ? &h_atom<false> : nullptr;
    case Opcode::Prefetch: case Opcode::Prefetchu: return &h_prefetch;
    default: return nullptr;
  }
}

}  // namespace gputlm::isa::exec_detail
