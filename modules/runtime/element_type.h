// Element types of launch-spec buffers and runtime values (u8..u64, s8..s64, f32, f64),
// and the conversions that every entry point shares: a JSON/host number to an element of
// a given type with range checking, and element encoding into little-endian bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace gputlm::runtime {

enum class ElemType : uint8_t { U8, U16, U32, U64, S8, S16, S32, S64, F32, F64 };

std::size_t elem_bytes(ElemType t);
const char* elem_name(ElemType t);
std::optional<ElemType> parse_elem_type(const std::string& name);
inline bool elem_is_float(ElemType t) { return t == ElemType::F32 || t == ElemType::F64; }
inline bool elem_is_signed(ElemType t) {
  return t == ElemType::S8 || t == ElemType::S16 || t == ElemType::S32 || t == ElemType::S64;
}

// A number as written by a user: an integer (kept exactly, signed or unsigned) or a real.
struct Number {
  enum class Kind : uint8_t { Signed, Unsigned, Real } kind = Kind::Signed;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;

  static Number of_signed(int64_t v) { return Number{Kind::Signed, v, 0, 0}; }
  static Number of_unsigned(uint64_t v) { return Number{Kind::Unsigned, 0, v, 0}; }
  static Number of_real(double v) { return Number{Kind::Real, 0, 0, v}; }
  double as_double() const;
  std::string str() const;
};

// Encodes `n` as one element of type `t` into `dst` (elem_bytes(t) bytes, little-endian).
// Returns an empty string on success, otherwise why the value does not fit (out of range,
// not an integer for an integer type), for the caller to wrap with its location.
std::string encode_number(const Number& n, ElemType t, void* dst);

// Reads element `index` of a raw little-endian array as a double (for comparison
// messages) and as the exact integer bits for integer types.
double element_as_double(const void* data, ElemType t, std::size_t index);
std::string element_str(const void* data, ElemType t, std::size_t index);

}  // namespace gputlm::runtime
