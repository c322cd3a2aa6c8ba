// Half-precision handlers: add/sub/mul/fma/neg/abs/ex2.approx/setp on .f16 (b16 register)
// and .f16x2 (two halves in a b32 register, element 0 in the low half), the f16 forms
// compute_75 code uses. Results are correctly rounded (.rn): add/sub/mul are exact in double
// for f16 operands, fma rounds to odd in double first (53 >= 11 + 2 bits makes the second
// rounding exact). .ftz flushes f16 subnormals; .sat clamps to [0, 1]; NaN results are the
// canonical f16 NaN 0x7FFF.
#include "isa/exec/convert_semantics.h"
#include "isa/exec/exec_context.h"

namespace gputlm::isa::exec_detail {

using namespace sem;

namespace {

inline uint16_t flush_half(uint16_t h) { return ((h & 0x7C00) == 0 && (h & 0x3FF)) ? (h & 0x8000) : h; }

// fma in double rounded to odd: exact enough that one more rounding to f16 is correct.
double fma_round_to_odd(double a, double b, double c) {
  double rz = fp_fma(a, b, c, FpModifiers{RoundMode::Rz, false, false});
  double rp = fp_fma(a, b, c, FpModifiers{RoundMode::Rp, false, false});
  double rm = fp_fma(a, b, c, FpModifiers{RoundMode::Rm, false, false});
  if (rp == rm) return rz;  // exact
  uint64_t bits = f64_bits(rz) | 1;
  return f64_from_bits(bits);
}

template <int Kind>  // 0 add, 1 sub, 2 mul, 3 fma, 4 neg, 5 abs, 6 ex2.approx
uint16_t half_op(uint16_t x, uint16_t y, uint16_t z, bool ftz, bool sat) {
  if constexpr (Kind == 4) return static_cast<uint16_t>(x ^ 0x8000);
  if constexpr (Kind == 5) return static_cast<uint16_t>(x & 0x7FFF);
  if (ftz) { x = flush_half(x); y = flush_half(y); z = flush_half(z); }
  double a = double_from_half(x), b = double_from_half(y), r;
  if constexpr (Kind == 0) r = a + b;
  else if constexpr (Kind == 1) r = a - b;
  else if constexpr (Kind == 2) r = a * b;
  else if constexpr (Kind == 3) r = fma_round_to_odd(a, b, double_from_half(z));
  else r = std::exp2(a);
  if (sat) r = saturate_01(r);
  uint16_t h = half_from_double(r, RoundMode::Rn);
  return ftz ? flush_half(h) : h;
}

template <bool Packed, int Kind>
void h_half(ExecCtx& c) {
  constexpr bool kUnary = Kind >= 4;
  const uint64_t* a = src(c, 1);
  const uint64_t* b = kUnary ? a : src(c, 2);
  const uint64_t* e = Kind == 3 ? src(c, 3) : a;
  uint64_t* d = dst(c, 0);
  bool ftz = (c.in.flags & kFtz) != 0, sat = (c.in.flags & kSat) != 0;
  for_each_lane(c.mask, [&](uint32_t l) {
    uint64_t r = 0;
    for (uint32_t k = 0; k < (Packed ? 2u : 1u); ++k) {
      auto part = [&](uint64_t v) { return static_cast<uint16_t>(v >> (16 * k)); };
      r |= uint64_t{half_op<Kind>(part(a[l]), part(b[l]), part(e[l]), ftz, sat)} << (16 * k);
    }
    d[l] = r;
  });
}

// setp.cmp{.bool}.f16 p, a, b; setp.cmp.f16x2 p|q, a, b (p from the low halves, q high).
template <bool Packed>
void h_setp_half(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  bool ftz = (c.in.flags & kFtz) != 0;
  uint32_t lo = 0, hi = 0;
  for_each_lane(c.mask, [&](uint32_t l) {
    for (uint32_t k = 0; k < (Packed ? 2u : 1u); ++k) {
      uint16_t x = static_cast<uint16_t>(a[l] >> (16 * k)), y = static_cast<uint16_t>(b[l] >> (16 * k));
      if (ftz) { x = flush_half(x); y = flush_half(y); }
      bool r = fp_compare(double_from_half(x), double_from_half(y), c.in.cmp, false);
      (k == 0 ? lo : hi) |= uint32_t(r) << l;
    }
  });
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
  if (Packed) {
    write_pred(c, c.in.ops[0], comb(lo));
    if (c.in.dst2.kind == OperandKind::Pred) write_pred(c, c.in.dst2, comb(hi));
  } else {
    write_pred(c, c.in.ops[0], comb(lo));
    if (c.in.dst2.kind == OperandKind::Pred) write_pred(c, c.in.dst2, comb(~lo));
  }
}

template <int Kind>
ExecFn pick(bool packed) {
  return packed ? &h_half<true, Kind> : &h_half<false, Kind>;
}

}  // namespace

ExecFn select_half_handler(const Instruction& in) {
  bool packed = in.type == ScalarType::F16x2;
  if (in.type != ScalarType::F16 && !packed) return nullptr;
  switch (in.op) {
    case Opcode::Add: return pick<0>(packed);
    case Opcode::Sub: return pick<1>(packed);
    case Opcode::Mul: return pick<2>(packed);
    case Opcode::Fma: case Opcode::Mad: return pick<3>(packed);
    case Opcode::Neg: return pick<4>(packed);
    case Opcode::Abs: return pick<5>(packed);
    case Opcode::Ex2: return pick<6>(packed);
    case Opcode::Setp: return packed ? &h_setp_half<true> : &h_setp_half<false>;
    default: return nullptr;
  }
}

}  // namespace gputlm::isa::exec_detail
