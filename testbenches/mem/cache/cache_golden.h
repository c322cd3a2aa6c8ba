// Golden cache model: predicts the outcome (and cause, LAWS class) of every access the
// cache evaluates, and the final tag contents, from the configuration alone. It is
// driven by the same ordered event stream the cache produces: access evaluations (the
// cache's access hook), fills (fill hook) and requests leaving the miss queue (the
// memory responder), so miss-queue occupancy is modelled exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../mshr/mshr_golden.h"
#include "mem/cache/cache.h"

namespace gputlm::mem::tb {

struct Prediction {
  AccessOutcome outcome = AccessOutcome::Hit;
  ReservationFail cause = ReservationFail::None;
  LocalityClass locality = LocalityClass::None;
};

class GoldenCache {
 public:
  struct Line {
    uint64_t block = 0;
    LineState state = LineState::Invalid;
    bool dirty = false, hit = false;
    int32_t wid = -1;
    uint64_t stamp = 0;
    uint32_t valid = 0, pending = 0;  // sector masks
    uint32_t dirty_sectors = 0, partial = 0;
    std::vector<bool> written;  // lazy: bytes written since allocation
  };

  explicit GoldenCache(const CacheConfig& cfg)
      : cfg_(cfg), mshr_(cfg.mshr), lines_(static_cast<std::size_t>(cfg.sets) * cfg.ways) {}

  uint32_t set_of(uint64_t block) const {
    if (cfg_.set_index == "linear") return static_cast<uint32_t>(block % cfg_.sets);
    if (cfg_.set_index == "xor") {
      uint32_t bits = 0;
      while ((1u << bits) < cfg_.sets) ++bits;
      uint64_t x = 0;
      for (uint64_t b = block; bits && b; b >>= bits) x ^= b & (cfg_.sets - 1);
      return static_cast<uint32_t>(x);
    }
    // fermi_hash (Nugteren): block bits 0..4 XOR address bits 13,14,15,17,19 (+ bit 12 for 64 sets)
    const uint64_t a = block * cfg_.line_size;
    uint64_t s = (block & 31) ^ (((a >> 13) & 7) | (((a >> 17) & 1) << 3) | (((a >> 19) & 1) << 4));
    if (cfg_.sets == 64) s |= ((a >> 12) & 1) << 5;
    return static_cast<uint32_t>(s);
  }

  uint32_t unit() const { return cfg_.line_size / cfg_.sectors; }
  uint32_t all() const { return cfg_.sectors >= 32 ? ~0u : (1u << cfg_.sectors) - 1; }
  uint32_t bit(uint64_t address) const { return 1u << static_cast<uint32_t>((address % cfg_.line_size) / unit()); }

  // A store of `bytes` contiguous bytes from `address` (no byte mask), or a load / atomic.
  Prediction access(AccessKind kind, uint64_t address, uint32_t bytes, int32_t warp, int32_t owner, uint64_t cycle) {
    // Slots freed by requests sent in this cycle count from the next one.
    const uint32_t mq_used = mq_used_ + (freed_cycle_ == cycle ? freed_ : 0);
    const uint64_t block = address / cfg_.line_size;
    const uint64_t unit_block = address / unit();
    const uint32_t sector = bit(address);
    const uint32_t set = set_of(block);
    const bool write = kind == AccessKind::Store || kind == AccessKind::Atomic;
    const bool nack = owner >= 0 && warp != owner && cfg_.fail_mode == "reject";
    const bool load = kind == AccessKind::Load;
    const int32_t way = find(set, block);
    Prediction p;
    if (write && cfg_.write_policy == "write_evict") {
      if (nack) return outcome(p, AccessOutcome::Nack);
      if (mq_used >= cfg_.miss_queue) return fail(p, ReservationFail::MissQueueFull);
      if (way < 0) p.outcome = AccessOutcome::MissNoAllocate;
      else if (line(set, way).state == LineState::Valid) {
        line(set, way) = Line{};
        p.outcome = AccessOutcome::Hit;
      } else {
        p.outcome = AccessOutcome::HitReserved;
      }
      ++mq_used_;
      return p;
    }
    const bool lazy = cfg_.write_policy == "write_back" && cfg_.write_allocate == "lazy_fetch_on_read";
    if (lazy && kind == AccessKind::Store && !nack) return lazy_store(set, way, block, sector, address, bytes, warp, mq_used);
    if (way >= 0 && (line(set, way).valid & sector)) {
      Line& l = line(set, way);
      l.hit = true;
      if (cfg_.replacement == "lru") l.stamp = ++clock_;
      if (write) {
        l.dirty = true;
        l.dirty_sectors |= sector;
      }
      if (load) p.locality = l.wid == warp ? LocalityClass::Intra : LocalityClass::Inter;
      return outcome(p, AccessOutcome::Hit);
    }
    if (nack) return outcome(p, AccessOutcome::Nack);
    MissQuery q;
    q.block = unit_block;
    q.set = set;
    q.ways = cfg_.ways;
    q.allocate_on_miss = cfg_.allocation == "on_miss";
    for (uint32_t w = 0; w < cfg_.ways; ++w) q.set_reserved += line(set, w).state == LineState::Reserved ? 1 : 0;
    const bool sector_miss = way >= 0 && !(line(set, way).pending & sector);
    if (way >= 0 && !sector_miss) {
      q.matched_way = way;
      q.matched_index = 0;  // the golden MSHR finds entries by block
    } else if (sector_miss) {
      q.victim_way = way;  // the present line takes the sector
      q.victim_hit = line(set, way).hit;
    } else {
      q.victim_way = victim(set);
      if (q.victim_way >= 0) q.victim_hit = line(set, q.victim_way).hit;
    }
    const GoldenDecision d = mshr_.decide(q);
    if (d.action == MshrAction::Fail) return fail(p, d.cause);
    if (d.action == MshrAction::Merge) {
      const int32_t first = mshr_.entries().at(unit_block).warps.front();
      mshr_.apply(d, unit_block, warp, write);
      if (load) p.locality = first == warp ? LocalityClass::IntraMerge : LocalityClass::InterMerge;
      return outcome(p, q.matched_way >= 0 ? AccessOutcome::HitReserved : AccessOutcome::SecondaryMiss);
    }
    const bool victim_dirty = d.reserve_line && !sector_miss && line(set, q.victim_way).state == LineState::Valid &&
                              line(set, q.victim_way).dirty;
    if (cfg_.miss_queue - mq_used < (victim_dirty ? 2u : 1u)) return fail(p, ReservationFail::MissQueueFull);
    if (d.reserve_line && sector_miss) {
      line(set, way).state = LineState::Reserved;
      line(set, way).pending |= sector;
      line(set, way).partial &= ~sector;
    } else if (d.reserve_line) {
      if (victim_dirty) ++mq_used_;
      line(set, q.victim_way) = fresh(block, LineState::Reserved, warp, 0, sector);
    }
    mshr_.apply(d, unit_block, warp, write);
    ++mq_used_;
    if (load) p.locality = LocalityClass::Miss;
    return outcome(p, AccessOutcome::PrimaryMiss);
  }

  // unit_block: the fetched line, or sector of a sectored cache.
  void fill(uint64_t unit_block) {
    const uint64_t address = unit_block * unit();
    const uint64_t block = address / cfg_.line_size;
    const uint32_t sector = bit(address);
    const uint32_t set = set_of(block);
    const GoldenMshr::Entry e = mshr_.take(unit_block);
    bool dirty = false;
    for (bool w : e.writes) dirty = dirty || w;
    int32_t way = find(set, block);
    if (e.reserve_line) {
      Line& l = line(set, way);
      l.valid |= sector;
      l.pending &= ~sector;
      l.partial &= ~sector;
      if (l.pending == 0) l.state = LineState::Valid;
    } else if (way >= 0) {
      line(set, way).valid |= sector;
      line(set, way).partial &= ~sector;
    } else {
      way = victim(set);
      if (way < 0) return;  // bypass
      if (line(set, way).state == LineState::Valid && line(set, way).dirty) ++mq_used_;
      line(set, way) = fresh(block, LineState::Valid, e.warps.front(), sector, 0);
    }
    if (dirty) {
      line(set, way).dirty = true;
      line(set, way).dirty_sectors |= sector;
    }
  }

  void request_left_miss_queue(uint64_t cycle) {
    --mq_used_;
    if (freed_cycle_ != cycle) {
      freed_cycle_ = cycle;
      freed_ = 0;
    }
    ++freed_;
  }

  const Line& line_at(uint32_t set, int32_t way) const { return line(set, way); }
  uint32_t outstanding_blocks() const { return mshr_.occupied(); }

 private:
  Line fresh(uint64_t block, LineState state, int32_t wid, uint32_t valid, uint32_t pending) {
    Line l;
    l.block = block;
    l.state = state;
    l.wid = wid;
    l.stamp = ++clock_;
    l.valid = valid;
    l.pending = pending;
    return l;
  }
  // GPGPU-Sim's lazy fetch-on-read (wr_hit_wb / wr_miss_wa_lazy_fetch_on_read).
  Prediction lazy_store(uint32_t set, int32_t way, uint64_t block, uint32_t sector, uint64_t address, uint32_t bytes,
                        int32_t warp, uint32_t mq_used) {
    Prediction p;
    if (way >= 0 && ((line(set, way).valid | line(set, way).partial) & sector)) p.outcome = AccessOutcome::Hit;
    else if (way >= 0 && (line(set, way).pending & sector)) p.outcome = AccessOutcome::HitReserved;
    else p.outcome = AccessOutcome::LazyWrite;
    if (p.outcome != AccessOutcome::Hit && mq_used >= cfg_.miss_queue) return fail(p, ReservationFail::MissQueueFull);
    if (way < 0) {
      way = victim(set);
      if (way < 0) return fail(p, ReservationFail::SetLocked);
      if (line(set, way).state == LineState::Valid && line(set, way).dirty) ++mq_used_;
      line(set, way) = fresh(block, LineState::Valid, warp, 0, 0);
    } else if (p.outcome != AccessOutcome::LazyWrite) {
      line(set, way).hit = true;
      if (cfg_.replacement == "lru") line(set, way).stamp = ++clock_;
    }
    Line& l = line(set, way);
    l.written.resize(cfg_.line_size);
    for (uint32_t k = 0; k < bytes; ++k) l.written[(address % cfg_.line_size) + k] = true;
    l.dirty = true;
    l.dirty_sectors |= sector;
    if (!((l.valid | l.pending) & sector)) {
      bool all = true;
      const uint32_t first = static_cast<uint32_t>(address % cfg_.line_size) / unit() * unit();
      for (uint32_t b = first; b < first + unit(); ++b) all = all && l.written[b];
      if (all) {
        l.valid |= sector;
        l.partial &= ~sector;
      } else {
        l.partial |= sector;
      }
    }
    return p;
  }

  Line& line(uint32_t set, int32_t way) { return lines_[set * cfg_.ways + static_cast<uint32_t>(way)]; }
  const Line& line(uint32_t set, int32_t way) const { return lines_[set * cfg_.ways + static_cast<uint32_t>(way)]; }
  int32_t find(uint32_t set, uint64_t block) const {
    for (uint32_t w = 0; w < cfg_.ways; ++w)
      if (line(set, static_cast<int32_t>(w)).state != LineState::Invalid && line(set, static_cast<int32_t>(w)).block == block)
        return static_cast<int32_t>(w);
    return -1;
  }
  int32_t victim(uint32_t set) const {
    int32_t best = -1;
    for (uint32_t w = 0; w < cfg_.ways; ++w) {
      const Line& l = line(set, static_cast<int32_t>(w));
      if (l.state == LineState::Reserved) continue;
      if (l.state == LineState::Invalid) return static_cast<int32_t>(w);
      if (best < 0 || l.stamp < line(set, best).stamp) best = static_cast<int32_t>(w);
    }
    return best;
  }
  static Prediction outcome(Prediction p, AccessOutcome o) {
    p.outcome = o;
    return p;
  }
  static Prediction fail(Prediction p, ReservationFail c) {
    p.outcome = AccessOutcome::ReservationFail;
    p.cause = c;
    p.locality = LocalityClass::None;
    return p;
  }

  CacheConfig cfg_;
  GoldenMshr mshr_;
  std::vector<Line> lines_;
  uint32_t mq_used_ = 0;
  uint64_t freed_cycle_ = ~uint64_t{0};
  uint32_t freed_ = 0;
  uint64_t clock_ = 0;
};

}  // namespace gputlm::mem::tb
