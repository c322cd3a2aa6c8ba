#include "runtime/kernel_args.h"

#include <sstream>

namespace gputlm::runtime {

std::string KernelArg::str() const {
  if (kind == Kind::Number) return number.str();
  std::ostringstream os;
  os << "device address 0x" << std::hex << pointer;
  return os.str();
}

ElemType param_elem_type(const isa::Param& p, std::size_t index) {
  using isa::ScalarType;
  std::string what = "parameter " + std::to_string(index) + " ('" + p.name + "', ." +
                     isa::type_name(p.type);
  if (p.array_count > 0)
    throw ArgError(index, what + "[" + std::to_string(p.array_count) +
                              "]): arrays/structs passed by value cannot be given by a launch argument");
  switch (p.type) {
    case ScalarType::U8: case ScalarType::B8: return ElemType::U8;
    case ScalarType::U16: case ScalarType::B16: return ElemType::U16;
    case ScalarType::U32: case ScalarType::B32: return ElemType::U32;
    case ScalarType::U64: case ScalarType::B64: return ElemType::U64;
    case ScalarType::S8: return ElemType::S8;
    case ScalarType::S16: return ElemType::S16;
    case ScalarType::S32: return ElemType::S32;
    case ScalarType::S64: return ElemType::S64;
    case ScalarType::F32: return ElemType::F32;
    case ScalarType::F64: return ElemType::F64;
    default:
      throw ArgError(index, what + "): parameter type not supported by launch arguments");
  }
}

std::vector<uint8_t> pack_kernel_params(const isa::Function& kernel, const std::vector<KernelArg>& args) {
  if (args.size() != kernel.params.size())
    throw ArgError(args.size() < kernel.params.size() ? args.size() : kernel.params.size(),
                   "kernel '" + kernel.name + "' takes " + std::to_string(kernel.params.size()) +
                       " parameters, but " + std::to_string(args.size()) + " arguments were given");
  std::vector<uint8_t> buf(kernel.param_bytes, 0);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const isa::Param& p = kernel.params[i];
    ElemType t = param_elem_type(p, i);
    std::string where = "argument " + std::to_string(i) + " (parameter '" + p.name + "', ." +
                        isa::type_name(p.type) + ")";
    if (p.offset + elem_bytes(t) > buf.size())
      throw ArgError(i, where + ": parameter lies outside the parameter buffer");
    uint8_t* dst = buf.data() + p.offset;
    const KernelArg& a = args[i];
    if (a.kind == KernelArg::Kind::Pointer) {
      if (elem_bytes(t) != 8 || elem_is_float(t))
        throw ArgError(i, where + ": a device address needs a 64-bit integer parameter");
      for (int b = 0; b < 8; ++b) dst[b] = static_cast<uint8_t>(a.pointer >> (8 * b));
      continue;
    }
    // nvcc declares signed C++ integers as .u8/.u16/.u32/.u64 parameters, so unsigned
    // and bit-typed parameters accept negative values as two's complement: the range of
    // an n-bit parameter is [-2^(n-1), 2^n - 1].
    ElemType enc = t;
    bool unsigned_or_bits = !elem_is_float(t) && !elem_is_signed(t);
    if (unsigned_or_bits && ((a.number.kind == Number::Kind::Signed && a.number.i < 0) ||
                 (a.number.kind == Number::Kind::Real && a.number.d < 0)))
      enc = static_cast<ElemType>(static_cast<int>(t) + 4);  // U8..U64 -> S8..S64
    std::string err = encode_number(a.number, enc, dst);
    if (!err.empty()) throw ArgError(i, where + ": " + err);
  }
  return buf;
}

}  // namespace gputlm::runtime
