#include "mem/l2/sub_partition_map.h"

#include <string>

#include "core/config/config_source.h"

namespace gputlm {

SubPartitionMap::SubPartitionMap(const PartitionMapIF& channels, uint32_t subs, uint64_t select_mask)
    : channels_(channels), subs_(subs), select_mask_(select_mask) {}

uint64_t SubPartitionMap::select_mask(uint64_t bank_mask, uint32_t subs, const std::string& key) {
  if (subs == 0 || (subs & (subs - 1)) != 0)
    throw config::ConfigError("key '" + key + "': must be a power of two (1, 2, 4, ...), got " +
                              std::to_string(subs));
  uint64_t mask = 0;
  for (uint32_t need = subs; need > 1; need >>= 1) {
    const uint64_t rest = bank_mask & ~mask;
    if (rest == 0)
      throw config::ConfigError("key '" + key + "': " + std::to_string(subs) +
                                " sub-partitions need as many DRAM bank bits to select them "
                                "(dram.address_mapping has too few B bits)");
    mask |= rest & (~rest + 1);  // lowest remaining bank bit
  }
  return mask;
}

uint32_t SubPartitionMap::partition_of(uint64_t a) const {
  const uint32_t channel = channels_.partition_of(a);
  if (subs_ == 1) return channel;
  const uint64_t local = channels_.local_address(a);
  uint32_t slice = 0, k = 0;
  for (uint64_t m = select_mask_; m != 0; m &= m - 1, ++k)
    if (local & (m & (~m + 1))) slice |= 1u << k;
  return channel * subs_ + slice;
}

uint64_t SubPartitionMap::local_address(uint64_t a) const {
  uint64_t local = channels_.local_address(a);
  // Remove the select bits, highest first, closing each gap (every L2 access asks, for
  // its set index: visit only the select bits).
  for (uint64_t m = select_mask_; m != 0;) {
    const int b = 63 - __builtin_clzll(m);
    m &= ~(uint64_t{1} << b);
    const uint64_t low = local & ((uint64_t{1} << b) - 1);
    local = ((local >> (b + 1)) << b) | low;
  }
  return local;
}

}  // namespace gputlm
