// Address -> L2 sub-partition (GPGPU-Sim's -gpgpu_n_sub_partition_per_mchannel): each
// memory channel's L2 is split into `subs` slices, each with its own ROP stage, bank and
// crossbar port, sharing the channel's DRAM. As GPGPU-Sim's addrdec.cc (addrdec_tlx), a
// slice is chosen by the lowest log2(subs) DRAM bank bits of the channel-local address:
// slice = channel * subs + those bits. The slice-local address (channel bits and the
// slice-select bits removed, GPGPU-Sim's partition_address()) is what the L2 bank indexes
// its sets by, so every set of every slice is used ("to reduce set camping", l2cache).
#pragma once

#include <cstdint>

#include "mem/interconnect/partition_map.h"

namespace gputlm {

class SubPartitionMap final : public PartitionMapIF {
 public:
  // `channels` maps addresses to channels (must outlive this map); `select_mask` is the
  // set of channel-local address bits that pick the slice (popcount = log2(subs)).
  SubPartitionMap(const PartitionMapIF& channels, uint32_t subs, uint64_t select_mask);

  // The lowest log2(subs) bits of `bank_mask` (GPGPU-Sim's sub_partition_id_mask).
  // Throws config::ConfigError naming `key` when subs is not a power of two or the bank
  // mask has too few bits.
  static uint64_t select_mask(uint64_t bank_mask, uint32_t subs, const std::string& key);

  uint32_t partitions() const override { return channels_.partitions() * subs_; }
  uint32_t partition_of(uint64_t address) const override;
  uint64_t local_address(uint64_t address) const override;
  uint32_t channel_of_partition(uint32_t p) const { return p / subs_; }

 private:
  const PartitionMapIF& channels_;
  uint32_t subs_;
  uint64_t select_mask_;
};

}  // namespace gputlm
