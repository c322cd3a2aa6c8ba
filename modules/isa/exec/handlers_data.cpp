// Data movement, conversion and comparison handlers: mov (incl. special registers and
// vector pack/unpack), cvt, cvta, isspacep, setp, set, selp, slct; plus the operand
// helpers for special registers and symbol addresses.
#include "isa/exec/convert_semantics.h"
#include "isa/exec/exec_context.h"

namespace gputlm::isa::exec_detail {

using namespace sem;

uint64_t symbol_value(const ExecCtx& c, uint32_t symbol) {
  const Symbol& s = c.lm.module().symbols[symbol];
  switch (s.kind) {
    case SymbolKind::Global: return c.lm.global_base() + s.offset;
    case SymbolKind::Const: return s.offset;
    case SymbolKind::Shared: case SymbolKind::ExternShared: return s.offset;
    case SymbolKind::Local: return c.f.local_base + s.offset;
    case SymbolKind::KernelParam: return kParamAreaKernel + s.offset;
    case SymbolKind::FuncParam: return kParamAreaFuncIn + s.offset;
    case SymbolKind::FuncReturn: return kParamAreaFuncRet + s.offset;
    case SymbolKind::CallParam: return kParamAreaCall + s.offset;
    case SymbolKind::Function: break;
  }
  c.grid.fail(c.w, 0, "the address of function '" + s.name + "' is not supported (indirect calls)");
}

uint64_t special_value(const ExecCtx& c, const Operand& o, uint32_t lane) {
  const LaunchParams& lp = c.grid.launch();
  const CtaContext& cta = *c.w.cta;
  auto comp = [&](const Dim3& d) -> uint64_t { return o.component == 0 ? d.x : o.component == 1 ? d.y : d.z; };
  switch (o.sreg) {
    case SpecialReg::Tid: return o.component == 0 ? c.w.tid_x[lane] : o.component == 1 ? c.w.tid_y[lane] : c.w.tid_z[lane];
    case SpecialReg::Ntid: return comp(lp.block);
    case SpecialReg::Ctaid: return cta.ctaid[o.component];
    case SpecialReg::Nctaid: return comp(lp.grid);
    case SpecialReg::Laneid: return lane;
    case SpecialReg::Warpid: return c.w.hw_warp_id;
    case SpecialReg::Nwarpid: return c.w.nwarpid;
    case SpecialReg::Smid: return c.w.smid;
    case SpecialReg::Nsmid: return c.w.nsmid;
    case SpecialReg::Gridid: return 0;
    case SpecialReg::Clock: return static_cast<uint32_t>(c.grid.cycle());
    case SpecialReg::Clock64: return c.grid.cycle();
    case SpecialReg::Globaltimer: return c.grid.cycle() * 1000;  // deterministic "ns"
    case SpecialReg::GlobaltimerLo: return static_cast<uint32_t>(c.grid.cycle() * 1000);
    case SpecialReg::GlobaltimerHi: return static_cast<uint32_t>((c.grid.cycle() * 1000) >> 32);
    case SpecialReg::LanemaskEq: return 1u << lane;
    case SpecialReg::LanemaskLe: return lane == 31 ? 0xFFFFFFFFu : (2u << lane) - 1;
    case SpecialReg::LanemaskLt: return (1u << lane) - 1;
    case SpecialReg::LanemaskGe: return ~((1u << lane) - 1);
    case SpecialReg::LanemaskGt: return lane == 31 ? 0u : ~((2u << lane) - 1);
    case SpecialReg::DynamicSmemSize: return lp.dynamic_shared_bytes;
    case SpecialReg::TotalSmemSize: return c.grid.shared_bytes_per_cta();
    case SpecialReg::Envreg: case SpecialReg::Pm: return 0;
    case SpecialReg::None: break;
  }
  return 0;
}

const uint64_t* src_materialise(ExecCtx& c, const Operand& o, uint32_t slot) {
  uint64_t* s = c.scratch[slot];
  switch (o.kind) {
    case OperandKind::Reg: return &c.f.regs[size_t{o.index} * 32];
    case OperandKind::Imm:
      for (uint32_t l = 0; l < 32; ++l) s[l] = o.bits;
      return s;
    case OperandKind::SymAddr: {
      uint64_t v = symbol_value(c, o.symbol) + static_cast<uint64_t>(o.offset);
      for (uint32_t l = 0; l < 32; ++l) s[l] = v;
      return s;
    }
    case OperandKind::Pred: {
      uint32_t m = c.f.preds[o.index];
      if (o.neg) m = ~m;
      for (uint32_t l = 0; l < 32; ++l) s[l] = (m >> l) & 1;
      return s;
    }
    default:  // Special
      for_each_lane(c.mask, [&](uint32_t l) { s[l] = special_value(c, o, l); });
      return s;
  }
}

namespace {

uint64_t width_mask(ScalarType t) {
  uint32_t n = type_bytes(t);
  return n >= 8 ? ~uint64_t{0} : ((uint64_t{1} << (8 * n)) - 1);
}

// ---- mov ---------------------------------------------------------------------------------
void h_mov(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  uint64_t m = width_mask(c.in.type);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = a[l] & m; });
}
void h_mov_pred(ExecCtx& c) { write_pred(c, c.in.ops[0], pred_mask(c, c.in.ops[1])); }
// mov.bN d, {a, b, ...}: pack elements, element 0 in the low bits.
void h_mov_pack(ExecCtx& c) {
  const Operand& v = c.in.ops[1];
  uint32_t ew = 8 * type_bytes(c.in.type) / v.count;
  uint64_t em = ew >= 64 ? ~uint64_t{0} : ((uint64_t{1} << ew) - 1);
  uint64_t* d = dst(c, 0);
  uint64_t tmp[32];
  for_each_lane(c.mask, [&](uint32_t l) { tmp[l] = 0; });
  for (uint32_t i = 0; i < v.count; ++i) {
    const uint64_t* e = src(c, c.fn.operand_pool[v.first + i], kMaxOps);
    for_each_lane(c.mask, [&](uint32_t l) { tmp[l] |= (e[l] & em) << (ew * i); });
  }
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = tmp[l]; });
}
// mov.bN {a, b, ...}, d: unpack.
void h_mov_unpack(ExecCtx& c) {
  const Operand& v = c.in.ops[0];
  uint32_t ew = 8 * type_bytes(c.in.type) / v.count;
  uint64_t em = ew >= 64 ? ~uint64_t{0} : ((uint64_t{1} << ew) - 1);
  const uint64_t* a = src(c, 1);
  uint64_t tmp[32];
  for_each_lane(c.mask, [&](uint32_t l) { tmp[l] = a[l]; });
  for (uint32_t i = 0; i < v.count; ++i) {
    uint64_t* d = dst(c, c.fn.operand_pool[v.first + i]);
    for_each_lane(c.mask, [&](uint32_t l) { d[l] = (tmp[l] >> (ew * i)) & em; });
  }
}

// ---- cvt ---------------------------------------------------------------------------------
void h_cvt(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  ScalarType dt = c.in.type, st = c.in.type2;
  Rounding rnd = c.in.rnd;
  bool ftz = (c.in.flags & kFtz) != 0, sat = (c.in.flags & kSat) != 0;
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = convert(a[l], dt, st, rnd, ftz, sat); });
}
// Fast path for the integer widenings/narrowings address arithmetic is full of.
template <class D, class S>
void h_cvt_int(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<D>(static_cast<D>(static_cast<S>(a[l]))); });
}

// ---- cvta / isspacep -----------------------------------------------------------------
uint64_t window_of(StateSpace s) {
  switch (s) {
    case StateSpace::Shared: return kSharedWindowBase;
    case StateSpace::Local: return kLocalWindowBase;
    case StateSpace::Const: return kConstWindowBase;
    case StateSpace::Param: return kParamWindowBase;
    default: return 0;
  }
}
void h_cvta(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  uint64_t base = window_of(c.in.space);
  bool to = (c.in.flags & kCvtaTo) != 0;
  uint64_t m = width_mask(c.in.type);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = (to ? a[l] - base : a[l] + base) & m; });
}
void h_isspacep(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint32_t r = 0;
  StateSpace want = c.in.space;
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t off;
    StateSpace s = resolve_generic(a[l], &off);
    r |= uint32_t(s == want) << l;
  });
  write_pred(c, c.in.ops[0], r);
}

// ---- setp / set / selp / slct ------------------------------------------------------------
template <class T>
uint32_t compare_row(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  CmpOp op = c.in.cmp;
  uint32_t r = 0;
  if constexpr (std::is_floating_point_v<T>) {
    bool ftz = (c.in.flags & kFtz) != 0;
    for_each_lane(c.mask, [&](uint32_t l) { r |= uint32_t(fp_compare(get<T>(a[l]), get<T>(b[l]), op, ftz)) << l; });
  } else {
    for_each_lane(c.mask, [&](uint32_t l) { r |= uint32_t(int_compare(get<T>(a[l]), get<T>(b[l]), op)) << l; });
  }
  return r;
}
template <class T>
void h_setp(ExecCtx& c) {
  uint32_t cmp = compare_row<T>(c);
  BoolOp bop = c.in.boolop;
  uint32_t cm = bop == BoolOp::None ? 0 : pred_mask(c, c.in.ops[3]);
  auto comb = [&](uint32_t x) {
    switch (bop) {
      case BoolOp::And: return x & cm;
      case BoolOp::Or: return x | cm;
      case BoolOp::Xor: return x ^ cm;
      default: return x;
    }
  };
  write_pred(c, c.in.ops[0], comb(cmp));
  if (c.in.dst2.kind == OperandKind::Pred) write_pred(c, c.in.dst2, comb(~cmp));
}
template <class T>
void h_set(ExecCtx& c) {
  uint32_t cmp = compare_row<T>(c);
  BoolOp bop = c.in.boolop;
  uint32_t cm = bop == BoolOp::None ? 0 : pred_mask(c, c.in.ops[3]);
  uint32_t r = bop == BoolOp::And ? (cmp & cm) : bop == BoolOp::Or ? (cmp | cm) : bop == BoolOp::Xor ? (cmp ^ cm) : cmp;
  uint64_t* d = dst(c, 0);
  bool f32 = c.in.type == ScalarType::F32;
  uint64_t one = f32 ? f32_bits(1.0f) : 0xFFFFFFFFull;
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = ((r >> l) & 1) ? one : 0; });
}
void h_selp(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  uint32_t p = pred_mask(c, c.in.ops[3]);
  uint64_t* d = dst(c, 0);
  uint64_t m = width_mask(c.in.type);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = (((p >> l) & 1) ? a[l] : b[l]) & m; });
}
template <bool Float>
void h_slct(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  uint64_t m = width_mask(c.in.type);
  bool ftz = (c.in.flags & kFtz) != 0;
  for_each_lane(c.mask, [&](uint32_t l) {
    bool ge;
    if constexpr (Float) {
      float x = get<float>(e[l]);
      if (ftz) x = flush_f32(x);
      ge = x >= 0.0f;  // NaN selects b
    } else {
      ge = get<int32_t>(e[l]) >= 0;
    }
    d[l] = (ge ? a[l] : b[l]) & m;
  });
}

template <int Kind>  // 0 setp, 1 set
ExecFn by_cmp_type(ScalarType t) {
  switch (t) {
    case ScalarType::U16: case ScalarType::B16: return Kind == 0 ? &h_setp<uint16_t> : &h_set<uint16_t>;
    case ScalarType::S16: return Kind == 0 ? &h_setp<int16_t> : &h_set<int16_t>;
    case ScalarType::U32: case ScalarType::B32: return Kind == 0 ? &h_setp<uint32_t> : &h_set<uint32_t>;
    case ScalarType::S32: return Kind == 0 ? &h_setp<int32_t> : &h_set<int32_t>;
    case ScalarType::U64: case ScalarType::B64: return Kind == 0 ? &h_setp<uint64_t> : &h_set<uint64_t>;
    case ScalarType::S64: return Kind == 0 ? &h_setp<int64_t> : &h_set<int64_t>;
    case ScalarType::F32: return Kind == 0 ? &h_setp<float> : &h_set<float>;
    case ScalarType::F64: return Kind == 0 ? &h_setp<double> : &h_set<double>;
    default: return nullptr;
  }
}

bool scalar_convertible(ScalarType t) {
  switch (t) {
    case ScalarType::F16: case ScalarType::BF16: case ScalarType::F32: case ScalarType::F64: return true;
    default: return is_signed_int(t) || is_unsigned_int(t) || (is_bits(t) && type_bytes(t) <= 8);
  }
}

ExecFn pick_cvt(const Instruction& in) {
  ScalarType d = in.type, s = in.type2;
  if (!scalar_convertible(d) || !scalar_convertible(s)) return nullptr;
  bool plain = (in.flags & (kSat | kFtz)) == 0 && !is_float(d) && !is_float(s);
  if (plain) {
    if (d == ScalarType::U64 && s == ScalarType::U32) return &h_cvt_int<uint64_t, uint32_t>;
    if (d == ScalarType::S64 && s == ScalarType::S32) return &h_cvt_int<int64_t, int32_t>;
    if (d == ScalarType::U32 && (s == ScalarType::U64 || s == ScalarType::S64)) return &h_cvt_int<uint32_t, uint64_t>;
    if (d == ScalarType::S32 && (s == ScalarType::S64 || s == ScalarType::U64)) return &h_cvt_int<int32_t, int64_t>;
  }
  return &h_cvt;
}

}  // namespace

ExecFn select_data_handler(const Instruction& in) {
  switch (in.op) {
    case Opcode::Mov:
      if (in.type == ScalarType::Pred) return &h_mov_pred;
      if (in.ops[1].kind == OperandKind::Vector) return &h_mov_pack;
      if (in.ops[0].kind == OperandKind::Vector) return &h_mov_unpack;
      if (in.ops[1].kind == OperandKind::Func) return nullptr;
      return type_bytes(in.type) <= 8 ? &h_mov : nullptr;
    case Opcode::Cvt: return pick_cvt(in);
    case Opcode::Cvta:
      return in.space == StateSpace::None ? nullptr : &h_cvta;
    case Opcode::Isspacep: return &h_isspacep;
    case Opcode::Setp: return by_cmp_type<0>(in.type);
    case Opcode::Set: return in.type == ScalarType::F32 || type_bytes(in.type) == 4 ? by_cmp_type<1>(in.type2) : nullptr;
    case Opcode::Selp: return type_bytes(in.type) <= 8 && in.type != ScalarType::Pred ? &h_selp : nullptr;
    case Opcode::Slct:
      if (in.type2 == ScalarType::F32) return &h_slct<true>;
      if (in.type2 == ScalarType::S32) return &h_slct<false>;
      return nullptr;
    default: return nullptr;
  }
}

}  // namespace gputlm::isa::exec_detail
