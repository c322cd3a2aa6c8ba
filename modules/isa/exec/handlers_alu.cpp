// Integer arithmetic and bit-manipulation handlers (one template instance per opcode and
// type, chosen once at load time).
#include "isa/exec/exec_context.h"

namespace gputlm::isa::exec_detail {

using namespace sem;

namespace {

// ---- generic shapes ------------------------------------------------------------------
template <class T, class Op>
void h_unary(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<T>(Op::template apply<T>(get<T>(a[l]))); });
}
template <class T, class Op>
void h_binary(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<T>(Op::template apply<T>(get<T>(a[l]), get<T>(b[l]))); });
}
template <class T, class Op>
void h_ternary(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) {
    d[l] = put<T>(Op::template apply<T>(get<T>(a[l]), get<T>(b[l]), get<T>(e[l])));
  });
}
// Second operand is a u32 (shift amounts, bit positions).
template <class T, class Op>
void h_shift(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<T>(Op::template apply<T>(get<T>(a[l]), uint32_t(b[l]))); });
}

struct OpAdd { template <class T> static T apply(T a, T b) { return wrap_add(a, b); } };
struct OpSub { template <class T> static T apply(T a, T b) { return wrap_sub(a, b); } };
struct OpAddSat { template <class T> static T apply(T a, T b) { return add_sat_s32(a, b); } };
struct OpSubSat { template <class T> static T apply(T a, T b) { return sub_sat_s32(a, b); } };
struct OpMulLo { template <class T> static T apply(T a, T b) { return wrap_mul(a, b); } };
struct OpMulHi { template <class T> static T apply(T a, T b) { return mul_hi(a, b); } };
struct OpMul24Lo { template <class T> static T apply(T a, T b) { return mul24(a, b, false); } };
struct OpMul24Hi { template <class T> static T apply(T a, T b) { return mul24(a, b, true); } };
struct OpDiv { template <class T> static T apply(T a, T b) { return int_div(a, b); } };
struct OpRem { template <class T> static T apply(T a, T b) { return int_rem(a, b); } };
struct OpMin { template <class T> static T apply(T a, T b) { return int_min(a, b); } };
struct OpMax { template <class T> static T apply(T a, T b) { return int_max(a, b); } };
template <class T>
T relu(T r) {
  if constexpr (std::is_signed_v<T>) return r < 0 ? T(0) : r;
  else return r;
}
struct OpMinRelu { template <class T> static T apply(T a, T b) { return relu(int_min(a, b)); } };
struct OpMaxRelu { template <class T> static T apply(T a, T b) { return relu(int_max(a, b)); } };
struct OpAnd { template <class T> static T apply(T a, T b) { return T(a & b); } };
struct OpOr { template <class T> static T apply(T a, T b) { return T(a | b); } };
struct OpXor { template <class T> static T apply(T a, T b) { return T(a ^ b); } };
struct OpAbs { template <class T> static T apply(T a) { return int_abs(a); } };
struct OpNeg { template <class T> static T apply(T a) { return wrap_neg(a); } };
struct OpNot { template <class T> static T apply(T a) { return T(~a); } };
struct OpCnot { template <class T> static T apply(T a) { return cnot(a); } };
struct OpBrev { template <class T> static T apply(T a) { return brev(a); } };
struct OpShl { template <class T> static T apply(T a, uint32_t n) { return shift_left(a, n); } };
struct OpShr { template <class T> static T apply(T a, uint32_t n) { return shift_right(a, n); } };
struct OpMadLo { template <class T> static T apply(T a, T b, T e) { return wrap_add(wrap_mul(a, b), e); } };
struct OpMadHi { template <class T> static T apply(T a, T b, T e) { return wrap_add(mul_hi(a, b), e); } };
struct OpMadHiSat { template <class T> static T apply(T a, T b, T e) { return mad_hi_sat_s32(a, b, e); } };
struct OpMad24Lo { template <class T> static T apply(T a, T b, T e) { return wrap_add(mul24(a, b, false), e); } };
struct OpMad24Hi { template <class T> static T apply(T a, T b, T e) { return wrap_add(mul24(a, b, true), e); } };
struct OpSad { template <class T> static T apply(T a, T b, T e) { return sad(a, b, e); } };

enum Shape { kUnary, kBinary, kTernary, kShift };
template <class T, class Op, int S>
ExecFn shape_fn() {
  if constexpr (S == kUnary) return &h_unary<T, Op>;
  else if constexpr (S == kBinary) return &h_binary<T, Op>;
  else if constexpr (S == kTernary) return &h_ternary<T, Op>;
  else return &h_shift<T, Op>;
}
template <class Op, int S>
ExecFn by_int(ScalarType t) {
  switch (t) {
    case ScalarType::U16: case ScalarType::B16: return shape_fn<uint16_t, Op, S>();
    case ScalarType::S16: return shape_fn<int16_t, Op, S>();
    case ScalarType::U32: case ScalarType::B32: return shape_fn<uint32_t, Op, S>();
    case ScalarType::S32: return shape_fn<int32_t, Op, S>();
    case ScalarType::U64: case ScalarType::B64: return shape_fn<uint64_t, Op, S>();
    case ScalarType::S64: return shape_fn<int64_t, Op, S>();
    default: return nullptr;
  }
}
// Bit operations ignore signedness.
template <class Op, int S>
ExecFn by_bits(ScalarType t) {
  switch (type_bytes(t)) {
    case 2: return shape_fn<uint16_t, Op, S>();
    case 4: return shape_fn<uint32_t, Op, S>();
    case 8: return shape_fn<uint64_t, Op, S>();
    default: return nullptr;
  }
}

// ---- wide products ------------------------------------------------------------------
template <class T>
void h_mul_wide(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put(mul_wide(get<T>(a[l]), get<T>(b[l]))); });
}
template <class T>
void h_mad_wide(ExecCtx& c) {
  using W = decltype(mul_wide(T(0), T(0)));
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) {
    d[l] = put<W>(wrap_add<W>(mul_wide(get<T>(a[l]), get<T>(b[l])), get<W>(e[l])));
  });
}
template <class T>
ExecFn wide_by(ScalarType t, bool mad) {
  (void)t;
  return mad ? &h_mad_wide<T> : &h_mul_wide<T>;
}
ExecFn pick_wide(ScalarType t, bool mad) {
  switch (t) {
    case ScalarType::U16: return wide_by<uint16_t>(t, mad);
    case ScalarType::S16: return wide_by<int16_t>(t, mad);
    case ScalarType::U32: return wide_by<uint32_t>(t, mad);
    case ScalarType::S32: return wide_by<int32_t>(t, mad);
    default: return nullptr;
  }
}

// ---- carry chain (add.cc / addc / sub.cc / subc / mad{c}.lo/hi{.cc}) -------------------
// Mul: 0 = plain add/sub, 1 = low half of a*b added to c, 2 = high half of a*b added to c.
template <class T, bool Sub, bool UseCarry, int Mul>
void h_carry(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = Mul ? src(c, 3) : nullptr;
  uint64_t* d = dst(c, 0);
  bool write_cc = (c.in.flags & kCarryOut) != 0;
  uint32_t cc_in = c.w.carry_mask, cc_out = c.w.carry_mask;
  for_each_lane(c.mask, [&](uint32_t l) {
    uint32_t cin = UseCarry ? ((cc_in >> l) & 1) : 0, cout = 0;
    T r;
    if constexpr (Mul == 1) r = add_carry<T>(wrap_mul(get<T>(a[l]), get<T>(b[l])), get<T>(e[l]), cin, &cout);
    else if constexpr (Mul == 2) r = add_carry<T>(mul_hi(get<T>(a[l]), get<T>(b[l])), get<T>(e[l]), cin, &cout);
    else if constexpr (Sub) r = sub_borrow<T>(get<T>(a[l]), get<T>(b[l]), cin, &cout);
    else r = add_carry<T>(get<T>(a[l]), get<T>(b[l]), cin, &cout);
    d[l] = put<T>(r);
    cc_out = (cc_out & ~(1u << l)) | (cout << l);
  });
  if (write_cc) c.w.carry_mask = cc_out;
}
template <bool Sub, bool UseCarry, int Mul>
ExecFn pick_carry(ScalarType t) {
  switch (t) {
    case ScalarType::U32: case ScalarType::B32: return &h_carry<uint32_t, Sub, UseCarry, Mul>;
    case ScalarType::S32: return &h_carry<int32_t, Sub, UseCarry, Mul>;
    case ScalarType::U64: case ScalarType::B64: return &h_carry<uint64_t, Sub, UseCarry, Mul>;
    case ScalarType::S64: return &h_carry<int64_t, Sub, UseCarry, Mul>;
    default: return nullptr;
  }
}

// ---- predicate logic -----------------------------------------------------------------
template <int Kind>  // 0 and, 1 or, 2 xor, 3 not
void h_pred_logic(ExecCtx& c) {
  uint32_t a = pred_mask(c, c.in.ops[1]);
  uint32_t r;
  if constexpr (Kind == 3) {
    r = ~a;
  } else {
    uint32_t b = pred_mask(c, c.in.ops[2]);
    r = Kind == 0 ? (a & b) : Kind == 1 ? (a | b) : (a ^ b);
  }
  write_pred(c, c.in.ops[0], r);
}

// ---- bit counting / fields -------------------------------------------------------------
template <class T>
void h_popc(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = popc(get<T>(a[l])); });
}
template <class T>
void h_clz(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = clz(get<T>(a[l])); });
}
template <class T>
void h_bfind(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  bool sa = (c.in.flags & kShiftAmt) != 0;
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = bfind(get<T>(a[l]), sa); });
}
template <class T>
void h_bfe(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<T>(bfe(get<T>(a[l]), uint32_t(b[l]), uint32_t(e[l]))); });
}
template <class T>
void h_bfi(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  const uint64_t* f = src(c, 4);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) {
    d[l] = put<T>(bfi(get<T>(a[l]), get<T>(b[l]), uint32_t(e[l]), uint32_t(f[l])));
  });
}
void h_prmt(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  PrmtMode m = c.in.prmt;
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = prmt(uint32_t(a[l]), uint32_t(b[l]), uint32_t(e[l]), m); });
}
void h_lop3(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  const uint64_t* lut = src(c, 4);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = lop3(uint32_t(a[l]), uint32_t(b[l]), uint32_t(e[l]), uint32_t(lut[l])); });
}
template <bool Left, bool Clamp>
void h_shf(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) {
    d[l] = Left ? shf_left(uint32_t(a[l]), uint32_t(b[l]), uint32_t(e[l]), Clamp)
                : shf_right(uint32_t(a[l]), uint32_t(b[l]), uint32_t(e[l]), Clamp);
  });
}
// dp4a.atype.btype d, a, b, c: c + sum of the four byte products.
template <bool SA, bool SB>
void h_dp4a(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) {
    int64_t s = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t x = uint32_t(a[l] >> (8 * i)) & 0xFF, y = uint32_t(b[l] >> (8 * i)) & 0xFF;
      int64_t xv = SA ? int64_t(int8_t(x)) : int64_t(x), yv = SB ? int64_t(int8_t(y)) : int64_t(y);
      s += xv * yv;
    }
    d[l] = uint32_t(uint32_t(e[l]) + uint32_t(s));
  });
}

// dp2a.lo/.hi.atype.btype d, a, b, c: c + a.h0 * b.byte(2k) + a.h1 * b.byte(2k+1), with
// k = 0 for .lo and 1 for .hi.
template <bool SA, bool SB, bool Hi>
void h_dp2a(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) {
    int64_t s = 0;
    for (int i = 0; i < 2; ++i) {
      uint32_t x = uint32_t(a[l] >> (16 * i)) & 0xFFFF, y = uint32_t(b[l] >> (8 * (i + (Hi ? 2 : 0)))) & 0xFF;
      int64_t xv = SA ? int64_t(int16_t(x)) : int64_t(x), yv = SB ? int64_t(int8_t(y)) : int64_t(y);
      s += xv * yv;
    }
    d[l] = uint32_t(uint32_t(e[l]) + uint32_t(s));
  });
}
template <bool Hi>
ExecFn pick_dp2a(bool sa, bool sb) {
  if (sa && sb) return &h_dp2a<true, true, Hi>;
  if (sa) return &h_dp2a<true, false, Hi>;
  if (sb) return &h_dp2a<false, true, Hi>;
  return &h_dp2a<false, false, Hi>;
}

}  // namespace

ExecFn select_alu_handler(const Instruction& in) {
  ScalarType t = in.type;
  bool sat = (in.flags & kSat) != 0;
  bool cc = (in.flags & kCarryOut) != 0;
  switch (in.op) {
    case Opcode::Add:
      if (cc) return pick_carry<false, false, 0>(t);
      if (sat) return t == ScalarType::S32 ? &h_binary<int32_t, OpAddSat> : nullptr;
      return by_int<OpAdd, kBinary>(t);
    case Opcode::Sub:
      if (cc) return pick_carry<true, false, 0>(t);
      if (sat) return t == ScalarType::S32 ? &h_binary<int32_t, OpSubSat> : nullptr;
      return by_int<OpSub, kBinary>(t);
    case Opcode::Addc: return pick_carry<false, true, 0>(t);
    case Opcode::Subc: return pick_carry<true, true, 0>(t);
    case Opcode::Madc:
      if (in.mul == MulMode::Wide) return nullptr;
      return in.mul == MulMode::Hi ? pick_carry<false, true, 2>(t) : pick_carry<false, true, 1>(t);
    case Opcode::Mul:
      switch (in.mul) {
        case MulMode::Hi: return by_int<OpMulHi, kBinary>(t);
        case MulMode::Wide: return pick_wide(t, false);
        default: return by_int<OpMulLo, kBinary>(t);
      }
    case Opcode::Mad:
      if (cc) {
        if (in.mul == MulMode::Wide) return nullptr;
        return in.mul == MulMode::Hi ? pick_carry<false, false, 2>(t) : pick_carry<false, false, 1>(t);
      }
      switch (in.mul) {
        case MulMode::Hi:
          if (sat) return t == ScalarType::S32 ? &h_ternary<int32_t, OpMadHiSat> : nullptr;
          return by_int<OpMadHi, kTernary>(t);
        case MulMode::Wide: return pick_wide(t, true);
        default: return by_int<OpMadLo, kTernary>(t);
      }
    case Opcode::Mul24:
      if (t == ScalarType::U32)
        return in.mul == MulMode::Hi ? &h_binary<uint32_t, OpMul24Hi> : &h_binary<uint32_t, OpMul24Lo>;
      if (t == ScalarType::S32)
        return in.mul == MulMode::Hi ? &h_binary<int32_t, OpMul24Hi> : &h_binary<int32_t, OpMul24Lo>;
      return nullptr;
    case Opcode::Mad24:
      if (t == ScalarType::U32)
        return in.mul == MulMode::Hi ? &h_ternary<uint32_t, OpMad24Hi> : &h_ternary<uint32_t, OpMad24Lo>;
      if (t == ScalarType::S32)
        return in.mul == MulMode::Hi ? &h_ternary<int32_t, OpMad24Hi> : &h_ternary<int32_t, OpMad24Lo>;
      return nullptr;
    case Opcode::Sad: return by_int<OpSad, kTernary>(t);
    case Opcode::Div: return by_int<OpDiv, kBinary>(t);
    case Opcode::Rem: return by_int<OpRem, kBinary>(t);
    case Opcode::Abs: return by_int<OpAbs, kUnary>(t);
    case Opcode::Neg: return by_int<OpNeg, kUnary>(t);
    case Opcode::Min:
      return (in.flags & kRelu) ? by_int<OpMinRelu, kBinary>(t) : by_int<OpMin, kBinary>(t);
    case Opcode::Max:
      return (in.flags & kRelu) ? by_int<OpMaxRelu, kBinary>(t) : by_int<OpMax, kBinary>(t);
    case Opcode::And:
      return t == ScalarType::Pred ? &h_pred_logic<0> : by_bits<OpAnd, kBinary>(t);
    case Opcode::Or:
      return t == ScalarType::Pred ? &h_pred_logic<1> : by_bits<OpOr, kBinary>(t);
    case Opcode::Xor:
      return t == ScalarType::Pred ? &h_pred_logic<2> : by_bits<OpXor, kBinary>(t);
    case Opcode::Not:
      return t == ScalarType::Pred ? &h_pred_logic<3> : by_bits<OpNot, kUnary>(t);
    case Opcode::Cnot: return by_bits<OpCnot, kUnary>(t);
    case Opcode::Shl: return by_bits<OpShl, kShift>(t);
    case Opcode::Shr: return by_int<OpShr, kShift>(t);  // b/u: logical, s: arithmetic
    case Opcode::Shf:
      if (type_bytes(t) != 4) return nullptr;
      switch (in.shf) {
        case ShfMode::LeftWrap: return &h_shf<true, false>;
        case ShfMode::LeftClamp: return &h_shf<true, true>;
        case ShfMode::RightWrap: return &h_shf<false, false>;
        case ShfMode::RightClamp: return &h_shf<false, true>;
        case ShfMode::None: return nullptr;
      }
      return nullptr;
    case Opcode::Popc:
      return type_bytes(t) == 4 ? &h_popc<uint32_t> : type_bytes(t) == 8 ? &h_popc<uint64_t> : nullptr;
    case Opcode::Clz:
      return type_bytes(t) == 4 ? &h_clz<uint32_t> : type_bytes(t) == 8 ? &h_clz<uint64_t> : nullptr;
    case Opcode::Brev:
      return type_bytes(t) == 4 || type_bytes(t) == 8 ? by_bits<OpBrev, kUnary>(t) : nullptr;
    case Opcode::Bfind:
      switch (t) {
        case ScalarType::U32: return &h_bfind<uint32_t>;
        case ScalarType::S32: return &h_bfind<int32_t>;
        case ScalarType::U64: return &h_bfind<uint64_t>;
        case ScalarType::S64: return &h_bfind<int64_t>;
        default: return nullptr;
      }
    case Opcode::Bfe:
      switch (t) {
        case ScalarType::U32: return &h_bfe<uint32_t>;
        case ScalarType::S32: return &h_bfe<int32_t>;
        case ScalarType::U64: return &h_bfe<uint64_t>;
        case ScalarType::S64: return &h_bfe<int64_t>;
        default: return nullptr;
      }
    case Opcode::Bfi:
      return type_bytes(t) == 4 ? &h_bfi<uint32_t> : type_bytes(t) == 8 ? &h_bfi<uint64_t> : nullptr;
    case Opcode::Prmt: return type_bytes(t) == 4 ? &h_prmt : nullptr;
    case Opcode::Lop3: return type_bytes(t) == 4 ? &h_lop3 : nullptr;
    case Opcode::Dp4a: {
      bool sa = is_signed_int(in.type), sb = is_signed_int(in.type2);
      if (sa && sb) return &h_dp4a<true, true>;
      if (sa) return &h_dp4a<true, false>;
      if (sb) return &h_dp4a<false, true>;
      return &h_dp4a<false, false>;
    }
    case Opcode::Dp2a: {
      bool sa = is_signed_int(in.type), sb = is_signed_int(in.type2);
      return in.mul == MulMode::Hi ? pick_dp2a<true>(sa, sb) : pick_dp2a<false>(sa, sb);
    }
    default: return nullptr;
  }
}

}  // namespace gputlm::isa::exec_detail
