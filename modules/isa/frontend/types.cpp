// Type/space spellings and immediate encoding.
#include "isa/frontend/types.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace gputlm::isa::frontend {

ScalarType type_from_dot(std::string_view d) {
  struct Entry { const char* name; ScalarType t; };
  static const Entry table[] = {
      {".pred", ScalarType::Pred}, {".b8", ScalarType::B8},     {".b16", ScalarType::B16},
      {".b32", ScalarType::B32},   {".b64", ScalarType::B64},   {".b128", ScalarType::B128},
      {".u8", ScalarType::U8},     {".u16", ScalarType::U16},   {".u32", ScalarType::U32},
      {".u64", ScalarType::U64},   {".s8", ScalarType::S8},     {".s16", ScalarType::S16},
      {".s32", ScalarType::S32},   {".s64", ScalarType::S64},   {".f16", ScalarType::F16},
      {".f16x2", ScalarType::F16x2}, {".bf16", ScalarType::BF16}, {".bf16x2", ScalarType::BF16x2},
      {".f32", ScalarType::F32},   {".f64", ScalarType::F64},
  };
  for (const Entry& e : table)
    if (d == e.name) return e.t;
  return ScalarType::None;
}

StateSpace space_from_dot(std::string_view d) {
  if (d == ".reg") return StateSpace::Reg;
  if (d == ".param") return StateSpace::Param;
  if (d == ".global") return StateSpace::Global;
  if (d == ".shared") return StateSpace::Shared;
  if (d == ".local") return StateSpace::Local;
  if (d == ".const") return StateSpace::Const;
  if (d == ".tex") return StateSpace::Texture;
  return StateSpace::None;
}

namespace {
uint16_t float_to_half_bits(float f) {
  // Round-to-nearest-even conversion, used only for f16 immediates.
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t man = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (man ? 0x200u : 0));
  int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t h = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (static_cast<uint32_t>(e) << 10) | (man >> 13);
  uint32_t rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
  return static_cast<uint16_t>(sign | h);
}
}  // namespace

bool encode_immediate(const ImmLiteral& lit, ScalarType type, uint64_t& bits, std::string& error) {
  uint32_t width = type_bytes(type);
  uint64_t mask = width >= 8 ? ~uint64_t{0} : ((uint64_t{1} << (8 * width)) - 1);
  if (type == ScalarType::B128) {
    error = "128-bit immediates are not supported";
    return false;
  }
  if (is_float(type)) {
    double v = 0;
    if (lit.kind == TokKind::Int) {
      v = static_cast<double>(lit.bits);
    } else if (lit.kind == TokKind::Float) {
      v = lit.value;
    } else if (lit.kind == TokKind::F32Bits) {
      if (type == ScalarType::F32 && !lit.negative) {
        bits = lit.bits & 0xffffffffu;
        return true;
      }
      float f;
      auto b = static_cast<uint32_t>(lit.bits);
      std::memcpy(&f, &b, 4);
      v = f;
    } else {  // F64Bits
      if (type == ScalarType::F64 && !lit.negative) {
        bits = lit.bits;
        return true;
      }
      std::memcpy(&v, &lit.bits, 8);
    }
    if (lit.negative) v = -v;
    if (type == ScalarType::F64) {
      std::memcpy(&bits, &v, 8);
    } else if (type == ScalarType::F32) {
      auto f = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      bits = b;
    } else if (type == ScalarType::F16) {
      bits = float_to_half_bits(static_cast<float>(v));
    } else {
      error = std::string("immediates of type .") + type_name(type) + " are not supported";
      return false;
    }
    return true;
  }
  if (type == ScalarType::Pred) {
    // Any integer constant, nonzero meaning true, as ptxas takes it: nvcc writes
    // `mov.pred %p, -1` for true.
    if (lit.kind != TokKind::Int) {
      error = "predicate immediates must be integers";
      return false;
    }
    bits = lit.bits != 0 ? 1 : 0;
    return true;
  }
  // Integer / bit types.
  if (lit.kind == TokKind::F32Bits || lit.kind == TokKind::F64Bits) {
    uint32_t lit_width = lit.kind == TokKind::F32Bits ? 4 : 8;
    if (lit_width != width || lit.negative) {
      error = std::string("floating-point bit pattern does not match type .") + type_name(type);
      return false;
    }
    bits = lit.bits & mask;
    return true;
  }
  if (lit.kind == TokKind::Float) {
    error = std::string("floating-point literal used with integer type .") + type_name(type);
    return false;
  }
  uint64_t v = lit.negative ? (~lit.bits + 1) : lit.bits;
  // Accept any value representable in the width as signed or unsigned.
  if (width < 8) {
    uint64_t top = v & ~mask;
    bool fits_unsigned = !lit.negative && top == 0;
    bool fits_signed = lit.negative && lit.bits <= (uint64_t{1} << (8 * width - 1));
    if (!fits_unsigned && !fits_signed) {
      error = std::string("integer literal does not fit in .") + type_name(type);
      return false;
    }
  } else if (lit.negative && lit.bits > (uint64_t{1} << 63)) {
    error = "negative integer literal does not fit in 64 bits";
    return false;
  }
  bits = v & mask;
  return true;
}

}  // namespace gputlm::isa::frontend
