// Address-to-partition interleaving: which memory partition (L2 slice + DRAM channel)
// owns an address, and the address as seen inside that partition (channel bits
// removed), for the DRAM's bank/row/column mapping. Policies are small classes behind
// PartitionMapIF, created by name through make_partition_map(); adding one is a new
// file plus one line in partition_map.cpp's registry.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/config/params.h"

namespace gputlm {

struct PartitionMapConfig {
  // GPGPU-Sim's GTX480 "dramid@8" places the channel bits at bit 8: 256 B chunks.
  std::string policy = "linear";
  uint32_t chunk_bytes = 256;

  template <class V>
  void visit(V& v) {
    v.param("policy", policy,
            "address-to-partition interleaving: linear (chunk i goes to partition i mod P) or "
            "xor (GPGPU-Sim's bitwise permutation: the chunk's partition bits XOR the next higher "
            "bits; P must be a power of two) or rotate_hash (any P: each group of P consecutive "
            "chunks is rotated by a hash of the group number, so strides of P chunks spread too)",
            config::one_of({"linear", "xor", "rotate_hash"}));
    v.param("chunk_bytes", chunk_bytes, "bytes of consecutive addresses mapped to one partition",
            config::power_of_two(1));
  }
};

class PartitionMapIF {
 public:
  virtual ~PartitionMapIF() = default;
  virtual uint32_t partitions() const = 0;
  virtual uint32_t partition_of(uint64_t address) const = 0;
  // The address with the partition-select bits removed (dense within one partition).
  virtual uint64_t local_address(uint64_t address) const = 0;
};

// The identity map of a single partition (a DRAM channel used alone).
class SinglePartitionMap final : public PartitionMapIF {
 public:
  uint32_t partitions() const override { return 1; }
  uint32_t partition_of(uint64_t) const override { return 0; }
  uint64_t local_address(uint64_t a) const override { return a; }
};

// Throws config::ConfigError naming `key` when the policy cannot serve `partitions`.
std::unique_ptr<PartitionMapIF> make_partition_map(const PartitionMapConfig& cfg, uint32_t partitions,
                                                   const std::string& key = "interleave");

// Policies defined in their own files (registered in partition_map.cpp).
std::unique_ptr<PartitionMapIF> make_rotate_hash_partition_map(uint32_t chunk_bytes, uint32_t partitions);

using PartitionMapFactory =
    std::function<std::unique_ptr<PartitionMapIF>(const PartitionMapConfig&, uint32_t, const std::string&)>;
std::vector<std::string> partition_map_policies();

}  // namespace gputlm
