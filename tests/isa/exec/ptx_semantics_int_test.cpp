// PTX integer and bit-manipulation semantics. Expected values are worked out by hand from
// the PTX ISA definitions (comments show the reasoning), never taken from the executor.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>

#include "isa/exec/int_semantics.h"

using namespace gputlm::isa;
using namespace gputlm::isa::sem;

TEST_CASE("ptx_semantics: integer division by zero gives all ones (sm_75 behaviour)", "[ptx_semantics]") {
  CHECK(int_div<uint32_t>(7, 0) == 0xFFFFFFFFu);
  CHECK(int_rem<uint32_t>(7, 0) == 0xFFFFFFFFu);
  CHECK(int_div<int32_t>(-7, 0) == -1);
  CHECK(int_div<int32_t>(7, 0) == -1);
  CHECK(int_rem<int32_t>(7, 0) == -1);
  CHECK(int_div<uint64_t>(123, 0) == ~uint64_t{0});
  CHECK(int_rem<uint64_t>(123, 0) == ~uint64_t{0});
  CHECK(int_div<int64_t>(-5, 0) == -1);
  CHECK(int_div<uint16_t>(5, 0) == 0xFFFF);
  CHECK(int_div<int16_t>(5, 0) == -1);
}

TEST_CASE("ptx_semantics: signed division truncates and MIN/-1 wraps", "[ptx_semantics]") {
  CHECK(int_div<int32_t>(-7, 2) == -3);
  CHECK(int_rem<int32_t>(-7, 2) == -1);  // sign of the dividend
  CHECK(int_rem<int32_t>(7, -2) == 1);
  CHECK(int_div<int32_t>(INT_MIN, -1) == INT_MIN);
  CHECK(int_rem<int32_t>(INT_MIN, -1) == 0);
  CHECK(int_div<int64_t>(LLONG_MIN, -1) == LLONG_MIN);
  CHECK(int_div<uint32_t>(0xFFFFFFFFu, 16) == 0x0FFFFFFFu);
}

TEST_CASE("ptx_semantics: wrap-around, saturation, abs and neg of MIN", "[ptx_semantics]") {
  CHECK(wrap_add<int32_t>(INT_MAX, 1) == INT_MIN);
  CHECK(wrap_sub<uint16_t>(0, 1) == 0xFFFF);
  CHECK(wrap_mul<uint16_t>(0xFFFF, 0xFFFF) == 1);  // 0xFFFE0001 mod 2^16
  CHECK(add_sat_s32(INT_MAX, 1) == INT_MAX);
  CHECK(add_sat_s32(INT_MIN, -1) == INT_MIN);
  CHECK(add_sat_s32(5, -7) == -2);
  CHECK(sub_sat_s32(INT_MIN, 1) == INT_MIN);
  CHECK(sub_sat_s32(INT_MAX, -1) == INT_MAX);
  CHECK(int_abs<int32_t>(INT_MIN) == INT_MIN);
  CHECK(int_abs<int32_t>(-5) == 5);
  CHECK(wrap_neg<int32_t>(INT_MIN) == INT_MIN);
  CHECK(int_min<int32_t>(-1, 1) == -1);
  CHECK(int_max<uint32_t>(0xFFFFFFFFu, 1) == 0xFFFFFFFFu);
}

TEST_CASE("ptx_semantics: mul.hi, mul.wide, mad.hi.sat, mul24, sad", "[ptx_semantics]") {
  // (2^32-1)^2 = 2^64 - 2^33 + 1: high word 0xFFFFFFFE.
  CHECK(mul_hi<uint32_t>(0xFFFFFFFFu, 0xFFFFFFFFu) == 0xFFFFFFFEu);
  CHECK(mul_hi<int32_t>(-1, -1) == 0);           // +1
  CHECK(mul_hi<int32_t>(INT_MIN, 2) == -1);      // -2^32: high word all ones
  CHECK(mul_hi<uint64_t>(uint64_t{1} << 63, 4) == 2);
  CHECK(mul_hi<int64_t>(-2, int64_t{1} << 62) == -1);  // -2^63
  CHECK(mul_wide<int32_t>(-2, 3) == int64_t{-6});
  CHECK(mul_wide<uint32_t>(0xFFFFFFFFu, 2) == uint64_t{0x1FFFFFFFEull});
  CHECK(mul_wide<uint16_t>(0xFFFF, 0xFFFF) == 0xFFFE0001u);
  CHECK(mul_wide<int16_t>(-32768, -32768) == 0x40000000);
  CHECK(mad_hi_sat_s32(INT_MAX, INT_MAX, INT_MAX) == INT_MAX);  // (2^62-2^32+1)>>32 + MAX overflows
  CHECK(mad_hi_sat_s32(2, 1 << 30, 5) == 5);                    // 2^31 >> 32 = 0
  CHECK(mul24<uint32_t>(0x01000003u, 2, false) == 6);           // bit 24 ignored
  CHECK(mul24<int32_t>(0x00FFFFFF, 2, false) == -2);            // 24-bit -1 * 2
  CHECK(mul24<uint32_t>(0xFFFFFF, 0xFFFFFF, true) == 0xFFFFFE00u);  // (2^24-1)^2 = 0xFFFFFE000001, bits 47..16
  CHECK(sad<uint32_t>(3, 10, 100) == 107);
  CHECK(sad<int32_t>(-3, 4, 1) == 8);
}

TEST_CASE("ptx_semantics: shifts clamp amounts at the width", "[ptx_semantics]") {
  CHECK(shift_left<uint32_t>(1, 31) == 0x80000000u);
  CHECK(shift_left<uint32_t>(1, 32) == 0);
  CHECK(shift_left<uint32_t>(1, 0xFFFFFFFFu) == 0);
  CHECK(shift_right<uint32_t>(0x80000000u, 31) == 1);
  CHECK(shift_right<uint32_t>(0x80000000u, 40) == 0);
  CHECK(shift_right<int32_t>(-8, 1) == -4);
  CHECK(shift_right<int32_t>(-8, 40) == -1);
  CHECK(shift_right<int32_t>(8, 40) == 0);
  CHECK(shift_left<uint64_t>(1, 63) == uint64_t{1} << 63);
  CHECK(shift_left<uint64_t>(1, 64) == 0);
  CHECK(shift_left<uint16_t>(1, 16) == 0);
  CHECK(shf_left(0x80000000u, 0x1u, 1, false) == 3u);
  CHECK(shf_left(0x80000000u, 0x1u, 33, false) == 3u);          // wrap: 33 mod 32 = 1
  CHECK(shf_left(0x80000000u, 0x1u, 33, true) == 0x80000000u);  // clamp: 32 -> lo
  CHECK(shf_right(1u, 1u, 1, false) == 0x80000000u);
  CHECK(shf_right(1u, 0xABu, 32, true) == 0xABu);
}

TEST_CASE("ptx_semantics: popc clz brev bfind", "[ptx_semantics]") {
  CHECK(popc<uint32_t>(0xF0F0F0F0u) == 16);
  CHECK(popc<uint64_t>(~uint64_t{0}) == 64);
  CHECK(clz<uint32_t>(0) == 32);
  CHECK(clz<uint32_t>(1) == 31);
  CHECK(clz<uint64_t>(1) == 63);
  CHECK(clz<uint64_t>(0) == 64);
  CHECK(brev<uint32_t>(1) == 0x80000000u);
  CHECK(brev<uint32_t>(0x12345678u) == 0x1E6A2C48u);
  CHECK(brev<uint64_t>(1) == uint64_t{1} << 63);
  CHECK(bfind<uint32_t>(0x10, false) == 4);
  CHECK(bfind<uint32_t>(0x10, true) == 27);
  CHECK(bfind<uint32_t>(0, false) == 0xFFFFFFFFu);
  CHECK(bfind<int32_t>(-1, false) == 0xFFFFFFFFu);  // no non-sign bit
  CHECK(bfind<int32_t>(-2, false) == 0);            // ~(-2) = 1
  CHECK(bfind<int32_t>(0x40000000, false) == 30);
  CHECK(bfind<uint64_t>(uint64_t{1} << 40, false) == 40);
}

TEST_CASE("ptx_semantics: bfe and bfi edge cases", "[ptx_semantics]") {
  CHECK(bfe<uint32_t>(0xF0u, 4, 4) == 0xFu);
  CHECK(bfe<int32_t>(0xF0, 4, 4) == -1);  // bit 7 set: sign-extended
  CHECK(bfe<int32_t>(0x70, 4, 4) == 7);
  CHECK(bfe<uint32_t>(0xFFFFFFFFu, 0, 0) == 0);
  CHECK(bfe<int32_t>(-1, 3, 0) == 0);  // len 0: result 0
  CHECK(bfe<int32_t>(INT_MIN, 40, 4) == -1);  // pos beyond msb: all bits are a[31]
  CHECK(bfe<uint32_t>(0x80000000u, 28, 8) == 0x8u);  // bits beyond msb are 0 for unsigned
  CHECK(bfe<int32_t>(INT_MIN, 28, 8) == -8);         // ...and the sign bit for signed: 0b1...1000
  CHECK(bfe<uint32_t>(0x12345678u, 0x108, 0x104) == 0x6u);  // only the low 8 bits of b, c count
  CHECK(bfe<uint64_t>(0xF000000000000000ull, 60, 4) == 0xFu);
  CHECK(bfi<uint32_t>(0xFu, 0u, 8, 4) == 0xF00u);
  CHECK(bfi<uint32_t>(0xFFu, 0xFFFFFFFFu, 4, 0) == 0xFFFFFFFFu);  // len 0: b unchanged
  CHECK(bfi<uint32_t>(0xFFu, 0u, 28, 8) == 0xF0000000u);          // truncated at msb
  CHECK(bfi<uint32_t>(0x0u, 0xFFFFFFFFu, 8, 8) == 0xFFFF00FFu);
}

TEST_CASE("ptx_semantics: prmt in every mode", "[ptx_semantics]") {
  const uint32_t a = 0x83020100u, b = 0x07060504u;  // bytes 0..7 = 00 01 02 83 04 05 06 07
  CHECK(prmt(a, b, 0x3210, PrmtMode::None) == a);
  CHECK(prmt(a, b, 0x7654, PrmtMode::None) == b);
  CHECK(prmt(a, b, 0x0123, PrmtMode::None) == 0x00010283u);
  CHECK(prmt(a, b, 0x000B, PrmtMode::None) == 0x000000FFu);  // 0xB: byte 3 (0x83), sign replicated
  CHECK(prmt(a, b, 0x0009, PrmtMode::None) == 0x00000000u);  // byte 1 (0x01) sign is 0
  CHECK(prmt(a, b, 1, PrmtMode::F4e) == 0x04830201u);        // bytes 1,2,3,4
  CHECK(prmt(a, b, 0, PrmtMode::B4e) == 0x05060700u);        // bytes 0,7,6,5
  CHECK(prmt(a, b, 2, PrmtMode::Rc8) == 0x02020202u);
  CHECK(prmt(a, b, 1, PrmtMode::Ecl) == 0x83020101u);        // 3,2,1,1
  CHECK(prmt(a, b, 2, PrmtMode::Ecr) == 0x02020100u);        // 2,2,1,0
  CHECK(prmt(a, b, 1, PrmtMode::Rc16) == 0x83028302u);       // 3,2,3,2
  CHECK(prmt(a, b, 0, PrmtMode::Rc16) == 0x01000100u);
}

TEST_CASE("ptx_semantics: lop3 truth tables", "[ptx_semantics]") {
  const uint32_t a = 0xF0F0F0F0u, b = 0xCCCCCCCCu, c = 0xAAAAAAAAu;
  CHECK(lop3(a, b, c, 0xF0) == a);
  CHECK(lop3(a, b, c, 0xCC) == b);
  CHECK(lop3(a, b, c, 0xAA) == c);
  CHECK(lop3(a, b, c, 0x96) == (a ^ b ^ c));
  CHECK(lop3(a, b, c, 0xE8) == ((a & b) | (a & c) | (b & c)));
  CHECK(lop3(a, b, c, 0x00) == 0);
  CHECK(lop3(a, b, c, 0xFF) == 0xFFFFFFFFu);
  CHECK(lop3(0x12345678u, 0x9ABCDEF0u, 0x0F0F0F0Fu, 0x80) == (0x12345678u & 0x9ABCDEF0u & 0x0F0F0F0Fu));
}

TEST_CASE("ptx_semantics: carry chain across 64 bits", "[ptx_semantics]") {
  // 0x00000001_FFFFFFFF + 0x00000000_00000001 in 32-bit halves.
  uint32_t cc = 0;
  uint32_t lo = add_carry<uint32_t>(0xFFFFFFFFu, 1u, 0, &cc);
  CHECK(lo == 0);
  CHECK(cc == 1);
  uint32_t cc2 = 0;
  uint32_t hi = add_carry<uint32_t>(1u, 0u, cc, &cc2);
  CHECK(hi == 2);
  CHECK(cc2 == 0);
  // 0x1_00000000 - 1: borrow from the low word.
  uint32_t bo = 0;
  CHECK(sub_borrow<uint32_t>(0u, 1u, 0, &bo) == 0xFFFFFFFFu);
  CHECK(bo == 1);
  uint32_t bo2 = 0;
  CHECK(sub_borrow<uint32_t>(1u, 0u, bo, &bo2) == 0u);
  CHECK(bo2 == 0);
  CHECK(cnot<uint32_t>(0) == 1);
  CHECK(cnot<uint32_t>(5) == 0);
}
