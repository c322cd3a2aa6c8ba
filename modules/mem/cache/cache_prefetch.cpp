// The cache's prefetch path (001 §4.3, §4.4.2; digest §D4 "Prefetch-path details"): a
// prefetch is a read of one line (sector) through the miss path (an MSHR entry whose
// first field answers no request, the miss queue) that fills the cache, which is the
// prefetch cache. Merging works both ways: a prefetch finding the line present or pending
// is dropped, a demand load finding a prefetch pending joins its entry (useful, late).
// A per-line bit marks prefetched lines not yet used: the first demand hit makes the
// prefetch useful, leaving unused (replaced, invalidated) useless.
#include "mem/cache/cache.h"
#include "mem/cache/cache_link.h"
#include "mem/cache/cache_prefetch_state.h"

namespace gputlm::mem {

stats::Group& Cache::enable_prefetch(uint32_t keep_free) {
  if (!pf_) pf_ = std::make_unique<PrefetchState>(group_, keep_free);
  return pf_->group;
}

void Cache::set_prefetch_feedback(PrefetchFeedbackIF* feedback) {
  if (!pf_) throw CacheError(std::string(name()) + ": prefetch feedback set before enable_prefetch()");
  pf_->feedback = feedback;
}

PrefetchOutcome Cache::prefetch(uint64_t address, int32_t sm, int32_t warp, uint64_t pc) {
  if (!pf_) throw CacheError(std::string(name()) + ": prefetch before enable_prefetch()");
  catch_up();  // as an access: after this cycle's own work, whichever process runs first
  const PrefetchOutcome o = try_prefetch(address, sm, warp, pc, domain_.now());
  if (o == PrefetchOutcome::Issued) {
    ++pf_->issued;
    wake_self();
  } else {
    pf_->dropped.add(static_cast<std::size_t>(o) - 1);
  }
  return o;
}

PrefetchOutcome Cache::try_prefetch(uint64_t address, int32_t sm, int32_t warp, uint64_t pc, uint64_t cycle) {
  const uint32_t unit = tags_.sector_size();
  const uint64_t unit_block = address / unit;
  const uint64_t block = tags_.block_of(address);
  const uint32_t set = tags_.set_of(block);
  const uint32_t sector = tags_.sector_bit(address);
  const int32_t way = tags_.find(set, block);
  if (way >= 0) {
    const CacheLine& l = tags_.line(set, static_cast<uint32_t>(way));
    if (l.pending_sectors & sector) return PrefetchOutcome::InFlight;
    // Valid, or a present line missing this sector: only whole absent lines are prefetched.
    return PrefetchOutcome::Present;
  }
  if (mshr_->capacity() - mshr_->occupied() <= pf_->keep_free) return PrefetchOutcome::NoMshr;
  MissQuery q;
  q.block = unit_block;
  q.set = set;
  q.ways = tags_.ways();
  q.set_reserved = tags_.reserved_in_set(set);
  q.allocate_on_miss = on_miss_;
  q.victim_way = tags_.victim(set);
  if (q.victim_way >= 0) q.victim_hit = tags_.line(set, static_cast<uint32_t>(q.victim_way)).hit;
  const MshrPlan plan = mshr_->plan(q);
  if (plan.action == MshrAction::Merge) return PrefetchOutcome::InFlight;  // a demand miss (on-fill) is pending
  if (plan.action == MshrAction::Fail) return PrefetchOutcome::NoMshr;
  const bool victim_dirty = plan.reserve_line && q.victim_way >= 0 &&
                            tags_.line(set, static_cast<uint32_t>(q.victim_way)).state == LineState::Valid &&
                            tags_.line(set, static_cast<uint32_t>(q.victim_way)).dirty;
  if (miss_queue_free() < (victim_dirty ? 2u : 1u)) return PrefetchOutcome::MissQueueFull;
  if (plan.reserve_line) {
    const uint32_t v = static_cast<uint32_t>(q.victim_way);
    CacheLine& victim = tags_.line(set, v);
    if (victim_dirty) push_writeback(victim.block, tags_.writeback_bytes(victim));
    if (eviction_hook_ && victim.state == LineState::Valid) eviction_hook_(cycle, victim.block, victim.wid);
    if (victim.prefetched) prefetch_unused(victim);
    tags_.reserve(set, v, block, warp, plan.entry, sector);
  }
  mshr_->commit(plan, unit_block, MshrField{nullptr, warp, false});
  tlm::tlm_generic_payload* d = new_downstream(nullptr, unit_block * unit, unit, false);
  MemExtension& ext = mem_ext(*d);
  ext.kind = AccessKind::Prefetch;
  ext.space = MemSpace::Global;
  ext.sm = sm;
  ext.warp = warp;
  ext.pc = pc;
  ext.issue_cycle = cycle;
  ext.mshr_index[cfg_.level] = static_cast<int16_t>(plan.entry);
  Link& link = *d->get_extension<Link>();
  link.role = Link::Role::Fetch;
  link.entry = plan.entry;
  miss_queue_.push(d, cycle + cfg_.miss_latency);
  return PrefetchOutcome::Issued;
}

void Cache::prefetch_used(CacheLine& line) {
  line.prefetched = false;
  ++pf_->useful;
  ++pf_->coverable;
  if (pf_->feedback) pf_->feedback->on_useful();
}

void Cache::prefetch_unused(CacheLine& line) {
  line.prefetched = false;
  ++pf_->useless;
  if (pf_->feedback) pf_->feedback->on_useless();
}

void Cache::prefetch_late(int32_t entry) {
  if (mshr_->field_count(entry) != 1) return;  // an earlier demand already joined: counted then
  ++pf_->late;
  ++pf_->useful;
  ++pf_->coverable;
  if (pf_->feedback) pf_->feedback->on_useful();
}

void Cache::demand_primary_miss() {
  ++pf_->demand_misses;
  ++pf_->coverable;
}

}  // namespace gputlm::mem
