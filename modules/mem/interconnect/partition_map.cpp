#include "mem/interconnect/partition_map.h"

#include <utility>

#include "core/config/config_source.h"

namespace gputlm {

namespace {

bool is_power_of_two(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
uint32_t log2_exact(uint64_t x) {
  uint32_t n = 0;
  while ((uint64_t{1} << n) < x) ++n;
  return n;
}

// Chunk c goes to partition c mod P; inside the partition it is chunk c / P.
class LinearPartitionMap final : public PartitionMapIF {
 public:
  LinearPartitionMap(uint32_t chunk_bytes, uint32_t partitions)
      : shift_(log2_exact(chunk_bytes)), parts_(partitions) {}
  uint32_t partitions() const override { return parts_; }
  uint32_t partition_of(uint64_t a) const override { return static_cast<uint32_t>((a >> shift_) % parts_); }
  uint64_t local_address(uint64_t a) const override {
    const uint64_t offset = a & ((uint64_t{1} << shift_) - 1);
    return (((a >> shift_) / parts_) << shift_) | offset;
  }

 private:
  uint32_t shift_, parts_;
};

// GPGPU-Sim's "bitwise permutation" partition indexing: the linear partition index
// XOR the low bits of the chunk number above it, which spreads power-of-two strides
// over all partitions. The local address is the linear one (the XOR only permutes
// which partition holds a chunk row, so it stays dense and unique per partition).
class XorPartitionMap final : public PartitionMapIF {
 public:
  XorPartitionMap(uint32_t chunk_bytes, uint32_t partitions)
      : shift_(log2_exact(chunk_bytes)), bits_(log2_exact(partitions)), parts_(partitions) {}
  uint32_t partitions() const override { return parts_; }
  uint32_t partition_of(uint64_t a) const override {
    const uint64_t chunk = a >> shift_;
    const uint64_t linear = chunk & (parts_ - 1);
    const uint64_t higher = chunk >> bits_;
    return static_cast<uint32_t>(linear ^ (higher & (parts_ - 1)));
  }
  uint64_t local_address(uint64_t a) const override {
    const uint64_t offset = a & ((uint64_t{1} << shift_) - 1);
    return ((a >> (shift_ + bits_)) << shift_) | offset;
  }

 private:
  uint32_t shift_, bits_, parts_;
};

struct Entry {
  const char* name;
  PartitionMapFactory make;
};

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      {"linear",
       [](const PartitionMapConfig& c, uint32_t p, const std::string&) -> std::unique_ptr<PartitionMapIF> {
         return std::make_unique<LinearPartitionMap>(c.chunk_bytes, p);
       }},
      {"xor",
       [](const PartitionMapConfig& c, uint32_t p, const std::string& key) -> std::unique_ptr<PartitionMapIF> {
         if (!is_power_of_two(p))
           throw config::ConfigError("key '" + key + ".policy': xor interleaving needs a power-of-two number of "
                                     "partitions, got " + std::to_string(p));
         return std::make_unique<XorPartitionMap>(c.chunk_bytes, p);
       }},
      {"rotate_hash",
       [](const PartitionMapConfig& c, uint32_t p, const std::string&) -> std::unique_ptr<PartitionMapIF> {
         return make_rotate_hash_partition_map(c.chunk_bytes, p);
       }},
  };
  return entries;
}

}  // namespace

std::unique_ptr<PartitionMapIF> make_partition_map(const PartitionMapConfig& cfg, uint32_t partitions,
                                                   const std::string& key) {
  if (partitions == 0) throw config::ConfigError("key '" + key + "': number of partitions must be positive");
  if (!is_power_of_two(cfg.chunk_bytes))
    throw config::ConfigError("key '" + key + ".chunk_bytes': must be a power of two, got " +
                              std::to_string(cfg.chunk_bytes));
  for (const Entry& e : registry())
    if (cfg.policy == e.name) return e.make(cfg, partitions, key);
  std::string known;
  for (const Entry& e : registry()) known += std::string(known.empty() ? "" : ", ") + e.name;
  throw config::ConfigError("key '" + key + ".policy': unknown interleaving \"" + cfg.policy + "\" (known: " +
                            known + ")");
}

std::vector<std::string> partition_map_policies() {
  std::vector<std::string> names;
  for (const Entry& e : registry()) names.emplace_back(e.name);
  return names;
}

}  // namespace gputlm
