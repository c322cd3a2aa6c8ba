#include "core/tlm/protocol_checker.h"

#include <algorithm>
#include <sstream>

#include "core/tlm/mem_extension.h"

namespace gputlm {

namespace {
std::string describe(const tlm::tlm_generic_payload& gp) {
  std::ostringstream s;
  s << (gp.is_read() ? "read" : gp.is_write() ? "write" : "ignore") << " 0x" << std::hex
    << gp.get_address();
  if (const auto* ext = gp.get_extension<MemExtension>()) s << std::dec << " id " << ext->id;
  return s.str();
}
}  // namespace

ProtocolChecker::ProtocolChecker(sc_core::sc_module_name name, bool throw_on_violation)
    : TlmPassThrough(name), throw_(throw_on_violation) {}

void ProtocolChecker::violation(const tlm::tlm_generic_payload& gp, const std::string& rule) {
  std::string msg = std::string(name()) + ": TLM-2.0 base protocol violation at " +
                    sc_core::sc_time_stamp().to_string() + " (" + describe(gp) + "): " + rule;
  violations_.push_back(msg);
  if (throw_) SC_REPORT_ERROR("gputlm/protocol_checker", msg.c_str());
}

void ProtocolChecker::check_payload_attributes(const tlm::tlm_generic_payload& gp) {
  if (gp.get_data_length() == 0) violation(gp, "data length is 0");
  if (gp.get_data_ptr() == nullptr) violation(gp, "data pointer is null");
  if (gp.get_streaming_width() == 0) violation(gp, "streaming width is 0");
  if (gp.get_byte_enable_ptr() != nullptr && gp.get_byte_enable_length() == 0)
    violation(gp, "byte enable pointer set with byte enable length 0");
  if (gp.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE)
    violation(gp, "response status must be TLM_INCOMPLETE_RESPONSE when a request is sent");
}

void ProtocolChecker::before_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent) {
  ++calls_;
  if (sent == tlm::BEGIN_REQ) {
    if (!gp.has_mm()) violation(gp, "nb_transport with a payload that has no memory manager");
    if (state_.count(&gp)) violation(gp, "BEGIN_REQ for a transaction already in progress");
    if (request_in_progress_)
      violation(gp, "BEGIN_REQ before END_REQ of the previous request (" +
                        describe(*request_in_progress_) + ")");
    check_payload_attributes(gp);
    state_[&gp] = Stage::Request;
    request_in_progress_ = &gp;
  } else if (sent == tlm::END_RESP) {
    auto it = state_.find(&gp);
    if (it == state_.end() || it->second != Stage::Response)
      violation(gp, "END_RESP for a transaction with no response in progress");
    finish(gp);
  } else {
    violation(gp, std::string("phase ") + sent.get_name() + " sent on the forward path");
  }
}

void ProtocolChecker::after_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent,
                               const tlm::tlm_phase& ph, tlm::tlm_sync_enum r) {
  if (sent == tlm::END_RESP) {
    if (r == tlm::TLM_UPDATED) violation(gp, "target returned TLM_UPDATED to END_RESP");
    return;
  }
  if (sent != tlm::BEGIN_REQ) return;
  switch (r) {
    case tlm::TLM_ACCEPTED:
      break;
    case tlm::TLM_UPDATED:
      if (ph == tlm::END_REQ) {
        state_[&gp] = Stage::RequestAccepted;
        if (request_in_progress_ == &gp) request_in_progress_ = nullptr;
      } else if (ph == tlm::BEGIN_RESP) {
        begin_response(gp);
      } else {
        violation(gp, std::string("target returned TLM_UPDATED with phase ") + ph.get_name() +
                          " to BEGIN_REQ");
      }
      break;
    case tlm::TLM_COMPLETED:
      if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
        violation(gp, "target completed the transaction without setting a response status");
      finish(gp);
      break;
  }
}

void ProtocolChecker::begin_response(tlm::tlm_generic_payload& gp) {
  auto it = state_.find(&gp);
  if (it == state_.end()) {
    violation(gp, "BEGIN_RESP for a transaction that is not in progress");
    return;
  }
  if (it->second == Stage::Response) violation(gp, "BEGIN_RESP sent twice");
  if (response_in_progress_ && response_in_progress_ != &gp)
    violation(gp, "BEGIN_RESP before END_RESP of the previous response (" +
                      describe(*response_in_progress_) + ")");
  if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
    violation(gp, "BEGIN_RESP with response status still TLM_INCOMPLETE_RESPONSE");
  if (request_in_progress_ == &gp) request_in_progress_ = nullptr;  // implicit END_REQ
  it->second = Stage::Response;
  response_in_progress_ = &gp;
}

void ProtocolChecker::finish(tlm::tlm_generic_payload& gp) {
  state_.erase(&gp);
  if (request_in_progress_ == &gp) request_in_progress_ = nullptr;
  if (response_in_progress_ == &gp) response_in_progress_ = nullptr;
}

void ProtocolChecker::before_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent) {
  ++calls_;
  if (sent == tlm::END_REQ) {
    auto it = state_.find(&gp);
    if (it == state_.end() || it->second != Stage::Request)
      violation(gp, "END_REQ for a transaction that is not in its request phase");
    else
      it->second = Stage::RequestAccepted;
    if (request_in_progress_ == &gp) request_in_progress_ = nullptr;
  } else if (sent == tlm::BEGIN_RESP) {
    begin_response(gp);
  } else {
    violation(gp, std::string("phase ") + sent.get_name() + " sent on the backward path");
  }
}

void ProtocolChecker::after_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent,
                               const tlm::tlm_phase& ph, tlm::tlm_sync_enum r) {
  if (sent == tlm::END_REQ) {
    if (r != tlm::TLM_ACCEPTED) violation(gp, "initiator must return TLM_ACCEPTED to END_REQ");
  } else if (sent == tlm::BEGIN_RESP) {
    if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP))
      finish(gp);
    else if (r == tlm::TLM_UPDATED)
      violation(gp, std::string("initiator returned TLM_UPDATED with phase ") + ph.get_name() +
                        " to BEGIN_RESP");
  }
}

void ProtocolChecker::before_b(tlm::tlm_generic_payload& gp) {
  ++calls_;
  if (state_.count(&gp))
    violation(gp, "b_transport with a payload that is still in an nb_transport transaction");
  check_payload_attributes(gp);
}

void ProtocolChecker::after_b(tlm::tlm_generic_payload& gp, const sc_core::sc_time&) {
  if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
    violation(gp, "b_transport returned with response status TLM_INCOMPLETE_RESPONSE");
}

void ProtocolChecker::check_quiescent() {
  std::vector<const tlm::tlm_generic_payload*> open;
  for (const auto& kv : state_) open.push_back(kv.first);
  // Report in address order, not pointer order, so the output is the same every run.
  std::sort(open.begin(), open.end(), [](const auto* a, const auto* b) {
    return a->get_address() < b->get_address();
  });
  for (const auto* gp : open) violation(*gp, "transaction never finished");
}

}  // namespace gputlm
