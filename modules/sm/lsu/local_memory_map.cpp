// GPGPU-Sim's local-memory interleaving; see local_memory_map.h.
#include "sm/lsu/local_memory_map.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputlm::sm {

void LocalMemoryMap::check(uint32_t sm, uint32_t cta_slot, uint32_t thread_in_cta) const {
  if (num_sms == 0 || padded_threads_per_cta == 0 || max_ctas_per_sm == 0)
    throw std::invalid_argument("local memory map: num_sms, padded_threads_per_cta and max_ctas_per_sm must be "
                                "positive (got " + std::to_string(num_sms) + ", " +
                                std::to_string(padded_threads_per_cta) + ", " + std::to_string(max_ctas_per_sm) + ")");
  if (sm >= num_sms || cta_slot >= max_ctas_per_sm || thread_in_cta >= padded_threads_per_cta)
    throw std::invalid_argument("local memory map: sm " + std::to_string(sm) + " / CTA slot " +
                                std::to_string(cta_slot) + " / thread " + std::to_string(thread_in_cta) +
                                " outside the map (" + std::to_string(num_sms) + " SMs, " +
                                std::to_string(max_ctas_per_sm) + " slots, " +
                                std::to_string(padded_threads_per_cta) + " threads per CTA)");
}

uint32_t LocalMemoryMap::translate(uint32_t sm, uint32_t cta_slot, uint32_t thread_in_cta, uint8_t lane,
                                   uint64_t local, uint32_t bytes, LaneAccess* out, uint32_t max_pieces) const {
  check(sm, cta_slot, thread_in_cta);
  const uint64_t thread_base =
      4ull * (static_cast<uint64_t>(padded_threads_per_cta) * (sm + static_cast<uint64_t>(num_sms) * cta_slot) +
              thread_in_cta);
  const uint64_t s = stride();
  uint32_t count = 0;
  uint64_t addr = local;
  uint64_t left = bytes;
  while (left > 0) {
    if (count == max_pieces)
      throw std::invalid_argument("local memory map: access of " + std::to_string(bytes) + " bytes at local offset " +
                                  std::to_string(local) + " needs more than " + std::to_string(max_pieces) +
                                  " words");
    const uint64_t word = addr / 4;
    const uint32_t off = static_cast<uint32_t>(addr % 4);
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(left, 4 - off));
    out[count++] = LaneAccess{base + word * s + thread_base + off, len, lane};
    addr += len;
    left -= len;
  }
  return count;
}

}  // namespace gputlm::sm
