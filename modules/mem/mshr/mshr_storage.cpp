#include "mem/mshr/mshr_storage.h"

namespace gputlm::mem {

uint32_t index_bits(uint64_t n) {
  uint32_t b = 0;
  while ((uint64_t{1} << b) < n) ++b;
  return b;
}

uint32_t MshrFieldWidths::bits(uint32_t line_size) const {
  // 001 §1.2: "7 (address in a block)" for 128 B blocks.
  return valid + warp_id + register_id + thread_mask + load_format + index_bits(line_size);
}

}  // namespace gputlm::mem
