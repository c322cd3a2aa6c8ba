// GPGPU-Sim's ROP stage (-rop_latency, default 85 L2 cycles): every request entering an
// L2 partition waits a fixed number of cycles before it reaches the L2 bank; responses
// pass straight through. A bounded queue (END_REQ withheld when full) keeps the
// back-pressure chain intact.
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

  uint32_t latency_;
  const ClockDomain& domain_;
  InputBuffer<tlm::tlm_generic_payload*> arrivals_;   // BEGIN_REQ, seen at our next edge
  InputBuffer<tlm::tlm_generic_payload*> end_reqs_;   // the bank's END_REQ, seen at our next edge
  tlm::tlm_generic_payload* waiting_ = nullptr;       // arrived while the queue was full
  CycleQueue<tlm::tlm_generic_payload*> queue_;
  tlm::tlm_generic_payload* sending_ = nullptr;       // sent to the bank, END_REQ not yet seen
  ClockedProcess process_;
};

}  // namespace gputlm
