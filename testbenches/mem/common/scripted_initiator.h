// Testbench driver for any memory-side TLM-2.0 AT target: sends a script of requests
// (address, read/write, size, earliest cycle) with at most `max_outstanding` in
// flight, obeys END_REQ, and applies random back-pressure on responses (END_RESP
// withheld for a random number of cycles; fixed seed, deterministic). It records the
// simulated time of every protocol event per request so tests can assert exact cycles.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/tlm/payload_pool.h"
#include "mem/interconnect/route_table.h"

namespace gputlm::tb {

struct ScriptedRequest {
  uint64_t address = 0;
  bool write = false;
  uint32_t bytes = 128;
  uint64_t not_before = 0;  // earliest cycle (driver clock) to send it
};

struct RequestRecord {
  static constexpr uint64_t kNever = ~uint64_t{0};
  sc_core::sc_time sent, accepted, responded;  // BEGIN_REQ, END_REQ, BEGIN_RESP
  bool has_sent = false, has_accepted = false, has_response = false;
  uint64_t response_order = kNever;  // 0 for the first response received, ...
};

struct InitiatorOptions {
  uint32_t max_outstanding = 1;
  uint32_t end_resp_delay_max = 0;  // 0: END_RESP at once (TLM_COMPLETED)
  double end_resp_delay_probability = 0.0;
  uint64_t seed = 1;
  uint32_t data_bytes = 128;
  int32_t sm = -1;  // written to MemExtension::sm of every request
};

class ScriptedInitiator : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<> out;

  ScriptedInitiator(sc_core::sc_module_name name, const ClockDomain& domain, std::vector<ScriptedRequest> script,
                    InitiatorOptions options = {});

  bool done() const { return responses_ == script_.size(); }
  std::size_t responses() const { return responses_; }
  const std::vector<RequestRecord>& records() const { return records_; }
  const std::vector<ScriptedRequest>& script() const { return script_; }
  // Index in the script of the i-th response received.
  const std::vector<std::size_t>& response_sequence() const { return sequence_; }
  const ClockedProcess& process() const { return process_; }
  uint64_t cycle_of(const sc_core::sc_time& t) const { return domain_.cycle_at(t); }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  bool tick(uint64_t cycle);
  uint64_t random();
  struct Event {
    enum Kind : uint8_t { EndReq, Done, SendEndResp };
    tlm::tlm_generic_payload* gp = nullptr;
    Kind kind = EndReq;
  };

  const ClockDomain& domain_;
  std::vector<ScriptedRequest> script_;
  InitiatorOptions opt_;
  PayloadPool pool_;
  RouteTable index_;
  std::vector<RequestRecord> records_;
  std::vector<std::size_t> sequence_;
  std::size_t next_ = 0, responses_ = 0, outstanding_ = 0;
  bool waiting_end_req_ = false;
  CycleQueue<Event> events_;
  uint64_t rng_;
  ClockedProcess process_;
};

}  // namespace gputlm::tb
