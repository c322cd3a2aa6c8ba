#include "runtime/element_type.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace gputlm::runtime {
namespace {

struct TypeInfo {
  const char* name;
  std::size_t bytes;
};
constexpr TypeInfo kTypes[] = {{"u8", 1},  {"u16", 2}, {"u32", 4}, {"u64", 8}, {"s8", 1},
                               {"s16", 2}, {"s32", 4}, {"s64", 8}, {"f32", 4}, {"f64", 8}};

template <class T>
T read_elem(const void* data, std::size_t index) {
  T v;
  std::memcpy(&v, static_cast<const uint8_t*>(data) + index * sizeof(T), sizeof(T));
  return v;
}

std::string fmt_double(double d) {
  std::ostringstream os;
  os.precision(17);
  os << d;
  return os.str();
}

}  // namespace

std::size_t elem_bytes(ElemType t) { return kTypes[static_cast<int>(t)].bytes; }
const char* elem_name(ElemType t) { return kTypes[static_cast<int>(t)].name; }

std::optional<ElemType> parse_elem_type(const std::string& name) {
  for (int i = 0; i < 10; ++i)
    if (name == kTypes[i].name) return static_cast<ElemType>(i);
  return std::nullopt;
}

double Number::as_double() const {
  switch (kind) {
    case Kind::Signed: return static_cast<double>(i);
    case Kind::Unsigned: return static_cast<double>(u);
    case Kind::Real: return d;
  }
  return d;
}

std::string Number::str() const {
  switch (kind) {
    case Kind::Signed: return std::to_string(i);
    case Kind::Unsigned: return std::to_string(u);
    case Kind::Real: return fmt_double(d);
  }
  return {};
}

std::string encode_number(const Number& n, ElemType t, void* dst) {
  if (elem_is_float(t)) {
    double v = n.as_double();
    if (t == ElemType::F32) {
      if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max())
        return n.str() + " is out of range for f32";
      float f = static_cast<float>(v);
      std::memcpy(dst, &f, 4);
    } else {
      std::memcpy(dst, &v, 8);
    }
    return {};
  }
  // Integer target: the value must be an integer, exactly.
  bool negative = false;
  uint64_t magnitude = 0;  // |value| for negatives, value otherwise
  switch (n.kind) {
    case Number::Kind::Signed:
      negative = n.i < 0;
      magnitude = negative ? 0 - static_cast<uint64_t>(n.i) : static_cast<uint64_t>(n.i);
      break;
    case Number::Kind::Unsigned:
      magnitude = n.u;
      break;
    case Number::Kind::Real:
      if (!std::isfinite(n.d) || std::trunc(n.d) != n.d)
        return n.str() + " is not an integer, but the type is " + std::string(elem_name(t));
      if (std::fabs(n.d) >= 18446744073709551616.0)
        return n.str() + " is out of range for " + std::string(elem_name(t));
      negative = n.d < 0;
      magnitude = static_cast<uint64_t>(std::fabs(n.d));
      break;
  }
  std::size_t bytes = elem_bytes(t);
  unsigned bits = static_cast<unsigned>(bytes * 8);
  bool is_signed = elem_is_signed(t);
  uint64_t max_pos = is_signed ? (uint64_t{1} << (bits - 1)) - 1
                               : (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
  uint64_t max_neg = is_signed ? (uint64_t{1} << (bits - 1)) : 0;  // |most negative|
  if ((negative && magnitude > max_neg) || (!negative && magnitude > max_pos)) {
    std::string range = is_signed ? "[-" + std::to_string(max_neg) + ", " + std::to_string(max_pos) + "]"
                                  : "[0, " + std::to_string(max_pos) + "]";
    return n.str() + " is out of range for " + std::string(elem_name(t)) + " " + range;
  }
  uint64_t raw = negative ? 0 - magnitude : magnitude;  // two's complement
  for (std::size_t b = 0; b < bytes; ++b) static_cast<uint8_t*>(dst)[b] = static_cast<uint8_t>(raw >> (8 * b));
  return {};
}

double element_as_double(const void* data, ElemType t, std::size_t index) {
  switch (t) {
    case ElemType::U8: return read_elem<uint8_t>(data, index);
    case ElemType::U16: return read_elem<uint16_t>(data, index);
    case ElemType::U32: return read_elem<uint32_t>(data, index);
    case ElemType::U64: return static_cast<double>(read_elem<uint64_t>(data, index));
    case ElemType::S8: return read_elem<int8_t>(data, index);
    case ElemType::S16: return read_elem<int16_t>(data, index);
    case ElemType::S32: return read_elem<int32_t>(data, index);
    case ElemType::S64: return static_cast<double>(read_elem<int64_t>(data, index));
    case ElemType::F32: return read_elem<float>(data, index);
    case ElemType::F64: return read_elem<double>(data, index);
  }
  return 0;
}

std::string element_str(const void* data, ElemType t, std::size_t index) {
  switch (t) {
    case ElemType::U64: return std::to_string(read_elem<uint64_t>(data, index));
    case ElemType::S64: return std::to_string(read_elem<int64_t>(data, index));
    case ElemType::F32: {
      std::ostringstream os;
      os.precision(9);
      os << read_elem<float>(data, index);
      return os.str();
    }
    case ElemType::F64: return fmt_double(read_elem<double>(data, index));
    default: return std::to_string(static_cast<int64_t>(element_as_double(data, t, index)));
  }
}

}  // namespace gputlm::runtime
