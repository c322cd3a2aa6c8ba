#include "isa/exec/convert_semantics.h"
#include "isa/exec/int_semantics.h"

#include <cmath>
#include <limits>

namespace gputlm::isa::sem {

namespace {

// Rounds a non-negative double to an integral value in the direction that `m` asks for a
// value with the given sign.
double round_magnitude(double q, RoundMode m, bool negative) {
  switch (m) {
    case RoundMode::Rn: return std::nearbyint(q);  // host default mode: ties to even
    case RoundMode::Rz: return std::trunc(q);
    case RoundMode::Rm: return negative ? std::ceil(q) : std::floor(q);
    case RoundMode::Rp: return negative ? std::floor(q) : std::ceil(q);
  }
  return q;
}

double round_integral(double x, Rounding r) {
  switch (r) {
    case Rounding::Rni: return std::nearbyint(x);
    case Rounding::Rmi: return std::floor(x);
    case Rounding::Rpi: return std::ceil(x);
    default: return std::trunc(x);  // Rzi and none
  }
}

bool is_int(ScalarType t) { return is_signed_int(t) || is_unsigned_int(t) || is_bits(t); }

// Destination range of an integer type as doubles / 128-bit integers.
void int_range(ScalarType t, Int128* lo, Int128* hi) {
  uint32_t w = 8 * type_bytes(t);
  if (is_signed_int(t)) {
    *hi = (Int128{1} << (w - 1)) - 1;
    *lo = -(Int128{1} << (w - 1));
  } else {
    *hi = (Int128{1} << w) - 1;
    *lo = 0;
  }
}

uint64_t from_int128(Int128 v, ScalarType dst) { return extend_to_64(static_cast<uint64_t>(v), dst); }

double read_float(uint64_t bits, ScalarType t, bool ftz) {
  switch (t) {
    case ScalarType::F16: return double_from_half(static_cast<uint16_t>(bits));
    case ScalarType::BF16: return double_from_bf16(static_cast<uint16_t>(bits));
    case ScalarType::F32: {
      float f = f32_from_bits(static_cast<uint32_t>(bits));
      return ftz ? flush_f32(f) : f;
    }
    default: return f64_from_bits(bits);
  }
}

template <class F>
F narrow_with(double v, RoundMode m) {
  if (m == RoundMode::Rn) return static_cast<F>(v);
  RoundingModeGuard g(m);
  volatile double vv = v;
  volatile F r = static_cast<F>(double(vv));
  return r;
}

uint64_t write_float(double v, ScalarType dst, RoundMode m, bool ftz, bool sat) {
  if (sat) v = saturate_01(v);
  switch (dst) {
    case ScalarType::F16: return half_from_double(v, m);
    case ScalarType::BF16: return bf16_from_double(v, m);
    case ScalarType::F32: {
      float f = narrow_with<float>(v, m);
      f = canon_f32(f);
      if (ftz) f = flush_f32(f);
      return f32_bits(f);
    }
    default: return f64_bits(v);
  }
}

}  // namespace

RoundMode round_mode_of(Rounding r) {
  switch (r) {
    case Rounding::Rz: return RoundMode::Rz;
    case Rounding::Rm: return RoundMode::Rm;
    case Rounding::Rp: return RoundMode::Rp;
    default: return RoundMode::Rn;
  }
}

uint16_t small_float_from_double(double x, RoundMode m, int exp_bits, int mant_bits, uint16_t nan) {
  const uint32_t sign_bit = 1u << (exp_bits + mant_bits);
  const uint32_t inf_bits = ((1u << exp_bits) - 1) << mant_bits;
  const int bias = (1 << (exp_bits - 1)) - 1;
  const int emin = 1 - bias;
  uint32_t sign = std::signbit(x) ? sign_bit : 0;
  if (std::isnan(x)) return nan;
  double a = std::fabs(x);
  bool neg = sign != 0;
  if (std::isinf(a)) return static_cast<uint16_t>(sign | inf_bits);
  if (a == 0) return static_cast<uint16_t>(sign);
  int e;
  std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1)
  int exp2 = e - 1 < emin ? emin : e - 1;
  double ulp = std::ldexp(1.0, exp2 - mant_bits);
  double q = round_magnitude(a / ulp, m, neg);  // a/ulp is exact (power-of-two scale)
  double r = q * ulp;
  const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, -mant_bits), bias);
  if (r > max_finite) {
    bool to_inf = m == RoundMode::Rn || (m == RoundMode::Rp && !neg) || (m == RoundMode::Rm && neg);
    return static_cast<uint16_t>(to_inf ? (sign | inf_bits) : (sign | (inf_bits - 1)));
  }
  if (r < std::ldexp(1.0, emin))
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(r / std::ldexp(1.0, emin - mant_bits)));
  std::frexp(r, &e);
  int er = e - 1;
  uint32_t mant = static_cast<uint32_t>(r / std::ldexp(1.0, er - mant_bits)) - (1u << mant_bits);
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(er + bias) << mant_bits) | mant);
}

uint16_t half_from_double(double x, RoundMode m) { return small_float_from_double(x, m, 5, 10, 0x7FFF); }
uint16_t bf16_from_double(double x, RoundMode m) { return small_float_from_double(x, m, 8, 7, 0x7FFF); }
double double_from_bf16(uint16_t h) { return f32_from_bits(uint32_t{h} << 16); }

double double_from_half(uint16_t h) {
  double s = (h & 0x8000) ? -1.0 : 1.0;
  int exp = (h >> 10) & 0x1F;
  int mant = h & 0x3FF;
  if (exp == 0x1F) return mant ? std::numeric_limits<double>::quiet_NaN() : s * INFINITY;
  if (exp == 0) return s * std::ldexp(double(mant), -24);
  return s * std::ldexp(double(mant + 1024), exp - 25);
}

uint64_t convert(uint64_t src, ScalarType dst, ScalarType src_type, Rounding rnd, bool ftz, bool sat) {
  if (is_int(src_type)) {
    uint64_t v64 = extend_to_64(src, src_type);
    if (is_int(dst)) {
      Int128 v = is_signed_int(src_type) ? Int128(static_cast<int64_t>(v64)) : Int128(v64);
      if (sat && !is_bits(dst)) {
        Int128 lo, hi;
        int_range(dst, &lo, &hi);
        if (v < lo) v = lo;
        if (v > hi) v = hi;
      }
      return from_int128(v, dst);
    }
    RoundMode m = round_mode_of(rnd);
    if (dst == ScalarType::F16 || dst == ScalarType::BF16) {
      // Via float in the requested mode, then exact-enough to half: ints up to 2^24 are
      // exact in float; larger values overflow half anyway except rounding at 65504.
      double d = is_signed_int(src_type) ? double(static_cast<int64_t>(v64)) : double(v64);
      if (sat) d = saturate_01(d);
      return dst == ScalarType::F16 ? half_from_double(d, m) : bf16_from_double(d, m);
    }
    if (dst == ScalarType::F32) {
      float f;
      if (m == RoundMode::Rn) {
        f = is_signed_int(src_type) ? float(static_cast<int64_t>(v64)) : float(v64);
      } else {
        RoundingModeGuard g(m);
        volatile uint64_t vv = v64;
        volatile float vf = is_signed_int(src_type) ? float(static_cast<int64_t>(vv)) : float(uint64_t(vv));
        f = vf;
      }
      if (sat) f = saturate_01(f);
      return f32_bits(f);
    }
    double d;
    if (m == RoundMode::Rn) {
      d = is_signed_int(src_type) ? double(static_cast<int64_t>(v64)) : double(v64);
    } else {
      RoundingModeGuard g(m);
      volatile uint64_t vv = v64;
      volatile double vd = is_signed_int(src_type) ? double(static_cast<int64_t>(vv)) : double(uint64_t(vv));
      d = vd;
    }
    if (sat) d = saturate_01(d);
    return f64_bits(d);
  }

  double v = read_float(src, src_type, ftz);
  if (is_int(dst)) {
    if (std::isnan(v)) return 0;
    double r = round_integral(v, rnd);
    Int128 lo, hi;
    int_range(dst, &lo, &hi);
    if (r <= double(lo)) return from_int128(lo, dst);
    if (r >= double(hi)) return from_int128(hi, dst);  // double(hi) may round up: clamp
    return from_int128(static_cast<Int128>(r), dst);
  }
  switch (rnd) {
    case Rounding::Rni: case Rounding::Rzi: case Rounding::Rmi: case Rounding::Rpi:
      // Round to integral in the source precision, then narrow to nearest (an integral
      // value stays integral when rounded in a narrower format).
      return write_float(round_integral(v, rnd), dst, RoundMode::Rn, ftz, sat);
    default:
      return write_float(v, dst, round_mode_of(rnd), ftz, sat);
  }
}

}  // namespace gputlm::isa::sem
