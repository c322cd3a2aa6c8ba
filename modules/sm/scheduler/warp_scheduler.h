// A warp scheduler (issue stage): owns the warp slots w with w mod schedulers == id
// (Fermi), orders them with its policy each cycle, walks that order and issues the first
// warp that can issue: resident and not at a barrier, allowed by the issue mask/filter,
// an instruction in its I-buffer, no scoreboard hazard, and its collector unit able to
// accept. Issuing executes the instruction in the functional model (GridExecution::step),
// builds the WarpInstruction, reserves its registers and sends it on the issue socket.
// With dual issue a second instruction of the same warp (the next I-buffer entry) issues
// in the same cycle if it is ready and goes to another unit type (GPGPU-Sim's Fermi).
// With a sharing source (KAWS), warps of other schedulers are tried after its own.
// Cycles without issue are classified (stall_classification.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "core/stats/stats.h"
#include "isa/exec/global_memory_log.h"
#include "sm/branch/branch_unit.h"
#include "sm/pipeline_protocol.h"
#include "sm/scheduler/ccws/ccws_state.h"
#include "sm/scheduler/issue_tracer.h"
#include "sm/scheduler/kaws/kaws_state.h"
#include "sm/scheduler/laws/laws_state.h"
#include "sm/scheduler/mascar/mascar_state.h"
#include "sm/scheduler/policies/owl_policy.h"
#include "sm/scheduler/scheduler_policy.h"
#include "sm/scheduler/stall_classification.h"
#include "sm/scoreboard/scoreboard_if.h"
#include "sm/sm_config.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

// What the schedulers of one SM share: the pool warp instructions come from, the issue
// sequence counter, and the SM-level statistics they add to.
struct IssueShared {
  // warp_slots: the SM's warp slots (CCWS, Mascar and OWL keep per-slot state); sm_id: the
  // SM's number (OWL's BLP pairing); l1d_line_size: Mascar's stranded-hit probes.
  IssueShared(stats::Group& sm_group, const SchedulerConfig& cfg, uint32_t warp_slots, uint32_t sm_id = 0,
              uint32_t l1d_line_size = 128, uint32_t cta_slots = 8);
  ~IssueShared();
  WarpInstructionPool pool{128};
  uint64_t next_seq = 0;
  uint32_t sm_id = 0;
  stats::Counter warp_instructions, thread_instructions;
  stats::CounterVector issued_per_scheduler, stall_elf, stall_kaws, warp_blocks;
  std::unique_ptr<ElfStats> elf;  // with sm.scheduler.policy = elf only (other runs' statistics unchanged)
  std::unique_ptr<CcwsState> ccws;  // with sm.scheduler.policy = ccws only (VTAs, scores, sm<i>.ccws)
  std::unique_ptr<MascarState> mascar;  // with sm.scheduler.policy = mascar only (mode, WST, owner, sm<i>.mascar)
  std::unique_ptr<OwlState> owl;    // with sm.scheduler.policy = owl only (CTA groups, sm<i>.owl)
  std::unique_ptr<LawsState> laws;  // with laws, laws_th, laws_nmd only (score, THU, sm<i>.laws)
  std::unique_ptr<KawsState> kaws;  // with sm.scheduler.policy = kaws only (CTA progress, sm<i>.kaws)
  // With sm.scheduler.warp_sharing only: instructions each scheduler issued for another's warp.
  std::unique_ptr<stats::CounterVector> shared_issues;
  // The control hazard, with sm.branch.predictor other than none only (set by the SM core).
  std::unique_ptr<BranchUnit> branch;
  // The SM's global loads, stores and atomics of a parallel edge, applied at its end in SM
  // order (core/clock/parallel_edge.h; Sm registers the replay).
  isa::GlobalMemoryLog memory_log;
};

class WarpScheduler : public sc_core::sc_module {
 public:
  PipelineOutSocket issue;
  sc_core::sc_port<ScoreboardIF> scoreboard;
  sc_core::sc_port<IssueStatusIF> issue_status;

  WarpScheduler(sc_core::sc_module_name name, uint32_t id, const SmConfig& cfg, WarpTable& table,
                IssueShared& shared);

  // One issue cycle; returns the number of instructions issued.
  uint32_t tick(uint64_t cycle);

  uint32_t id() const { return id_; }
  // This cycle's priority order (highest first) of the warps the policy lets issue; ELF's
  // coordinated fetch interleaves the schedulers' orders (000 §3.3).
  const std::vector<uint32_t>& priority_order() const { return order_; }
  // Last cycle's classification (valid when last_issued() == 0), for tests and tracing.
  uint32_t last_issued() const { return last_issued_; }
  ElfStall last_elf_stall() const { return last_elf_; }
  KawsStall last_kaws_stall() const { return last_kaws_; }
  // The warp blocks seen in the last cycle in which this scheduler issued nothing.
  const StallObservation& last_observation() const { return last_obs_; }
  WarpBlock last_block(uint32_t slot) const { return last_block_[slot]; }

  // Throttling hooks. Warps whose bit is clear may not issue (Mascar stall bits, LAWS-TH
  // warp limits); default all set.
  void set_issue_mask(uint64_t mask) {
    if (mask != mask_) forget_checks();
    mask_ = mask;
    inputs_changed_ = true;
  }
  uint64_t issue_mask() const { return mask_; }
  // At most `n` warps of this scheduler may issue: the n oldest resident ones (dynamic warp
  // limiting: LAWS-TH, DYNCTA-like throttles); 0 = no limit (default).
  void set_warp_limit(uint32_t n) {
    warp_limit_ = n;
    inputs_changed_ = true;
    order_stale_ = true;  // the order keeps only the allowed warps
  }
  uint32_t warp_limit() const { return warp_limit_; }
  // A per-instruction veto from outside the policy (CAR: a warp with a queued request
  // waits at its next L1 memory instruction).
  using IssueFilter = std::function<bool(uint32_t slot, const isa::Instruction& in)>;
  // A scheduler with a filter decides every cycle, unless `version` is given: a value that
  // changes whenever some answer of the filter may have changed (then unchanged decisions
  // may repeat while it stays the same). The filter is asked only about instructions of
  // the op classes in `classes` (bit c = OpClass c; it allows all others).
  void set_issue_filter(IssueFilter f, std::function<uint64_t()> version = {}, uint32_t classes = ~0u) {
    filter_ = std::move(f);
    filter_classes_ = classes;
    filter_version_ = std::move(version);
    cache_checks_ = !filter_ || filter_version_;  // unversioned answers are asked every time
    forget_checks();
    watch_versions_ = versioned_ || filter_version_;
    update_may_repeat();
    inputs_changed_ = true;
    order_stale_ = true;
  }
  // Called after every issue with the issued instruction (ELF WPT update, KAWS CTA
  // progress counters, Mascar ownership).
  using IssueObserver = std::function<void(const WarpInstruction& wi)>;
  void set_issue_observer(IssueObserver f) { observer_ = std::move(f); }
  // Tracing (the GPU timeline): every issued instruction, or nothing when null (default).
  void set_issue_tracer(IssueTracerIF* t) { tracer_ = t; }

  // The SM slept `cycles` cycles after this scheduler's last tick: its state did not change
  // meanwhile, so each of them counts as a stall of the last tick's classes.
  void account_skipped(uint64_t cycles);

  // KAWS warp sharing (digest §B7): warps of *other* schedulers this scheduler may issue on
  // its own collector units when none of its own warps issues; the source appends slots in
  // the order to try them (e.g. oldest warp stalled on a unit whose collector here is free).
  // Stall classes count this scheduler's own warps only. With a source the scheduler
  // decides every cycle.
  using SharingSource = std::function<void(uint32_t scheduler, std::vector<uint32_t>& slots)>;
  void set_sharing_source(SharingSource f) {
    sharing_ = std::move(f);
    update_may_repeat();
    inputs_changed_ = true;
  }
  uint64_t shared_issues() const { return shared_issues_; }

  SchedulerPolicyIF& policy() { return *policy_; }
  void warp_removed(uint32_t slot) {
    policy_->warp_removed(slot);
    order_stale_ = true;
  }

 private:
  struct Readiness {
    WarpBlock block = WarpBlock::NotEligible;
    bool ready = false;
  };
  Readiness evaluate(uint32_t slot) const;
  // The part of evaluate() that depends on the warp's own state and this scheduler's mask
  // only. has_head: resident, Ready, in the mask, an instruction in the I-buffer (of
  // head_class); block: why not, or the scoreboard's hazard; passed: no hazard either (the
  // warp then waits for nothing but the filter, its unit and the policy's veto).
  struct CheckResult {
    WarpBlock block = WarpBlock::NotEligible;
    bool has_head = false;
    bool passed = false;
    uint8_t head_class = 0;
    UnitType unit = UnitType::Sp;
  };
  CheckResult check_warp(uint32_t slot) const;
  // A warp's CheckResult and the filter's answer, and when they were found. 16 bytes, four
  // to a host cache line: a scheduler reads its warps' entries every decision.
  static constexpr uint64_t kUnchecked = ~uint64_t{0};
  struct WarpCheck {
    uint64_t version = kUnchecked;  // WarpTable::warp_version the result was found at
    CheckResult result;
    bool filter_ok = true;
    uint16_t filter_generation = 0;  // filter_generation_ when filter_ok was asked; 0 = not asked
  };
  static_assert(sizeof(WarpCheck) == 16, "four WarpChecks to a 64-byte line");
  // Every warp's check is to be redone (the mask or the filter changed).
  void forget_checks() {
    for (WarpCheck& c : checks_) c = WarpCheck{};
  }
  // Whether an unchanged decision may be repeated at all (a filter without a version, a
  // sharing source or a policy whose order changes between issues rule it out).
  void update_may_repeat() { may_repeat_ = (!filter_ || filter_version_) && !sharing_ && order_on_issue_only_; }
  // Whether this cycle's decision would repeat the last one: nothing issued then, and
  // nothing it was decided from has changed: its warps' WarpTable::group_version(), its
  // own inputs, and,
  // if a warp waited on a unit, the units' availability_version().
  bool decision_unchanged(uint64_t cycle) const;
  void add_stall(uint64_t cycles);
  // sm.scheduler.verify_repeats: throws PipelineError when evaluating the warps now would
  // not repeat the last decision (a ready warp, or other reasons for none).
  void verify_repeat(uint64_t cycle);
  void order_warps();  // views_ and order_ from the resident warps and the policy
  UnitType issue_one(uint32_t slot, uint64_t cycle, bool own);

  // What every tick reads, whether it decides or repeats, first and together: on a GPU of
  // many SMs a scheduler's data is cold each time its SM's turn comes.
  WarpTable& table_;
  IssueShared& shared_;
  const SmConfig& cfg_;
  std::unique_ptr<SchedulerPolicyIF> policy_;
  ScoreboardIF* scoreboard_if_ = nullptr;  // the ports' interfaces, found at the first tick
  IssueStatusIF* status_if_ = nullptr;
  uint64_t decided_at_version_ = ~uint64_t{0};
  uint64_t decided_at_availability_ = 0;
  uint64_t order_residency_ = 0;  // WarpTable::residency_version() order_ was computed at
  uint32_t id_;
  uint32_t last_issued_ = 0;
  bool inputs_changed_ = true;
  bool waited_on_unit_ = false;
  bool order_stale_ = true;
  bool order_on_issue_only_;  // policy_->order_changes_only_on_issue() (fixed per policy)
  bool may_repeat_ = false;   // update_may_repeat()
  bool watch_versions_;       // versioned_ or a filter with a version: checked once per tick
  bool scoreboard_wants_mask_ = false;  // ask check_masked with the warp's next active mask
  // issue_status->can_accept(id_, unit) per unit, asked once per scan: nothing it depends on
  // changes until this scheduler issues (bit u of units_known_ / units_open_ is UnitType u).
  mutable uint8_t units_known_ = 0, units_open_ = 0;
  ElfStall last_elf_ = ElfStall::Other;
  KawsStall last_kaws_ = KawsStall::Idle;
  StallObservation last_obs_;
  // Per warp slot, at check_index_[slot]: this scheduler's own warps first and dense (it
  // scans them every decision; spread over all slots they took a cache line each), then
  // the others' (borrowed by warp sharing).
  mutable std::vector<WarpCheck> checks_;
  std::vector<uint8_t> check_index_;
  std::vector<uint32_t> order_;
  std::vector<WarpView> views_;

  bool wants_outcome_;  // policy_->wants_issue_outcome()
  bool vetoes_;         // policy_->vetoes_instructions()
  bool versioned_;      // policy_->has_state_version()
  bool cache_checks_ = true;   // false with a filter that has no version
  uint64_t policy_version_ = ~uint64_t{0};
  std::vector<WarpBlock> last_block_;
  uint64_t mask_ = ~uint64_t{0};
  uint32_t warp_limit_ = 0;
  std::vector<uint32_t> by_age_;
  IssueFilter filter_;
  uint32_t filter_classes_ = ~0u;
  std::function<uint64_t()> filter_version_;
  uint64_t filter_version_seen_ = ~uint64_t{0};
  // Counts changes of filter_version_seen_ (wrapping to 1 after forgetting every answer), so
  // that a WarpCheck keeps two bytes for it instead of the eight-byte version.
  uint16_t filter_generation_ = 1;
  IssueObserver observer_;
  IssueTracerIF* tracer_ = nullptr;
  SharingSource sharing_;
  std::vector<uint32_t> borrowed_;
  uint64_t shared_issues_ = 0;
  uint64_t views_residency_ = ~uint64_t{0};      // WarpTable::residency_version() views_ hold
};

}  // namespace gputlm::sm
