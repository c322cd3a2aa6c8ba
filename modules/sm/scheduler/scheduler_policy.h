// Warp-scheduling policies (digest §A): small objects that order a scheduler's warps by
// issue priority each cycle. The scheduler then walks that order and issues the first
// warp that can issue (GPGPU-Sim's order_warps + issue loop), so a policy only decides
// order, never readiness. Created by name from SchedulerConfig (registry in
// policies/registry.cpp). See docs/blocks/scheduler.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/stats/stats.h"
#include "isa/exec/step_result.h"
#include "isa/ir.h"
#include "sm/sm_config.h"

namespace gputlm::sm {

class WarpTable;

// What a policy knows about one warp of its scheduler.
struct WarpView {
  uint32_t slot = 0;   // warp slot in the SM ("warp ID" of the sources)
  uint32_t local = 0;  // index within the scheduler's warps: slot / schedulers
  uint64_t age = 0;    // smaller is older: CTA assignment order, then warp within the CTA
};

// Age key of warp `warp_in_cta` of the CTA launched `cta_sequence`-th on the SM.
inline uint64_t warp_age(uint64_t cta_sequence, uint32_t warp_in_cta) {
  return (cta_sequence << 16) | warp_in_cta;
}

// ELF's counters (per SM, group sm<i>.elf; 000 §4.1 Fig. 8), shared by its schedulers.
struct ElfStats {
  explicit ElfStats(stats::Group& sm_group);
  stats::Group group;
  stats::Counter prio_recalcs, naive_recalcs, prio_inits;
};

class CcwsState;
class MascarState;

class OwlState;
class LawsState;
class KawsState;

// What a policy may read besides the warps passed to order(): the SM's warp table
// (read-only), ELF's counters, CCWS's per-SM state (VTAs and scores, fed by the L1D),
// Mascar's (mode, WST, owner) and OWL's per-SM CTA groups. Policies that need none of them
// ignore it.
struct PolicyContext {
  const WarpTable* warps = nullptr;
  ElfStats* elf_stats = nullptr;
  CcwsState* ccws = nullptr;
  MascarState* mascar = nullptr;
  OwlState* owl = nullptr;
  LawsState* laws = nullptr;
  KawsState* kaws = nullptr;
};

class SchedulerPolicyIF {
 public:
  virtual ~SchedulerPolicyIF() = default;
  virtual const char* name() const = 0;
  // `warps`: the scheduler's resident warps, ascending slot. Writes into `order` the slots
  // that may issue, highest priority first (a throttling policy may leave some out).
  virtual void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& order) = 0;
  // The scheduler issued `in` from warp `slot` (called for every instruction issued).
  virtual void issued(uint32_t slot, const isa::Instruction& in) = 0;
  // Policies that follow each warp's position in its program (ELF) return true; the
  // scheduler then also calls issued_at() after issued(), with the functional result and
  // the warp's next PC (0 when it finished). Others pay nothing for it.
  virtual bool wants_issue_outcome() const { return false; }
  virtual void issued_at(uint32_t /*slot*/, const isa::StepResult& /*step*/, uint64_t /*next_pc*/) {}
  // A warp slot was freed (its CTA finished): forget per-warp state.
  virtual void warp_removed(uint32_t /*slot*/) {}
  // Whether order() changes only through issued()/warp_removed() and the warps passed in.
  // The scheduler then skips re-deciding in cycles where nothing it reads has changed; a
  // policy driven by other state (time, cache feedback, counters of other blocks) returns
  // false and is asked every cycle. A property of the policy: the scheduler asks it once.
  virtual bool order_changes_only_on_issue() const { return true; }
  // A policy whose order or veto also depends on state outside the scheduler that is
  // versioned (Mascar: the SM's mode, owner and WST) returns true here and a value from
  // state_version() that changes with that state; the scheduler then re-decides when it
  // changed (and may repeat a decision while it did not). Others are not asked.
  virtual bool has_state_version() const { return false; }
  virtual uint64_t state_version() const { return 0; }
  // Policies that hold back single instructions of warps they order (CCWS: the loads of
  // a warp above the cutoff) return true; the scheduler then asks may_issue() about a
  // warp's next instruction once it is otherwise ready, and treats a refusal as "not
  // eligible". Others pay nothing for it.
  virtual bool vetoes_instructions() const { return false; }
  virtual bool may_issue(uint32_t /*slot*/, const isa::Instruction& /*in*/) { return true; }
};

// Creates the policy `cfg.policy` (throws config::ConfigError naming key_prefix.policy for
// an unknown name, or the key of a bad ELF / CCWS / Mascar / OWL parameter; elf needs
// context.warps, ccws context.ccws, mascar context.mascar, owl context.warps and context.owl).
std::unique_ptr<SchedulerPolicyIF> make_scheduler_policy(const SchedulerConfig& cfg,
                                                         const std::string& key_prefix = "scheduler",
                                                         const PolicyContext& context = {});
// A base policy by name (lrr, gto, oldest, gtrr, gtlr, sfp); used by two_level's inner policy.
std::unique_ptr<SchedulerPolicyIF> make_base_policy(const std::string& name, const std::string& key);

}  // namespace gputlm::sm
