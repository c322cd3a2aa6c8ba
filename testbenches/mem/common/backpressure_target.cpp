#include "backpressure_target.h"

#include <algorithm>

#include "core/random/splitmix64.h"
#include "core/tlm/mem_extension.h"

namespace gputlm::tb {

BackpressureTarget::BackpressureTarget(sc_core::sc_module_name name, const ClockDomain& domain,
                                       TargetOptions options)
    : sc_core::sc_module(name),
      in("in"),
      domain_(domain),
      opt_(options),
      events_(4),
      pipe_(options.pipeline),
      rng_(options.seed * 0xD1B54A32D192ED03ull + 3),
      process_("tick", domain, [this](uint64_t c) { return tick(c); }) {
  in.bind(*this);
  arrivals_.reserve(1 << 16);  // no allocation while a test runs (allocation tests)
}

uint64_t BackpressureTarget::random() { return SplitMix64::step(rng_); }

tlm::tlm_sync_enum BackpressureTarget::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                       sc_core::sc_time&) {
  const uint64_t now = domain_.now();
  if (phase == tlm::BEGIN_REQ) {
    const MemExtension* ext = gp.get_extension<MemExtension>();
    arrivals_.push_back(Arrival{&gp, gp.get_address(), ext ? ext->id : 0, ext ? ext->sm : -1,
                                sc_core::sc_time_stamp()});
  } else if (phase != tlm::END_RESP) {
    SC_REPORT_ERROR(name(), "unexpected phase on the forward path");
  }
  if (!events_.can_accept(now)) SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ");
  events_.push(Event{&gp, phase == tlm::END_RESP}, now);
  process_.wake();
  return tlm::TLM_ACCEPTED;
}

bool BackpressureTarget::tick(uint64_t cycle) {
  while (events_.ready(cycle)) {
    const Event e = events_.front();
    events_.pop(cycle);
    if (e.end_resp) {
      if (e.gp != responding_) SC_REPORT_ERROR(name(), "END_RESP for a response not in progress");
      responding_ = nullptr;
    } else {
      waiting_ = e.gp;
      uint64_t delay = 0;
      if (opt_.end_req_delay_max > 0 &&
          static_cast<double>(random() % 1000000) < opt_.end_req_delay_probability * 1e6)
        delay = 1 + random() % opt_.end_req_delay_max;
      accept_at_ = std::max(cycle + delay, opt_.block_until);
    }
  }
  if (waiting_ && accept_at_ <= cycle && !pipe_.full()) {
    tlm::tlm_generic_payload* gp = waiting_;
    waiting_ = nullptr;
    pipe_.push(gp, cycle + opt_.latency);
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    in->nb_transport_bw(*gp, ph, t);
  }
  if (!responding_ && pipe_.ready(cycle)) {
    tlm::tlm_generic_payload* gp = pipe_.front();
    pipe_.pop();
    gp->set_response_status(tlm::TLM_OK_RESPONSE);
    if (MemExtension* ext = gp->get_extension<MemExtension>()) ext->reply_parts = opt_.reply_parts;
    ++responses_;
    responding_ = gp;
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = in->nb_transport_bw(*gp, ph, t);
    if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP)) responding_ = nullptr;
  }
  uint64_t next = ~uint64_t{0};
  if (!events_.empty()) next = cycle + 1;
  if (waiting_ && !pipe_.full()) next = std::min(next, std::max(accept_at_, cycle + 1));
  if (!responding_ && !pipe_.empty()) next = std::min(next, std::max(pipe_.head_ready_cycle(), cycle + 1));
  if (next != ~uint64_t{0}) process_.wake_at(next);
  return false;
}

}  // namespace gputlm::tb
