#include "scripted_initiator.h"

#include <algorithm>
#include <stdexcept>

#include "core/random/splitmix64.h"

namespace gputlm::tb {

ScriptedInitiator::ScriptedInitiator(sc_core::sc_module_name name, const ClockDomain& domain,
                                     std::vector<ScriptedRequest> script, InitiatorOptions options)
    : sc_core::sc_module(name),
      out("out"),
      domain_(domain),
      script_(std::move(script)),
      opt_(options),
      pool_(options.data_bytes, std::string(basename()) + ".pool"),
      records_(script_.size()),
      events_(2 * options.max_outstanding + 2),
      rng_(options.seed * 0x9E3779B97F4A7C15ull + 7),
      process_("tick", domain, [this](uint64_t c) { return tick(c); }, !script_.empty()) {
  out.bind(*this);
  sequence_.reserve(script_.size());  // no allocation while the test runs (allocation tests)
}

uint64_t ScriptedInitiator::random() { return SplitMix64::step(rng_); }

tlm::tlm_sync_enum ScriptedInitiator::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                      sc_core::sc_time&) {
  // Times are recorded here; state changes wait for our next edge (events_), so the
  // driver behaves the same whatever order SystemC runs processes in.
  const uint64_t now = domain_.now();
  if (phase == tlm::END_REQ) {
    RequestRecord& r = records_[index_.at(&gp, name())];
    r.accepted = sc_core::sc_time_stamp();
    r.has_accepted = true;
    events_.push(Event{&gp, Event::EndReq}, now + 1);
    process_.wake();
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    const std::size_t k = index_.take(&gp, name());
    RequestRecord& r = records_[k];
    if (!r.has_accepted) {  // BEGIN_RESP implies END_REQ
      r.accepted = sc_core::sc_time_stamp();
      r.has_accepted = true;
      events_.push(Event{&gp, Event::EndReq}, now + 1);
    }
    if (r.has_response) SC_REPORT_ERROR(name(), "two responses for one request");
    if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) SC_REPORT_ERROR(name(), "response status is not OK");
    r.responded = sc_core::sc_time_stamp();
    r.has_response = true;
    r.response_order = responses_++;
    sequence_.push_back(k);
    process_.wake();
    const bool delay = opt_.end_resp_delay_max > 0 &&
                       static_cast<double>(random() % 1000000) < opt_.end_resp_delay_probability * 1e6;
    if (!delay) {
      events_.push(Event{&gp, Event::Done}, now + 1);
      return tlm::TLM_COMPLETED;
    }
    events_.push(Event{&gp, Event::SendEndResp}, now + 1 + random() % opt_.end_resp_delay_max);
    return tlm::TLM_ACCEPTED;
  }
  SC_REPORT_ERROR(name(), "unexpected phase on the backward path");
  return tlm::TLM_ACCEPTED;
}

bool ScriptedInitiator::tick(uint64_t cycle) {
  // Events are not in ready order (END_RESP delays differ): scan them all.
  for (std::size_t i = 0; i < events_.size();) {
    if (events_.ready_cycle_at(i) > cycle) {
      ++i;
      continue;
    }
    const Event e = events_.at(i);
    events_.erase(i);
    if (e.kind == Event::EndReq) {
      waiting_end_req_ = false;
    } else {
      if (e.kind == Event::SendEndResp) {
        tlm::tlm_phase ph = tlm::END_RESP;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        out->nb_transport_fw(*e.gp, ph, t);
      }
      --outstanding_;
      e.gp->release();
    }
  }
  if (!waiting_end_req_ && next_ < script_.size() && outstanding_ < opt_.max_outstanding &&
      script_[next_].not_before <= cycle) {
    const ScriptedRequest& s = script_[next_];
    if (s.bytes > opt_.data_bytes) throw std::runtime_error(std::string(name()) + ": request larger than data_bytes");
    tlm::tlm_generic_payload* gp = pool_.allocate();
    gp->acquire();
    gp->set_address(s.address);
    gp->set_command(s.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp->set_data_length(s.bytes);
    gp->set_streaming_width(s.bytes);
    mem_ext(*gp).issue_cycle = cycle;
    mem_ext(*gp).sm = opt_.sm;
    mem_ext(*gp).kind = s.write ? AccessKind::Store : AccessKind::Load;
    index_.insert(gp, static_cast<uint32_t>(next_));
    RequestRecord& r = records_[next_];
    r.sent = sc_core::sc_time_stamp();
    r.has_sent = true;
    ++next_;
    ++outstanding_;
    waiting_end_req_ = true;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum ret = out->nb_transport_fw(*gp, ph, t);
    if (ret == tlm::TLM_UPDATED && ph == tlm::END_REQ) {
      r.accepted = sc_core::sc_time_stamp();
      r.has_accepted = true;
      waiting_end_req_ = false;
    } else if (ret != tlm::TLM_ACCEPTED) {
      throw std::runtime_error(std::string(name()) + ": target completed or refused a request");
    }
  }
  uint64_t next = ~uint64_t{0};
  for (std::size_t i = 0; i < events_.size(); ++i) next = std::min(next, events_.ready_cycle_at(i));
  if (!waiting_end_req_ && next_ < script_.size() && outstanding_ < opt_.max_outstanding)
    next = std::min(next, std::max(script_[next_].not_before, cycle + 1));
  if (next != ~uint64_t{0}) process_.wake_at(next);
  return false;
}

}  // namespace gputlm::tb
