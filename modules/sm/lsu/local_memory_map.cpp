// GPGPU-Sim's local-memory interleaving; see local_memory_map.h.
#include "sm/lsu/local_memory_map.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputlm::sm {

uint32_t LocalMemoryMap::translate(uint32_t sm, uint32_t hw_thread, uint8_t lane, uint64_t local, uint32_t bytes,
                                   LaneAccess* out, uint32_t max_pieces) const {
  if (sm >= num_sms || hw_thread >= threads_per_sm)
    throw std::invalid_argument("local memory map: SM " + std::to_string(sm) + " thread slot " +
                                std::to_string(hw_thread) + " outside the map (" + std::to_string(num_sms) +
                                " SMs x " + std::to_string(threads_per_sm) + " threads)");
  const uint64_t thread_base = 4ull * (static_cast<uint64_t>(threads_per_sm) * sm + hw_thread);
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
