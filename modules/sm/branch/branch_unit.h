// The control hazard of an SM's issue stage (sm.branch, 004 §4.3, digest §F4): created
// only when sm.branch.predictor is not "none", so the default model has no control hazard
// and pays nothing for this. Shared by the SM's schedulers (IssueShared::branch).
//
// At the issue of a conditional branch (guarded, not .uni), after the functional step:
//  - divergent: no wait (either prediction is harmless, the branch mask arrives before
//    the predicted path's EX1); the predictor is trained with its own prediction;
//  - otherwise the prediction is correct when it equals the outcome and the predictor is
//    trained with the outcome;
//  - with no prediction (policy stall), or a mispredicted non-divergent branch, the warp
//    waits: WarpTable::control_pending holds it until the branch's writeback plus
//    redirect_penalty cycles (the schedulers see a scoreboard-other hazard).
// Unconditional branches never wait (the target is computed in IF). Statistics: sm<i>.branch.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/stats/stats.h"
#include "sm/branch/branch_predictor.h"
#include "sm/warp_instruction.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

class BranchUnit {
 public:
  // Null when cfg.predictor is "none"; config::ConfigError naming key + ".predictor" when
  // it is unknown.
  static std::unique_ptr<BranchUnit> make(const BranchConfig& cfg, const std::string& key, stats::Group& sm_group,
                                          uint32_t warp_slots);
  BranchUnit(const BranchConfig& cfg, std::unique_ptr<BranchPredictorIF> predictor, stats::Group& sm_group,
             uint32_t warp_slots);

  // wi (a branch: wi.result.is_branch) was just issued and executed.
  void issued(const WarpInstruction& wi, WarpTable& table);
  // wi was written back in `cycle`: when its warp waits for it, the wait ends now or
  // redirect_penalty cycles later (release_due).
  void written_back(const WarpInstruction& wi, uint64_t cycle, WarpTable& table) {
    if (!wi.is_branch || !table.control_pending(wi.warp) || waited_seq_[wi.warp] != wi.seq) return;
    if (penalty_ == 0) table.set_control_pending(wi.warp, false);
    else redirects_.emplace_back(cycle + penalty_, wi.warp);
  }
  // Ends the waits whose redirect penalty is over by `cycle` (before the cycle's issue);
  // true while some are still counting (the SM must keep ticking).
  bool release_due(uint64_t cycle, WarpTable& table);
  bool redirects_pending() const { return !redirects_.empty(); }

 private:
  std::unique_ptr<BranchPredictorIF> predictor_;
  uint32_t penalty_;
  stats::Group group_;
  stats::Counter conditional_, divergent_, nondivergent_, waits_;
  std::unique_ptr<stats::Counter> correct_, mispredicted_;  // when the policy predicts (not stall)
  std::vector<uint64_t> waited_seq_;                         // per warp: the branch it waits for
  std::vector<std::pair<uint64_t, uint32_t>> redirects_;     // (cycle the wait ends, warp), in order
};

}  // namespace gputlm::sm
