// Testbench memory target with random back-pressure: END_REQ is withheld for a random
// number of cycles (fixed seed) or until a given cycle, then the request is answered
// `latency` cycles later, one response at a time (END_RESP before the next BEGIN_RESP).
// It records every arrival (payload, address, MemExtension id/sm, time) so tests can
// check routing and per-flow order against a golden model.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/clock/input_buffer.h"

namespace gputlm::tb {

struct TargetOptions {
  uint32_t latency = 10;
  uint32_t end_req_delay_max = 0;  // 0: END_REQ at the first edge after arrival
  double end_req_delay_probability = 0.0;
  uint64_t block_until = 0;        // no END_REQ before this cycle
  uint32_t pipeline = 64;          // accepted requests held at most
  uint8_t reply_parts = 1;         // written to MemExtension::reply_parts of every reply
  uint64_t seed = 1;
};

struct Arrival {
  const tlm::tlm_generic_payload* gp;
  uint64_t address;
  uint64_t id;
  int32_t sm;
  sc_core::sc_time time;
};

class BackpressureTarget : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> in;

  BackpressureTarget(sc_core::sc_module_name name, const ClockDomain& domain, TargetOptions options = {});

  const std::vector<Arrival>& arrivals() const { return arrivals_; }
  uint64_t responses() const { return responses_; }
  const ClockedProcess& process() const { return process_; }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) override {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

 private:
  struct Event {
    tlm::tlm_generic_payload* gp = nullptr;
    bool end_resp = false;
  };
  bool tick(uint64_t cycle);
  uint64_t random();

  const ClockDomain& domain_;
  TargetOptions opt_;
  InputBuffer<Event> events_;
  tlm::tlm_generic_payload* waiting_ = nullptr;
  uint64_t accept_at_ = 0;
  CycleQueue<tlm::tlm_generic_payload*> pipe_;
  tlm::tlm_generic_payload* responding_ = nullptr;
  std::vector<Arrival> arrivals_;
  uint64_t responses_ = 0, rng_;
  ClockedProcess process_;
};

}  // namespace gputlm::tb
