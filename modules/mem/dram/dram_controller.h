// One DRAM channel and its controller (issue 3 item 5): a request queue of
// `queue_size` (END_REQ withheld when full), banks with row buffers and state
// machines, GDDR timing in DRAM command-clock cycles (GPGPU-Sim semantics: open-page
// policy, one command per cycle, banks tried round-robin from the one after the last
// ACT/PRE), a scheduling policy that assigns queued requests to free banks (FR-FCFS or
// FIFO), a return queue, and a minimum-latency knob. A request of L bytes needs
// ceil(L / atom_bytes) column commands; its response (BEGIN_RESP, reads and writes
// alike) is sent when its last data beat has crossed the bus and min_latency cycles
// have passed since it was accepted.
//
// Per cycle n, in this order: finished data -> return queue; one response; accept one
// request into the queue (END_REQ); assign free banks; issue at most one command. An
// idle channel sleeps; a channel waiting on a timing constraint sleeps until the
// first cycle a command can issue (DRAMSys' "time of next useful work").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/clock/input_buffer.h"
#include "core/stats/stats.h"
#include "mem/dram/dram_address_mapping.h"
#include "mem/dram/dram_config.h"
#include "mem/dram/dram_scheduler.h"
#include "mem/dram/dram_timing_checker.h"
#include "mem/interconnect/partition_map.h"

namespace gputlm {

// A command as issued, for tests and traces.
struct DramCommandRecord {
  DramCommand command;
  uint32_t bank;
  uint64_t row;
  uint64_t cycle;
};

class DramController : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> in;

  DramController(sc_core::sc_module_name name, const DramConfig& cfg, const ClockDomain& domain,
                 stats::Group& parent);

  // Addresses arriving here are global; the map removes the channel-select bits before
  // the bank/row/column mapping. Default: the identity (a channel used alone).
  void set_channel_map(const PartitionMapIF& map) { channel_map_ = &map; }
  // Record every command issued (tests); off by default.
  void record_commands(bool on) { record_ = on; }
  const std::vector<DramCommandRecord>& commands() const { return commands_; }
  const DramAddressMapping& mapping() const { return mapping_; }
  const DramConfig& config() const { return cfg_; }
  const ClockedProcess& process() const { return process_; }
  const DramTimingChecker* checker() const { return checker_.get(); }
  // Brings the cycle-weighted statistics (utilisation, occupancy) up to now.
  void update_stats();
  std::size_t requests_held() const { return delayed_.size() + queue_.size() + in_service_; }

  // Statistics, for tests and reports.
  uint64_t row_hits() const { return row_hits_.value(stats::View::Total); }
  uint64_t row_misses() const { return row_misses_.value(stats::View::Total); }
  uint64_t row_conflicts() const { return row_conflicts_.value(stats::View::Total); }
  double bandwidth_utilization() const;

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

 private:
  static constexpr uint64_t kNever = ~uint64_t{0};
  static constexpr uint32_t kNoRequest = ~uint32_t{0};
  struct Request {
    tlm::tlm_generic_payload* gp = nullptr;
    DramCoordinates at;
    bool write = false;
    uint32_t atoms = 1, issued = 0, done = 0;
    uint64_t arrival = 0;
    bool precharged = false, activated = false;
  };
  struct Bank {
    uint32_t request = kNoRequest;
    bool open = false;
    uint64_t row = 0;
    uint64_t act_ready = 0, rd_ready = 0, wr_ready = 0, pre_ready = 0;
  };
  struct Event {
    tlm::tlm_generic_payload* gp = nullptr;
    bool end_resp = false;
  };

  bool tick(uint64_t cycle);
  bool accept(uint64_t cycle);
  // latency_queue > 0: the head of the latency FIFO, once min_latency has passed, enters
  // the scheduler queue when it has room (one per cycle).
  bool release_delayed(uint64_t cycle);
  bool assign_banks();
  // Bank j's queued requests or its state changed: assign_banks asks the scheduler again.
  void bank_changed(uint32_t j) {
    assign_pending_ = true;
    if (per_bank_) assign_dirty_[j / 64] |= uint64_t{1} << (j % 64);
  }
  bool assign_bank(uint32_t j);
  bool issue_command(uint64_t cycle);
  // The command bank j's request needs next and the first cycle it may issue.
  DramCommand next_command(uint32_t j, uint64_t cycle, uint64_t& ready) const;
  void issue(DramCommand cmd, uint32_t j, uint64_t cycle);
  void retire_data(uint64_t cycle);
  bool send_response(uint64_t cycle);
  void account(uint64_t cycle);

  DramConfig cfg_;
  DramDerivedTiming d_;
  const ClockDomain& domain_;
  DramAddressMapping mapping_;
  std::unique_ptr<DramSchedulerIF> scheduler_;
  std::unique_ptr<DramTimingChecker> checker_;
  SinglePartitionMap identity_map_;
  const PartitionMapIF* channel_map_ = &identity_map_;

  InputBuffer<Event> events_;                // BEGIN_REQ / END_RESP, seen at our next edge
  tlm::tlm_generic_payload* waiting_ = nullptr;  // request whose END_REQ is withheld
  bool waiting_counted_ = false;
  std::vector<Request> slots_;
  std::vector<uint32_t> free_slots_;
  std::vector<DramQueuedRequest> queue_;     // oldest first; capacity reserved once
  std::vector<Bank> banks_;
  std::size_t in_service_ = 0;               // requests assigned to banks or in the return path
  uint32_t prio_ = 0;                        // first bank tried for the next command
  bool assign_pending_ = false;              // queue or free banks changed since the last assignment
  bool per_bank_ = false;                    // scheduler_->per_bank(): only changed banks are asked again
  std::vector<uint64_t> assign_dirty_;       // per_bank_: banks whose requests or state changed (bit per bank)
  uint64_t earliest_command_ = kNever;       // when nothing issued: first cycle any bank can issue
  uint64_t ccd_ready_ = 0, rrd_ready_ = 0, rd_bus_ready_ = 0, wr_bus_ready_ = 0, rtw_ready_ = 0, wtr_ready_ = 0;
  CycleQueue<uint32_t> data_;                // column commands in flight, ready when their data is done
  CycleQueue<uint32_t> delayed_;             // latency_queue > 0: waiting out min_latency before the scheduler
  CycleQueue<uint32_t> returns_;             // completed requests, ready at max(done, arrival + min_latency)
  uint32_t returns_reserved_ = 0;            // requests that hold a return-queue slot
  tlm::tlm_generic_payload* responding_ = nullptr;
  uint64_t accounted_cycle_ = 0;
  bool record_ = false;
  std::vector<DramCommandRecord> commands_;

  stats::Group stats_;
  stats::Counter reads_, writes_, row_hits_, row_misses_, row_conflicts_, activates_, precharges_;
  stats::Counter read_commands_, write_commands_, data_bus_busy_, cycles_, queue_full_;
  stats::Average latency_;
  stats::Distribution occupancy_;
  ClockedProcess process_;
};

}  // namespace gputlm
