#include "mem/l2/rop_delay.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputlm {

RopDelay::RopDelay(sc_core::sc_module_name name, uint32_t latency, uint32_t queue_size, const ClockDomain& domain)
    : sc_core::sc_module(name),
      in("in"),
      out("out"),
      latency_(latency),
      domain_(domain),
      end_reqs_(2),
      queue_(queue_size),
      process_("tick", domain, [this](uint64_t c) { return tick(c); }) {
  if (latency_ == 0) throw std::invalid_argument(std::string(this->name()) + ": latency must be at least 1");
  in.bind(*this);
  out.bind(*this);
}

bool RopDelay::has_room(uint64_t cycle) const {
  return queue_.free_slots() > (pop_cycle_ == cycle ? 1u : 0u);
}

tlm::tlm_sync_enum RopDelay::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                             sc_core::sc_time& t) {
  if (phase == tlm::BEGIN_REQ) {
    const uint64_t now = domain_.now();
    if (waiting_)
      throw std::runtime_error(std::string(name()) + ": BEGIN_REQ before END_REQ of the previous request");
    process_.wake();
    if (has_room(now)) {
      enter(gp, now);
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    waiting_ = &gp;
    waiting_since_ = now;
    return tlm::TLM_ACCEPTED;
  }
  return out->nb_transport_fw(gp, phase, t);  // END_RESP passes through
}

tlm::tlm_sync_enum RopDelay::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                             sc_core::sc_time& t) {
  if (phase == tlm::END_REQ || (phase == tlm::BEGIN_RESP && &gp == sending_)) {
    const uint64_t now = domain_.now();
    if (end_reqs_.can_accept(now)) end_reqs_.push(&gp, now);
    process_.wake();
    if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  }
  return in->nb_transport_bw(gp, phase, t);  // responses pass through
}

bool RopDelay::tick(uint64_t cycle) {
  bool work = false;
  while (end_reqs_.ready(cycle)) {
    if (end_reqs_.front() == sending_) sending_ = nullptr;
    end_reqs_.pop(cycle);
    work = true;
  }
  // To the bank: one request at a time, each after the bank's END_REQ for the previous.
  if (!sending_ && queue_.ready(cycle)) {
    tlm::tlm_generic_payload* gp = queue_.front();
    queue_.pop();
    pop_cycle_ = cycle;
    sending_ = gp;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = out->nb_transport_fw(*gp, ph, t);
    if (r == tlm::TLM_UPDATED && ph == tlm::END_REQ) sending_ = nullptr;
    else if (r != tlm::TLM_ACCEPTED)
      throw std::runtime_error(std::string(name()) + ": the L2 bank answered BEGIN_REQ with neither "
                               "TLM_ACCEPTED nor END_REQ");
    work = true;
  }
  // A request that found the queue full enters from the cycle after its arrival, once a
  // slot is free; its END_REQ goes back then.
  if (waiting_ && cycle > waiting_since_ && has_room(cycle)) {
    tlm::tlm_generic_payload* gp = waiting_;
    waiting_ = nullptr;
    enter(*gp, cycle);
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    in->nb_transport_bw(*gp, ph, t);
    work = true;
  }
  if (work || !end_reqs_.empty() || (waiting_ && has_room(cycle + 1))) return true;
  if (!sending_ && !queue_.empty()) process_.wake_at(queue_.head_ready_cycle());
  return false;
}

}  // namespace gputlm
