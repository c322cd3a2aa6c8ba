// Device-side memory seen by the functional executor: the global memory (BackingStore +
// DeviceAllocator, owned by whoever owns the device, e.g. the runtime API) and the fixed
// address windows of generic addressing.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/memory/backing_store.h"

namespace gputlm::isa {

// Global memory of one device. Kernel buffers and module .global segments are allocations
// of `allocator`; a global access outside every live allocation is an out-of-bounds error.
struct DeviceMemory {
  BackingStore store;
  DeviceAllocator allocator;
};

// Generic-address windows (cvta / generic ld/st). Global allocations live below 2^40
// (DeviceAllocator's limit), so the windows never overlap them. A generic address in the
// shared window names the executing thread's CTA shared memory at (addr - base); in the
// local window, the executing thread's own local memory; in the const window, bank 0;
// in the param window, the param-space address below (cvta.param).
inline constexpr uint64_t kSharedWindowBase = 0x0000100000000000ull;
inline constexpr uint64_t kLocalWindowBase = 0x0000200000000000ull;
inline constexpr uint64_t kConstWindowBase = 0x0000300000000000ull;
inline constexpr uint64_t kParamWindowBase = 0x0000400000000000ull;  // + param-space address
inline constexpr uint64_t kWindowBytes = 0x0000000100000000ull;  // 4 GiB each

// Param-space addresses (ld.param/st.param through a register, or the address of a .param
// symbol taken with mov) carry the area they belong to in bits 32..33.
inline constexpr uint64_t kParamAreaKernel = 0ull << 32;    // kernel parameter buffer
inline constexpr uint64_t kParamAreaFuncIn = 1ull << 32;    // callee's incoming parameters
inline constexpr uint64_t kParamAreaFuncRet = 2ull << 32;   // callee's return parameters
inline constexpr uint64_t kParamAreaCall = 3ull << 32;      // caller's call-sequence params
inline constexpr uint64_t kParamAreaMask = 3ull << 32;

// Execution errors: out-of-bounds accesses, deadlocks, instruction limits, unsupported
// instructions at load time. The message names kernel, CTA, thread, PC, instruction text
// and address where they apply.
class ExecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gputlm::isa
