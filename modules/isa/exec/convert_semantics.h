// PTX cvt semantics for one lane: every int/float width, rounding and saturation.
// Values travel as raw register bits (uint64_t); integer results are sign- or
// zero-extended to 64 bits according to the destination type, floats are stored as their
// bit pattern (f16 in the low 16 bits, f32 in the low 32 bits).
//
// Rules (PTX ISA, cvt):
//  * int -> int: truncate to the destination width, or clamp to its range with .sat.
//  * float -> int: round with .rni/.rzi/.rmi/.rpi (none given = .rzi), NaN -> 0, and always
//    clamp to the destination range.
//  * int -> float: rounding .rn (default) .rz .rm .rp.
//  * float -> float: narrowing rounds with .rn/.rz/.rm/.rp; .rni/.rzi/.rmi/.rpi round to an
//    integral value in the destination format; widening is exact. .ftz flushes f32
//    subnormal inputs and results; .sat clamps to [0,1] (NaN -> 0).
#pragma once

#include <cstdint>

#include "isa/exec/float_semantics.h"
#include "isa/ir.h"

namespace gputlm::isa::sem {

// Sign- or zero-extends the low `bytes` of `bits` according to `t`'s signedness.
inline uint64_t extend_to_64(uint64_t bits, ScalarType t) {
  uint32_t n = type_bytes(t);
  if (n >= 8 || n == 0) return bits;
  uint32_t w = 8 * n;
  uint64_t mask = (uint64_t{1} << w) - 1;
  bits &= mask;
  if (is_signed_int(t) && ((bits >> (w - 1)) & 1)) bits |= ~mask;
  return bits;
}

// IEEE half <-> double conversions in software (no host f16 support needed).
uint16_t half_from_double(double x, RoundMode m);
double double_from_half(uint16_t h);
uint16_t bf16_from_double(double x, RoundMode m);
double double_from_bf16(uint16_t h);
// Rounds x to a binary float of exp_bits/mant_bits (IEEE layout, subnormals, inf); NaN ->
// `nan`. half = (5, 10), bf16 = (8, 7).
uint16_t small_float_from_double(double x, RoundMode m, int exp_bits, int mant_bits, uint16_t nan);

RoundMode round_mode_of(Rounding r);  // Rn for None/Rn/Rni..., Rz for Rz, etc.

// cvt.<rnd><ftz><sat>.<dst>.<src> on one value. Precondition (checked at decode): both
// types are scalar integer or f16/f32/f64 types.
uint64_t convert(uint64_t src, ScalarType dst, ScalarType src_type, Rounding rnd, bool ftz, bool sat);

}  // namespace gputlm::isa::sem
