// A configurable initiator that drives any memory target through a TLM-2.0 AT socket:
// sequential, strided or random line addresses, a read/write mix, a bound on
// outstanding requests. Used by the demo platform, testbenches and benchmarks.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

#include "core/clock/clock_domain.h"
#include "core/config/params.h"
#include "core/random/splitmix64.h"
#include "core/clock/clocked_process.h"
#include "core/clock/input_buffer.h"
#include "core/stats/stats.h"
#include "core/tlm/payload_pool.h"

namespace gputlm {

struct TrafficGeneratorConfig {
  uint64_t requests = 1000;
  std::string pattern = "sequential";
  uint64_t base_address = 0;
  uint64_t range_bytes = 1 << 20;
  uint32_t line_bytes = 128;
  uint64_t stride_bytes = 128;
  double write_fraction = 0.0;
  uint32_t max_outstanding = 8;
  uint32_t issue_interval = 1;
  uint64_t seed = 1;

  template <class V>
  void visit(V& v) {
    v.param("requests", requests, "number of requests to send", config::at_least(0));
    v.param("pattern", pattern, "address pattern", config::one_of({"sequential", "strided", "random"}));
    v.param("base_address", base_address, "first address of the target range");
    v.param("range_bytes", range_bytes, "size of the address range the pattern wraps within", config::at_least(1));
    v.param("line_bytes", line_bytes, "request size in bytes (addresses are aligned to it)", config::power_of_two(1));
    v.param("stride_bytes", stride_bytes, "address step of the strided pattern", config::at_least(1));
    v.param("write_fraction", write_fraction, "fraction of requests that are writes", config::in_range(0, 1));
    v.param("max_outstanding", max_outstanding, "requests in flight at most", config::at_least(1));
    v.param("issue_interval", issue_interval, "cycles between two request issues at least", config::at_least(1));
    v.param("seed", seed, "seed of the address and read/write random streams");
  }
  void validate() const;
};

class TrafficGenerator : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<> out;

  TrafficGenerator(sc_core::sc_module_name name, const TrafficGeneratorConfig& cfg,
                   const ClockDomain& domain, stats::Group& parent);

  bool done() const { return completed_.value(stats::View::Total) == cfg_.requests; }
  const sc_core::sc_event& done_event() const { return done_event_; }
  const ClockedProcess& process() const { return process_; }
  uint64_t completed() const { return completed_.value(stats::View::Total); }
  uint64_t last_completion_cycle() const { return last_completion_cycle_; }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  bool tick(uint64_t cycle);
  uint64_t next_address();
  void complete(tlm::tlm_generic_payload& gp, uint64_t cycle);

  struct Event {
    tlm::tlm_generic_payload* gp = nullptr;
    bool is_response = false;  // else END_REQ
  };

  TrafficGeneratorConfig cfg_;
  const ClockDomain& domain_;
  PayloadPool pool_;
  InputBuffer<Event> events_;
  tlm::tlm_generic_payload* retry_ = nullptr;  // refused with a reservation fail
  bool waiting_end_req_ = false;
  tlm::tlm_generic_payload* pending_request_ = nullptr;  // sent, END_REQ not yet seen
  uint64_t sent_ = 0, outstanding_ = 0, next_issue_cycle_ = 0, seq_ = 0;
  SplitMix64 rng_;
  uint64_t last_completion_cycle_ = 0;
  sc_core::sc_event done_event_;

  stats::Group stats_;
  stats::Counter issued_, completed_, reads_, writes_, retries_;
  stats::Average latency_;
  stats::Distribution latency_hist_;
  ClockedProcess process_;
};

}  // namespace gputlm
