// PTX cvt, warp collectives (shfl/vote/match) and atomic update semantics. Expected values
// are derived by hand from the PTX ISA definitions.
#include <catch2/catch.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>

#include "isa/exec/convert_semantics.h"
#include "isa/exec/warp_collectives.h"

using namespace gputlm::isa;
using namespace gputlm::isa::sem;

namespace {
uint64_t fbits(float f) { return f32_bits(f); }
uint64_t dbits(double d) { return f64_bits(d); }
int64_t as_s64(uint64_t v) { return static_cast<int64_t>(v); }
uint64_t cvt(uint64_t v, ScalarType d, ScalarType s, Rounding r = Rounding::None, bool ftz = false, bool sat = false) {
  return convert(v, d, s, r, ftz, sat);
}
}  // namespace

TEST_CASE("ptx_semantics: cvt float to int rounds, saturates, maps NaN to 0", "[ptx_semantics]") {
  using ST = ScalarType;
  CHECK(as_s64(cvt(fbits(2.5f), ST::S32, ST::F32, Rounding::Rni)) == 2);  // ties to even
  CHECK(as_s64(cvt(fbits(3.5f), ST::S32, ST::F32, Rounding::Rni)) == 4);
  CHECK(as_s64(cvt(fbits(-2.5f), ST::S32, ST::F32, Rounding::Rmi)) == -3);
  CHECK(as_s64(cvt(fbits(-2.5f), ST::S32, ST::F32, Rounding::Rpi)) == -2);
  CHECK(as_s64(cvt(fbits(-2.7f), ST::S32, ST::F32, Rounding::Rzi)) == -2);
  CHECK(as_s64(cvt(fbits(1e10f), ST::S32, ST::F32, Rounding::Rzi)) == INT_MAX);
  CHECK(as_s64(cvt(fbits(-1e10f), ST::S32, ST::F32, Rounding::Rzi)) == INT_MIN);
  CHECK(cvt(fbits(std::nanf("")), ST::S32, ST::F32, Rounding::Rzi) == 0);
  CHECK(cvt(fbits(-1.0f), ST::U32, ST::F32, Rounding::Rzi) == 0);
  CHECK(cvt(dbits(4e9), ST::U32, ST::F64, Rounding::Rzi) == 4000000000u);
  CHECK(cvt(dbits(5e9), ST::U32, ST::F64, Rounding::Rzi) == 0xFFFFFFFFu);
  CHECK(cvt(fbits(300.0f), ST::U8, ST::F32, Rounding::Rzi) == 255);
  CHECK(as_s64(cvt(fbits(-200.0f), ST::S8, ST::F32, Rounding::Rzi)) == -128);  // sign-extended
  CHECK(cvt(dbits(1e30), ST::U64, ST::F64, Rounding::Rzi) == ~uint64_t{0});
  CHECK(as_s64(cvt(dbits(-1e30), ST::S64, ST::F64, Rounding::Rzi)) == LLONG_MIN);
  CHECK(as_s64(cvt(dbits(9007199254740993.0), ST::S64, ST::F64, Rounding::Rni)) == 9007199254740992LL);
  CHECK(cvt(fbits(std::numeric_limits<float>::infinity()), ST::U16, ST::F32, Rounding::Rni) == 0xFFFF);
}

TEST_CASE("ptx_semantics: cvt int to int truncates or saturates", "[ptx_semantics]") {
  using ST = ScalarType;
  CHECK(cvt(0xFFFFFFFFu, ST::U64, ST::S32) == ~uint64_t{0});  // sign-extends the s32 source
  CHECK(cvt(0xFFFFFFFFu, ST::S64, ST::U32) == 0xFFFFFFFFull);
  CHECK(cvt(300, ST::U8, ST::S32, Rounding::None, false, true) == 255);
  CHECK(cvt(static_cast<uint32_t>(-5), ST::U8, ST::S32, Rounding::None, false, true) == 0);
  CHECK(cvt(300, ST::U8, ST::S32) == 44);  // 300 mod 256
  CHECK(as_s64(cvt(0x80, ST::S8, ST::U32)) == -128);
  CHECK(as_s64(cvt(uint64_t{1} << 40, ST::S32, ST::S64, Rounding::None, false, true)) == INT_MAX);
  CHECK(cvt(uint64_t(-1), ST::U32, ST::S64, Rounding::None, false, true) == 0);
  CHECK(cvt(0x1234567890ull, ST::U32, ST::U64) == 0x34567890u);
}

TEST_CASE("ptx_semantics: cvt int to float honours the rounding mode", "[ptx_semantics]") {
  using ST = ScalarType;
  // 2^24 + 1 is not representable in f32: neighbours 2^24 and 2^24 + 2.
  CHECK(cvt(16777217u, ST::F32, ST::U32, Rounding::Rn) == fbits(16777216.0f));
  CHECK(cvt(16777217u, ST::F32, ST::U32, Rounding::Rz) == fbits(16777216.0f));
  CHECK(cvt(16777217u, ST::F32, ST::U32, Rounding::Rp) == fbits(16777218.0f));
  CHECK(cvt(static_cast<uint32_t>(-16777217), ST::F32, ST::S32, Rounding::Rm) == fbits(-16777218.0f));
  CHECK(cvt(static_cast<uint32_t>(-16777217), ST::F32, ST::S32, Rounding::Rz) == fbits(-16777216.0f));
  CHECK(cvt(~uint64_t{0}, ST::F64, ST::U64, Rounding::Rz) == dbits(18446744073709549568.0));  // 2^64 - 2^11
  CHECK(cvt(~uint64_t{0}, ST::F64, ST::U64, Rounding::Rn) == dbits(18446744073709551616.0));  // 2^64
  CHECK(cvt(3, ST::F32, ST::S32, Rounding::Rn, false, true) == fbits(1.0f));  // .sat
}

TEST_CASE("ptx_semantics: cvt float to float rounding, integral rounding, ftz, sat", "[ptx_semantics]") {
  using ST = ScalarType;
  float rz = f32_from_bits(uint32_t(cvt(dbits(1.0 / 3.0), ST::F32, ST::F64, Rounding::Rz)));
  float rp = f32_from_bits(uint32_t(cvt(dbits(1.0 / 3.0), ST::F32, ST::F64, Rounding::Rp)));
  CHECK(std::nextafter(rz, 1.0f) == rp);
  CHECK(cvt(dbits(1.0 / 3.0), ST::F32, ST::F64, Rounding::Rn) == fbits(float(1.0 / 3.0)));
  CHECK(cvt(dbits(1e300), ST::F32, ST::F64, Rounding::Rz) == fbits(std::numeric_limits<float>::max()));
  CHECK(cvt(dbits(1e300), ST::F32, ST::F64, Rounding::Rn) == fbits(std::numeric_limits<float>::infinity()));
  CHECK(cvt(fbits(2.5f), ST::F32, ST::F32, Rounding::Rni) == fbits(2.0f));
  CHECK(cvt(fbits(2.1f), ST::F32, ST::F32, Rounding::Rpi) == fbits(3.0f));
  CHECK(cvt(fbits(-2.1f), ST::F32, ST::F32, Rounding::Rmi) == fbits(-3.0f));
  CHECK(cvt(dbits(-2.9), ST::F64, ST::F64, Rounding::Rzi) == dbits(-2.0));
  CHECK(cvt(fbits(1.5f), ST::F32, ST::F32, Rounding::None, false, true) == fbits(1.0f));
  CHECK(cvt(fbits(std::ldexp(1.0f, -140)), ST::F64, ST::F32, Rounding::None, true, false) == dbits(0.0));
  CHECK(cvt(fbits(std::ldexp(1.0f, -140)), ST::F64, ST::F32) == dbits(std::ldexp(1.0, -140)));
  CHECK(cvt(dbits(std::ldexp(1.0, -140)), ST::F32, ST::F64, Rounding::Rn, true, false) == fbits(0.0f));
}

TEST_CASE("ptx_semantics: f16 conversions", "[ptx_semantics]") {
  CHECK(half_from_double(1.0, RoundMode::Rn) == 0x3C00);
  CHECK(half_from_double(-2.0, RoundMode::Rn) == 0xC000);
  CHECK(half_from_double(65504.0, RoundMode::Rn) == 0x7BFF);
  CHECK(half_from_double(65520.0, RoundMode::Rn) == 0x7C00);  // halfway to 2^16: rounds to inf
  CHECK(half_from_double(65519.0, RoundMode::Rn) == 0x7BFF);
  CHECK(half_from_double(65520.0, RoundMode::Rz) == 0x7BFF);
  CHECK(half_from_double(-1e6, RoundMode::Rp) == 0xFBFF);     // toward +inf: -max
  CHECK(half_from_double(std::ldexp(1.0, -24), RoundMode::Rn) == 0x0001);
  CHECK(half_from_double(std::ldexp(1.0, -25), RoundMode::Rn) == 0x0000);  // tie to even (0)
  CHECK(half_from_double(std::ldexp(1.0, -25), RoundMode::Rp) == 0x0001);
  CHECK(half_from_double(1.0 / 3.0, RoundMode::Rn) == 0x3555);
  CHECK(half_from_double(std::nan(""), RoundMode::Rn) == 0x7FFF);
  CHECK(double_from_half(0x3555) == 0.333251953125);
  CHECK(double_from_half(0x0001) == std::ldexp(1.0, -24));
  CHECK(std::isinf(double_from_half(0xFC00)));
  // bf16: 7 mantissa bits. 1 + 2^-8 is half an ulp above 1 (tie to even: 1.0); 1 + 3*2^-8
  // lies halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even).
  CHECK(bf16_from_double(1.0 + std::ldexp(1.0, -8), RoundMode::Rn) == 0x3F80);
  CHECK(bf16_from_double(1.0 + 3 * std::ldexp(1.0, -8), RoundMode::Rn) == 0x3F82);
  CHECK(bf16_from_double(1.0 + std::ldexp(1.0, -8), RoundMode::Rp) == 0x3F81);
  CHECK(bf16_from_double(3.5e38, RoundMode::Rn) == 0x7F80);  // above max bf16 (~3.39e38): inf
  CHECK(double_from_bf16(0xC040) == -3.0);
  using ST = ScalarType;
  CHECK(cvt(fbits(-3.0f), ST::BF16, ST::F32, Rounding::Rn) == 0xC040);
  CHECK(cvt(fbits(0.5f), ST::F16, ST::F32, Rounding::Rn) == 0x3800);
  CHECK(cvt(0x3800, ST::F32, ST::F16) == fbits(0.5f));
}

TEST_CASE("ptx_semantics: shfl up/down/bfly/idx with clamps, segments and out-of-range lanes", "[ptx_semantics]") {
  // Full-warp forms (c = 0x1f for down/bfly/idx, 0 for up), as CUDA's __shfl_*_sync emit.
  ShflSource s = shfl_source(ShflMode::Up, 0, 1, 0);
  CHECK(s.lane == 0);
  CHECK_FALSE(s.valid);
  s = shfl_source(ShflMode::Up, 5, 1, 0);
  CHECK(s.lane == 4);
  CHECK(s.valid);
  s = shfl_source(ShflMode::Down, 31, 1, 0x1F);
  CHECK(s.lane == 31);
  CHECK_FALSE(s.valid);
  s = shfl_source(ShflMode::Down, 30, 1, 0x1F);
  CHECK(s.lane == 31);
  CHECK(s.valid);
  s = shfl_source(ShflMode::Bfly, 3, 16, 0x1F);
  CHECK(s.lane == 19);
  s = shfl_source(ShflMode::Idx, 7, 5, 0x1F);
  CHECK(s.lane == 5);
  s = shfl_source(ShflMode::Idx, 7, 37, 0x1F);  // only b[4:0] counts: lane 5
  CHECK(s.lane == 5);
  // Width 8 segments: c = ((32 - 8) << 8) | 0x1f.
  const uint32_t seg8 = (24u << 8) | 0x1F;
  s = shfl_source(ShflMode::Down, 15, 1, seg8);
  CHECK(s.lane == 15);  // end of segment [8, 15]
  CHECK_FALSE(s.valid);
  s = shfl_source(ShflMode::Down, 12, 2, seg8);
  CHECK(s.lane == 14);
  s = shfl_source(ShflMode::Idx, 10, 2, seg8);
  CHECK(s.lane == 10);  // segment start 8 + 2
  s = shfl_source(ShflMode::Idx, 3, 2, seg8);
  CHECK(s.lane == 2);
  s = shfl_source(ShflMode::Up, 8, 1, 24u << 8);
  CHECK(s.lane == 8);  // below the segment start
  CHECK_FALSE(s.valid);
  s = shfl_source(ShflMode::Bfly, 9, 4, seg8);
  CHECK(s.lane == 13);
  // Clamp value below the lane: idx with c = 3 and no segment mask: lanes above 3 invalid.
  s = shfl_source(ShflMode::Idx, 0, 6, 3);
  CHECK(s.lane == 0);
  CHECK_FALSE(s.valid);
}

TEST_CASE("ptx_semantics: shfl_warp with a partial active mask leaves inactive lanes alone", "[ptx_semantics]") {
  uint32_t v[32], b[32], c[32], out[32];
  bool p[32];
  for (uint32_t l = 0; l < 32; ++l) {
    v[l] = 100 + l;
    b[l] = 1;
    c[l] = 0x1F;
    out[l] = 0xDEAD;
    p[l] = false;
  }
  shfl_warp(ShflMode::Down, v, b, c, 0x0000FFFFu, out, p);
  for (uint32_t l = 0; l < 16; ++l) {
    CHECK(out[l] == 101 + l);  // source lane 16 is inactive: its register value is read
    CHECK(p[l]);
  }
  for (uint32_t l = 16; l < 32; ++l) CHECK(out[l] == 0xDEAD);
}

TEST_CASE("ptx_semantics: vote over participating lanes only", "[ptx_semantics]") {
  CHECK(vote_all(0x0000000Fu, 0x0000000Fu));
  CHECK_FALSE(vote_all(0x00000007u, 0x0000000Fu));
  CHECK(vote_all(0xFFFF000Fu, 0x0000000Fu));  // lanes outside the mask do not count
  CHECK(vote_any(0x00000100u, 0x00000F00u));
  CHECK_FALSE(vote_any(0x00000100u, 0x000000FFu));
  CHECK(vote_uni(0, 0xFFu));
  CHECK(vote_uni(0xFFu, 0xFFu));
  CHECK_FALSE(vote_uni(0x0Fu, 0xFFu));
  CHECK(vote_ballot(0xFFu, 0x0Fu) == 0x0Fu);
  CHECK(vote_ballot(0xAAAAAAAAu, 0xFFFF0000u) == 0xAAAA0000u);
}

TEST_CASE("ptx_semantics: match.any and match.all", "[ptx_semantics]") {
  uint64_t v[32];
  for (uint32_t l = 0; l < 32; ++l) v[l] = l % 3;
  uint32_t out[32] = {};
  match_any(v, 0xFFFFFFFFu, out);
  uint32_t m0 = 0;
  for (uint32_t l = 0; l < 32; l += 3) m0 |= 1u << l;
  CHECK(out[0] == m0);
  CHECK(out[3] == m0);
  CHECK(out[1] == (m0 << 1));
  match_any(v, 0x00000007u, out);
  CHECK(out[0] == 1u);  // lanes 3, 6.. do not participate
  bool eq = false;
  CHECK(match_all(v, 0x9u, &eq) == 0x9u);  // lanes 0 and 3 both hold 0
  CHECK(eq);
  CHECK(match_all(v, 0x3u, &eq) == 0u);
  CHECK_FALSE(eq);
}

TEST_CASE("ptx_semantics: atomic update rules incl. inc/dec wrap and 64-bit cas", "[ptx_semantics]") {
  using ST = ScalarType;
  CHECK(atomic_update(AtomOp::Inc, ST::U32, 5, 5, 0) == 0);
  CHECK(atomic_update(AtomOp::Inc, ST::U32, 3, 5, 0) == 4);
  CHECK(atomic_update(AtomOp::Inc, ST::U32, 7, 5, 0) == 0);
  CHECK(atomic_update(AtomOp::Dec, ST::U32, 0, 5, 0) == 5);
  CHECK(atomic_update(AtomOp::Dec, ST::U32, 7, 5, 0) == 5);
  CHECK(atomic_update(AtomOp::Dec, ST::U32, 3, 5, 0) == 2);
  CHECK(atomic_update(AtomOp::Cas, ST::B64, 0x100000000ull, 0x100000000ull, 7) == 7);
  CHECK(atomic_update(AtomOp::Cas, ST::B64, 0x100000001ull, 0x100000000ull, 7) == 0x100000001ull);
  CHECK(atomic_update(AtomOp::Cas, ST::B32, 0x1, 0x1, 9) == 9);
  CHECK(atomic_update(AtomOp::Add, ST::U64, ~uint64_t{0}, 2, 0) == 1);
  CHECK(atomic_update(AtomOp::Add, ST::U32, 0xFFFFFFFFu, 2, 0) == 1);
  CHECK(atomic_update(AtomOp::Min, ST::S64, uint64_t(-1), 1, 0) == uint64_t(-1));
  CHECK(atomic_update(AtomOp::Max, ST::U64, uint64_t(-1), 1, 0) == uint64_t(-1));
  CHECK(atomic_update(AtomOp::Min, ST::S32, 0xFFFFFFFFu, 1, 0) == 0xFFFFFFFFu);  // -1 < 1
  CHECK(atomic_update(AtomOp::Min, ST::U32, 0xFFFFFFFFu, 1, 0) == 1u);
  CHECK(atomic_update(AtomOp::Exch, ST::B64, 1, 0xABCDEF0123ull, 0) == 0xABCDEF0123ull);
  CHECK(atomic_update(AtomOp::Or, ST::B32, 0xF0, 0x0F, 0) == 0xFFu);
  CHECK(atomic_update(AtomOp::Xor, ST::B64, 0xFF00000000ull, 0xFF000000FFull, 0) == 0xFFull);
  CHECK(atomic_update(AtomOp::Add, ST::F32, fbits(1.5f), fbits(2.25f), 0) == fbits(3.75f));
  CHECK(atomic_update(AtomOp::Add, ST::F32, fbits(std::ldexp(1.0f, -140)), fbits(0.0f), 0) == fbits(0.0f));
  CHECK(atomic_update(AtomOp::Add, ST::F64, dbits(0.1), dbits(0.2), 0) == dbits(0.1 + 0.2));
}

TEST_CASE("ptx_semantics: packed f16x2 and bf16 atomic add round each half", "[ptx_semantics]") {
  using ST = ScalarType;
  // {1.0, 2.0} + {2^-11, 0.5}: 1 + 2^-11 ties to even (1.0); 2.5 is exact.
  CHECK(atomic_update(AtomOp::Add, ST::F16x2, 0x40003C00u, 0x38001000u, 0) == 0x41003C00u);
  CHECK(atomic_update(AtomOp::Add, ST::F16, 0x3C00u, 0x3C00u, 0) == 0x4000u);       // 1 + 1 = 2
  CHECK(atomic_update(AtomOp::Add, ST::BF16, 0x3F80u, 0x3F80u, 0) == 0x4000u);      // bf16 1 + 1 = 2
}
