// The fetch unit and decode stage (docs/blocks/fetch.md). Each cycle fetch picks, in the
// fetch policy's order, the first warp (the first fetch.per_cycle warps) that is resident,
// has no fetch outstanding and has room in its I-buffer (fetch.eligible: for `width`
// instructions, or any), and sends one read each to the L1I for up to `width` consecutive instructions (as many as fit) starting at the warp's next fetch PC (the functional
// model's next PC when the I-buffer is empty, else after its last entry), cut at the end
// of the line and of the function. Address = code_base + PC. Decode takes each L1I
// response at the first tick after its arrival and appends the decoded instructions to
// the warp's I-buffer, unless the I-buffer was flushed meanwhile (a stale fetch is
// dropped). A refused access (reservation fail) is retried from the next cycle; while the
// L1I withholds END_REQ nothing else is sent. With a prefetcher, a cycle without demand
// fetch may send the prefetcher's line (AccessKind::Prefetch).
#pragma once

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
#include "sm/fetch/fetch_policy.h"
#include "sm/pipeline_protocol.h"
#include "sm/sm_config.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

class FetchUnit : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<FetchUnit> l1i;  // to the L1I's upstream socket
  sc_core::sc_port<IssueStatusIF> issue_status;       // unit type of each decoded instruction
  // L1I and L1D MSHR occupancy for the prefetch gate (needed only with a prefetcher).
  sc_core::sc_port<mem::CacheStatusIF, 1, sc_core::SC_ZERO_OR_MORE_BOUND> l1i_status, l1d_status;

  FetchUnit(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t sm_id, const ClockDomain& domain,
            WarpTable& table, stats::Group& parent);

  // The schedulers whose priority orders the scheduler_priority policy interleaves; must
  // be set before the first tick with that policy.
  void set_scheduler_orders(const SchedulerOrderIF& s);
  // Called when an L1I response or END_REQ arrives (wakes a sleeping SM).
  void set_waker(std::function<void()> w) { waker_ = std::move(w); }
  // Connect to the L1I's access hook (prefetcher training).
  void observe_l1i(const mem::AccessRecord& rec) { prefetcher_->observe(rec); }

  // Decode stage: fills I-buffers from the responses received before this cycle.
  // Returns true while responses are waiting or when it filled an I-buffer this cycle.
  bool tick_decode(uint64_t cycle);
  // Fetch stage: returns true when it must tick again without an outside event (a retry,
  // or more warps waiting for the fetch port).
  bool tick_fetch(uint64_t cycle);

  // End of an SM cycle: brings the warp-table scan up to date, so that cycles the SM then
  // sleeps through count the I-buffers as they are now.
  void end_of_cycle() { scan_warps(); }
  // The SM slept `cycles` cycles since its last tick: count its empty I-buffers for them.
  void account_skipped(uint64_t cycles);

  bool idle() const;  // nothing outstanding
  std::string describe(uint32_t warp) const;  // fetch state of a warp, for state dumps
  const FetchOrderIF& order_policy() const { return *order_; }

 private:
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t);
  bool eligible(uint32_t w) const;
  void scan_warps();  // refreshes the per-warp masks and live_ for the warps that changed
  uint64_t empty_ibuffers() const { return static_cast<uint64_t>(__builtin_popcountll(empty_mask_)); }
  // Sends a fetch for warp w; returns false if the L1I refused it.
  bool send_fetch(uint32_t w, uint64_t cycle);
  bool send_prefetch(uint64_t cycle);
  tlm::tlm_sync_enum send(tlm::tlm_generic_payload& gp);
  const isa::Instruction* decode_at(const WarpSlot& s, uint64_t pc, uint32_t* left_in_function) const;

  const SmConfig& cfg_;
  uint32_t sm_id_;
  const ClockDomain& domain_;
  WarpTable& table_;
  stats::Group group_;
  PayloadPool pool_;
  bool not_full_;  // fetch.eligible = not_full
  std::unique_ptr<FetchOrderIF> order_;
  std::unique_ptr<InstructionPrefetcherIF> prefetcher_;
  InputBuffer<tlm::tlm_generic_payload*> responses_;
  tlm::tlm_generic_payload* waiting_end_req_ = nullptr;  // L1I withheld END_REQ
  uint32_t outstanding_ = 0;                             // fetches and prefetches in flight
  std::function<void()> waker_;
  std::vector<uint32_t> live_, candidates_;
  // Per warp slot (bit w), kept up to date from the warps the table reports touched: live,
  // live and ready with an empty I-buffer, able to fetch.
  uint64_t live_mask_ = 0, empty_mask_ = 0, eligible_mask_ = 0;

  stats::Counter fetches_, fetched_instructions_, reservation_fails_, stale_fetches_, prefetches_,
      ibuffer_empty_warp_cycles_;
};

}  // namespace gputlm::sm
