// The front half of an SM and its CTA bookkeeping (docs/blocks/sm.md): warp table,
// fetch + decode (FetchUnit), scoreboard, warp schedulers (issue), and the writeback
// stage; CTA slots and resources, warp exit and CTA completion. The back half (operand
// collectors, execution units, LSU) is bound to its sockets:
//   scheduler(i).issue           -> back end's issue target   (PipelineOutSocket)
//   issue_status                 <- back end's IssueStatusIF  (sc_port, bound once here)
//   back end's writeback stage   -> writeback_in              (PipelineInSocket; the retire
//                                  sink: releases registers at once, see receive_writeback)
//   fetch().l1i                  -> L1I cache upstream
//   forward_export               <- each execution unit's forward_sink (ForwardSinkIF;
//                                  bound only with sm.exec.forwarding = alu)
// Its owner (Sm, or a testbench) ticks it inside one clock process, back to front:
//   <back end stages, writeback first>; tick_issue(c); tick_fetch(c)
// and sleeps when every call returned false, until the waker is called.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/stats/stats.h"
#include "sm/exec/forward_sink_if.h"
#include "sm/fetch/fetch_unit.h"
#include "sm/pipeline_protocol.h"
#include "sm/scheduler/warp_scheduler.h"
#include "sm/scoreboard/scoreboard_if.h"
#include "sm/sm_config.h"
#include "sm/sm_cta_if.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

class SmCore : public sc_core::sc_module, public SchedulerOrderIF, public ForwardSinkIF {
 public:
  sc_core::sc_port<IssueStatusIF> issue_status;  // the back end's collector availability
  PipelineInSocket writeback_in;
  sc_core::sc_export<ForwardSinkIF> forward_export;  // the units' bypass point

  // Validates cfg (config::ConfigError). `group` is the SM's statistics group.
  SmCore(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t sm_id, const ClockDomain& core_clock,
         stats::Group& group);
  ~SmCore() override;

  // --- CTA boundary (Sm forwards SmCtaIF here) ---------------------------------------
  bool can_accept_cta(const KernelInstance& k) const;
  // Why a CTA of k does not fit now ("" if it does): names the exhausted resource.
  std::string occupancy_limit(const KernelInstance& k) const;
  void launch_cta(KernelInstance& k, uint64_t cta_linear_id);
  void set_completion_callback(std::function<void(const CtaCompletion&)> cb) { on_complete_ = std::move(cb); }
  // Told the linear id of each CTA that finishes here, before the CTA scheduler (the L1D
  // data prefetcher's CTA-end update). Unset: nothing is called.
  void set_cta_end_observer(std::function<void(int32_t)> f) { cta_end_observer_ = std::move(f); }
  uint32_t resident_ctas() const { return resident_ctas_; }
  uint32_t resident_warps() const { return used_warps_; }
  std::string state_dump() const;

  // ForwardSinkIF: the scoreboard makes wi's results readable and its scheduler re-checks
  // the warp; throws PipelineError for a memory instruction or a second call.
  void forwarded(WarpInstruction& wi) override;

  // --- ticking -------------------------------------------------------------------------
  // Each returns true when the SM must tick again without an outside event.
  bool tick_issue(uint64_t cycle);
  // Decode, then fetch, then retire finished warps (CTA completion callback); the
  // cycle's last call.
  bool tick_fetch(uint64_t cycle);
  // Wakes the owner's clock process (CTA launch, L1I response); set by the owner.
  void set_waker(std::function<void()> w);
  // Global-memory accesses of this SM's issues in a parallel edge (replayed at its end).
  isa::GlobalMemoryLog& memory_log() { return shared_.memory_log; }

  // --- parts ---------------------------------------------------------------------------
  uint32_t sm_id() const { return sm_id_; }
  // SMs of the GPU (the functional warps' %nsmid); 1 until set.
  void set_num_sms(uint32_t n) { num_sms_ = n; }
  const SmConfig& config() const { return cfg_; }
  FetchUnit& fetch() { return *fetch_; }
  ScoreboardIF& scoreboard() { return *scoreboard_; }
  WarpScheduler& scheduler(uint32_t i) { return *schedulers_[i]; }
  uint32_t scheduler_count() const override { return static_cast<uint32_t>(schedulers_.size()); }
  const std::vector<uint32_t>& priority_order(uint32_t s) const override { return schedulers_[s]->priority_order(); }
  const WarpTable& warps() const { return table_; }
  WarpInstructionPool& pool() { return shared_.pool; }
  // CCWS's per-SM state (VTAs, lost-locality scores) with sm.scheduler.policy = ccws, else null.
  CcwsState* ccws() { return shared_.ccws.get(); }
  // Mascar's per-SM state (mode, WST, owner) with sm.scheduler.policy = mascar, else null;
  // the SM gives it its memory side (MascarState::set_memory).
  MascarState* mascar() { return shared_.mascar.get(); }
  // LAWS's per-SM state (score, throttling unit) under laws, laws_th and laws_nmd, else null.
  LawsState* laws() { return shared_.laws.get(); }
  uint64_t instructions_in_flight() const;
  // True when nothing is resident or in flight (end-of-run check).
  bool idle() const;

  // --- observation -----------------------------------------------------------------------
  // Every scheduler reports its issues to `t` (null: none).
  void set_issue_tracer(IssueTracerIF* t);
  // Scheduler-cycles without issue so far by ELF class (elf[kElfStalls]) and KAWS class
  // (kaws[kKawsStalls]) in the core cycles before `cycle` (all simulated), counting the
  // cycles a sleeping SM accounts only when it wakes. Reads only: sampling never changes
  // the run.
  void stall_cycles(uint64_t cycle, uint64_t* elf, uint64_t* kaws) const;
  // DYNCTA's per-SM-cycle counts (SmCtaIF::enable_issue_stalls / issue_stalls): when not
  // enabled, tick_issue does no work for them.
  void enable_issue_stalls() { issue_stalls_on_ = true; }
  SmIssueStalls issue_stalls(uint64_t cycle) const;
  // KAWS' warp-sharing unit (sm.scheduler.warp_sharing): appends to `slots` the warps of
  // other schedulers that scheduler x may issue now, oldest first (schedulers call it
  // through their sharing source; tests read it).
  void sharing_candidates(uint32_t x, std::vector<uint32_t>& slots);

 private:
  struct CtaSlot {
    bool valid = false;
    KernelInstance* kernel = nullptr;
    isa::CtaContext* cta = nullptr;
    uint64_t linear_id = 0;
    uint64_t start_cycle = 0;
    uint32_t warps_left = 0;
    CtaDemand demand;
  };
  void receive_writeback(WarpInstruction& wi);
  void retire_finished_warps(uint64_t cycle);
  std::string describe_warp(uint32_t w) const;

  SmConfig cfg_;
  uint32_t sm_id_;
  uint32_t num_sms_ = 1;
  const ClockDomain& clock_;
  WarpTable table_;
  IssueShared shared_;
  std::unique_ptr<ScoreboardIF> scoreboard_;  // by name: sm.scoreboard.policy
  bool scoreboard_commits_ = false;           // scoreboard_->commits(): commit() every cycle
  std::vector<std::unique_ptr<WarpScheduler>> schedulers_;
  std::unique_ptr<FetchUnit> fetch_;
  std::function<void(const CtaCompletion&)> on_complete_;
  std::function<void(int32_t)> cta_end_observer_;
  std::function<void()> waker_;

  std::vector<CtaSlot> ctas_;
  uint32_t resident_ctas_ = 0, used_threads_ = 0, used_warps_ = 0, used_registers_ = 0, used_shared_ = 0;
  uint64_t retire_scanned_at_ = ~uint64_t{0};  // WarpTable::version() after the last completion scan
  uint64_t cta_sequence_ = 0;
  std::vector<uint32_t> by_age_;  // resident warp slots, oldest first (warp sharing)
  uint64_t by_age_residency_ = ~uint64_t{0};

  uint64_t last_tick_ = 0;
  bool ticked_while_resident_ = false;
  uint32_t issued_this_cycle_ = 0;
  // DYNCTA counters: cycles so far, and the class of the last tick that issued nothing
  // (0 none, 1 idle, 2 mem), which the cycles a sleeping SM skips keep.
  bool issue_stalls_on_ = false;
  SmIssueStalls issue_stalls_;
  uint8_t last_issue_stall_ = 0;

  stats::Counter cycles_, writebacks_, ctas_launched_, ctas_completed_, warps_completed_, idle_sleep_cycles_;
  stats::Ratio ipc_, warp_ipc_;
  std::unique_ptr<stats::Counter> forwards_;  // with sm.exec.forwarding = alu only
};

}  // namespace gputlm::sm
