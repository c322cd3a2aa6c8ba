// Exact PTX floating-point semantics for one lane, independent of the IR.
//
// Rounding: .rn is the host's default IEEE mode. Directed modes (.rz .rm .rp) switch the
// host FPU rounding mode for exactly one operation (RoundingModeGuard) and compute through
// volatile operands so the compiler cannot fold or move the operation outside the guarded
// region; results are IEEE-exact and deterministic.
// f32 NaN results are the PTX canonical NaN 0x7FFFFFFF (what NVIDIA hardware produces);
// f64 NaN results are whatever the host gives (deterministic, but not canonicalised).
// .ftz flushes subnormal f32 inputs and results to sign-preserving zero; .sat clamps to
// [0, 1] with NaN -> +0.
// Approximate instructions: rcp/sqrt/rsqrt .approx and div.approx/full are computed in
// double precision and rounded once to f32 (correctly rounded); sin/cos/lg2/ex2/tanh .approx
// use the host's f32 functions (glibc: within 1 ulp). Both are inside every error bound the
// PTX ISA gives for those instructions (hardware may differ from us by up to its own bound).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "isa/ir.h"

namespace gputlm::isa::sem {

enum class RoundMode : uint8_t { Rn, Rz, Rm, Rp };

// Switches the host rounding mode for the lifetime of the object (no-op for Rn).
class RoundingModeGuard {
 public:
  explicit RoundingModeGuard(RoundMode m);
  ~RoundingModeGuard();
  RoundingModeGuard(const RoundingModeGuard&) = delete;
  RoundingModeGuard& operator=(const RoundingModeGuard&) = delete;

 private:
  int saved_;
  bool active_;
};

inline uint32_t f32_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float f32_from_bits(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint64_t f64_bits(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }
inline double f64_from_bits(uint64_t u) { double d; std::memcpy(&d, &u, 8); return d; }

constexpr uint32_t kCanonicalNanF32 = 0x7FFFFFFFu;

inline float canonical_nan_f32() { return f32_from_bits(kCanonicalNanF32); }

// Result post-processing common to f32 instructions.
inline float canon_f32(float r) { return std::isnan(r) ? canonical_nan_f32() : r; }
inline float flush_f32(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
template <class F>
inline F saturate_01(F x) {
  if (std::isnan(x)) return F(0);
  if (x < F(0)) return F(0);
  if (x > F(1)) return F(1);
  return x == F(0) ? F(0) : x;  // -0.0 saturates to +0.0
}

// Common modifiers of an fp instruction, fixed at decode time.
struct FpModifiers {
  RoundMode round = RoundMode::Rn;
  bool ftz = false;
  bool sat = false;
};

// Applies ftz on f32 inputs.
template <class F>
inline F fp_in(F x, const FpModifiers& m) {
  if constexpr (std::is_same_v<F, float>) return m.ftz ? flush_f32(x) : x;
  else return x;
}
// Applies NaN canonicalisation (f32), ftz and saturation on a result.
template <class F>
inline F fp_out(F r, const FpModifiers& m) {
  if constexpr (std::is_same_v<F, float>) {
    r = canon_f32(r);
    if (m.ftz) r = flush_f32(r);
  }
  if (m.sat) r = saturate_01(r);
  return r;
}

template <class F>
inline F fp_add(F a, F b, const FpModifiers& m) {
  a = fp_in(a, m); b = fp_in(b, m);
  F r;
  if (m.round == RoundMode::Rn) {
    r = a + b;
  } else {
    RoundingModeGuard g(m.round);
    volatile F va = a, vb = b;
    volatile F vr = va + vb;
    r = vr;
  }
  return fp_out(r, m);
}
template <class F>
inline F fp_sub(F a, F b, const FpModifiers& m) {
  a = fp_in(a, m); b = fp_in(b, m);
  F r;
  if (m.round == RoundMode::Rn) {
    r = a - b;
  } else {
    RoundingModeGuard g(m.round);
    volatile F va = a, vb = b;
    volatile F vr = va - vb;
    r = vr;
  }
  return fp_out(r, m);
}
template <class F>
inline F fp_mul(F a, F b, const FpModifiers& m) {
  a = fp_in(a, m); b = fp_in(b, m);
  F r;
  if (m.round == RoundMode::Rn) {
    r = a * b;
  } else {
    RoundingModeGuard g(m.round);
    volatile F va = a, vb = b;
    volatile F vr = va * vb;
    r = vr;
  }
  return fp_out(r, m);
}
// IEEE division (div.rn/.rz/.rm/.rp).
template <class F>
inline F fp_div(F a, F b, const FpModifiers& m) {
  a = fp_in(a, m); b = fp_in(b, m);
  F r;
  if (m.round == RoundMode::Rn) {
    r = a / b;
  } else {
    RoundingModeGuard g(m.round);
    volatile F va = a, vb = b;
    volatile F vr = va / vb;
    r = vr;
  }
  return fp_out(r, m);
}
// fma / mad.f (mad with a rounding modifier is fma): one rounding.
template <class F>
inline F fp_fma(F a, F b, F c, const FpModifiers& m) {
  a = fp_in(a, m); b = fp_in(b, m); c = fp_in(c, m);
  F r;
  if (m.round == RoundMode::Rn) {
    r = std::fma(a, b, c);
  } else {
    RoundingModeGuard g(m.round);
    volatile F va = a, vb = b, vc = c;
    volatile F vr = std::fma(F(va), F(vb), F(vc));
    r = vr;
  }
  return fp_out(r, m);
}
template <class F>
inline F fp_sqrt(F a, const FpModifiers& m) {
  a = fp_in(a, m);
  F r;
  if (m.round == RoundMode::Rn) {
    r = std::sqrt(a);
  } else {
    RoundingModeGuard g(m.round);
    volatile F va = a;
    volatile F vr = std::sqrt(F(va));
    r = vr;
  }
  return fp_out(r, m);
}
// rcp.rn/.rz/.rm/.rp: IEEE 1/a.
template <class F>
inline F fp_rcp(F a, const FpModifiers& m) { return fp_div(F(1), a, FpModifiers{m.round, m.ftz, m.sat}); }

template <class F>
inline F fp_abs(F a, bool ftz) {
  if constexpr (std::is_same_v<F, float>) {
    if (ftz) a = flush_f32(a);
    if (std::isnan(a)) return canonical_nan_f32();
  }
  return std::fabs(a);
}
template <class F>
inline F fp_neg(F a, bool ftz) {
  if constexpr (std::is_same_v<F, float>) {
    if (ftz) a = flush_f32(a);
    if (std::isnan(a)) return canonical_nan_f32();
  }
  return -a;
}

// min/max: a NaN operand is ignored (the other is returned); both NaN -> NaN;
// -0.0 is less than +0.0. With .NaN, any NaN operand gives canonical NaN.
template <class F>
inline F fp_min(F a, F b, bool ftz, bool nan_propagates) {
  a = fp_in(a, FpModifiers{RoundMode::Rn, ftz, false});
  b = fp_in(b, FpModifiers{RoundMode::Rn, ftz, false});
  bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nan_propagates || (na && nb)) {
      if constexpr (std::is_same_v<F, float>) return canonical_nan_f32();
      else return std::numeric_limits<F>::quiet_NaN();
    }
    return na ? b : a;
  }
  if (a == b) return std::signbit(a) ? a : b;  // min(+0,-0) = -0
  return a < b ? a : b;
}
template <class F>
inline F fp_max(F a, F b, bool ftz, bool nan_propagates) {
  a = fp_in(a, FpModifiers{RoundMode::Rn, ftz, false});
  b = fp_in(b, FpModifiers{RoundMode::Rn, ftz, false});
  bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) {
    if (nan_propagates || (na && nb)) {
      if constexpr (std::is_same_v<F, float>) return canonical_nan_f32();
      else return std::numeric_limits<F>::quiet_NaN();
    }
    return na ? b : a;
  }
  if (a == b) return std::signbit(a) ? b : a;  // max(+0,-0) = +0
  return a > b ? a : b;
}

// copysign d, a, b: magnitude of b with the sign of a (PTX operand order).
template <class F>
inline F fp_copysign(F a, F b) { return std::copysign(b, a); }

// Approximate transcendental / reciprocal instructions (see the header comment).
enum class ApproxOp : uint8_t { Rcp, Sqrt, Rsqrt, Sin, Cos, Lg2, Ex2, Tanh };
float approx_f32(ApproxOp op, float a, bool ftz);
// f64 approximations (rcp.approx.ftz.f64, rsqrt.approx.f64, sqrt/rcp with .approx): in
// full double precision (correctly rounded for rcp/sqrt, within 1 ulp for rsqrt).
double approx_f64(ApproxOp op, double a);
// div.approx.f32 and div.full.f32: within 0.5 ulp of a/b (double division, one rounding).
float div_approx_f32(float a, float b, bool ftz);

template <class F>
inline bool fp_testp(F a, TestpOp op) {
  switch (op) {
    case TestpOp::Finite: return std::isfinite(a);
    case TestpOp::Infinite: return std::isinf(a);
    case TestpOp::Number: return !std::isnan(a);
    case TestpOp::NotANumber: return std::isnan(a);
    case TestpOp::Normal: return std::fpclassify(a) == FP_NORMAL;
    case TestpOp::Subnormal: return std::fpclassify(a) == FP_SUBNORMAL;
    case TestpOp::None: break;
  }
  return false;
}

// Comparisons (isa::CmpOp). Integer-only: Lo Ls Hi Hs (unsigned); float-only: the
// unordered forms and Num/Nan. Signedness of Lt..Ge on integers follows the type.

template <class T>
inline bool int_compare(T a, T b, CmpOp op) {
  using U = std::make_unsigned_t<T>;
  U ua = static_cast<U>(a), ub = static_cast<U>(b);
  switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    case CmpOp::Ge: return a >= b;
    case CmpOp::Lo: return ua < ub;
    case CmpOp::Ls: return ua <= ub;
    case CmpOp::Hi: return ua > ub;
    case CmpOp::Hs: return ua >= ub;
    default: return false;  // rejected at decode: not an integer comparison
  }
}

// Ordered comparisons are false when either operand is NaN (including Ne); the unordered
// forms are true then.
template <class F>
inline bool fp_compare(F a, F b, CmpOp op, bool ftz) {
  if constexpr (std::is_same_v<F, float>) {
    if (ftz) { a = flush_f32(a); b = flush_f32(b); }
  }
  bool unord = std::isnan(a) || std::isnan(b);
  switch (op) {
    case CmpOp::Eq: return !unord && a == b;
    case CmpOp::Ne: return !unord && a != b;
    case CmpOp::Lt: return !unord && a < b;
    case CmpOp::Le: return !unord && a <= b;
    case CmpOp::Gt: return !unord && a > b;
    case CmpOp::Ge: return !unord && a >= b;
    case CmpOp::Equ: return unord || a == b;
    case CmpOp::Neu: return unord || a != b;
    case CmpOp::Ltu: return unord || a < b;
    case CmpOp::Leu: return unord || a <= b;
    case CmpOp::Gtu: return unord || a > b;
    case CmpOp::Geu: return unord || a >= b;
    case CmpOp::Num: return !unord;
    case CmpOp::Nan: return unord;
    default: return false;  // rejected at decode: not a float comparison
  }
}

// Predicate combiner of setp/set: result = cmp BOP c (c already negated if written !c).
inline bool combine(bool cmp, BoolOp op, bool c) {
  switch (op) {
    case BoolOp::None: return cmp;
    case BoolOp::And: return cmp && c;
    case BoolOp::Or: return cmp || c;
    case BoolOp::Xor: return cmp != c;
    case BoolOp::Popc: break;  // bar.red only
  }
  return cmp;
}

}  // namespace gputlm::isa::sem
