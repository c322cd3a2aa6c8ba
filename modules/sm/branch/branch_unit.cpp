#include "sm/branch/branch_unit.h"

#include <algorithm>

namespace gputlm::sm {

std::unique_ptr<BranchUnit> BranchUnit::make(const BranchConfig& cfg, const std::string& key, stats::Group& sm_group,
                                             uint32_t warp_slots) {
  std::unique_ptr<BranchPredictorIF> p = make_branch_predictor(cfg, key);
  if (!p) return nullptr;
  return std::make_unique<BranchUnit>(cfg, std::move(p), sm_group, warp_slots);
}

BranchUnit::BranchUnit(const BranchConfig& cfg, std::unique_ptr<BranchPredictorIF> predictor, stats::Group& sm_group,
                       uint32_t warp_slots)
    : predictor_(std::move(predictor)),
      penalty_(cfg.redirect_penalty),
      group_(sm_group, "branch"),
      conditional_(group_, "conditional", "conditional branches issued (guarded, not .uni)"),
      divergent_(group_, "divergent", "conditional branches whose lanes went both ways (never wait)"),
      nondivergent_(group_, "nondivergent", "conditional branches all of whose active lanes went one way"),
      waits_(group_, "waits", "conditional branches whose warp waited for their resolution"),
      waited_seq_(warp_slots, 0) {
  if (cfg.predictor != "stall") {
    correct_ = std::make_unique<stats::Counter>(group_, "correct", "non-divergent conditional branches predicted right");
    mispredicted_ = std::make_unique<stats::Counter>(group_, "mispredicted",
                                                     "non-divergent conditional branches predicted wrong (the warp waits)");
  }
}

void BranchUnit::issued(const WarpInstruction& wi, WarpTable& table) {
  const isa::Instruction& in = *wi.instr;
  if (in.guard == isa::kNone || (in.flags & isa::kUni) != 0) return;  // unconditional: no hazard
  const isa::StepResult& r = wi.result;
  ++conditional_;
  BranchSite site;
  site.pc = wi.pc;
  site.target_pc = wi.pc + isa::kInstrBytes * (static_cast<int64_t>(in.target) - static_cast<int64_t>(r.index));
  site.warp = wi.warp;
  site.outcome_taken = r.branch_taken;
  const Prediction p = predictor_->predict(site);
  bool wait = p == Prediction::None;
  if (r.diverged) {
    ++divergent_;
    if (!wait) predictor_->update(site, p == Prediction::Taken);  // trained as if it were right
  } else {
    ++nondivergent_;
    if (!wait) {
      const bool right = (p == Prediction::Taken) == r.branch_taken;
      ++*(right ? correct_ : mispredicted_);
      predictor_->update(site, r.branch_taken);
      wait = !right;
    }
  }
  if (!wait) return;
  ++waits_;
  waited_seq_[wi.warp] = wi.seq;
  table.set_control_pending(wi.warp, true);
}

bool BranchUnit::release_due(uint64_t cycle, WarpTable& table) {
  // Entries are in writeback order and the penalty is fixed, so they are due in order.
  std::size_t n = 0;
  while (n < redirects_.size() && redirects_[n].first <= cycle) table.set_control_pending(redirects_[n++].second, false);
  redirects_.erase(redirects_.begin(), redirects_.begin() + static_cast<std::ptrdiff_t>(n));
  return !redirects_.empty();
}

}  // namespace gputlm::sm
