#include "sm/scheduler/ccws/ccws_state.h"

#include <algorithm>
#include <array>
#include <utility>

#include "core/config/config_source.h"

namespace gputlm::sm {

CcwsStats::CcwsStats(stats::Group& sm_group)
    : group(sm_group, "ccws"),
      evictions_recorded(group, "evictions_recorded",
                         "valid L1D lines replaced whose tag entered the allocating warp's victim tag array"),
      vta_probes(group, "vta_probes", "L1D demand-load misses (primary or secondary) that probed the warp's VTA"),
      vta_hits(group, "vta_hits", "VTA probes that hit: lost intra-warp locality (each raises the warp's LLS)"),
      limited_cycles(group, "limited_cycles",
                     "SM cycles in which at least one resident warp was above the LLS cutoff (throttled)"),
      throttled_warp_cycles(group, "throttled_warp_cycles",
                            "sum over SM cycles of the resident warps above the LLS cutoff"),
      throttled_load_blocks(group, "throttled_load_blocks",
                            "scheduler evaluations in which a warp's next instruction, a load otherwise ready to "
                            "issue, was held back by the cutoff (throttle = loads)") {}

CcwsState::CcwsState(const CcwsSchedulerConfig& cfg, uint32_t warp_slots, const std::string& key_prefix,
                     stats::Group* sm_group)
    : cfg_(cfg), slots_(warp_slots), sets_(1), lru_(cfg.vta_replacement == "lru"), cutoff_(0) {
  const std::string p = (key_prefix.empty() ? "" : key_prefix + ".") + "ccws.";
  auto fail = [&](const std::string& key, const std::string& what) {
    throw config::ConfigError("key '" + p + key + "': " + what);
  };
  if (cfg.vta_entries == 0) fail("vta_entries", "must be at least 1 (got 0)");
  if (cfg.vta_ways == 0 || cfg.vta_entries % cfg.vta_ways != 0)
    fail("vta_ways", std::to_string(cfg.vta_ways) + " ways do not divide vta_entries = " +
                         std::to_string(cfg.vta_entries));
  if (cfg.vta_replacement != "fifo" && cfg.vta_replacement != "lru")
    fail("vta_replacement", "unknown replacement \"" + cfg.vta_replacement + "\" (fifo or lru)");
  if (cfg.base_score == 0) fail("base_score", "must be at least 1 (got 0)");
  if (cfg.decay_per_cycle == 0)
    fail("decay_per_cycle", "must be at least 1 (got 0): without decay a throttled warp could wait forever");
  if (cfg.throttle != "loads" && cfg.throttle != "warps")
    fail("throttle", "unknown throttle \"" + cfg.throttle + "\" (loads or warps)");
  if (warp_slots == 0 || warp_slots > 64)
    throw config::ConfigError("key 'sm.max_warps': the ccws policy supports 1..64 warp slots per SM (got " +
                              std::to_string(warp_slots) + ")");
  sets_ = cfg.vta_entries / cfg.vta_ways;
  vta_.resize(static_cast<std::size_t>(slots_) * cfg.vta_entries);
  score_.assign(slots_, cfg.base_score);
  hits_.assign(slots_, 0);
  issued_.assign(slots_, 0);
  if (sm_group) stats_ = std::make_unique<CcwsStats>(*sm_group);
}

CcwsState::Tag* CcwsState::find(uint32_t slot, uint64_t block) {
  Tag* set = &vta_[static_cast<std::size_t>(slot) * cfg_.vta_entries + (block % sets_) * cfg_.vta_ways];
  for (uint32_t w = 0; w < cfg_.vta_ways; ++w)
    if (set[w].valid && set[w].block == block) return &set[w];
  return nullptr;
}

bool CcwsState::vta_holds(uint32_t slot, uint64_t block) const {
  return const_cast<CcwsState*>(this)->find(slot, block) != nullptr;
}

void CcwsState::evicted(int32_t wid, uint64_t block) {
  if (wid < 0 || static_cast<uint32_t>(wid) >= slots_) return;  // not a warp's line (e.g. a prefetch)
  const uint32_t slot = static_cast<uint32_t>(wid);
  if (stats_) ++stats_->evictions_recorded;
  if (Tag* t = find(slot, block)) {  // already there: refreshed
    t->stamp = ++stamp_;
    return;
  }
  Tag* set = &vta_[static_cast<std::size_t>(slot) * cfg_.vta_entries + (block % sets_) * cfg_.vta_ways];
  Tag* victim = &set[0];
  for (uint32_t w = 0; w < cfg_.vta_ways; ++w) {
    if (!set[w].valid) {
      victim = &set[w];
      break;
    }
    if (set[w].stamp < victim->stamp) victim = &set[w];
  }
  victim->valid = true;
  victim->block = block;
  victim->stamp = ++stamp_;
}

uint64_t CcwsState::llds() const {
  if (issued_total_ == 0) return 0;
  return hits_total_ * cfg_.k_throttle * cutoff_ / issued_total_;
}

bool CcwsState::probe(int32_t wid, uint64_t block) {
  if (wid < 0 || static_cast<uint32_t>(wid) >= slots_) return false;
  const uint32_t slot = static_cast<uint32_t>(wid);
  if (stats_) ++stats_->vta_probes;
  Tag* t = find(slot, block);
  if (t == nullptr) return false;
  if (lru_) t->stamp = ++stamp_;
  if (stats_) ++stats_->vta_hits;
  ++hits_[slot];
  ++hits_total_;
  uint64_t s = score_[slot] + cfg_.score_on_hit + llds();
  if (cfg_.score_cap_k > 0) {
    const uint64_t cap = issued_total_ == 0 ? 0 : hits_total_ * cfg_.score_cap_k * cutoff_ / issued_total_;
    s = std::min(s, std::max<uint64_t>(cap, cfg_.base_score));
  }
  score_[slot] = s;
  return true;
}

void CcwsState::issued(uint32_t slot) {
  if (slot >= slots_) return;
  ++issued_[slot];
  ++issued_total_;
}

uint64_t CcwsState::cutoff_for(uint32_t active_warps) const {
  return uint64_t{active_warps} * (cfg_.cutoff_per_warp == 0 ? cfg_.base_score : cfg_.cutoff_per_warp);
}

void CcwsState::advance(uint64_t cycle, uint64_t active) {
  const uint64_t elapsed = started_ && cycle > last_cycle_ ? cycle - last_cycle_ : 0;
  started_ = true;
  last_cycle_ = cycle;
  if (elapsed > 0) {
    // Saturating: elapsed x decay may exceed any score.
    const uint64_t d = elapsed > (~uint64_t{0}) / cfg_.decay_per_cycle ? ~uint64_t{0} : elapsed * cfg_.decay_per_cycle;
    for (uint64_t& s : score_)
      if (s > cfg_.base_score) s = s - cfg_.base_score > d ? s - d : cfg_.base_score;
  }
  // Stack the active warps, highest score first (ties: lower slot first).
  std::array<std::pair<uint64_t, uint32_t>, 64> stack;
  std::size_t n = 0;
  for (uint32_t w = 0; w < slots_; ++w) {
    if (((active >> w) & 1u) == 0) continue;
    const std::pair<uint64_t, uint32_t> k{score_[w], w};
    std::size_t i = n++;
    while (i > 0 && (k.first > stack[i - 1].first || (k.first == stack[i - 1].first && k.second < stack[i - 1].second))) {
      stack[i] = stack[i - 1];
      --i;
    }
    stack[i] = k;
  }
  cutoff_ = cutoff_for(static_cast<uint32_t>(n));
  uint64_t below = 0, allowed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (below >= cutoff_) break;
    allowed |= uint64_t{1} << stack[i].second;
    below += stack[i].first;
  }
  active_ = active;
  allowed_ = allowed | ~active;  // warps not active are not this test's business
  if (stats_ && limited()) {
    ++stats_->limited_cycles;
    stats_->throttled_warp_cycles.add(static_cast<uint64_t>(__builtin_popcountll(active_ & ~allowed_)));
  }
}

void CcwsState::warp_removed(uint32_t slot) {
  if (slot >= slots_) return;
  for (uint32_t e = 0; e < cfg_.vta_entries; ++e) vta_[static_cast<std::size_t>(slot) * cfg_.vta_entries + e] = Tag{};
  score_[slot] = cfg_.base_score;
  hits_total_ -= hits_[slot];
  issued_total_ -= issued_[slot];
  hits_[slot] = 0;
  issued_[slot] = 0;
}

}  // namespace gputlm::sm
