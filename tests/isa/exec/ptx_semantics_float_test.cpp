// PTX floating-point semantics: rounding modes, ftz, sat, NaN rules, comparisons,
// approximations. Expected values are derived by hand (exact binary arithmetic in the
// comments) or from independent host computations in double precision.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "isa/exec/float_semantics.h"

using namespace gputlm::isa;
using namespace gputlm::isa::sem;

namespace {
FpModifiers rnd(RoundMode m) { return FpModifiers{m, false, false}; }
const float kOneUlpAbove1 = 1.0f + std::ldexp(1.0f, -23);
const float kHalfUlp1 = std::ldexp(1.0f, -24);
const float kDenorm = std::ldexp(1.0f, -140);  // f32 subnormal
}  // namespace

TEST_CASE("ptx_semantics: f32 add/sub/mul in all four rounding modes", "[ptx_semantics]") {
  // 1 + 2^-24 lies exactly between 1 and 1+2^-23.
  CHECK(fp_add(1.0f, kHalfUlp1, rnd(RoundMode::Rn)) == 1.0f);  // tie to even
  CHECK(fp_add(1.0f, kHalfUlp1, rnd(RoundMode::Rz)) == 1.0f);
  CHECK(fp_add(1.0f, kHalfUlp1, rnd(RoundMode::Rm)) == 1.0f);
  CHECK(fp_add(1.0f, kHalfUlp1, rnd(RoundMode::Rp)) == kOneUlpAbove1);
  CHECK(fp_add(-1.0f, -kHalfUlp1, rnd(RoundMode::Rm)) == -kOneUlpAbove1);
  CHECK(fp_add(-1.0f, -kHalfUlp1, rnd(RoundMode::Rz)) == -1.0f);
  CHECK(fp_sub(1.0f, -kHalfUlp1, rnd(RoundMode::Rp)) == kOneUlpAbove1);
  // (1+2^-23)^2 = 1 + 2^-22 + 2^-46: rn/rz/rm drop the 2^-46, rp rounds up.
  float p = kOneUlpAbove1;
  CHECK(fp_mul(p, p, rnd(RoundMode::Rn)) == 1.0f + std::ldexp(1.0f, -22));
  CHECK(fp_mul(p, p, rnd(RoundMode::Rz)) == 1.0f + std::ldexp(1.0f, -22));
  CHECK(fp_mul(p, p, rnd(RoundMode::Rp)) == 1.0f + std::ldexp(1.0f, -22) + std::ldexp(1.0f, -23));
  // The host rounding mode is restored afterwards.
  volatile float x = 1.0f, y = kHalfUlp1;
  CHECK(x + y == 1.0f);
}

TEST_CASE("ptx_semantics: division and sqrt rounding modes bracket the exact value", "[ptx_semantics]") {
  float rz = fp_div(1.0f, 3.0f, rnd(RoundMode::Rz));
  float rp = fp_div(1.0f, 3.0f, rnd(RoundMode::Rp));
  float rm = fp_div(1.0f, 3.0f, rnd(RoundMode::Rm));
  CHECK(rz == rm);
  CHECK(std::nextafter(rz, 1.0f) == rp);
  CHECK(double(rz) < 1.0 / 3.0);
  CHECK(double(rp) > 1.0 / 3.0);
  CHECK(fp_div(1.0f, 3.0f, rnd(RoundMode::Rn)) == float(1.0 / 3.0));
  // 1/3 = 0.010101...b: the bits dropped below the 53rd are 1/3 ulp, so rn == rz and rm
  // is one ulp further from zero for the negative quotient.
  CHECK(fp_div(-1.0, 3.0, rnd(RoundMode::Rz)) == -1.0 / 3.0);
  CHECK(fp_div(-1.0, 3.0, rnd(RoundMode::Rm)) == std::nextafter(-1.0 / 3.0, -1.0));
  float s2z = fp_sqrt(2.0f, rnd(RoundMode::Rz)), s2p = fp_sqrt(2.0f, rnd(RoundMode::Rp));
  CHECK(std::nextafter(s2z, 2.0f) == s2p);
  CHECK(double(s2z) * double(s2z) < 2.0);
  CHECK(double(s2p) * double(s2p) > 2.0);
  CHECK(fp_rcp(4.0f, rnd(RoundMode::Rn)) == 0.25f);
}

TEST_CASE("ptx_semantics: fma rounds once", "[ptx_semantics]") {
  // a = b = 1 + 2^-12: a*b = 1 + 2^-11 + 2^-24 (exact); minus 1 leaves 2^-11 + 2^-24,
  // which f32 represents exactly. mul-then-add would lose the 2^-24 (a tie to even).
  float a = 1.0f + std::ldexp(1.0f, -12);
  float expect = std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24);
  CHECK(fp_fma(a, a, -1.0f, rnd(RoundMode::Rn)) == expect);
  CHECK(fp_add(fp_mul(a, a, rnd(RoundMode::Rn)), -1.0f, rnd(RoundMode::Rn)) == std::ldexp(1.0f, -11));
  double da = 1.0 + std::ldexp(1.0, -30);
  CHECK(fp_fma(da, da, -1.0, rnd(RoundMode::Rn)) == std::ldexp(1.0, -29) + std::ldexp(1.0, -60));
}

TEST_CASE("ptx_semantics: ftz flushes f32 subnormal inputs and results, keeping the sign", "[ptx_semantics]") {
  FpModifiers ftz{RoundMode::Rn, true, false};
  CHECK(fp_add(kDenorm, 0.0f, ftz) == 0.0f);
  CHECK(fp_add(kDenorm, 0.0f, rnd(RoundMode::Rn)) == kDenorm);
  float negz = fp_mul(-kDenorm, 1.0f, ftz);
  CHECK(negz == 0.0f);
  CHECK(std::signbit(negz));
  // Result flush: 2^-100 * 2^-30 = 2^-130 is subnormal.
  CHECK(fp_mul(std::ldexp(1.0f, -100), std::ldexp(1.0f, -30), ftz) == 0.0f);
  CHECK(fp_mul(std::ldexp(1.0f, -100), std::ldexp(1.0f, -30), rnd(RoundMode::Rn)) == std::ldexp(1.0f, -130));
  // ftz does not apply to f64.
  double dd = std::ldexp(1.0, -1070);
  CHECK(fp_add(dd, 0.0, ftz) == dd);
}

TEST_CASE("ptx_semantics: sat clamps to [0,1] and maps NaN to 0", "[ptx_semantics]") {
  FpModifiers sat{RoundMode::Rn, false, true};
  CHECK(fp_add(0.75f, 0.5f, sat) == 1.0f);
  CHECK(fp_add(-1.0f, 0.5f, sat) == 0.0f);
  CHECK(fp_add(0.25f, 0.5f, sat) == 0.75f);
  float inf = std::numeric_limits<float>::infinity();
  float nan_sat = fp_mul(inf, 0.0f, sat);
  CHECK(nan_sat == 0.0f);
  CHECK_FALSE(std::signbit(nan_sat));
  CHECK_FALSE(std::signbit(fp_mul(-0.0f, 1.0f, sat)));  // -0 saturates to +0
  CHECK(fp_fma(2.0, 2.0, 0.0, FpModifiers{RoundMode::Rn, false, true}) == 1.0);
}

TEST_CASE("ptx_semantics: f32 NaN results are the canonical NaN", "[ptx_semantics]") {
  float inf = std::numeric_limits<float>::infinity();
  CHECK(f32_bits(fp_add(inf, -inf, rnd(RoundMode::Rn))) == 0x7FFFFFFFu);
  CHECK(f32_bits(fp_mul(0.0f, inf, rnd(RoundMode::Rz))) == 0x7FFFFFFFu);
  CHECK(f32_bits(fp_sqrt(-1.0f, rnd(RoundMode::Rn))) == 0x7FFFFFFFu);
  CHECK(f32_bits(fp_neg(f32_from_bits(0xFFC00001u), false)) == 0x7FFFFFFFu);
}

TEST_CASE("ptx_semantics: min/max NaN and signed-zero rules", "[ptx_semantics]") {
  float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(fp_min(nan, 1.0f, false, false) == 1.0f);
  CHECK(fp_max(2.0f, nan, false, false) == 2.0f);
  CHECK(std::isnan(fp_min(nan, nan, false, false)));
  CHECK(std::isnan(fp_min(nan, 1.0f, false, true)));  // .NaN propagates
  CHECK(std::isnan(fp_max(1.0, std::numeric_limits<double>::quiet_NaN(), false, true)));
  CHECK(std::signbit(fp_min(0.0f, -0.0f, false, false)));
  CHECK(std::signbit(fp_min(-0.0f, 0.0f, false, false)));
  CHECK_FALSE(std::signbit(fp_max(-0.0f, 0.0f, false, false)));
  CHECK_FALSE(std::signbit(fp_max(0.0f, -0.0f, false, false)));
  CHECK(fp_min(-3.0, 2.0, false, false) == -3.0);
  CHECK(fp_min(kDenorm, 1.0f, true, false) == 0.0f);  // ftz on the input
}

TEST_CASE("ptx_semantics: comparisons incl. unordered, num, nan", "[ptx_semantics]") {
  float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(fp_compare(nan, 1.0f, CmpOp::Eq, false));
  CHECK_FALSE(fp_compare(nan, 1.0f, CmpOp::Ne, false));  // ordered ne is false on NaN
  CHECK(fp_compare(nan, 1.0f, CmpOp::Neu, false));
  CHECK(fp_compare(nan, 1.0f, CmpOp::Equ, false));
  CHECK(fp_compare(nan, 1.0f, CmpOp::Ltu, false));
  CHECK(fp_compare(nan, 1.0f, CmpOp::Geu, false));
  CHECK_FALSE(fp_compare(nan, 1.0f, CmpOp::Num, false));
  CHECK(fp_compare(nan, 1.0f, CmpOp::Nan, false));
  CHECK(fp_compare(2.0f, 1.0f, CmpOp::Num, false));
  CHECK(fp_compare(1.0f, 2.0f, CmpOp::Lt, false));
  CHECK_FALSE(fp_compare(1.0f, 2.0f, CmpOp::Gtu, false));
  CHECK(fp_compare(-0.0f, 0.0f, CmpOp::Eq, false));
  CHECK(fp_compare(kDenorm, 0.0f, CmpOp::Eq, true));   // ftz: subnormal equals zero
  CHECK_FALSE(fp_compare(kDenorm, 0.0f, CmpOp::Eq, false));
  CHECK(int_compare<int32_t>(-1, 1, CmpOp::Lt));
  CHECK_FALSE(int_compare<int32_t>(-1, 1, CmpOp::Lo));  // 0xFFFFFFFF < 1 unsigned: false
  CHECK(int_compare<int32_t>(-1, 1, CmpOp::Hi));
  CHECK(int_compare<uint32_t>(5, 5, CmpOp::Hs));
  CHECK(int_compare<uint32_t>(4, 5, CmpOp::Ls));
  CHECK(combine(true, BoolOp::And, false) == false);
  CHECK(combine(false, BoolOp::Or, true) == true);
  CHECK(combine(true, BoolOp::Xor, true) == false);
}

TEST_CASE("ptx_semantics: testp and copysign", "[ptx_semantics]") {
  float inf = std::numeric_limits<float>::infinity();
  CHECK(fp_testp(1.0f, TestpOp::Finite));
  CHECK_FALSE(fp_testp(inf, TestpOp::Finite));
  CHECK(fp_testp(-inf, TestpOp::Infinite));
  CHECK(fp_testp(inf, TestpOp::Number));
  CHECK(fp_testp(std::nanf(""), TestpOp::NotANumber));
  CHECK(fp_testp(1.0f, TestpOp::Normal));
  CHECK_FALSE(fp_testp(0.0f, TestpOp::Normal));
  CHECK(fp_testp(kDenorm, TestpOp::Subnormal));
  CHECK(fp_testp(std::ldexp(1.0, -1070), TestpOp::Subnormal));
  // copysign d, a, b: |b| with a's sign.
  CHECK(fp_copysign(-1.0f, 2.0f) == -2.0f);
  CHECK(fp_copysign(1.0f, -2.0f) == 2.0f);
  CHECK(fp_copysign(-0.0, 3.0) == -3.0);
}

TEST_CASE("ptx_semantics: approximate functions are within 1 ulp of the exact value", "[ptx_semantics]") {
  CHECK(approx_f32(ApproxOp::Ex2, 3.0f, false) == 8.0f);
  CHECK(approx_f32(ApproxOp::Lg2, 8.0f, false) == 3.0f);
  CHECK(approx_f32(ApproxOp::Rsqrt, 4.0f, false) == 0.5f);
  CHECK(approx_f32(ApproxOp::Rcp, 8.0f, false) == 0.125f);
  CHECK(approx_f32(ApproxOp::Sqrt, 9.0f, false) == 3.0f);
  CHECK(approx_f32(ApproxOp::Sin, 0.0f, false) == 0.0f);
  CHECK(approx_f32(ApproxOp::Cos, 0.0f, false) == 1.0f);
  CHECK(approx_f32(ApproxOp::Lg2, 0.0f, false) == -std::numeric_limits<float>::infinity());
  CHECK(f32_bits(approx_f32(ApproxOp::Lg2, -1.0f, false)) == 0x7FFFFFFFu);
  CHECK(approx_f32(ApproxOp::Rcp, 0.0f, false) == std::numeric_limits<float>::infinity());
  CHECK(approx_f32(ApproxOp::Rcp, kDenorm, true) == std::numeric_limits<float>::infinity());  // ftz input
  CHECK(approx_f32(ApproxOp::Ex2, -140.0f, true) == 0.0f);     // 2^-140 subnormal: flushed
  CHECK(approx_f32(ApproxOp::Ex2, -140.0f, false) == kDenorm);
  for (float x : {0.1f, 0.5f, 1.0f, 2.5f, -3.0f, 10.0f}) {
    float s = approx_f32(ApproxOp::Sin, x, false);
    CHECK(std::fabs(double(s) - std::sin(double(x))) <= std::ldexp(1.0, -24));
    float t = approx_f32(ApproxOp::Tanh, x, false);
    CHECK(std::fabs(double(t) - std::tanh(double(x))) <= std::ldexp(1.0, -24));
  }
  CHECK(div_approx_f32(1.0f, 3.0f, false) == float(1.0 / 3.0));
  CHECK(approx_f64(ApproxOp::Rcp, 4.0) == 0.25);
  CHECK(approx_f64(ApproxOp::Rsqrt, 16.0) == 0.25);
}
