// The decision for one access: hit, hit on a reserved line, primary or secondary miss,
// write-through, or refusal with its cause; LAWS locality class; statistics and hook.
#include <string>

#include "mem/cache/cache.h"
#include "mem/cache/cache_link.h"

namespace gputlm::mem {

namespace {
bool is_write_kind(AccessKind k) { return k == AccessKind::Store || k == AccessKind::Atomic; }
bool is_demand_load(AccessKind k) { return k == AccessKind::Load; }
}  // namespace

Cache::Result Cache::access(tlm::tlm_generic_payload& gp, uint64_t cycle) {
  const MemExtension& ext = mem_ext(gp);
  AccessKey key;
  key.address = gp.get_address();
  key.bytes = gp.get_data_length();
  key.kind = ext.kind;
  key.sm = ext.sm;
  key.warp = ext.warp;
  return access(key, gp, cycle);
}

// Reads the request only from `key` until the access proceeds (a refusal never touches
// `gp`: L1RetryIF relies on it).
Cache::Result Cache::access(const AccessKey& key, tlm::tlm_generic_payload& gp, uint64_t cycle) {
  const uint64_t address = key.address;
  const uint32_t unit = tags_.sector_size();  // = line size when unsectored
  if (key.bytes == 0 || address % unit + key.bytes > unit)
    throw CacheError(std::string(name()) + ": access at " + hex_address(address) + " of " +
                     std::to_string(key.bytes) + " bytes crosses a " + std::to_string(unit) + "-byte " +
                     (cfg_.sectors > 1 ? "sector" : "line"));
  const bool write = is_write_kind(key.kind);
  if (write && read_only_)
    throw CacheError(std::string(name()) + ": " + to_string(key.kind) + " to read-only cache at " +
                     hex_address(address) + " (warp " + std::to_string(key.warp) + ")");

  AccessRecord rec;
  rec.cycle = cycle;
  rec.address = address;
  rec.bytes = key.bytes;
  rec.block = tags_.block_of(address);
  rec.set = tags_.set_of(rec.block);
  rec.kind = key.kind;
  rec.sm = key.sm;
  rec.warp = key.warp;
  const int32_t way = tags_.find(rec.set, rec.block);
  const uint32_t sector = tags_.sector_bit(address);
  const bool valid_hit = way >= 0 && (tags_.line(rec.set, static_cast<uint32_t>(way)).valid_sectors & sector) != 0;
  // Lazy fetch-on-read: a store writes whatever state its sector is in (GPGPU-Sim's probe
  // is a hit for a written sector, readable or not) and never fetches.
  const bool lazy_store = lazy_ && key.kind == AccessKind::Store;
  // Mascar (002 §III-D): with an owner set, only hits of other warps proceed.
  const int32_t owner = owner_warp();
  const bool nack = owner >= 0 && key.warp != owner && !stall_mode_;

  Result r;
  if (write && write_evict_) {
    if (nack) {
      r.outcome = AccessOutcome::Nack;
    } else {
      r = access_write_through(gp, rec, way);
    }
  } else if (lazy_store && !nack) {
    r = lazy_write(gp, rec, way, sector);
  } else if (valid_hit) {
    CacheLine& line = tags_.line(rec.set, static_cast<uint32_t>(way));
    tags_.touch(rec.set, static_cast<uint32_t>(way));
    if (write) tags_.mark_dirty(rec.set, static_cast<uint32_t>(way), sector);
    if (is_demand_load(key.kind)) {
      rec.locality = line.wid == key.warp ? LocalityClass::Intra : LocalityClass::Inter;
      if (line.prefetched) prefetch_used(line);
    }
    r.outcome = AccessOutcome::Hit;
    hold(gp);
    respond(gp, cycle + cfg_.hit_latency);
  } else if (nack) {
    r.outcome = AccessOutcome::Nack;
  } else {
    r = miss(gp, rec, way, sector);
  }
  rec.outcome = r.outcome;
  rec.cause = r.cause;
  finish_access(rec);
  return r;
}

Cache::Result Cache::access_write_through(tlm::tlm_generic_payload& gp, AccessRecord& rec, int32_t way) {
  Result r;
  if (miss_queue_free() == 0) {
    r.outcome = AccessOutcome::ReservationFail;
    r.cause = ReservationFail::MissQueueFull;
    return r;
  }
  if (way < 0) {
    r.outcome = AccessOutcome::MissNoAllocate;
  } else if (tags_.line(rec.set, static_cast<uint32_t>(way)).state == LineState::Valid) {
    // Write-evict: the line is dropped; the data goes to the next level.
    if (tags_.line(rec.set, static_cast<uint32_t>(way)).prefetched)
      prefetch_unused(tags_.line(rec.set, static_cast<uint32_t>(way)));
    tags_.invalidate(rec.set, static_cast<uint32_t>(way));
    ++write_evictions_;
    r.outcome = AccessOutcome::Hit;
  } else {
    r.outcome = AccessOutcome::HitReserved;  // pending fill: written through, line kept
  }
  // The store itself (address and size) is written through.
  tlm::tlm_generic_payload* d = new_downstream(&mem_ext(gp), gp.get_address(), gp.get_data_length(), true);
  Link& link = *d->get_extension<Link>();
  link.role = Link::Role::WriteThrough;
  link.upstream = &gp;
  hold(gp);
  miss_queue_.push(d, rec.cycle + cfg_.miss_latency);
  return r;
}

Cache::Result Cache::miss(tlm::tlm_generic_payload& gp, AccessRecord& rec, int32_t way, uint32_t sector) {
  // The MSHR tracks fetch units: lines, or sectors of a sectored cache.
  const uint64_t unit_block = rec.address / tags_.sector_size();
  MissQuery q;
  q.block = unit_block;
  q.set = rec.set;
  q.ways = tags_.ways();
  q.set_reserved = tags_.reserved_in_set(rec.set);
  // allocate_demand false: a demand load's block gets no line (the L1D is a prefetch cache).
  q.allocate_on_miss = on_miss_ && (allocate_demand_ || !is_demand_load(rec.kind));
  bool sector_miss = false;  // the line is present, this sector is neither valid nor pending
  if (way >= 0 && (tags_.line(rec.set, static_cast<uint32_t>(way)).pending_sectors & sector)) {
    q.matched_way = way;  // reserved for this block: its fill is pending
    q.matched_index = tags_.line(rec.set, static_cast<uint32_t>(way)).mshr_index;
  } else if (way >= 0) {
    sector_miss = true;  // no victim needed: the present line takes the sector
    q.victim_way = way;
    q.victim_hit = tags_.line(rec.set, static_cast<uint32_t>(way)).hit;
  } else {
    q.victim_way = tags_.victim(rec.set);
    if (q.victim_way >= 0) q.victim_hit = tags_.line(rec.set, static_cast<uint32_t>(q.victim_way)).hit;
  }
  const MshrPlan plan = mshr_->plan(q);
  Result r;
  if (plan.action == MshrAction::Fail) {
    r.outcome = AccessOutcome::ReservationFail;
    r.cause = plan.cause;
    return r;
  }
  const MshrField field{&gp, rec.warp, is_write_kind(rec.kind)};
  rec.mshr_entry = plan.entry;
  if (plan.action == MshrAction::Merge) {
    const int32_t first_warp = mshr_->field(plan.entry, 0).warp;
    // A demand load joining a prefetch's pending miss: the prefetch was useful, but late.
    if (pf_ && is_demand_load(rec.kind) && prefetch_entry(plan.entry)) prefetch_late(plan.entry);
    mshr_->commit(plan, unit_block, field);
    if (is_demand_load(rec.kind))
      rec.locality = first_warp == rec.warp ? LocalityClass::IntraMerge : LocalityClass::InterMerge;
    r.outcome = q.matched_way >= 0 ? AccessOutcome::HitReserved : AccessOutcome::SecondaryMiss;
    hold(gp);
    return r;
  }
  // Primary miss: a fetch, plus a write-back if the reserved victim is dirty.
  const bool victim_dirty = plan.reserve_line && !sector_miss && q.victim_way >= 0 &&
                            tags_.line(rec.set, static_cast<uint32_t>(q.victim_way)).state == LineState::Valid &&
                            tags_.line(rec.set, static_cast<uint32_t>(q.victim_way)).dirty;
  if (miss_queue_free() < (victim_dirty ? 2u : 1u)) {
    r.outcome = AccessOutcome::ReservationFail;
    r.cause = ReservationFail::MissQueueFull;
    return r;
  }
  if (plan.reserve_line) {
    const uint32_t v = static_cast<uint32_t>(q.victim_way);
    if (sector_miss) {
      tags_.reserve_sectors(rec.set, v, sector, plan.entry);
    } else {
      if (victim_dirty) push_writeback(tags_.line(rec.set, v).block, tags_.writeback_bytes(tags_.line(rec.set, v)));
      if (eviction_hook_ && tags_.line(rec.set, v).state == LineState::Valid)
        eviction_hook_(rec.cycle, tags_.line(rec.set, v).block, tags_.line(rec.set, v).wid);
      if (tags_.line(rec.set, v).prefetched) prefetch_unused(tags_.line(rec.set, v));
      tags_.reserve(rec.set, v, rec.block, rec.warp, plan.entry, sector);
    }
  }
  mshr_->commit(plan, unit_block, field);
  const uint32_t unit = tags_.sector_size();
  const MemExtension& ext = mem_ext(gp);
  tlm::tlm_generic_payload* d = new_downstream(&ext, unit_block * unit, unit, false);
  Link& link = *d->get_extension<Link>();
  link.role = Link::Role::Fetch;
  link.entry = plan.entry;
  mem_ext(*d).mshr_index[cfg_.level] = static_cast<int16_t>(plan.entry);
  if (rec.kind != AccessKind::InstFetch && rec.kind != AccessKind::Prefetch) mem_ext(*d).kind = AccessKind::Load;
  miss_queue_.push(d, rec.cycle + cfg_.miss_latency);
  if (is_demand_load(rec.kind)) {
    rec.locality = LocalityClass::Miss;
    if (pf_) demand_primary_miss();
  }
  r.outcome = AccessOutcome::PrimaryMiss;
  hold(gp);
  return r;
}

// GPGPU-Sim's wr_hit_wb / wr_miss_wa_lazy_fetch_on_read: the store is answered as a hit;
// an absent line takes a victim (written back when dirty) without an MSHR or a fetch.
Cache::Result Cache::lazy_write(tlm::tlm_generic_payload& gp, AccessRecord& rec, int32_t way, uint32_t sector) {
  Result r;
  if (way >= 0) {
    const CacheLine& l = tags_.line(rec.set, static_cast<uint32_t>(way));
    if ((l.valid_sectors | l.partial_sectors) & sector) r.outcome = AccessOutcome::Hit;
    else if (l.pending_sectors & sector) r.outcome = AccessOutcome::HitReserved;
    else r.outcome = AccessOutcome::LazyWrite;  // sector miss: the present line takes it
  } else {
    r.outcome = AccessOutcome::LazyWrite;
  }
  // Every write miss needs a miss-queue slot, as GPGPU-Sim checks (and a dirty victim's
  // write-back takes it).
  if (r.outcome != AccessOutcome::Hit && miss_queue_free() == 0) {
    r.outcome = AccessOutcome::ReservationFail;
    r.cause = ReservationFail::MissQueueFull;
    return r;
  }
  if (way < 0) {
    way = tags_.victim(rec.set);
    if (way < 0) {
      r.outcome = AccessOutcome::ReservationFail;
      r.cause = ReservationFail::SetLocked;
      return r;
    }
    const CacheLine& v = tags_.line(rec.set, static_cast<uint32_t>(way));
    if (v.state == LineState::Valid && v.dirty) push_writeback(v.block, tags_.writeback_bytes(v));
    if (eviction_hook_ && v.state == LineState::Valid) eviction_hook_(rec.cycle, v.block, v.wid);
    if (v.prefetched) prefetch_unused(tags_.line(rec.set, static_cast<uint32_t>(way)));
    tags_.install(rec.set, static_cast<uint32_t>(way), rec.block, rec.warp, 0);
  }
  if (r.outcome != AccessOutcome::LazyWrite) tags_.touch(rec.set, static_cast<uint32_t>(way));
  // The bytes written: the byte mask within the access, or every byte of it when the
  // request carries no mask at all (the mask is relative to a 128-byte line).
  const uint32_t first = static_cast<uint32_t>(gp.get_address() % cfg_.line_size);
  const uint32_t mask_first = static_cast<uint32_t>(gp.get_address() % 128);
  const MemExtension& ext = mem_ext(gp);
  const bool unmasked = ext.byte_mask.none() && ext.sector_mask == 0;
  std::bitset<128> bytes;
  for (uint32_t k = 0; k < gp.get_data_length(); ++k)
    if (unmasked || ext.byte_mask.test(mask_first + k)) bytes.set(first + k);
  tags_.write_lazy(rec.set, static_cast<uint32_t>(way), sector, bytes);
  hold(gp);
  respond(gp, rec.cycle + cfg_.hit_latency);
  return r;
}

void Cache::finish_access(AccessRecord& rec) {
  ++accesses_;
  const bool write = is_write_kind(rec.kind);
  (write ? write_outcomes_ : read_outcomes_).add(static_cast<std::size_t>(rec.outcome));
  const bool refused = is_refusal(rec.outcome);
  if (!write && !refused) {
    ++loads_;
    if (rec.outcome == AccessOutcome::Hit) ++load_hits_;
    if (rec.outcome == AccessOutcome::PrimaryMiss) ++load_primary_misses_;
  }
  if (rec.locality != LocalityClass::None)
    locality_.add(static_cast<std::size_t>(rec.locality) - static_cast<std::size_t>(LocalityClass::Miss));
  if (rec.outcome == AccessOutcome::ReservationFail) {
    fail_causes_.add(static_cast<std::size_t>(rec.cause) - static_cast<std::size_t>(ReservationFail::MshrEntriesFull));
    if (!write && last_load_stall_cycle_ != rec.cycle) {
      last_load_stall_cycle_ = rec.cycle;
      ++load_stall_cycles_;
    }
  }
  if (hook_) {
    rec.mshr_full = mshr_->occupied() == mshr_->capacity();
    hook_(rec);
  }
}

}  // namespace gputlm::mem
