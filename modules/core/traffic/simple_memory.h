// A memory target with a fixed access latency, a bounded request queue and one
// response per cycle: the simplest timing-correct end of a TLM chain. It withholds
// END_REQ when its queue is full (back-pressure) and sends responses one at a time
// (END_RESP before the next BEGIN_RESP). Optionally it reads and writes a functional
// BackingStore.
#pragma once

#include <cstdint>
#include <systemc>
#include <string>
#include <tlm>

#include "core/clock/clock_domain.h"
#include "core/config/params.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/clock/input_buffer.h"
#include "core/memory/backing_store.h"
#include "core/stats/stats.h"

namespace gputlm {

struct SimpleMemoryConfig {
  uint32_t latency = 100;
  uint32_t queue_size = 16;

  template <class V>
  void visit(V& v) {
    v.param("latency", latency, "cycles from accepting a request to its response", config::at_least(1));
    v.param("queue_size", queue_size, "requests held at most (accepted, not yet answered)", config::at_least(1));
  }
};

class SimpleMemory : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> in;

  SimpleMemory(sc_core::sc_module_name name, const SimpleMemoryConfig& cfg, const ClockDomain& domain,
               stats::Group& parent, BackingStore* store = nullptr);

  const ClockedProcess& process() const { return process_; }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;

 private:
  bool tick(uint64_t cycle);
  void access(tlm::tlm_generic_payload& gp);

  SimpleMemoryConfig cfg_;
  const ClockDomain& domain_;
  BackingStore* store_;
  InputBuffer<tlm::tlm_generic_payload*> requests_;  // BEGIN_REQ arrivals
  CycleQueue<tlm::tlm_generic_payload*> pipeline_;   // accepted, waiting for latency
  tlm::tlm_generic_payload* blocked_ = nullptr;      // END_REQ withheld
  tlm::tlm_generic_payload* responding_ = nullptr;   // BEGIN_RESP sent, END_RESP pending
  InputBuffer<tlm::tlm_generic_payload*> end_resps_;
  uint64_t last_tick_ = 0;
  uint64_t blocked_since_ = 0;

  stats::Group stats_;
  stats::Counter reads_, writes_, stalls_;
  stats::Average occupancy_;
  ClockedProcess process_;
};

}  // namespace gputlm
