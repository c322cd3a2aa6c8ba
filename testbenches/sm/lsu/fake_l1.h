// A fake L1 for LSU tests: refuses a request with ReservationFail (random cause) with a
// given probability from a fixed seed, otherwise accepts it at once (END_REQ) and answers
// `latency` cycles later, at most one response per cycle, in order. Records every
// accepted request.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/tlm/mem_extension.h"

namespace gputlm::sm::tb {

class FakeL1 : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  struct Seen {
    uint64_t address = 0;
    AccessKind kind = AccessKind::Load;
    MemSpace space = MemSpace::Global;
    uint32_t sectors = 0;
    int32_t warp = -1;
    uint64_t cycle = 0;
    tlm::tlm_command command = tlm::TLM_READ_COMMAND;
    uint32_t bytes = 0;  // data length
  };
  tlm::tlm_target_socket<> in;
  std::vector<Seen> accepted;
  uint64_t rejects = 0;

  FakeL1(sc_core::sc_module_name name, const ClockDomain& d, double reject_probability, uint32_t latency,
         uint64_t seed)
      : sc_core::sc_module(name), in("in"), domain_(d), p_(reject_probability), latency_(latency), rng_(seed),
        pipe_(4096), process_("tick", d, [this](uint64_t c) { return tick(c); }) {
    in.bind(*this);
  }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) override {
    if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP (not used by the LSU)
    MemExtension& ext = *gp.get_extension<MemExtension>();
    if (next_random() < p_) {
      ++rejects;
      ext.status = MemStatus::ReservationFail;
      ext.fail_cause = static_cast<ReservationFail>(1 + next_bits() % 4);
      gp.set_response_status(tlm::TLM_OK_RESPONSE);
      return tlm::TLM_COMPLETED;
    }
    const uint64_t now = domain_.now();
    accepted.push_back(
        Seen{gp.get_address(), ext.kind, ext.space, ext.sector_mask, ext.warp, now, gp.get_command(), gp.get_data_length()});
    gp.acquire();
    pipe_.push(&gp, now + latency_);
    process_.wake_at(now + latency_);
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) override {
    gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  bool idle() const { return pipe_.empty(); }

 private:
  bool tick(uint64_t cycle) {
    if (pipe_.ready(cycle)) {
      tlm::tlm_generic_payload* gp = pipe_.front();
      pipe_.pop();
      gp->set_response_status(tlm::TLM_OK_RESPONSE);
      tlm::tlm_phase ph = tlm::BEGIN_RESP;
      sc_core::sc_time t = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum r = in->nb_transport_bw(*gp, ph, t);
      if (r != tlm::TLM_COMPLETED) SC_REPORT_ERROR("FakeL1", "LSU did not complete the response at once");
      gp->release();
    }
    return !pipe_.empty();
  }
  uint64_t next_bits() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return rng_;
  }
  double next_random() { return static_cast<double>(next_bits() % 1000000) / 1e6; }

  const ClockDomain& domain_;
  double p_;
  uint32_t latency_;
  uint64_t rng_;
  CycleQueue<tlm::tlm_generic_payload*> pipe_;
  ClockedProcess process_;
};

}  // namespace gputlm::sm::tb
