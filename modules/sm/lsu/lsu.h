// The load/store unit of an SM (docs/blocks/lsu.md).
//
// An instruction dispatched in cycle D enters the LSU's latch; from D+1 the LSU turns
// the functional model's per-lane addresses (WarpInstruction::result.mem) into work:
//  * shared lanes: bank cycles = SharedMemoryBanks::cycles (conflict replays); the
//    latch is busy for them and the result is ready `shared_memory.latency` cycles after
//    the last one;
//  * global and local lanes (local through LocalMemoryMap): line requests from the
//    Coalescer to the L1D (`l1d`); atomics are coalesced per half warp and sent as
//    AccessKind::Atomic: with atomics_bypass_l1d (GPGPU-Sim: an atom's cache operator is
//    .cg, which skips the L1D) through `bypass` straight to the memory port, else to the
//    L1D, which (write-evict) writes them through to L2 without allocating; global loads
//    and stores by global_l1d_bypass (cg: the .cg operator's; all_but_nc: all but
//    ld.global.nc, GPGPU-Sim's -gpgpu_gmem_skip_L1D) also take `bypass`;
//  * const and param lanes: one request per distinct constant-cache line to `l1c`, and
//    the latch is busy one extra cycle per further distinct word (the constant cache
//    serves one address per cycle);
//  * texture lanes: one request per distinct texture line to `l1t`.
// At most requests_per_cycle requests leave per cycle, in order. An L1 that refuses a
// request (TLM_COMPLETED with MemExtension status ReservationFail or Nack) is handled by
// the re-execution queue policy; with "none" the request stays at the head and is
// retried every cycle (lsu_sat_stall_cycles). An L1 that withholds END_REQ blocks the
// LSU until it comes. When all requests have left, the latch takes the next instruction.
// A load (or an atomic with a destination) goes to writeback in the tick that processes
// its last response (a response received in cycle R is processed at R+1); stores and
// reductions go to writeback once all their requests were accepted; their
// acknowledgements only count pending_stores().
//
// Sockets: `in` (from the operand collector's Mem port), `out` (to writeback), `l1d`,
// `l1c`, `l1t`, `bypass` (to the memory port; base protocol, line requests with a MemExtension); status: exports
// UnitStatusIF, reads WritebackStatusIF; `l1d_status` (optional) gives the re-execution
// policy the L1D's saturation flag and MSHR occupancy.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/input_buffer.h"
#include "core/stats/stats.h"
#include "core/tlm/payload_pool.h"
#include "mem/cache/cache_types.h"
#include "mem/cache/prefetch/data_prefetcher.h"
#include "sm/exec/unit_status_if.h"
#include "sm/lsu/coalescer.h"
#include "sm/lsu/local_memory_map.h"
#include "sm/lsu/lsu_config.h"
#include "sm/lsu/reexec_queue.h"
#include "sm/lsu/shared_memory_banks.h"
#include "sm/pipeline_protocol.h"

namespace gputlm::sm {

// Where the LSU sits: its SM and the SM's thread slots (for the local-memory map).
struct LsuPlacement {
  uint32_t sm = 0;
  uint32_t num_sms = 1;
  uint32_t threads_per_sm = 1536;
  uint32_t warp_size = 32;
  uint32_t agen_slices = 1;  // cycles the address generation takes per warp instruction (exec.simd_width)
};

// Malformed input to the LSU (a memory access the LSU cannot place).
class LsuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Lsu : public sc_core::sc_module, public PipelineStage, public UnitStatusIF {
 public:
  PipelineInSocket in;
  PipelineOutSocket out;
  sc_core::sc_export<UnitStatusIF> status_export;
  sc_core::sc_port<WritebackStatusIF> writeback_status;
  tlm_utils::simple_initiator_socket_tagged<Lsu> l1d, l1c, l1t;
  // To the SM's memory port past the L1D: atomics when atomics_bypass_l1d is set.
  tlm_utils::simple_initiator_socket_tagged<Lsu> bypass;
  sc_core::sc_port<mem::CacheStatusIF, 1, sc_core::SC_ZERO_OR_MORE_BOUND> l1d_status;
  // The constant and texture caches' status (Mascar observes their saturation too).
  sc_core::sc_port<mem::CacheStatusIF, 1, sc_core::SC_ZERO_OR_MORE_BOUND> l1c_status, l1t_status;
  // The L1D's retry interface (optional; used when lsu.retry_shortcut is set): a refused
  // request is tried again there, exactly as by BEGIN_REQ, without reading its payload.
  sc_core::sc_port<mem::L1RetryIF, 1, sc_core::SC_ZERO_OR_MORE_BOUND> l1d_retry;

  // Validates cfg (config::ConfigError naming "lsu.<key>").
  Lsu(sc_core::sc_module_name name, const LsuConfig& cfg, const LsuPlacement& placement, const ClockDomain& domain,
      stats::Group& parent);
  ~Lsu() override;

  // UnitStatusIF: the latch is free (inside the SM the LSU ticks before the operand
  // collector, so a latch freed in cycle t takes the next instruction in t), an
  // in-flight slot is free, and the re-execution queue does not block new work.
  bool can_accept() const override;
  UnitType unit_type() const override { return UnitType::Mem; }
  // PipelineStage
  bool tick(uint64_t cycle) override;
  std::string state_dump() const override;

  // Store / reduction requests of `warp` sent and not yet acknowledged (membar, exit).
  uint32_t pending_stores(uint32_t warp) const { return warp < pending_stores_.size() ? pending_stores_[warp] : 0; }
  const ReexecQueueIF& reexec_queue() const { return *queue_; }
  // Called once per memory instruction when the L1s have accepted all of its requests (or
  // it had none): Mascar keeps ownership until its owner's accesses reached the L1. Unset
  // (default): nothing is called.
  void set_sent_observer(std::function<void(const WarpInstruction&)> f) { sent_observer_ = std::move(f); }
  // The L1D data prefetcher (sm.l1d_prefetch): every global load bound for the L1D is shown
  // to `prefetcher`, and the lines it predicts go to `l1d`'s prefetch path once the load's
  // own requests have left. `cta_first_warp(w)`: warp slot w is its CTA's first warp (lane 0
  // is thread 0). first_lane_only: one prefetch from the first active lane's address
  // instead of one per request. Unset (default): nothing is observed.
  void set_data_prefetcher(mem::DataPrefetcherIF* prefetcher, mem::L1PrefetchIF* l1d,
                           std::function<bool(uint32_t)> cta_first_warp, bool first_lane_only);
  // Mascar's memory saturation flag (002 §III-A), which the LSU forwards from the L1s to
  // the schedulers: some bound L1 (data, constant, texture) is almost full.
  bool memory_saturated() const;
  // The LSU is stalled by saturation in `cycle` (after its tick): an L1 refused its head
  // request and it stays (no queue took it), a full re-execution queue keeps new
  // instructions out (Mascar's LSU stall, 002 Figs 2 and 11), or (CAR, warp_hold = lsu) the
  // latch waits for a queued older instruction of its warp.
  bool saturation_stalled(uint64_t cycle) const {
    return refused_kept_cycle_ == cycle || held_cycle_ == cycle || queue_->blocks_new_instructions();
  }
  bool idle() const;
  stats::Group& stats_group() { return stats_; }

 private:
  struct Link;  // per-payload: slot, port, whether it carries data
  struct Slot {
    WarpInstruction* wi = nullptr;
    uint32_t unsent = 0;        // requests not yet accepted by an L1
    uint32_t pending = 0;       // accepted data requests not yet answered
    uint64_t bank_ready = 0;    // shared part: result ready at this cycle (0: none)
    bool needs_data = false;
    bool in_latch = false;
  };
  struct Event {
    tlm::tlm_generic_payload* gp = nullptr;
    bool end_req = false;  // END_REQ; otherwise BEGIN_RESP
  };
  enum class SendResult { Accepted, Deferred, Rejected };

  void receive(WarpInstruction& wi);
  void end_of_elaboration() override;
  tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void process_events(uint64_t cycle);
  void prepare(uint64_t cycle);
  void build_requests(const WarpInstruction& wi, uint32_t slot, uint64_t cycle);
  void add_requests(const std::vector<LineRequest>& lines, L1Port port, uint32_t line_size, MemSpace space,
                    AccessKind kind, const WarpInstruction& wi, uint32_t slot);
  void send_requests(uint64_t cycle);
  SendResult send(const LsuRequest& r, uint64_t cycle);
  void accepted(tlm::tlm_generic_payload& gp);
  void answered(tlm::tlm_generic_payload& gp);
  void rejected(tlm::tlm_generic_payload& gp);
  void count_refusal(MemStatus status, ReservationFail cause);
  void complete(uint64_t cycle);
  // The prefetcher's view of a global load (its requests are to_send_[first_request...]).
  void observe_load(const WarpInstruction& wi, std::size_t first_request);
  void issue_prefetches();
  void note_if_finished(const Slot& s);  // counts s in finished_slots_ when it just finished
  tlm_utils::simple_initiator_socket_tagged<Lsu>& socket(L1Port p);

  LsuConfig cfg_;
  LsuPlacement place_;
  const ClockDomain& domain_;
  std::unique_ptr<CoalescerIF> global_coalescer_, const_coalescer_, texture_coalescer_;
  // global_l1d_bypass, decoded: which global loads/stores go to the bypass port.
  bool bypass_cg_, bypass_all_but_nc_, bypass_all_;
  bool global_bypasses_l1d(const isa::Instruction* in) const;
  SharedMemoryBanks shared_;
  LocalMemoryMap local_map_;
  std::unique_ptr<ReexecQueueIF> queue_;
  mem::L1RetryIF* l1d_retry_ = nullptr;  // bound and enabled (end_of_elaboration)
  mem::CacheStatusIF* l1d_status_ = nullptr;  // the bound status ports (end_of_elaboration)
  mem::CacheStatusIF* l1c_status_ = nullptr;
  mem::CacheStatusIF* l1t_status_ = nullptr;
  PayloadPool pool_;

  std::vector<Slot> slots_;
  uint32_t free_slots_;
  // One past the highest occupied slot: slots are taken lowest first, so the per-cycle
  // scans stop here instead of at max_inflight (Mascar §II-D runs it at 10240).
  uint32_t slots_used_ = 0;
  // Slots out of the latch with every request accepted and answered: waiting only for bank
  // latency or writeback. complete() scans the slots only while there are some.
  uint32_t finished_slots_ = 0;
  WarpInstruction* latch_ = nullptr;
  uint64_t latch_arrival_ = 0;
  uint64_t accept_from_ = 0;  // a new instruction is taken agen_slices cycles after the last one
  bool latch_prepared_ = false;
  uint32_t latch_slot_ = 0;
  uint64_t latch_send_from_ = 0;   // first tick requests may leave (after shared bank cycles)
  uint64_t latch_free_at_ = 0;     // first tick the latch may free (bank / constant cycles)
  std::vector<LsuRequest> to_send_;
  std::size_t next_send_ = 0;
  LsuRequest deferred_;            // END_REQ withheld by an L1 (gp null: none)
  bool deferred_from_queue_ = false;
  bool last_refusal_nack_ = false;            // the last refusal was a NACK (for the queue's counts)
  uint64_t refused_kept_cycle_ = ~uint64_t{0};  // last cycle a refused head request stayed
  // CAR with reexec_queue.warp_hold = lsu: the latch's next request waits while an older
  // instruction of its warp is queued (held_cycle_: the last cycle it still waited).
  bool hold_in_lsu_ = false;
  uint64_t held_cycle_ = ~uint64_t{0};
  std::unique_ptr<stats::Counter> warp_hold_cycles_;  // only with hold_in_lsu_
  std::function<void(const WarpInstruction&)> sent_observer_;
  mem::DataPrefetcherIF* prefetcher_ = nullptr;
  mem::L1PrefetchIF* l1d_prefetch_ = nullptr;
  std::function<bool(uint32_t)> cta_first_warp_;
  bool prefetch_first_lane_ = false;
  bool prefetch_pending_ = false;  // prefetch_targets_ wait for the latch's requests to leave
  int32_t prefetch_warp_ = -1;
  uint64_t prefetch_pc_ = 0;
  std::vector<uint64_t> prefetch_targets_;
  uint32_t outstanding_ = 0;
  std::array<uint32_t, kL1Ports> outstanding_port_{};  // per L1 port (Mascar's saturation read)
  InputBuffer<Event> events_;
  std::vector<uint32_t> pending_stores_;

  // scratch (capacity kept: no allocation per instruction in steady state)
  std::vector<LaneAccess> global_pieces_, shared_pieces_, const_pieces_, texture_pieces_;
  std::vector<LineRequest> lines_;
  // distinct_const_words(): an open-addressing set (kNoWord: empty; a word index is an
  // address / 4, never all ones)
  uint32_t distinct_const_words();
  static constexpr uint64_t kNoWord = ~uint64_t{0};
  std::vector<uint64_t> word_set_;

  stats::Group stats_;
  stats::Counter instructions_, requests_, useful_bytes_, sector_bytes_, shared_accesses_, shared_bank_cycles_,
      lsu_sat_stall_cycles_, saturation_stall_cycles_, l1_port_stall_cycles_, const_serialization_cycles_, writeback_stall_cycles_;
  stats::Average requests_per_instruction_;
  stats::Distribution shared_conflict_degree_;
  stats::Ratio coalescing_efficiency_;
  stats::CounterVector reservation_fails_;
};

}  // namespace gputlm::sm
