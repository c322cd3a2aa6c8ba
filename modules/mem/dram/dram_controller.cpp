#include "mem/dram/dram_controller.h"

#include <algorithm>

namespace gputlm {

DramController::DramController(sc_core::sc_module_name name, const DramConfig& cfg, const ClockDomain& domain,
                               stats::Group& parent)
    : sc_core::sc_module(name),
      in("in"),
      cfg_((cfg.validate(static_cast<const char*>(name)), cfg)),
      d_(DramDerivedTiming::from(cfg_)),
      domain_(domain),
      mapping_(cfg_.address_mapping, std::string(name) + ".address_mapping"),
      scheduler_(make_dram_scheduler(cfg_.scheduler, std::string(name) + ".scheduler")),
      events_(4),
      data_(std::max(cfg_.timing.tCL, cfg_.timing.tWL) + d_.burst + 2),
      delayed_(std::max<uint32_t>(1, cfg_.latency_queue)),
      returns_(cfg_.return_queue_size),
      stats_(parent, basename()),
      reads_(stats_, "reads", "read requests answered"),
      writes_(stats_, "writes", "write requests answered"),
      row_hits_(stats_, "row_hits", "requests whose row was open when they were served"),
      row_misses_(stats_, "row_misses", "requests that activated a precharged bank"),
      row_conflicts_(stats_, "row_conflicts", "requests that precharged another row, then activated theirs"),
      activates_(stats_, "activates", "ACT commands"),
      precharges_(stats_, "precharges", "PRE commands"),
      read_commands_(stats_, "read_commands", "RD commands (one per atom of a read)"),
      write_commands_(stats_, "write_commands", "WR commands (one per atom of a write)"),
      data_bus_busy_(stats_, "data_bus_busy_cycles", "cycles the data bus carried a burst"),
      cycles_(stats_, "cycles", "DRAM cycles elapsed (accounted up to the last tick or update_stats())"),
      queue_full_(stats_, "queue_full", "requests that found the queue full (END_REQ withheld)"),
      latency_(stats_, "latency", "DRAM cycles from accepting a request to its response"),
      occupancy_(stats_, "queue_occupancy", "requests in the scheduler queue, per cycle", 0,
                 static_cast<double>(cfg_.queue_size + 1), cfg_.queue_size + 1),
      process_("tick", domain, [this](uint64_t c) { return tick(c); }) {
  in.bind(*this);
  if (cfg_.timing_checker) checker_ = std::make_unique<DramTimingChecker>(cfg_, std::string(this->name()));
  const std::size_t capacity = cfg_.latency_queue + cfg_.queue_size + cfg_.banks + cfg_.return_queue_size + 1;
  slots_.resize(capacity);
  for (std::size_t i = capacity; i-- > 0;) free_slots_.push_back(static_cast<uint32_t>(i));
  queue_.reserve(cfg_.queue_size);
  banks_.resize(cfg_.banks);
  per_bank_ = scheduler_->per_bank();
  assign_dirty_.assign((cfg_.banks + 63) / 64, 0);
}

double DramController::bandwidth_utilization() const {
  const uint64_t c = cycles_.value(stats::View::Total);
  return c == 0 ? 0.0 : static_cast<double>(data_bus_busy_.value(stats::View::Total)) / static_cast<double>(c);
}

void DramController::update_stats() { account(domain_.now()); }

void DramController::account(uint64_t cycle) {
  if (cycle <= accounted_cycle_) return;
  occupancy_.sample(static_cast<double>(queue_.size()), cycle - accounted_cycle_);
  cycles_.add(cycle - accounted_cycle_);
  accounted_cycle_ = cycle;
}

tlm::tlm_sync_enum DramController::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_core::sc_time&) {
  const uint64_t now = domain_.now();
  if (phase != tlm::BEGIN_REQ && phase != tlm::END_RESP)
    SC_REPORT_ERROR(name(), ("unexpected phase " + std::string(phase.get_name())).c_str());
  if (!events_.can_accept(now)) SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ of the previous request");
  if (phase == tlm::BEGIN_REQ && gp.get_data_length() == 0)
    SC_REPORT_ERROR(name(), "request with data length 0");
  events_.push(Event{&gp, phase == tlm::END_RESP}, now);
  process_.wake();
  return tlm::TLM_ACCEPTED;
}

void DramController::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool DramController::tick(uint64_t n) {
  account(n);
  bool work = false;
  while (events_.ready(n)) {
    const Event e = events_.front();
    events_.pop(n);
    if (e.end_resp) {
      if (e.gp != responding_) SC_REPORT_ERROR(name(), "END_RESP for a response not in progress");
      responding_ = nullptr;
    } else {
      waiting_ = e.gp;
    }
    work = true;
  }
  if (data_.ready(n)) {
    retire_data(n);
    work = true;
  }
  work |= send_response(n);
  work |= release_delayed(n);
  work |= accept(n);
  work |= assign_banks();
  work |= issue_command(n);
  if (work) return true;

  // Nothing happened this cycle: sleep until the first cycle something can.
  uint64_t next = kNever;
  // An event that arrived during this edge (before or after this tick ran) is seen next edge.
  if (!events_.empty()) next = n + 1;
  if (!data_.empty()) next = std::min(next, data_.head_ready_cycle());
  // A ready head blocked by a full scheduler queue waits for a bank (work above) to free it.
  if (!delayed_.empty()) next = std::min(next, std::max(delayed_.head_ready_cycle(), n + 1));
  if (!responding_ && !returns_.empty()) next = std::min(next, returns_.head_ready_cycle());
  next = std::min(next, earliest_command_);  // issue_command() looked at every bank
  if (next != kNever) process_.wake_at(next);
  return false;
}

void DramController::retire_data(uint64_t n) {
  while (data_.ready(n)) {
    const uint32_t slot = data_.front();
    data_.pop();
    Request& r = slots_[slot];
    if (++r.done == r.atoms) {
      --returns_reserved_;
      returns_.push(slot, cfg_.latency_queue > 0 ? n : std::max(n, r.arrival + cfg_.min_latency));
    }
  }
}

bool DramController::send_response(uint64_t n) {
  if (responding_ || !returns_.ready(n)) return false;
  const uint32_t slot = returns_.front();
  returns_.pop();
  Request& r = slots_[slot];
  tlm::tlm_generic_payload& gp = *r.gp;
  if (r.write) ++writes_; else ++reads_;
  latency_.sample(static_cast<double>(n - r.arrival));
  r.gp = nullptr;
  free_slots_.push_back(slot);
  --in_service_;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  responding_ = &gp;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum ret = in->nb_transport_bw(gp, phase, t);
  if (ret == tlm::TLM_COMPLETED || (ret == tlm::TLM_UPDATED && phase == tlm::END_RESP)) responding_ = nullptr;
  return true;
}

bool DramController::release_delayed(uint64_t n) {
  if (!delayed_.ready(n) || queue_.size() >= cfg_.queue_size) return false;
  const uint32_t slot = delayed_.front();
  delayed_.pop();
  const Request& r = slots_[slot];
  queue_.push_back(DramQueuedRequest{slot, r.at.bank, r.at.row, r.write, n});
  bank_changed(r.at.bank);
  return true;
}

bool DramController::accept(uint64_t n) {
  if (!waiting_) return false;
  const bool delay = cfg_.latency_queue > 0;
  if (delay ? delayed_.full() : queue_.size() >= cfg_.queue_size) {
    if (!waiting_counted_) ++queue_full_;
    waiting_counted_ = true;
    return false;
  }
  waiting_counted_ = false;
  tlm::tlm_generic_payload& gp = *waiting_;
  waiting_ = nullptr;
  const uint32_t slot = free_slots_.back();
  free_slots_.pop_back();
  Request& r = slots_[slot];
  r = Request{};
  r.gp = &gp;
  r.at = mapping_.decode(channel_map_->local_address(gp.get_address()));
  r.write = gp.is_write();
  r.atoms = (gp.get_data_length() + cfg_.atom_bytes() - 1) / cfg_.atom_bytes();
  r.arrival = n;
  if (delay) {
    delayed_.push(slot, n + cfg_.min_latency);
  } else {
    queue_.push_back(DramQueuedRequest{slot, r.at.bank, r.at.row, r.write, n});
    bank_changed(r.at.bank);
  }
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  in->nb_transport_bw(gp, phase, t);
  return true;
}

bool DramController::assign_banks() {
  // A policy's choice for a free bank depends only on the queue and that bank's open
  // row, which stay the same until a request arrives or a bank becomes free.
  if (!assign_pending_) return false;
  assign_pending_ = false;
  bool work = false;
  if (per_bank_) {
    // Only banks that changed, in ascending order as the full loop: a bank's pick depends
    // on its own requests alone, so the others' picks stand (and were "none" if free).
    for (std::size_t w = 0; w < assign_dirty_.size(); ++w) {
      for (uint64_t m = assign_dirty_[w]; m != 0; m &= m - 1) {
        const uint32_t j = static_cast<uint32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(m)));
        if (!queue_.empty() && assign_bank(j)) work = true;
      }
      assign_dirty_[w] = 0;
    }
    return work;
  }
  for (uint32_t j = 0; j < banks_.size() && !queue_.empty(); ++j)
    if (assign_bank(j)) work = true;
  return work;
}

bool DramController::assign_bank(uint32_t j) {
  Bank& b = banks_[j];
  if (b.request != kNoRequest) return false;
  const std::size_t pos = scheduler_->pick(queue_, DramBankView{j, b.open, b.row});
  if (pos == DramSchedulerIF::kNone) return false;
  b.request = queue_[pos].slot;
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(pos));
  ++in_service_;
  return true;
}

DramCommand DramController::next_command(uint32_t j, uint64_t n, uint64_t& ready) const {
  const Bank& b = banks_[j];
  const Request& r = slots_[b.request];
  if (!b.open) {
    ready = std::max({b.act_ready, rrd_ready_, n});
    return DramCommand::Activate;
  }
  if (b.row != r.at.row) {
    ready = std::max(b.pre_ready, n);
    return DramCommand::Precharge;
  }
  // A request's first column command needs a return-queue slot; without one, wait for
  // a response to leave (which is work, so no timer is needed).
  if (r.issued == 0 && returns_.size() + returns_reserved_ >= returns_.capacity()) {
    ready = kNever;
    return r.write ? DramCommand::Write : DramCommand::Read;
  }
  if (r.write) {
    const uint64_t bus = wr_bus_ready_;
    ready = std::max({b.wr_ready, ccd_ready_, rtw_ready_, bus, n});
    return DramCommand::Write;
  }
  ready = std::max({b.rd_ready, ccd_ready_, wtr_ready_, rd_bus_ready_, n});
  return DramCommand::Read;
}

bool DramController::issue_command(uint64_t n) {
  const auto nb = static_cast<uint32_t>(banks_.size());
  earliest_command_ = kNever;
  for (uint32_t k = 0; k < nb; ++k) {
    const uint32_t j = (prio_ + k) % nb;
    if (banks_[j].request == kNoRequest) continue;
    uint64_t ready = kNever;
    const DramCommand cmd = next_command(j, n, ready);
    if (ready > n) {
      earliest_command_ = std::min(earliest_command_, ready);
      continue;
    }
    issue(cmd, j, n);
    return true;  // one command per cycle
  }
  return false;
}

void DramController::issue(DramCommand cmd, uint32_t j, uint64_t n) {
  Bank& b = banks_[j];
  const uint32_t slot = b.request;
  Request& r = slots_[slot];
  const DramTimingConfig& t = cfg_.timing;
  if (checker_) checker_->observe(cmd, j, r.at.row, n);
  if (record_) commands_.push_back(DramCommandRecord{cmd, j, r.at.row, n});
  switch (cmd) {
    case DramCommand::Activate:
      b.open = true;
      b.row = r.at.row;
      b.rd_ready = n + t.tRCD;
      b.wr_ready = n + d_.tRCDWR;
      b.pre_ready = n + t.tRAS;
      b.act_ready = n + t.tRC;
      rrd_ready_ = n + t.tRRD;
      r.activated = true;
      prio_ = (j + 1) % banks_.size();
      ++activates_;
      break;
    case DramCommand::Precharge:
      b.open = false;
      b.act_ready = std::max(b.act_ready, n + t.tRP);
      r.precharged = true;
      prio_ = (j + 1) % banks_.size();
      ++precharges_;
      break;
    case DramCommand::Read:
    case DramCommand::Write: {
      if (r.issued == 0) {
        ++returns_reserved_;
        if (!r.activated) ++row_hits_;
        else if (r.precharged) ++row_conflicts_;
        else ++row_misses_;
      }
      ++r.issued;
      ccd_ready_ = n + t.tCCD;
      uint64_t bus_free;
      if (cmd == DramCommand::Read) {
        bus_free = n + t.tCL + d_.burst;
        rtw_ready_ = std::max(rtw_ready_, n + d_.tRTW);
        b.pre_ready = std::max(b.pre_ready, n + t.tRTP);
        ++read_commands_;
      } else {
        bus_free = n + t.tWL + d_.burst;
        wtr_ready_ = std::max(wtr_ready_, n + d_.tWTR);
        b.pre_ready = std::max(b.pre_ready, n + d_.tWTP);
        ++write_commands_;
      }
      // The next burst may start when this one ends: a read at m has data at m + tCL.
      rd_bus_ready_ = bus_free > t.tCL ? bus_free - t.tCL : 0;
      wr_bus_ready_ = bus_free > t.tWL ? bus_free - t.tWL : 0;
      data_bus_busy_.add(d_.burst);
      data_.push(slot, bus_free);
      if (r.issued == r.atoms) {
        b.request = kNoRequest;  // the bank may take its next request
        bank_changed(j);
      }
      break;
    }
  }
}

}  // namespace gputlm
