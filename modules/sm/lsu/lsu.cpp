// The LSU's cycle: events from the L1s, the latch (bank cycles, request sending with
// reservation-fail handling), completion to writeback; see lsu.h. Address generation
// and coalescing are in lsu_requests.cpp.
#include "sm/lsu/lsu.h"

#include <algorithm>
#include <sstream>

#include "core/config/config_source.h"
#include "sm/lsu/lsu_link.h"

namespace gputlm::sm {

namespace {
const std::vector<std::string> kFailLabels{"mshr_entries_full", "mshr_fields_full", "miss_queue_full", "set_locked",
                                           "nack"};
std::size_t fail_index(MemStatus status, ReservationFail cause) {
  if (status == MemStatus::Nack) return 4;
  switch (cause) {
    case ReservationFail::MshrEntriesFull: return 0;
    case ReservationFail::MshrFieldsFull: return 1;
    case ReservationFail::MissQueueFull: return 2;
    case ReservationFail::SetLocked: return 3;
    case ReservationFail::None: break;
  }
  return 0;
}
CoalescerConfig with_line(CoalescerConfig c, uint32_t line) {
  c.line_size = line;
  c.sector_size = std::min(c.sector_size, line);
  return c;
}
}  // namespace

void LsuConfig::validate(const std::string& key_prefix) const {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  coalescer.validate(p + "coalescer");
  shared_memory.validate(p + "shared_memory");
  if (const_line_size > kMaxLineBytes || (const_line_size & (const_line_size - 1)) != 0 || const_line_size < 4)
    throw config::ConfigError("key '" + p + "const_line_size': must be a power of two in [4, 128]");
  if (texture_line_size > kMaxLineBytes || (texture_line_size & (texture_line_size - 1)) != 0 ||
      texture_line_size < 4)
    throw config::ConfigError("key '" + p + "texture_line_size': must be a power of two in [4, 128]");
  if (requests_per_cycle == 0 || max_inflight == 0 || max_outstanding == 0)
    throw config::ConfigError("key '" + p + "': requests_per_cycle, max_inflight and max_outstanding must be >= 1");
}

Lsu::Lsu(sc_core::sc_module_name name, const LsuConfig& cfg, const LsuPlacement& placement,
         const ClockDomain& domain, stats::Group& parent)
    : sc_core::sc_module(name),
      in("in"),
      out("out"),
      status_export("status_export"),
      writeback_status("writeback_status"),
      l1d("l1d"),
      l1c("l1c"),
      l1t("l1t"),
      bypass("bypass"),
      l1d_status("l1d_status"),
      l1c_status("l1c_status"),
      l1t_status("l1t_status"),
      cfg_([&] {
        cfg.validate("lsu");
        return cfg;
      }()),
      place_(placement),
      domain_(domain),
      global_coalescer_(make_coalescer(cfg_.coalescer, "lsu.coalescer")),
      const_coalescer_(make_coalescer(with_line(cfg_.coalescer, cfg_.const_line_size), "lsu.const_line_size")),
      texture_coalescer_(make_coalescer(with_line(cfg_.coalescer, cfg_.texture_line_size), "lsu.texture_line_size")),
      bypass_cg_(cfg_.global_l1d_bypass != "none"),
      bypass_all_but_nc_(cfg_.global_l1d_bypass == "all_but_nc"),
      bypass_all_(cfg_.global_l1d_bypass == "all"),
      shared_(cfg_.shared_memory, "lsu.shared_memory"),
      local_map_{cfg_.local_base, placement.num_sms, placement.threads_per_sm},
      pool_(kMaxLineBytes, std::string(basename()) + ".payloads"),
      slots_(cfg_.max_inflight),
      free_slots_(cfg_.max_inflight),
      events_(cfg_.max_outstanding + kL1Ports),
      stats_(parent, basename()),
      instructions_(stats_, "instructions", "memory warp instructions"),
      requests_(stats_, "requests", "line requests accepted by the L1s"),
      useful_bytes_(stats_, "useful_bytes", "bytes the lanes asked for (per request byte masks)"),
      sector_bytes_(stats_, "sector_bytes", "bytes of the sectors the requests touch"),
      shared_accesses_(stats_, "shared_accesses", "warp instructions with shared-memory lanes"),
      shared_bank_cycles_(stats_, "shared_bank_cycles", "bank cycles of shared accesses (conflicts replay)"),
      lsu_sat_stall_cycles_(stats_, "lsu_sat_stall_cycles",
                            "cycles the LSU could not send because an L1 refused its head request (seed §S)"),
      saturation_stall_cycles_(stats_, "saturation_stall_cycles",
                               "cycles the LSU was stalled by saturation under any policy: it kept a refused head "
                               "request, or a full re-execution queue kept new instructions out (002 Figs 2 and 11)"),
      l1_port_stall_cycles_(stats_, "l1_port_stall_cycles", "cycles waiting for an L1's END_REQ"),
      const_serialization_cycles_(stats_, "const_serialization_cycles",
                                  "extra cycles of constant accesses to distinct words"),
      writeback_stall_cycles_(stats_, "writeback_stall_cycles", "cycles a finished instruction waited for writeback"),
      requests_per_instruction_(stats_, "requests_per_instruction",
                                "line requests per global/local/const/texture instruction (memory divergence)"),
      shared_conflict_degree_(stats_, "shared_conflict_degree", "bank cycles per shared access", 1, 33, 32),
      coalescing_efficiency_(stats_, "coalescing_efficiency", "useful_bytes / sector_bytes", useful_bytes_,
                             sector_bytes_),
      reservation_fails_(stats_, "reservation_fails", "requests refused by an L1, by cause", kFailLabels) {
  if (placement.agen_slices == 0)
    throw config::ConfigError("lsu: address generation must take at least 1 cycle per instruction");
  if (placement.warp_size == 0 || placement.warp_size > 32)
    throw config::ConfigError("lsu: warp size must be in [1, 32], got " + std::to_string(placement.warp_size));
  // After the LSU's own statistics: a queue with statistics (car) adds its group to ours.
  queue_ = make_reexec_queue(cfg_.reexec_queue, "lsu.reexec_queue", &stats_);
  hold_in_lsu_ = cfg_.reexec_queue.policy == "car" && cfg_.reexec_queue.warp_hold == "lsu";
  if (hold_in_lsu_)
    warp_hold_cycles_ = std::make_unique<stats::Counter>(
        stats_, "warp_hold_cycles",
        "cycles the LSU's next request waited for a queued older instruction of its warp (CAR, warp_hold = lsu)");
  status_export.bind(*this);
  in.register_receiver([this](WarpInstruction& wi) { receive(wi); });
  l1d.register_nb_transport_bw(this, &Lsu::nb_transport_bw, static_cast<int>(L1Port::Data));
  l1c.register_nb_transport_bw(this, &Lsu::nb_transport_bw, static_cast<int>(L1Port::Constant));
  l1t.register_nb_transport_bw(this, &Lsu::nb_transport_bw, static_cast<int>(L1Port::Texture));
  bypass.register_nb_transport_bw(this, &Lsu::nb_transport_bw, static_cast<int>(L1Port::Bypass));
  const std::size_t lanes = 32;
  global_pieces_.reserve(lanes * 8);
  shared_pieces_.reserve(lanes * 8);
  const_pieces_.reserve(lanes * 8);
  texture_pieces_.reserve(lanes * 8);
  lines_.reserve(lanes * 8);
  word_set_.resize(512, kNoWord);  // 2x a warp's words of ld.v4 (32 lanes x 5 words): no growth at run time
  to_send_.reserve(lanes * 8 * 3);
}

Lsu::~Lsu() = default;

void Lsu::set_data_prefetcher(mem::DataPrefetcherIF* prefetcher, mem::L1PrefetchIF* l1d,
                              std::function<bool(uint32_t)> cta_first_warp, bool first_lane_only) {
  prefetcher_ = prefetcher;
  l1d_prefetch_ = l1d;
  cta_first_warp_ = std::move(cta_first_warp);
  prefetch_first_lane_ = first_lane_only;
  prefetch_targets_.reserve(64);
}

void Lsu::end_of_elaboration() {
  // The status interfaces, resolved once (sc_port::operator-> checks the binding per call,
  // and Mascar reads the saturation flag every cycle).
  l1d_status_ = l1d_status.size() > 0 ? l1d_status.operator->() : nullptr;
  l1c_status_ = l1c_status.size() > 0 ? l1c_status.operator->() : nullptr;
  l1t_status_ = l1t_status.size() > 0 ? l1t_status.operator->() : nullptr;
  queue_->set_l1_status(l1d_status_);
  if (cfg_.retry_shortcut && l1d_retry.size() > 0) l1d_retry_ = l1d_retry.operator->();
}

tlm_utils::simple_initiator_socket_tagged<Lsu>& Lsu::socket(L1Port p) {
  switch (p) {
    case L1Port::Data: return l1d;
    case L1Port::Constant: return l1c;
    case L1Port::Texture: return l1t;
    case L1Port::Bypass: break;
  }
  return bypass;
}

bool Lsu::memory_saturated() const {
  if (l1d_status_ && l1d_status_->saturated()) return true;
  // The constant and texture caches are read-only and have no prefetcher: every MSHR entry
  // and miss-queue slot they hold belongs to an outstanding access of this LSU, so while
  // none is outstanding they are not saturated and are not asked (asking makes them catch up).
  if (outstanding_port_[static_cast<uint32_t>(L1Port::Constant)] > 0 && l1c_status_ && l1c_status_->saturated())
    return true;
  return outstanding_port_[static_cast<uint32_t>(L1Port::Texture)] > 0 && l1t_status_ && l1t_status_->saturated();
}

bool Lsu::can_accept() const {
  return !latch_ && free_slots_ > 0 && !queue_->blocks_new_instructions() && domain_.now() >= accept_from_;
}

void Lsu::receive(WarpInstruction& wi) {
  if (!can_accept())
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " seq " + std::to_string(wi.seq) +
                        " sent while the LSU cannot accept (pipeline rule 1)");
  latch_ = &wi;
  latch_arrival_ = domain_.now();
  accept_from_ = latch_arrival_ + place_.agen_slices;
  latch_prepared_ = false;
  wake_owner();
}

tlm::tlm_sync_enum Lsu::nb_transport_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                        sc_core::sc_time&) {
  const uint64_t now = domain_.now();
  if (ph != tlm::END_REQ && ph != tlm::BEGIN_RESP)
    throw LsuError(std::string(name()) + ": unexpected phase " + ph.get_name() + " from L1 port " +
                   std::to_string(id));
  if (!events_.can_accept(now))
    throw LsuError(std::string(name()) + ": more L1 events than requests outstanding (port " + std::to_string(id) +
                   ")");
  events_.push(Event{&gp, ph == tlm::END_REQ}, now);
  wake_owner();
  // A response ends at once: the LSU always has room for the answer to its own request.
  return ph == tlm::BEGIN_RESP ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
}

void Lsu::process_events(uint64_t cycle) {
  while (events_.ready(cycle)) {
    const Event e = events_.front();
    events_.pop(cycle);
    tlm::tlm_generic_payload& gp = *e.gp;
    const bool was_deferred = deferred_.gp == &gp;
    if (e.end_req) {
      if (!was_deferred) throw LsuError(std::string(name()) + ": END_REQ for a request that was not waiting for it");
      deferred_.gp = nullptr;
      if (!deferred_from_queue_) ++next_send_;
      accepted(gp);
      continue;
    }
    const MemExtension& ext = mem_ext(gp);
    if (ext.status != MemStatus::Ok) {  // refused after a withheld END_REQ
      if (!was_deferred) throw LsuError(std::string(name()) + ": refusal for a request that was not waiting");
      LsuRequest r = deferred_;
      deferred_.gp = nullptr;
      rejected(gp);
      r.nacked = last_refusal_nack_;
      r.refused = true;
      if (!deferred_from_queue_) to_send_[next_send_].refused = true;  // stays at the head if no queue takes it
      if (queue_->take(r, cycle)) {
        if (!deferred_from_queue_) ++next_send_;
      } else if (deferred_from_queue_) {
        throw LsuError(std::string(name()) + ": re-execution queue " + queue_->name() +
                       " refused back its own request");
      }
      continue;
    }
    if (was_deferred) {  // accepted and answered without a separate END_REQ
      deferred_.gp = nullptr;
      if (!deferred_from_queue_) ++next_send_;
      accepted(gp);
    }
    answered(gp);
  }
}

void Lsu::accepted(tlm::tlm_generic_payload& gp) {
  Link& link = *gp.get_extension<Link>();
  ++requests_;
  ++outstanding_;
  ++outstanding_port_[static_cast<uint32_t>(link.port)];
  Slot& s = slots_[link.slot];
  const bool all_sent = --s.unsent == 0;
  if (all_sent && sent_observer_) sent_observer_(*s.wi);
  if (link.data) {
    ++s.pending;
  } else {
    const uint32_t w = static_cast<uint32_t>(mem_ext(gp).warp);
    if (w >= pending_stores_.size()) pending_stores_.resize(w + 1, 0);
    ++pending_stores_[w];
    if (all_sent) note_if_finished(s);
  }
}

void Lsu::note_if_finished(const Slot& s) {
  if (!s.in_latch && s.unsent == 0 && s.pending == 0) ++finished_slots_;
}

void Lsu::answered(tlm::tlm_generic_payload& gp) {
  Link& link = *gp.get_extension<Link>();
  --outstanding_;
  --outstanding_port_[static_cast<uint32_t>(link.port)];
  if (link.data) {
    Slot& s = slots_[link.slot];
    if (--s.pending == 0) note_if_finished(s);
  } else {
    --pending_stores_[static_cast<uint32_t>(mem_ext(gp).warp)];
  }
  gp.release();
}

void Lsu::count_refusal(MemStatus status, ReservationFail cause) {
  reservation_fails_.add(fail_index(status, cause));
  last_refusal_nack_ = status == MemStatus::Nack;
}

void Lsu::rejected(tlm::tlm_generic_payload& gp) {
  MemExtension& ext = mem_ext(gp);
  count_refusal(ext.status, ext.fail_cause);
  ext.status = MemStatus::Ok;  // ready to be sent again
  ext.fail_cause = ReservationFail::None;
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

Lsu::SendResult Lsu::send(const LsuRequest& r, uint64_t cycle) {
  tlm::tlm_generic_payload& gp = *r.gp;
  if (r.refused && r.port == L1Port::Data && l1d_retry_) {
    const mem::RetryResult res = l1d_retry_->retry(gp, mem::AccessKey{r.address, r.bytes, r.kind, r.sm, r.warp});
    if (res.outcome == mem::RetryResult::Outcome::Refused) {  // the payload was left as it was
      count_refusal(res.status, res.cause);
      return SendResult::Rejected;
    }
    if (res.outcome == mem::RetryResult::Outcome::Accepted) {
      accepted(gp);
      return SendResult::Accepted;
    }
  }
  if (!r.refused) mem_ext(gp).issue_cycle = cycle;  // the first attempt: retries keep it
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = socket(r.port)->nb_transport_fw(gp, ph, t);
  if (s == tlm::TLM_ACCEPTED) return SendResult::Deferred;
  if (s == tlm::TLM_UPDATED) {
    if (ph == tlm::END_REQ) {
      accepted(gp);
      return SendResult::Accepted;
    }
    if (ph == tlm::BEGIN_RESP) {  // answered at once
      accepted(gp);
      answered(gp);
      return SendResult::Accepted;
    }
    throw LsuError(std::string(name()) + ": L1 answered BEGIN_REQ with phase " + ph.get_name());
  }
  // TLM_COMPLETED: refused (reservation fail / NACK), or done at once.
  if (mem_ext(gp).status != MemStatus::Ok) {
    rejected(gp);
    return SendResult::Rejected;
  }
  accepted(gp);
  answered(gp);
  return SendResult::Accepted;
}

void Lsu::send_requests(uint64_t cycle) {
  if (deferred_.gp) {
    ++l1_port_stall_cycles_;
    return;
  }
  for (uint32_t k = 0; k < cfg_.requests_per_cycle; ++k) {
    bool has_new = latch_ && latch_prepared_ && cycle >= latch_send_from_ && next_send_ < to_send_.size();
    // warp_hold = lsu: the request waits in the latch (§Z34) while the queue is served.
    if (has_new && hold_in_lsu_ && queue_->must_queue(to_send_[next_send_])) has_new = false;
    LsuRequest r;
    const bool from_queue = queue_->pick(has_new, cycle, r);
    if (!from_queue) {
      if (!has_new) return;
      r = to_send_[next_send_];
      if (queue_->must_queue(r)) {
        if (!queue_->take(r, cycle))
          throw LsuError(std::string(name()) + ": re-execution queue " + queue_->name() +
                         " asked for a request and refused it");
        ++next_send_;
        continue;
      }
    }
    switch (send(r, cycle)) {
      case SendResult::Accepted:
        if (!from_queue) ++next_send_;
        break;
      case SendResult::Deferred:
        deferred_ = r;
        deferred_from_queue_ = from_queue;
        return;
      case SendResult::Rejected:
        r.nacked = last_refusal_nack_;
        r.refused = true;
        if (!from_queue) to_send_[next_send_].refused = true;  // stays at the head if no queue takes it
        if (queue_->take(r, cycle)) {
          if (!from_queue) ++next_send_;
          break;
        }
        if (from_queue)
          throw LsuError(std::string(name()) + ": re-execution queue " + queue_->name() +
                         " refused back its own request");
        ++lsu_sat_stall_cycles_;  // the head stays; retried next cycle
        refused_kept_cycle_ = cycle;
        return;
    }
  }
}

void Lsu::complete(uint64_t cycle) {
  while (finished_slots_ > 0) {
    std::size_t best = slots_.size();
    for (std::size_t i = 0; i < slots_used_; ++i) {
      const Slot& s = slots_[i];
      if (!s.wi || s.in_latch || s.unsent > 0 || s.pending > 0 || s.bank_ready > cycle) continue;
      if (best == slots_.size() || s.wi->seq < slots_[best].wi->seq) best = i;
    }
    if (best == slots_.size()) return;
    if (!writeback_status->can_accept()) {
      ++writeback_stall_cycles_;
      return;
    }
    WarpInstruction* wi = slots_[best].wi;
    slots_[best] = Slot{};
    ++free_slots_;
    --finished_slots_;
    while (slots_used_ > 0 && !slots_[slots_used_ - 1].wi) --slots_used_;
    wi->complete_cycle = cycle;
    out.send(*wi);
  }
}

bool Lsu::tick(uint64_t cycle) {
  process_events(cycle);
  if (latch_ && !latch_prepared_ && cycle > latch_arrival_) prepare(cycle);
  if (latch_ && latch_prepared_) {
    send_requests(cycle);
    // A load's prefetches follow its own requests, so they never take an MSHR entry or a
    // miss-queue slot the load needs (001 Fig. 4.3 issues them in the same step).
    if (prefetch_pending_ && next_send_ == to_send_.size() && !deferred_.gp) issue_prefetches();
    if (next_send_ == to_send_.size() && !deferred_.gp && cycle >= latch_free_at_) {
      slots_[latch_slot_].in_latch = false;
      note_if_finished(slots_[latch_slot_]);
      latch_ = nullptr;
    }
  } else if (queue_->occupancy() > 0) {
    send_requests(cycle);
  }
  if (hold_in_lsu_ && latch_ && latch_prepared_ && next_send_ < to_send_.size() &&
      queue_->must_queue(to_send_[next_send_])) {
    held_cycle_ = cycle;
    ++*warp_hold_cycles_;
  }
  complete(cycle);
  // The LSU is awake whenever it can be stalled (a kept head or a queue holding entries).
  if (saturation_stalled(cycle)) ++saturation_stall_cycles_;
  // Busy while there is timed work; slots waiting only for L1 responses sleep (a
  // response wakes the owner).
  // Events already received count as work: a response that arrives in this cycle
  // before our tick must be processed next cycle even if the owner's wake() was
  // absorbed by this very tick.
  if (latch_ || deferred_.gp || queue_->occupancy() > 0 || !events_.empty()) return true;
  return finished_slots_ > 0;  // bank latency or writeback wait
}

bool Lsu::idle() const {
  if (latch_ || deferred_.gp || outstanding_ > 0 || !events_.empty() || queue_->occupancy() > 0) return false;
  return free_slots_ == slots_.size();
}

std::string Lsu::state_dump() const {
  if (idle()) return {};
  std::ostringstream os;
  os << name() << ": " << outstanding_ << " requests outstanding, queue " << queue_->occupancy();
  if (latch_) os << ", latch warp " << latch_->warp << " seq " << latch_->seq << " sent " << next_send_ << "/" << to_send_.size();
  if (deferred_.gp) os << ", waiting for END_REQ";
  for (const Slot& s : slots_)
    if (s.wi)
      os << " [warp " << s.wi->warp << " seq " << s.wi->seq << " unsent " << s.unsent << " pending " << s.pending
         << "]";
  return os.str();
}

}  // namespace gputlm::sm
