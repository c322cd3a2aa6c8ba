// Where a thread's local memory lives in the global address space (timing only; the
// functional model keeps local memory per thread). GPGPU-Sim's translate_local_memaddr
// with -gpgpu_local_mem_map 1: word k (4 B) of every thread resident anywhere on the GPU
// forms one contiguous block, threads of a CTA adjacent, then the CTA slots of all SMs:
//
//   thread_base = 4 * (padded_threads_per_cta * (sm + num_sms * cta_slot) + thread_in_cta)
//   stride      = 4 * padded_threads_per_cta * max_ctas_per_sm * num_sms
//   address     = base + word * stride + thread_base (+ byte offset within the word)
//
// so consecutive threads' same-offset words are consecutive 4 B words and a warp's
// 32-bit local access coalesces into one 128 B line. Accesses wider than 4 B are split
// into 4 B words (each a separate piece); narrower ones keep their byte offset.
#pragma once

#include <cstdint>

#include "sm/lsu/coalescer.h"

namespace gputlm::sm {

struct LocalMemoryMap {
  uint64_t base = 0;                     // start of the local-memory window (LOCAL_GENERIC_START)
  uint32_t num_sms = 1;
  uint32_t padded_threads_per_cta = 32;  // threads per CTA rounded up to whole warps
  uint32_t max_ctas_per_sm = 1;          // CTA slots per SM for the kernel

  uint64_t stride() const { return 4ull * padded_threads_per_cta * max_ctas_per_sm * num_sms; }
  // Throws std::invalid_argument naming the field when the map is unusable, or when
  // (sm, cta_slot, thread) is outside it.
  void check(uint32_t sm, uint32_t cta_slot, uint32_t thread_in_cta) const;
  // Appends to `out` (capacity at least `max_pieces`) the pieces of one lane's access of
  // `bytes` at local offset `local`; returns the number appended (one per 4 B word
  // touched).
  uint32_t translate(uint32_t sm, uint32_t cta_slot, uint32_t thread_in_cta, uint8_t lane, uint64_t local,
                     uint32_t bytes, LaneAccess* out, uint32_t max_pieces) const;
};

}  // namespace gputlm::sm
