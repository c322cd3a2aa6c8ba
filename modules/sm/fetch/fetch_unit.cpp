#include "sm/fetch/fetch_unit.h"

#include "core/log/hex.h"

#include <algorithm>
#include <cstdio>

namespace gputlm::sm {

FetchUnit::FetchUnit(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t sm_id, const ClockDomain& domain,
                     WarpTable& table, stats::Group& parent)
    : sc_core::sc_module(name),
      l1i("l1i"),
      issue_status("issue_status"),
      l1i_status("l1i_status"),
      l1d_status("l1d_status"),
      cfg_(cfg),
      sm_id_(sm_id),
      domain_(domain),
      table_(table),
      group_(parent, "fetch"),
      pool_(cfg.l1i.line_size, std::string(basename()) + ".pool"),
      not_full_(cfg.fetch.eligible == "not_full"),
      order_(make_round_robin_fetch()),
      prefetcher_(make_instruction_prefetcher(cfg.fetch, cfg.l1i.line_size)),
      responses_(table.size() + 4),
      fetches_(group_, "fetches", "L1I reads sent for warps (accepted)"),
      fetched_instructions_(group_, "instructions", "instructions delivered to I-buffers"),
      reservation_fails_(group_, "reservation_fails", "fetches the L1I refused (retried)"),
      stale_fetches_(group_, "stale_fetches", "fetch responses dropped because the I-buffer was flushed meanwhile"),
      prefetches_(group_, "prefetches", "L1I prefetches sent (accepted)"),
      ibuffer_empty_warp_cycles_(group_, "ibuffer_empty_warp_cycles",
                                 "warp-cycles a live warp (not at a barrier) had an empty I-buffer") {
  l1i.register_nb_transport_bw(this, &FetchUnit::nb_transport_bw);
  live_.reserve(table.size());
  candidates_.reserve(table.size());
}

void FetchUnit::set_scheduler_orders(const SchedulerOrderIF& s) {
  if (cfg_.fetch.policy == "scheduler_priority") order_ = make_scheduler_priority_fetch(s);
}

bool FetchUnit::idle() const { return outstanding_ == 0 && responses_.empty() && !waiting_end_req_; }

const isa::Instruction* FetchUnit::decode_at(const WarpSlot& s, uint64_t pc, uint32_t* left) const {
  const isa::Module& m = s.grid->loaded().module();
  const uint32_t f = m.function_at(pc);
  if (f == isa::kNone) return nullptr;
  const isa::Function& fn = m.functions[f];
  const uint32_t idx = fn.index_of(pc);
  if (idx == isa::kNone || idx >= fn.code.size()) return nullptr;
  if (left) *left = static_cast<uint32_t>(fn.code.size() - idx);
  return &fn.code[idx];
}

bool FetchUnit::eligible(uint32_t w) const {
  const WarpSlot& s = table_[w];
  // room_for_width: space for a whole fetch; not_full (ELF §B2 rule 3): any space, and
  // send_fetch then asks for as many instructions as fit.
  const uint32_t want = not_full_ ? 1u : std::min(cfg_.fetch.width, cfg_.fetch.ibuffer_entries);
  // A buffer that ends with its function's last instruction has nothing to fetch after it
  // (possible only when a non-empty buffer may fetch: not_full, or entries > width).
  return table_.live(w) && !s.fetch_pending && table_.ibuf_free(w) >= want &&
         (table_.ibuf_empty(w) || decode_at(s, table_.next_fetch_pc(w), nullptr) != nullptr);
}

tlm::tlm_sync_enum FetchUnit::send(tlm::tlm_generic_payload& gp) {
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  return l1i->nb_transport_fw(gp, ph, t);
}

bool FetchUnit::send_fetch(uint32_t w, uint64_t cycle) {
  WarpSlot& s = table_[w];
  const uint64_t pc = table_.next_fetch_pc(w);
  uint32_t left = 0;
  if (decode_at(s, pc, &left) == nullptr)
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(w) + " has no instruction at pc " + hex(pc));
  const uint64_t address = cfg_.fetch.code_base + pc;
  const uint32_t line = cfg_.l1i.line_size;
  const uint32_t to_line_end = static_cast<uint32_t>((line - address % line) / isa::kInstrBytes);
  const uint32_t n = std::max(1u, std::min({cfg_.fetch.width, table_.ibuf_free(w), left, to_line_end}));

  tlm::tlm_generic_payload& gp = *pool_.allocate();
  gp.acquire();
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(address);
  gp.set_data_length(n * isa::kInstrBytes);
  gp.set_streaming_width(n * isa::kInstrBytes);
  MemExtension& ext = mem_ext(gp);
  ext.sm = static_cast<int32_t>(sm_id_);
  ext.warp = static_cast<int32_t>(w);
  ext.cta = s.cta_global;
  ext.pc = pc;
  ext.space = MemSpace::Instruction;
  ext.kind = AccessKind::InstFetch;
  ext.issue_cycle = cycle;
  const tlm::tlm_sync_enum r = send(gp);
  if (r == tlm::TLM_COMPLETED && ext.status != MemStatus::Ok) {
    ++reservation_fails_;
    gp.release();
    return false;
  }
  s.fetch_pending = true;
  table_.touch(w);
  s.fetch_stale = false;
  s.fetch_pc = pc;
  s.fetch_count = n;
  s.fetch_cycle = cycle;
  ++outstanding_;
  ++fetches_;
  if (r == tlm::TLM_ACCEPTED) waiting_end_req_ = &gp;
  if (r == tlm::TLM_COMPLETED) responses_.push(&gp, domain_.now());  // answered at once
  return true;
}

bool FetchUnit::send_prefetch(uint64_t cycle) {
  uint32_t occupied = 0;
  if (l1i_status.size() > 0) occupied += l1i_status->mshr_occupied();
  if (l1d_status.size() > 0) occupied += l1d_status->mshr_occupied();
  uint64_t line_address = 0;
  if (!prefetcher_->next(occupied, line_address)) return false;
  tlm::tlm_generic_payload& gp = *pool_.allocate();
  gp.acquire();
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(line_address);
  gp.set_data_length(isa::kInstrBytes);
  gp.set_streaming_width(isa::kInstrBytes);
  MemExtension& ext = mem_ext(gp);
  ext.sm = static_cast<int32_t>(sm_id_);
  ext.warp = -1;
  ext.space = MemSpace::Instruction;
  ext.kind = AccessKind::Prefetch;
  ext.issue_cycle = cycle;
  const tlm::tlm_sync_enum r = send(gp);
  const bool refused = r == tlm::TLM_COMPLETED && ext.status != MemStatus::Ok;
  prefetcher_->sent(!refused);
  if (refused) {
    gp.release();
    return false;
  }
  ++outstanding_;
  ++prefetches_;
  if (r == tlm::TLM_ACCEPTED) waiting_end_req_ = &gp;
  if (r == tlm::TLM_COMPLETED) responses_.push(&gp, domain_.now());
  return true;
}

tlm::tlm_sync_enum FetchUnit::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph == tlm::END_REQ) {
    if (&gp == waiting_end_req_) waiting_end_req_ = nullptr;
    if (waker_) waker_();
    return tlm::TLM_ACCEPTED;
  }
  if (ph != tlm::BEGIN_RESP)
    throw PipelineError(std::string(name()) + ": unexpected phase " + ph.get_name() + " from the L1I");
  if (&gp == waiting_end_req_) waiting_end_req_ = nullptr;  // BEGIN_RESP implies END_REQ
  responses_.push(&gp, domain_.now());  // capacity covers every fetch in flight
  if (waker_) waker_();
  return tlm::TLM_COMPLETED;
}

bool FetchUnit::tick_decode(uint64_t cycle) {
  bool delivered = false;  // issue sees new I-buffer entries next cycle: stay awake
  while (responses_.ready(cycle)) {
    tlm::tlm_generic_payload& gp = *responses_.front();
    responses_.pop(cycle);
    --outstanding_;
    const MemExtension& ext = mem_ext(gp);
    if (ext.kind == AccessKind::InstFetch) {
      const uint32_t w = static_cast<uint32_t>(ext.warp);
      WarpSlot& s = table_[w];
      const bool refused = ext.status != MemStatus::Ok;  // failure reported after a withheld END_REQ
      if (refused) {
        ++reservation_fails_;
        delivered = true;  // fetch retries next cycle
      }
      if (!refused && !s.fetch_stale && table_.live(w)) {
        for (uint32_t i = 0; i < s.fetch_count; ++i) {
          const uint64_t pc = s.fetch_pc + uint64_t{i} * isa::kInstrBytes;
          IBufferEntry e;
          e.instr = decode_at(s, pc, nullptr);
          e.pc = pc;
          e.unit = issue_status->unit_for(*e.instr);
          e.fetch_cycle = s.fetch_cycle;
          e.decode_cycle = cycle;
          table_.ibuf_push(w, e);
        }
        fetched_instructions_.add(s.fetch_count);
        delivered = true;
      } else if (!refused) {
        ++stale_fetches_;
      }
      s.fetch_pending = false;
      s.fetch_stale = false;
      table_.touch(w);
    }
    gp.release();
  }
  return delivered || !responses_.empty();
}

void FetchUnit::scan_warps() {
  // Re-derive the per-warp bits of the warps touched since the last scan only.
  uint64_t changed = table_.take_changed_warps();
  if (changed == 0) return;
  const uint64_t live_before = live_mask_;
  for (; changed != 0; changed &= changed - 1) {
    const uint32_t w = static_cast<uint32_t>(__builtin_ctzll(changed));
    const uint64_t bit = uint64_t{1} << w;
    const bool live = table_.live(w);
    live_mask_ = live ? live_mask_ | bit : live_mask_ & ~bit;
    const bool empty = live && table_.ibuf_empty(w) && table_.ready(w);
    empty_mask_ = empty ? empty_mask_ | bit : empty_mask_ & ~bit;
    eligible_mask_ = eligible(w) ? eligible_mask_ | bit : eligible_mask_ & ~bit;
  }
  if (live_mask_ != live_before) {
    live_.clear();
    for (uint64_t m = live_mask_; m != 0; m &= m - 1) live_.push_back(static_cast<uint32_t>(__builtin_ctzll(m)));
  }
}

void FetchUnit::account_skipped(uint64_t cycles) {
  // The table has not changed since the end of the last tick (end_of_cycle()).
  ibuffer_empty_warp_cycles_.add(empty_ibuffers() * cycles);
}

bool FetchUnit::tick_fetch(uint64_t cycle) {
  scan_warps();
  ibuffer_empty_warp_cycles_.add(empty_ibuffers());
  if (waiting_end_req_) return false;  // END_REQ will wake us
  if (outstanding_ + 1 > responses_.capacity()) return false;
  if (eligible_mask_ == 0 && !prefetcher_->may_prefetch()) return false;
  candidates_.clear();
  order_->order(live_, candidates_);
  uint32_t sent = 0;
  bool refused = false;
  uint32_t waiting = 0;
  for (uint32_t w : candidates_) {
    // eligible(w) as of this cycle's scan: a send changes only its own warp's.
    if (((eligible_mask_ >> w) & 1u) == 0) continue;
    if (sent == cfg_.fetch.per_cycle || refused || waiting_end_req_ || outstanding_ + 1 > responses_.capacity()) {
      ++waiting;
      break;
    }
    if (send_fetch(w, cycle)) {
      order_->fetched(w);
      ++sent;
    } else {
      refused = true;
    }
  }
  if (sent == 0 && !refused && !waiting_end_req_) send_prefetch(cycle);
  return refused || waiting > 0;
}

std::string FetchUnit::describe(uint32_t w) const {
  const WarpSlot& s = table_[w];
  std::string d = "ibuffer " + std::to_string(s.ibuf_count) + "/" + std::to_string(cfg_.fetch.ibuffer_entries);
  if (s.fetch_pending)
    d += ", fetch of " + std::to_string(s.fetch_count) + " at pc " + hex(s.fetch_pc) + " since cycle " +
         std::to_string(s.fetch_cycle) + (s.fetch_stale ? " (stale)" : "");
  return d;
}

}  // namespace gputlm::sm
