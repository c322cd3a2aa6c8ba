// Requests to the next level and the processing of its responses (fills, write
// acknowledgements, write-back completions).
#include <string>

#include "mem/cache/cache.h"
#include "mem/cache/cache_link.h"

namespace gputlm::mem {

tlm::tlm_generic_payload* Cache::new_downstream(const MemExtension* from, uint64_t address, uint32_t bytes,
                                                bool write) {
  tlm::tlm_generic_payload* d = pool_.allocate();
  d->acquire();
  MemExtension& ext = mem_ext(*d);
  const uint64_t id = ext.id;
  if (from) {
    ext = *from;
    ext.id = id;
    ext.status = MemStatus::Ok;
    ext.fail_cause = ReservationFail::None;
  }
  d->set_address(address);
  d->set_data_length(bytes);
  d->set_streaming_width(bytes);
  d->set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  Link* link = d->get_extension<Link>();
  if (!link) {  // first use of this pooled payload: the extension stays with it
    link = new Link;
    d->set_extension(link);
  }
  *link = Link{};
  link->owner = this;
  return d;
}

void Cache::push_writeback(uint64_t block, uint32_t bytes) {
  // A sectored line writes back its dirty sectors (GPGPU-Sim's m_modified_size): the
  // payload starts at the line and carries their byte count.
  tlm::tlm_generic_payload* d = new_downstream(nullptr, block * cfg_.line_size, bytes, true);
  MemExtension& ext = mem_ext(*d);
  ext.kind = AccessKind::Store;
  ext.space = MemSpace::Global;
  ext.byte_mask.set();
  d->get_extension<Link>()->role = Link::Role::Writeback;
  miss_queue_.push(d, domain_.now() + 1);
  ++writebacks_;
}

bool Cache::process_fill(uint64_t cycle) {
  // Responses through nb_transport_bw first, then those returned synchronously.
  const bool from_bw = fill_queue_.ready(cycle);
  if (!from_bw && !completed_.ready(cycle)) return false;
  tlm::tlm_generic_payload& d = from_bw ? *fill_queue_.front() : *completed_.front();
  if (d.get_response_status() != tlm::TLM_OK_RESPONSE)
    throw CacheError(std::string(name()) + ": the next level answered the request at " + hex_address(d.get_address()) +
                     " with " + d.get_response_string());
  Link& link = *d.get_extension<Link>();
  const uint64_t block = tags_.block_of(d.get_address());  // the line
  const uint32_t set = tags_.set_of(block);
  const uint64_t unit_block = d.get_address() / tags_.sector_size();  // what the MSHR tracks
  const uint32_t sector = tags_.sector_bit(d.get_address());

  if (link.role == Link::Role::WriteThrough) {
    if (response_queue_.full()) return false;
    respond(*link.upstream, cycle + cfg_.fill_latency);
  } else if (link.role == Link::Role::Fetch) {
    const uint32_t n = mshr_->field_count(link.entry);
    if (response_queue_.free_slots() < n) return false;
    int32_t victim = -1;
    const bool reserved = mshr_->line_reserved(link.entry);
    const int32_t present = tags_.find(set, block);
    if (!reserved && present < 0) {  // on-fill allocation: the victim is chosen now
      victim = tags_.victim(set);
      if (victim >= 0) {
        const CacheLine& v = tags_.line(set, static_cast<uint32_t>(victim));
        if (v.state == LineState::Valid && v.dirty && miss_queue_.full()) return false;
      }
    }
    const int32_t entry = mshr_->find_for_fill(unit_block, mem_ext(d).mshr_index[cfg_.level]);
    if (entry != link.entry)
      throw CacheError(std::string(name()) + ": fill of block " + hex_address(block) + " found MSHR entry " +
                       std::to_string(entry) + ", expected " + std::to_string(link.entry));
    if (fill_hook_) fill_hook_(cycle, unit_block, entry);
    // A prefetch's fill: the line is kept (also with allocate_demand false) and, when no
    // demand joined the miss, marked as prefetched and not yet used.
    const bool by_prefetch = pf_ && prefetch_entry(entry);
    const bool unused_prefetch = by_prefetch && n == 1;
    const bool allocate = allocate_demand_ || by_prefetch;
    bool dirty = false;
    for (uint32_t i = 0; i < n; ++i) dirty = dirty || mshr_->field(entry, i).write;
    const int32_t first_warp = mshr_->field(entry, 0).warp;
    if (reserved) {
      if (present < 0 || !(tags_.line(set, static_cast<uint32_t>(present)).pending_sectors & sector))
        throw CacheError(std::string(name()) + ": reserved line of block " + hex_address(block) + " is missing");
      tags_.complete_fill(set, static_cast<uint32_t>(present), sector);
      if (dirty) tags_.mark_dirty(set, static_cast<uint32_t>(present), sector);
      if (unused_prefetch) tags_.line(set, static_cast<uint32_t>(present)).prefetched = true;
    } else if (present >= 0) {
      tags_.add_sectors(set, static_cast<uint32_t>(present), sector);
      if (dirty) tags_.mark_dirty(set, static_cast<uint32_t>(present), sector);
      if (unused_prefetch) tags_.line(set, static_cast<uint32_t>(present)).prefetched = true;
    } else if (victim >= 0 && allocate) {
      CacheLine& v = tags_.line(set, static_cast<uint32_t>(victim));
      if (v.state == LineState::Valid && v.dirty) push_writeback(v.block, tags_.writeback_bytes(v));
      if (eviction_hook_ && v.state == LineState::Valid) eviction_hook_(cycle, v.block, v.wid);
      if (v.prefetched) prefetch_unused(v);
      tags_.install(set, static_cast<uint32_t>(victim), block, first_warp, sector);
      if (dirty) tags_.mark_dirty(set, static_cast<uint32_t>(victim), sector);
      if (unused_prefetch) tags_.line(set, static_cast<uint32_t>(victim)).prefetched = true;
    } else {
      ++fill_bypasses_;
    }
    for (uint32_t i = 0; i < n; ++i)
      if (tlm::tlm_generic_payload* up = mshr_->field(entry, i).request) respond(*up, cycle + cfg_.fill_latency);
    mshr_->release(entry);
    ++fills_;
  }
  if (!from_bw) {
    completed_.pop();
    d.release();
    return true;
  }
  fill_queue_.pop();
  d.release();
  if (fill_end_resp_) {  // sent by this cycle's sends
    end_resp_to_send_ = fill_end_resp_;
    fill_end_resp_ = nullptr;
  }
  return true;
}

}  // namespace gputlm::mem
