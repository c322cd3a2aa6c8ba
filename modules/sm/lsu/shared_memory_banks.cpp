// Bank-conflict degree of a warp's shared-memory access; see shared_memory_banks.h.
#include "sm/lsu/shared_memory_banks.h"

#include <algorithm>

#include "core/config/config_source.h"

namespace gputlm::sm {

void SharedMemoryConfig::validate(const std::string& key_prefix) const {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  auto pow2 = [](uint32_t v) { return v != 0 && (v & (v - 1)) == 0; };
  if (!pow2(banks)) throw config::ConfigError("key '" + p + "banks': must be a power of two, got " + std::to_string(banks));
  if (!pow2(bank_width))
    throw config::ConfigError("key '" + p + "bank_width': must be a power of two, got " + std::to_string(bank_width));
  if (!pow2(warp_parts) || warp_parts > 32)
    throw config::ConfigError("key '" + p + "warp_parts': must be a power of two <= 32, got " +
                              std::to_string(warp_parts));
  if (latency == 0) throw config::ConfigError("key '" + p + "latency': must be at least 1");
}

SharedMemoryBanks::SharedMemoryBanks(const SharedMemoryConfig& cfg, const std::string& key_prefix) : cfg_(cfg) {
  cfg_.validate(key_prefix);
  words_.reserve(32 * 8);
  per_bank_.assign(cfg_.banks, 0);
}

uint32_t SharedMemoryBanks::cycles(const LaneAccess* pieces, std::size_t n, uint32_t warp_size) const {
  const uint32_t part_lanes = std::max<uint32_t>(1, warp_size / cfg_.warp_parts);
  uint32_t total = 0;
  for (uint32_t part = 0; part < cfg_.warp_parts; ++part) {
    words_.clear();
    const uint32_t lo = part * part_lanes, hi = lo + part_lanes;
    for (std::size_t i = 0; i < n; ++i) {
      const LaneAccess& a = pieces[i];
      if (a.lane < lo || a.lane >= hi || a.bytes == 0) continue;
      for (uint64_t w = a.address / cfg_.bank_width; w <= (a.address + a.bytes - 1) / cfg_.bank_width; ++w)
        words_.push_back(w);
    }
    if (words_.empty()) continue;
    std::sort(words_.begin(), words_.end());
    words_.erase(std::unique(words_.begin(), words_.end()), words_.end());  // broadcast: same word once
    std::fill(per_bank_.begin(), per_bank_.end(), 0u);
    uint32_t worst = 0;
    for (uint64_t w : words_) worst = std::max(worst, ++per_bank_[static_cast<uint32_t>(w % cfg_.banks)]);
    total += worst;
  }
  return total;
}

}  // namespace gputlm::sm
