// Kernel arguments of the runtime API and their packing into a kernel's parameter buffer,
// converted to each declared .param type with range checks (300 for a .u8 parameter, or
// 2.5 for an integer one, is an error naming the argument).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "isa/ir.h"
#include "runtime/element_type.h"

namespace gputlm::runtime {

// A device address returned by Runtime::malloc (or a symbol's address).
struct DevicePtr {
  uint64_t addr = 0;
  DevicePtr operator+(uint64_t bytes) const { return DevicePtr{addr + bytes}; }
};

struct KernelArg {
  enum class Kind : uint8_t { Number, Pointer } kind = Kind::Number;
  Number number;
  uint64_t pointer = 0;

  KernelArg() = default;
  KernelArg(DevicePtr p) : kind(Kind::Pointer), pointer(p.addr) {}  // NOLINT: implicit on purpose
  KernelArg(const Number& n) : number(n) {}                         // NOLINT
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  KernelArg(T v)  // NOLINT
      : number(std::is_signed_v<T> ? Number::of_signed(static_cast<int64_t>(v))
                                   : Number::of_unsigned(static_cast<uint64_t>(v))) {}
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  KernelArg(T v) : number(Number::of_real(static_cast<double>(v))) {}  // NOLINT

  std::string str() const;
};

// Thrown for an argument list that does not fit the kernel; `index` is the argument.
class ArgError : public std::runtime_error {
 public:
  ArgError(std::size_t index, const std::string& message)
      : std::runtime_error(message), index_(index) {}
  std::size_t index() const { return index_; }

 private:
  std::size_t index_;
};

// The element type a launch argument for `p` converts to; throws ArgError for parameters
// a launch cannot fill (arrays/structs passed by value, f16).
ElemType param_elem_type(const isa::Param& p, std::size_t index);

// Packs `args` into kernel.param_bytes bytes at each parameter's offset.
std::vector<uint8_t> pack_kernel_params(const isa::Function& kernel, const std::vector<KernelArg>& args);

}  // namespace gputlm::runtime
