#include "sm/scheduler/laws/laws_state.h"

#include <algorithm>
#include <array>
#include <utility>

#include "core/config/config_source.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

namespace {
constexpr int32_t kScoreMax = 32767, kScoreMin = -32768;  // the 16-bit score saturates (§Z18)
constexpr uint32_t kMaxLimitLabel = 64;

std::vector<std::string> limit_labels() {
  std::vector<std::string> v{"none"};
  for (uint32_t i = 1; i <= kMaxLimitLabel; ++i) v.push_back(std::to_string(i));
  return v;
}
}  // namespace

LawsStats::LawsStats(stats::Group& sm_group, bool throttling)
    : group(sm_group, "laws"),
      cycles(group, "cycles", "SM cycles with resident CTAs (the denominator of the time ratios)"),
      gtlr_cycles(group, "gtlr_cycles",
                  "sum over SM cycles of the locality scores in GTLR mode (score < 0): with scope = sm the cycles in "
                  "GTLR mode (001 Fig. 2.14's GTLR time ratio = this / cycles), with scope = scheduler "
                  "scheduler-cycles"),
      flips(group, "flips", "GTO <-> GTLR switches"),
      accesses(group, "accesses", "L1D demand-load accesses fed to the locality score, by (Hit, LT) class",
               {"miss", "intra", "inter", "intra_m", "inter_m"}),
      thu(throttling ? std::make_unique<Throttle>(group) : nullptr) {}

LawsStats::Throttle::Throttle(stats::Group& g)
    : mshr_full_events(g, "mshr_full_events", "L1D accesses after which every L1D MSHR entry was occupied"),
      decisions(g, "decisions", "throttling decisions (an MSHR-full event in GTO mode after the hold expired)"),
      by_intra(g, "by_intra", "decisions limiting to Hit_CNT + 1 (intra-warp rule, not yet stable)"),
      by_stable(g, "by_stable", "decisions limiting to ceil((Min_CNT + Max_CNT) / 2) (intra-warp rule, stable)"),
      by_divergence(g, "by_divergence", "decisions limiting to Load_CNT (memory-divergence rule; laws_th only)"),
      released(g, "released", "decisions that left no limit (no intra-warp hit, Load_CNT >= divergence_loads)"),
      expired(g, "expired",
              "limits lifted without a decision: hold expired and hold_cycles without an MSHR-full event "
              "(release = hold_expiry only)"),
      divergence_raises(g, "divergence_raises",
                        "divergence limits raised to Hit_CNT + 1 by a later intra-warp hit"),
      throttled_cycles(g, "throttled_cycles", "SM cycles a warp limit applied"),
      divergence_cycles(g, "divergence_cycles",
                        "of throttled_cycles: the limit came from the divergence rule (001 Fig. 3.7's ratio by time)"),
      limit_cycles(g, "limit_cycles", "SM cycles by the warp limit in force (none: no limit; 001 Fig. 3.9)",
                   limit_labels()),
      min_cnt(g, "min_cnt", "Min_CNT over the throttle periods of the intra-warp rule, weighted by their cycles "
                            "(001 Fig. 3.10)"),
      max_cnt(g, "max_cnt", "Max_CNT over the same periods, weighted by their cycles (001 Fig. 3.10)"),
      period_cycles(g, "period_cycles",
                    "length in core cycles of each throttle period (a limit from one decision to the next; 001 Fig. "
                    "3.11)",
                    0, 262144, 16) {}

LawsState::LawsState(const LawsSchedulerConfig& cfg, Throttling throttling, uint32_t warp_slots, uint32_t schedulers,
                     const std::string& key_prefix, stats::Group* sm_group)
    : cfg_(cfg), throttling_(throttling), slots_(warp_slots), schedulers_(schedulers), scope_sm_(cfg.scope == "sm") {
  const std::string p = (key_prefix.empty() ? "" : key_prefix + ".") + "laws.";
  auto fail = [&](const std::string& key, const std::string& what) {
    throw config::ConfigError("key '" + p + key + "': " + what);
  };
  if (cfg.miss_cnt_max == 0 || cfg.miss_cnt_max > 32767) fail("miss_cnt_max", "must be in [1, 32767]");
  if (cfg.initial_score < kScoreMin || cfg.initial_score > kScoreMax)
    fail("initial_score", "must be in [-32768, 32767], the 16-bit score (got " + std::to_string(cfg.initial_score) + ")");
  if (cfg.scope != "sm" && cfg.scope != "scheduler") fail("scope", "unknown scope \"" + cfg.scope + "\" (sm or scheduler)");
  if (cfg.min_limit == 0) fail("min_limit", "must be at least 1 (got 0)");
  if (cfg.divergence_loads == 0) fail("divergence_loads", "must be at least 1 (got 0)");
  if (cfg.hold_cycles == 0) fail("hold_cycles", "must be at least 1 (got 0)");
  if (cfg.stable_periods == 0) fail("stable_periods", "must be at least 1 (got 0)");
  if (cfg.stable_rule != "neither" && cfg.stable_rule != "either")
    fail("stable_rule", "unknown rule \"" + cfg.stable_rule + "\" (neither or either)");
  if (cfg.release != "on_full_event" && cfg.release != "hold_expiry")
    fail("release", "unknown rule \"" + cfg.release + "\" (on_full_event or hold_expiry)");
  release_on_expiry_ = cfg.release == "hold_expiry";
  if (warp_slots == 0 || warp_slots > 64)
    throw config::ConfigError("key 'sm.max_warps': the laws policies support 1..64 warp slots per SM (got " +
                              std::to_string(warp_slots) + ")");
  if (schedulers == 0) throw config::ConfigError("key 'sm.scheduler.count': must be at least 1");
  const std::size_t scopes = scope_sm_ ? 1 : schedulers;
  scores_.assign(scopes, cfg.initial_score);
  miss_cnts_.assign(scopes, 0);
  modes_.assign(scopes, initial_mode());
  if (sm_group) stats_ = std::make_unique<LawsStats>(*sm_group, throttling != Throttling::None);
}

LawsState::~LawsState() = default;

void LawsState::update_score(uint32_t s, mem::LocalityClass c) {
  int32_t& score = scores_[s];
  uint32_t& misses = miss_cnts_[s];
  switch (c) {
    case mem::LocalityClass::Miss:
      score = std::min(score + 1, kScoreMax);
      misses = std::min(misses + 1, cfg_.miss_cnt_max);
      break;
    case mem::LocalityClass::Intra:
    case mem::LocalityClass::IntraMerge:
      score = std::min(score + 1, kScoreMax);
      break;
    case mem::LocalityClass::Inter:
    case mem::LocalityClass::InterMerge:
      score = std::max(score - static_cast<int32_t>(misses + 1), kScoreMin);
      misses = 0;
      break;
    case mem::LocalityClass::None:
      return;
  }
  const Mode m = score < 0 ? Mode::Gtlr : Mode::Gto;
  if (m == modes_[s]) return;
  modes_[s] = m;
  ++version_;
  mask_stale_ = true;  // a limit applies only to warps in GTO mode
  if (stats_) ++stats_->flips;
}

void LawsState::access(const mem::AccessRecord& r, const std::function<uint64_t()>& owners) {
  if (r.locality != mem::LocalityClass::None) {
    update_score(scope_of(r.warp), r.locality);
    if (stats_)
      stats_->accesses.add(static_cast<std::size_t>(r.locality) - static_cast<std::size_t>(mem::LocalityClass::Miss));
    if (throttling_ != Throttling::None && r.warp >= 0 && static_cast<uint32_t>(r.warp) < slots_) {
      const uint64_t bit = uint64_t{1} << r.warp;
      if (r.locality == mem::LocalityClass::Intra) {
        il_vec_ |= bit;
        // Rule 2's raise: while a divergence limit holds, Hit_CNT + 1 above it lifts it.
        if (divergence_ && limit_ > 0 && hit_cnt() + 1 > limit_) {
          set_limit(hit_cnt() + 1, r.cycle, false);  // the same period goes on
          if (stats_) ++stats_->thu->divergence_raises;
        }
      } else if (r.locality == mem::LocalityClass::Miss) {
        il_vec_ &= ~bit;
      }
    }
  }
  if (throttling_ == Throttling::None || !r.mshr_full) return;
  if (stats_) ++stats_->thu->mshr_full_events;
  last_full_ = r.cycle;
  // Rule 5: no throttling decision while the accessing warp's score is in GTLR mode.
  if (r.cycle < hold_until_ || modes_[scope_of(r.warp)] != Mode::Gto) return;
  decide(r.cycle, owners);
}

void LawsState::decide(uint64_t cycle, const std::function<uint64_t()>& owners) {
  if (stats_) ++stats_->thu->decisions;
  const uint32_t hits = hit_cnt();
  uint32_t limit = 0;
  bool divergence = false;
  if (hits > 0) {
    // Rule 1: Min_CNT / Max_CNT take Hit_CNT in; stable after stable_periods decisions
    // without an update (§Z16: neither / either counter).
    if (!seen_) {
      seen_ = true;
      min_cnt_ = max_cnt_ = hits;
      unchanged_min_ = unchanged_max_ = 0;
    } else {
      if (hits > max_cnt_) {
        max_cnt_ = hits;
        unchanged_max_ = 0;
      } else {
        ++unchanged_max_;
      }
      if (hits < min_cnt_) {
        min_cnt_ = hits;
        unchanged_min_ = 0;
      } else {
        ++unchanged_min_;
      }
    }
    const uint32_t n = cfg_.stable_periods;
    const bool stable = cfg_.stable_rule == "neither" ? unchanged_min_ >= n && unchanged_max_ >= n
                                                      : unchanged_min_ >= n || unchanged_max_ >= n;
    if (stable) {
      limit = (min_cnt_ + max_cnt_ + 1) / 2;
      if (stats_) ++stats_->thu->by_stable;
    } else {
      limit = hits + 1;
      if (stats_) ++stats_->thu->by_intra;
    }
  } else if (throttling_ == Throttling::Full) {
    // Rule 2: few warps own the MSHRs (each holds several entries: divergent accesses).
    load_cnt_ = static_cast<uint32_t>(__builtin_popcountll(owners()));
    if (load_cnt_ < cfg_.divergence_loads) {
      limit = load_cnt_;
      divergence = true;
      if (stats_) ++stats_->thu->by_divergence;
    }
  }
  // Every decision holds hold_cycles ([impl]: a released one too, so the THU re-decides at
  // most once per hold, not on every access while the MSHRs stay full).
  hold_until_ = cycle + cfg_.hold_cycles;
  decided_intra_ = hits > 0;
  if (limit == 0) {
    if (stats_) ++stats_->thu->released;
    set_limit(0, cycle, true);
    divergence_ = false;
    return;
  }
  set_limit(std::max(limit, cfg_.min_limit), cycle, true);
  divergence_ = divergence;
}

void LawsState::set_limit(uint32_t limit, uint64_t cycle, bool new_period) {
  if (new_period) {
    if (in_period_ && stats_) {
      const uint64_t len = cycle - period_start_;
      stats_->thu->period_cycles.sample(static_cast<double>(len));
      if (period_intra_ && len > 0) {
        stats_->thu->min_cnt.sample(period_min_, len);
        stats_->thu->max_cnt.sample(period_max_, len);
      }
    }
    in_period_ = limit > 0;
    period_start_ = cycle;
    period_intra_ = limit > 0 && decided_intra_;
    period_min_ = min_cnt_;
    period_max_ = max_cnt_;
  }
  if (limit == limit_) return;
  limit_ = limit;
  mask_stale_ = true;
}

void LawsState::begin_cycle(uint64_t cycle, const WarpTable& table) {
  if (release_pending() && cycle >= std::max(hold_until_, last_full_ + cfg_.hold_cycles)) {
    // release = hold_expiry: the MSHRs stayed below full for a whole hold; the warps the
    // limit admits no longer saturate them, so the limit is lifted (a period ends).
    if (stats_) ++stats_->thu->expired;
    set_limit(0, cycle, true);
    divergence_ = false;
  }
  if (throttling_ != Throttling::None &&
      (mask_stale_ || mask_residency_ != table.residency_version() ||
       (limit_ > 0 && mask_barriers_ != table.barrier_version()))) {
    mask_stale_ = false;
    mask_residency_ = table.residency_version();
    mask_barriers_ = table.barrier_version();
    uint64_t allowed = ~uint64_t{0};
    if (limit_ > 0) {
      // The limit-many oldest live warps in GTO mode may issue; warps whose score is in
      // GTLR mode are never throttled (rule 5), and warps waiting at a barrier neither
      // count nor are held ([impl]: otherwise a limit below a CTA's warps would stop the
      // CTA at its first barrier, waiting for warps the limit holds back).
      std::array<std::pair<uint64_t, uint32_t>, 64> keys;
      std::size_t n = 0;
      for (uint32_t w = 0; w < table.size() && w < 64; ++w)
        if (table.live(w) && table[w].ctx->status != isa::WarpStatus::AtBarrier &&
            modes_[scope_of(static_cast<int32_t>(w))] == Mode::Gto)
          keys[n++] = {table[w].age, w};
      if (n > limit_) {
        std::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n));
        for (std::size_t i = limit_; i < n; ++i) allowed &= ~(uint64_t{1} << keys[i].second);
      }
    }
    if (allowed != allowed_) {
      allowed_ = allowed;
      ++version_;
    }
  }
  if (stats_) count_cycles(1);
}

void LawsState::account_skipped(uint64_t cycles) {
  if (stats_ && cycles > 0) count_cycles(cycles);
}

void LawsState::count_cycles(uint64_t n) {
  stats_->cycles.add(n);
  uint64_t gtlr = 0;
  for (Mode m : modes_) gtlr += m == Mode::Gtlr;
  if (gtlr) stats_->gtlr_cycles.add(gtlr * n);
  if (!stats_->thu) return;
  const bool applies = limit_ > 0 && allowed_ != ~uint64_t{0};
  stats_->thu->limit_cycles.add(applies ? std::min(limit_, kMaxLimitLabel) : 0, n);
  if (!applies) return;
  stats_->thu->throttled_cycles.add(n);
  if (divergence_) stats_->thu->divergence_cycles.add(n);
}

void LawsState::warp_exited(uint32_t slot) {
  if (slot < 64) il_vec_ &= ~(uint64_t{1} << slot);
}

void LawsState::cta_launched(uint32_t kernel_id, bool sm_was_idle) {
  const bool restart = sm_was_idle && kernel_id != last_kernel_;
  last_kernel_ = kernel_id;
  if (!restart) return;
  // "0 at kernel launch": the score, Miss_CNT and the throttling unit start afresh.
  std::fill(scores_.begin(), scores_.end(), cfg_.initial_score);
  std::fill(miss_cnts_.begin(), miss_cnts_.end(), 0);
  std::fill(modes_.begin(), modes_.end(), initial_mode());
  il_vec_ = 0;
  seen_ = false;
  min_cnt_ = max_cnt_ = 0;
  unchanged_min_ = unchanged_max_ = 0;
  divergence_ = false;
  hold_until_ = 0;
  last_full_ = 0;
  in_period_ = false;  // the last kernel's period ended with its CTAs; it is not sampled
  set_limit(0, 0, false);
  mask_stale_ = true;
  ++version_;
}

}  // namespace gputlm::sm
