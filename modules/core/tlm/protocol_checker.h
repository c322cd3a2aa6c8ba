// A TLM-2.0 base-protocol checker insertable between any initiator and target
// (architecture §4). It forwards every call unchanged and checks the rules of the base
// protocol: phase sequencing per transaction, one request in the request phase at a
// time (END_REQ before the next BEGIN_REQ), one response in the response phase at a
// time (END_RESP before the next BEGIN_RESP), legal return values, a response status
// set before a response is seen, payload attribute rules, b_transport rules.
//
// gputlm's convention for a target that refuses a request it cannot reserve (an L1
// without a free MSHR, Mascar's NACK) is legal base protocol: nb_transport_fw returns
// TLM_COMPLETED at once with TLM_OK_RESPONSE and MemExtension::status set.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/tlm/pass_through.h"

namespace gputlm {

class ProtocolChecker : public TlmPassThrough {
 public:
  // throw_on_violation: report each violation with SC_REPORT_ERROR (which throws by
  // SystemC's default); otherwise only record it in violations().
  explicit ProtocolChecker(sc_core::sc_module_name name, bool throw_on_violation = true);

  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t checked_calls() const { return calls_; }
  // Transactions begun and not finished (a leak at the end of a test is a violation).
  std::size_t in_flight() const { return state_.size(); }
  void check_quiescent();  // records a violation for each unfinished transaction

 protected:
  void before_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent) override;
  void after_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent, const tlm::tlm_phase& phase,
                tlm::tlm_sync_enum ret) override;
  void before_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent) override;
  void after_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent, const tlm::tlm_phase& phase,
                tlm::tlm_sync_enum ret) override;
  void before_b(tlm::tlm_generic_payload& gp) override;
  void after_b(tlm::tlm_generic_payload& gp, const sc_core::sc_time& t) override;

 private:
  enum class Stage { Request, RequestAccepted, Response };
  void violation(const tlm::tlm_generic_payload& gp, const std::string& rule);
  void check_payload_attributes(const tlm::tlm_generic_payload& gp);
  void begin_response(tlm::tlm_generic_payload& gp);
  void finish(tlm::tlm_generic_payload& gp);

  bool throw_;
  std::vector<std::string> violations_;
  uint64_t calls_ = 0;
  // Keyed by payload address only to find the state; results never depend on its order.
  std::map<const tlm::tlm_generic_payload*, Stage> state_;
  const tlm::tlm_generic_payload* request_in_progress_ = nullptr;
  const tlm::tlm_generic_payload* response_in_progress_ = nullptr;
};

}  // namespace gputlm
