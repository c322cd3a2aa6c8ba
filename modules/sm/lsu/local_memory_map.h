// Where a thread's local memory lives in the global address space (timing only; the
// functional model keeps local memory per thread). GPGPU-Sim's translate_local_memaddr
// (its -gpgpu_local_mem_map 0 mapping, which needs no hardware CTA numbering): word k
// (4 B) of every hardware thread of the GPU forms one contiguous block, threads of an SM
// adjacent, SMs one after another:
//
//   thread_base = 4 * (threads_per_sm * sm + hw_thread)     hw_thread = warp slot * 32 + lane
//   stride      = 4 * threads_per_sm * num_sms
//   address     = base + word * stride + thread_base (+ byte offset within the word)
//
// so the lanes of a warp touch consecutive 4 B words and a warp's 32-bit local access
// coalesces into one 128 B line (as with GPGPU-Sim's default mapping 1, whose only
// difference is the order of whole CTAs inside a block). Accesses wider than 4 B are
// split into 4 B words (one piece each); narrower ones keep their byte offset.
#pragma once

#include <cstdint>

#include "sm/lsu/coalescer.h"

namespace gputlm::sm {

struct LocalMemoryMap {
  uint64_t base = 0;            // start of the local-memory window
  uint32_t num_sms = 1;
  uint32_t threads_per_sm = 1536;  // hardware thread slots per SM (max warps x warp size)

  uint64_t stride() const { return 4ull * threads_per_sm * num_sms; }
  // Appends to `out` (room for `max_pieces`) the pieces of one lane's access of `bytes`
  // at local offset `local`; returns how many (one per 4 B word touched). Throws
  // std::invalid_argument naming the cause when (sm, hw_thread) is outside the map or
  // the access needs more than max_pieces words.
  uint32_t translate(uint32_t sm, uint32_t hw_thread, uint8_t lane, uint64_t local, uint32_t bytes, LaneAccess* out,
                     uint32_t max_pieces) const;
};

}  // namespace gputlm::sm
