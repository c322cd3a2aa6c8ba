// Shared-memory bank conflicts (GPGPU-Sim 3.x, -gpgpu_shmem_num_banks 32,
// -gpgpu_shmem_limited_broadcast 0): a word is bank_width bytes, word w lives in bank
// w mod banks; lanes reading the same word are served together (broadcast); a warp part
// needs as many bank cycles as the largest number of distinct words any one bank must
// deliver, and the warp parts go one after another. Unlike GPGPU-Sim (which looks at a
// lane's first word only) every word a lane touches counts, so a fully coalesced 64-bit
// access costs 2 cycles, as on Fermi hardware.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/params.h"
#include "sm/lsu/coalescer.h"

namespace gputlm::sm {

struct SharedMemoryConfig {
  uint32_t banks = 32;
  uint32_t bank_width = 4;
  uint32_t warp_parts = 1;
  uint32_t latency = 26;

  template <class V>
  void visit(V& v) {
    v.param("banks", banks, "shared-memory banks (-gpgpu_shmem_num_banks)", config::power_of_two(1));
    v.param("bank_width", bank_width, "bytes per bank word (sm_2x: 4)", config::power_of_two(1));
    v.param("warp_parts", warp_parts,
            "bank conflicts are resolved per warp part, the parts one after another (-gpgpu_shmem_warp_parts)",
            config::power_of_two(1));
    v.param("latency", latency,
            "cycles from the last bank cycle of an access to its result (-gpgpu_smem_latency of SM2_GTX480)",
            config::at_least(1));
  }
  void validate(const std::string& key_prefix) const;
};

class SharedMemoryBanks {
 public:
  explicit SharedMemoryBanks(const SharedMemoryConfig& cfg, const std::string& key_prefix = "shared_memory");

  // Bank cycles needed by one warp access (>= 1 when any lane accesses; 0 for none).
  uint32_t cycles(const LaneAccess* pieces, std::size_t n, uint32_t warp_size) const;
  uint32_t bank_of(uint64_t address) const {
    return static_cast<uint32_t>((address / cfg_.bank_width) % cfg_.banks);
  }
  const SharedMemoryConfig& config() const { return cfg_; }

 private:
  SharedMemoryConfig cfg_;
  mutable std::vector<uint64_t> words_;          // scratch: words of one warp part
  mutable std::vector<uint32_t> per_bank_;       // scratch: distinct words per bank
};

}  // namespace gputlm::sm
