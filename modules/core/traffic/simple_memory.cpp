#include "core/traffic/simple_memory.h"

#include <algorithm>
#include <cstring>

namespace gputlm {

SimpleMemory::SimpleMemory(sc_core::sc_module_name name, const SimpleMemoryConfig& cfg,
                           const ClockDomain& domain, stats::Group& parent, BackingStore* store)
    : sc_core::sc_module(name),
      in("in"),
      cfg_(cfg),
      domain_(domain),
      store_(store),
      requests_(1),
      pipeline_(cfg.queue_size),
      end_resps_(1),
      stats_(parent, basename()),
      reads_(stats_, "reads", "read requests served"),
      writes_(stats_, "writes", "write requests served"),
      stalls_(stats_, "backpressure_cycles", "cycles a request waited for queue space (END_REQ withheld)"),
      occupancy_(stats_, "queue_occupancy", "requests held, averaged over cycles"),
      process_("tick", domain, [this](uint64_t c) { return tick(c); }) {
  in.bind(*this);
}

void SimpleMemory::access(tlm::tlm_generic_payload& gp) {
  if (gp.is_write()) ++writes_; else ++reads_;
  if (store_) {
    if (gp.is_write())
      store_->write(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
    else if (gp.is_read())
      store_->read(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum SimpleMemory::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                 sc_core::sc_time&) {
  const uint64_t now = domain_.now();
  if (phase == tlm::BEGIN_REQ) {
    // The base protocol allows one request in the request phase per socket; the
    // one-entry buffer holds it until our next edge decides.
    if (!requests_.can_accept(now))
      SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ of the previous request");
    requests_.push(&gp, now);
  } else if (phase == tlm::END_RESP) {
    end_resps_.push(&gp, now);
  } else {
    SC_REPORT_ERROR(name(), ("unexpected phase " + std::string(phase.get_name())).c_str());
  }
  process_.wake();
  return tlm::TLM_ACCEPTED;
}

bool SimpleMemory::tick(uint64_t cycle) {
  // Time-weighted occupancy: the queue held pipeline_.size() entries since the last tick.
  if (cycle > last_tick_) occupancy_.sample(static_cast<double>(pipeline_.size()), cycle - last_tick_);
  last_tick_ = cycle;
  // END_RESP frees the response channel.
  while (end_resps_.ready(cycle)) {
    if (end_resps_.front() == responding_) responding_ = nullptr;
    end_resps_.pop(cycle);
  }
  // Accept the waiting request when the pipeline has room; END_REQ tells the initiator.
  if (!blocked_ && requests_.ready(cycle)) {
    blocked_ = requests_.front();
    blocked_since_ = cycle;
    requests_.pop(cycle);
  }
  if (blocked_) {
    if (!pipeline_.full()) {
      stalls_.add(cycle - blocked_since_);
      pipeline_.push(blocked_, cycle + cfg_.latency);
      tlm::tlm_generic_payload* gp = blocked_;
      blocked_ = nullptr;
      tlm::tlm_phase ph = tlm::END_REQ;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      in->nb_transport_bw(*gp, ph, t);
    }
  }
  // One response per cycle, only when the previous one has ended.
  if (!responding_ && pipeline_.ready(cycle)) {
    tlm::tlm_generic_payload* gp = pipeline_.front();
    pipeline_.pop();
    access(*gp);
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    responding_ = gp;
    const tlm::tlm_sync_enum r = in->nb_transport_bw(*gp, ph, t);
    if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP)) responding_ = nullptr;
  }
  if (!requests_.empty() || !end_resps_.empty()) return true;  // arrivals to handle
  if (blocked_ && !pipeline_.full()) return true;               // a slot freed this cycle
  // Otherwise nothing changes until the head of the pipeline is due (a response, which
  // also frees the slot a blocked request waits for), or until END_RESP arrives and
  // wakes us. Sleep until then.
  if (!pipeline_.empty() && !responding_) process_.wake_at(std::max(cycle + 1, pipeline_.head_ready_cycle()));
  return false;
}

void SimpleMemory::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  access(gp);
  t += domain_.period() * cfg_.latency;
}

unsigned int SimpleMemory::transport_dbg(tlm::tlm_generic_payload& gp) {
  if (!store_) return 0;
  if (gp.is_write()) store_->write(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
  else store_->read(gp.get_address(), gp.get_data_ptr(), gp.get_data_length());
  return gp.get_data_length();
}

}  // namespace gputlm
