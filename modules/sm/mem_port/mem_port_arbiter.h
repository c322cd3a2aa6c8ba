// The SM's memory port (docs/blocks/sm.md): merges the miss traffic of the SM's L1
// caches (L1I, L1D, L1C, L1T) into the one initiator socket an SM has towards the
// interconnect (GPGPU-Sim: one injection port per SM).
//
// Requests: a BEGIN_REQ arriving on upstream port i in cycle N waits in that port's queue
// (END_REQ at once while the queue has room, else withheld until it has); from cycle N+1
// the arbiter forwards one request per cycle, round robin over the ports with a waiting
// request, and sends the next one only after the downstream's END_REQ (an END_REQ
// received in cycle M frees the downstream from cycle M+1). Responses pass straight
// through to the port their request came from (END_RESP likewise), so the response path
// adds no latency. Decisions never depend on SystemC's process evaluation order: a slot
// freed by this cycle's forward counts from the next cycle, and a request withheld in
// cycle N is admitted from cycle N+1 on, whether our tick ran before or after the call.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <utility>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/clock/input_buffer.h"
#include "core/stats/stats.h"

namespace gputlm::sm {

class MemPortArbiter : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<MemPortArbiter> upstream;  // bind each L1's downstream
  tlm_utils::simple_initiator_socket<MemPortArbiter> downstream;         // to the interconnect

  MemPortArbiter(sc_core::sc_module_name name, uint32_t queue_per_port, const ClockDomain& domain,
                 stats::Group& parent);
  ~MemPortArbiter() override;

  bool idle() const;
  std::string state_dump() const;

 private:
  tlm::tlm_sync_enum upstream_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum downstream_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void end_of_elaboration() override;
  bool tick(uint64_t cycle);
  int route_of(const tlm::tlm_generic_payload& gp) const;
  void send_end_req(uint32_t port, tlm::tlm_generic_payload& gp);

  uint32_t queue_per_port_;
  const ClockDomain& domain_;
  // Per port: a request arriving in cycle N is forwardable from N+1, a slot freed by a
  // forward in cycle N takes a new request from N+1 (InputBuffer).
  std::vector<InputBuffer<tlm::tlm_generic_payload*>> queues_;
  std::vector<tlm::tlm_generic_payload*> withheld_;            // per port: END_REQ withheld (queue full)
  std::vector<uint64_t> withheld_cycle_;                       // per port: when it was withheld
  // While asleep waiting for END_REQ with requests queued: the first cycle a queued
  // request is ready, so the next tick counts the blocked cycles it slept through.
  uint64_t blocked_from_ = ~uint64_t{0};
  std::vector<std::pair<tlm::tlm_generic_payload*, uint32_t>> routes_;  // request -> port, until its response ends
  tlm::tlm_generic_payload* in_progress_ = nullptr;  // downstream END_REQ pending
  uint32_t in_progress_port_ = 0;
  uint64_t downstream_free_from_ = 0;
  uint32_t next_port_ = 0;

  stats::Group stats_;
  stats::Counter forwarded_, busy_cycles_;
  std::unique_ptr<ClockedProcess> process_;
};

}  // namespace gputlm::sm
