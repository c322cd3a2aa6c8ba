// GPGPU-Sim's ROP stage (-rop_latency, default 85 L2 cycles, 120 on the GTX480): every
// request entering an L2 partition waits a fixed number of cycles before it reaches the
// L2 bank; responses pass straight through. It is a pipeline: a request per cycle enters
// (END_REQ returned in the BEGIN_REQ call while the queue has room, as the bank's input
// queue does), so the stage adds latency, not a hand-shake per request. A bounded queue
// (END_REQ withheld when full) keeps the back-pressure chain intact; GPGPU-Sim's queue is
// unbounded, so a queue of at least latency + 1 never limits one request per cycle.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/clock/input_buffer.h"

namespace gputlm {

class RopDelay : public sc_core::sc_module,
                 public tlm::tlm_fw_transport_if<>,
                 public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_target_socket<> in;      // from the interconnect
  tlm::tlm_initiator_socket<> out;  // to the L2 bank

  // latency >= 1 cycles; queue_size requests held at most.
  RopDelay(sc_core::sc_module_name name, uint32_t latency, uint32_t queue_size, const ClockDomain& domain);

  const ClockedProcess& process() const { return process_; }
  std::size_t held() const { return queue_.size() + (waiting_ ? 1 : 0) + (sending_ ? 1 : 0); }
  // A request whose END_REQ is in cycle a reaches the bank at a + 1 + latency.
  uint32_t latency() const { return latency_; }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override { out->b_transport(gp, t); }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& d) override {
    return out->get_direct_mem_ptr(gp, d);
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override { return out->transport_dbg(gp); }
  void invalidate_direct_mem_ptr(sc_dt::uint64 a, sc_dt::uint64 b) override { in->invalidate_direct_mem_ptr(a, b); }

 private:
  bool tick(uint64_t cycle);
  // Room as at the start of this cycle: a slot freed by this cycle's send counts from the
  // next cycle, whether our tick ran before the caller or not.
  bool has_room(uint64_t cycle) const;
  void enter(tlm::tlm_generic_payload& gp, uint64_t cycle) { queue_.push(&gp, cycle + 1 + latency_); }

  uint32_t latency_;
  const ClockDomain& domain_;
  InputBuffer<tlm::tlm_generic_payload*> end_reqs_;   // the bank's END_REQ, seen at our next edge
  tlm::tlm_generic_payload* waiting_ = nullptr;       // arrived while the queue was full: END_REQ withheld
  uint64_t waiting_since_ = 0;
  uint64_t pop_cycle_ = ~uint64_t{0};                 // cycle of the last send to the bank
  CycleQueue<tlm::tlm_generic_payload*> queue_;
  tlm::tlm_generic_payload* sending_ = nullptr;       // sent to the bank, END_REQ not yet seen
  ClockedProcess process_;
};

}  // namespace gputlm
