// rotate_hash interleaving for any number of partitions P (GTX480 has 6, where the xor
// policy cannot apply): chunk c = address / chunk_bytes lies in group g = c / P at
// position c mod P; its partition is (c mod P + h(g)) mod P, with h an XOR fold of g.
// Within a group the partitions are a permutation, so the local address (group g,
// chunk offset) stays dense and unique per partition, and a stride of P chunks, which
// the linear policy sends to one partition, is spread over all of them.
#include "mem/interconnect/partition_map.h"

namespace gputlm {

namespace {
class RotateHashPartitionMap final : public PartitionMapIF {
 public:
  RotateHashPartitionMap(uint32_t chunk_bytes, uint32_t partitions) : parts_(partitions) {
    while ((uint64_t{1} << shift_) < chunk_bytes) ++shift_;
  }
  uint32_t partitions() const override { return parts_; }
  uint32_t partition_of(uint64_t a) const override {
    const uint64_t chunk = a >> shift_;
    const uint64_t group = chunk / parts_;
    return static_cast<uint32_t>((chunk % parts_ + fold(group)) % parts_);
  }
  uint64_t local_address(uint64_t a) const override {
    const uint64_t offset = a & ((uint64_t{1} << shift_) - 1);
    return (((a >> shift_) / parts_) << shift_) | offset;
  }

 private:
  static uint64_t fold(uint64_t g) {
    uint64_t h = 0;
    for (; g != 0; g >>= 8) h ^= g & 0xff;
    return h;
  }
  uint32_t parts_;
  uint32_t shift_ = 0;
};
}  // namespace

std::unique_ptr<PartitionMapIF> make_rotate_hash_partition_map(uint32_t chunk_bytes, uint32_t partitions) {
  return std::make_unique<RotateHashPartitionMap>(chunk_bytes, partitions);
}

}  // namespace gputlm
