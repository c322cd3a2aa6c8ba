// The cache block (seed-mechanisms §E, §B3, §B5): one configurable sc_module used as
// L1D, L1I, L1 constant, L1 texture and L2 bank. See docs/blocks/cache.md.
//
// Sockets: `upstream` (target; from the LSU / fetch / crossbar) and `downstream`
// (initiator; towards the next level). Base protocol, line-granular requests carrying
// a MemExtension.
//
// Timing (cycles of the cache's clock domain):
//  * reject mode (L1): an access is evaluated in the cycle nb_transport_fw is called
//    (cycle N; the cache first completes its own work of cycle N, so the result never
//    depends on process evaluation order). Accepted: TLM_UPDATED + END_REQ. Refused:
//    TLM_COMPLETED + TLM_OK_RESPONSE with MemExtension::status ReservationFail (and
//    fail_cause) or Nack. Beyond port_width accesses in a cycle, or with the response
//    queue full, END_REQ is withheld and the access is evaluated at a later edge; its
//    outcome is then END_REQ (accepted) or a BEGIN_RESP carrying the failure status.
//  * stall mode (L2 bank): requests enter the input queue (END_REQ at once while it has
//    room) and are evaluated in order from the first edge after arrival; a head that
//    cannot be reserved is retried every cycle and blocks the queue (lock-up).
//  * hit evaluated at E: BEGIN_RESP at E + hit_latency.
//  * latencies are pipelined: an access waits out hit_latency / miss_latency in stages in
//    front of the response / miss queue (port_width per cycle), so a long latency costs no
//    throughput; the queue sizes bound what waits to leave.
//  * primary miss at E: BEGIN_REQ downstream at E + miss_latency (miss queue, one per
//    cycle); the fill is processed at the first edge F after the lower level's
//    BEGIN_RESP; every merged request gets BEGIN_RESP from F + fill_latency, at most
//    port_width per cycle, each after END_RESP of the previous one.
//  * write_evict stores/atomics are written through; their upstream response is sent
//    when the next level responds to the write (GPGPU-Sim's write acknowledgement).
//    write_back stores hit: BEGIN_RESP at E + hit_latency; missing: fetch-on-write, the
//    response is sent at the fill, or (write_allocate lazy_fetch_on_read) the line is
//    allocated without a fetch and the store answered at E + hit_latency.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/stats/stats.h"
#include "core/tlm/payload_pool.h"
#include "mem/cache/cache_config.h"
#include "mem/cache/cache_types.h"
#include "mem/cache/tag_array.h"
#include "mem/mshr/mshr_if.h"

namespace gputlm::mem {

// A bad request (missing extension, access crossing a line, store to a read-only
// cache, a response the cache did not expect).
class CacheError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Cache : public sc_core::sc_module,
              public CacheStatusIF,
              public CacheControlIF,
              public L1RetryIF,
              public L1PrefetchIF {
 public:
  tlm_utils::simple_target_socket<Cache> upstream;
  tlm_utils::simple_initiator_socket<Cache> downstream;
  sc_core::sc_export<CacheStatusIF> status_export;
  sc_core::sc_export<CacheControlIF> control_export;
  sc_core::sc_export<L1RetryIF> retry_export;

  // Validates cfg (config::ConfigError naming the key under `name`).
  Cache(sc_core::sc_module_name name, const CacheConfig& cfg, const ClockDomain& domain, stats::Group& parent);
  ~Cache() override;

  // Called for every evaluated access (also refused ones), in evaluation order.
  void set_access_hook(AccessHook hook) { hook_ = std::move(hook); }
  void set_fill_hook(FillHook hook) { fill_hook_ = std::move(hook); }
  void set_eviction_hook(EvictionHook hook) { eviction_hook_ = std::move(hook); }
  // Index sets by map.local_address() of an access instead of its address (an L2 bank:
  // the bits that select its partition and slice are constant there). Before the first access.
  void set_index_map(const PartitionMapIF& map) { tags_.set_index_map(&map); }

  // CacheStatusIF
  uint32_t mshr_occupied() const override;
  uint32_t mshr_capacity() const override { return mshr_->capacity(); }
  // Warps owning an MSHR entry (field 0's WID; bit w for w < 64): LAWS-TH's Load_CNT.
  uint64_t mshr_owner_mask() const;
  bool saturated() const override;
  bool probe(uint64_t address) const override;
  bool probe_any(const uint64_t* addresses, uint32_t n, ProbeStamp* since) const override;
  uint64_t contents_version() const override;
  // CacheControlIF
  // Takes effect from the next cycle, so it never races with this cycle's accesses.
  void set_owner_warp(int32_t warp) override;
  int32_t owner_warp() const override;
  void invalidate_all() override;
  // L1RetryIF
  RetryResult retry(tlm::tlm_generic_payload& gp, const AccessKey& key) override;
  // The prefetch path (cache_prefetch.cpp), off until enable_prefetch(): its statistics go
  // in a group "prefetch" (returned, for the prefetcher's own); a prefetch is issued only
  // while more than keep_free MSHR entries are free. Before the first access.
  stats::Group& enable_prefetch(uint32_t keep_free);
  void set_prefetch_feedback(PrefetchFeedbackIF* feedback);
  // L1PrefetchIF (enable_prefetch() first)
  PrefetchOutcome prefetch(uint64_t address, int32_t sm, int32_t warp, uint64_t pc) override;

  const CacheConfig& config() const { return cfg_; }
  const TagArray& tags() const { return tags_; }
  const MshrIF& mshr() const { return *mshr_; }
  const ClockedProcess& process() const { return *process_; }
  stats::Group& stats_group() { return group_; }
  // True when nothing is queued, pending or in flight (end-of-test check).
  bool idle() const;

 private:
  // A valid line holds the address (probe and probe_any without their catch-up).
  bool holds(uint64_t address) const;
  struct Link;  // private extension on the cache's own downstream payloads
  struct Result {
    AccessOutcome outcome = AccessOutcome::Hit;
    ReservationFail cause = ReservationFail::None;
    // Refused: the requester keeps the request and retries (a reservation failure or a Nack).
    bool refused() const { return is_refusal(outcome); }
    // The status a refused access reports upstream.
    MemStatus refusal_status() const { return outcome == AccessOutcome::Nack ? MemStatus::Nack : MemStatus::ReservationFail; }
  };

  // sockets
  tlm::tlm_sync_enum upstream_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  tlm::tlm_sync_enum downstream_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  void upstream_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t);

  // the cycle
  bool tick(uint64_t cycle);
  // The cycle's internal work (fills, evaluations): no calls to other blocks, so it may run
  // early, inside another process's call (catch_up), with the same result.
  void run_internal(uint64_t cycle);
  // Before a call that may change our state (ends a quiet window, see quiet_until_ps_).
  void catch_up();
  // Before a status read: nothing to do inside a quiet window.
  void catch_up_for_read();
  // process_->wake() for a change made outside our tick (ends a quiet window).
  void wake_self();
  void send_pending_ends();
  // Queue room as at the start of this cycle's sends (see cache.cpp).
  void note_pop(bool miss_queue, uint64_t cycle);
  uint32_t miss_queue_free() const;
  bool response_queue_full() const;
  bool port_free(uint64_t cycle) const;
  void use_port(uint64_t cycle);
  void evaluate_deferred(uint64_t cycle);
  void evaluate_input(uint64_t cycle);
  bool process_fill(uint64_t cycle);
  void send_responses(uint64_t cycle);
  void send_downstream(uint64_t cycle);
  void do_invalidate();
  bool busy_after(uint64_t cycle);

  // an access (cache_access.cpp)
  Result access(tlm::tlm_generic_payload& gp, uint64_t cycle);
  Result access(const AccessKey& key, tlm::tlm_generic_payload& gp, uint64_t cycle);
  Result access_write_through(tlm::tlm_generic_payload& gp, AccessRecord& rec, int32_t way);
  Result miss(tlm::tlm_generic_payload& gp, AccessRecord& rec, int32_t way, uint32_t sector);
  void finish_access(AccessRecord& rec);
  tlm::tlm_generic_payload* new_downstream(const MemExtension* from, uint64_t address, uint32_t bytes, bool write);
  void push_writeback(uint64_t block, uint32_t bytes);
  Result lazy_write(tlm::tlm_generic_payload& gp, AccessRecord& rec, int32_t way, uint32_t sector);
  void hold(tlm::tlm_generic_payload& gp);
  void drop(tlm::tlm_generic_payload& gp);
  void respond(tlm::tlm_generic_payload& gp, uint64_t ready);
  // prefetch bookkeeping (cache_prefetch.cpp); called only when a line's prefetched bit is
  // set or an MSHR entry's first field has no request, which only the prefetch path makes
  struct PrefetchState;
  PrefetchOutcome try_prefetch(uint64_t address, int32_t sm, int32_t warp, uint64_t pc, uint64_t cycle);
  void prefetch_used(CacheLine& line);     // a demand load hits a prefetched line
  void prefetch_unused(CacheLine& line);   // a prefetched line leaves the cache unused
  void prefetch_late(int32_t entry);       // a demand merges into a prefetch's pending miss
  void demand_primary_miss();
  // The entry was allocated by a prefetch (its first field answers no request).
  bool prefetch_entry(int32_t entry) const { return mshr_->field(entry, 0).request == nullptr; }

  CacheConfig cfg_;
  const ClockDomain& domain_;
  bool stall_mode_, write_evict_, write_back_, read_only_, on_miss_, lazy_, allocate_demand_;
  stats::Group group_;
  TagArray tags_;
  std::unique_ptr<MshrIF> mshr_;
  PayloadPool pool_;

  CycleQueue<tlm::tlm_generic_payload*> miss_queue_, response_queue_, input_queue_, fill_queue_;
  // Responses the next level gave on the return path (TLM_COMPLETED, or BEGIN_RESP returned):
  // bounded by the miss queue, since a request is sent only while this has room.
  CycleQueue<tlm::tlm_generic_payload*> completed_;
  std::vector<std::pair<uint64_t, uint32_t>> writeback_blocks_;  // (block, bytes) from invalidate_all
  tlm::tlm_generic_payload* deferred_ = nullptr;         // reject mode: END_REQ withheld
  tlm::tlm_generic_payload* input_waiting_ = nullptr;    // stall mode: END_REQ withheld
  tlm::tlm_generic_payload* resp_in_progress_ = nullptr; // upstream: waiting for END_RESP
  tlm::tlm_generic_payload* req_in_progress_ = nullptr;  // downstream: waiting for END_REQ
  tlm::tlm_generic_payload* fill_end_resp_ = nullptr;    // downstream: END_RESP withheld
  bool invalidate_requested_ = false;
  uint64_t invalidate_after_ = 0;
  int32_t owner_warp_ = -1, owner_next_ = -1;
  uint64_t owner_set_cycle_ = 0;
  uint64_t port_cycle_ = ~uint64_t{0};
  uint32_t port_used_ = 0;
  uint64_t last_tick_ = ~uint64_t{0}, last_internal_ = ~uint64_t{0};
  tlm::tlm_generic_payload* end_req_to_send_ = nullptr;   // upstream END_REQ decided internally
  tlm::tlm_generic_payload* end_resp_to_send_ = nullptr;  // downstream END_RESP decided internally
  uint64_t req_free_at_ = 0, resp_free_at_ = 0;  // channels freed by another process: next cycle
  uint64_t pops_cycle_ = ~uint64_t{0};
  uint32_t miss_queue_pops_ = 0, response_queue_pops_ = 0;
  bool last_busy_ = false;
  bool in_tick_ = false;
  // A quiet window: our last tick (cycle t) went to sleep with no internal work due before
  // the earliest queue head (next_head_), so until then run_internal() has nothing to do
  // unless a call changes our state, and every such call goes through catch_up() or
  // wake_self(), which end the window. Status reads, which the SM makes every cycle under
  // Mascar, then skip the catch-up; from t + 1 on (after this cycle's sends, which
  // miss_queue_free() counts) the saturation flag is remembered for the window (quiet_gen_
  // numbers windows). Kept as simulation times, so a read needs no division into cycles.
  uint64_t quiet_from_ps_ = 0, quiet_until_ps_ = 0, next_head_ = 0, quiet_gen_ = 0;
  uint64_t cycle_ps_ = 1;  // one cycle in simulation-time units
  struct SaturationMemo {
    uint64_t gen = ~uint64_t{0};
    bool value = false;
  };
  mutable SaturationMemo saturation_memo_;
  uint64_t last_load_stall_cycle_ = ~uint64_t{0};
  AccessHook hook_;
  FillHook fill_hook_;
  EvictionHook eviction_hook_;
  std::unique_ptr<PrefetchState> pf_;  // null unless enable_prefetch()

  // statistics
  stats::Counter accesses_, loads_, load_hits_, load_primary_misses_;
  stats::CounterVector read_outcomes_, write_outcomes_, fail_causes_, locality_;
  stats::Counter load_stall_cycles_, write_evictions_, writebacks_, fills_, fill_bypasses_,
      downstream_retries_, invalidations_, response_queue_stalls_;
  stats::Ratio hit_rate_, primary_miss_rate_;

  std::unique_ptr<ClockedProcess> process_;  // last: its tick uses everything above
};

}  // namespace gputlm::mem
