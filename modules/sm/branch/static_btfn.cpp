// sm.branch.predictor = static_btfn: backward taken, forward not taken, from the target
// computed in IF (004 §4.3; no tables). A branch to itself counts as backward (a loop).
#include "sm/branch/branch_predictor.h"

namespace gputlm::sm {

namespace {
class StaticBtfn final : public BranchPredictorIF {
 public:
  Prediction predict(const BranchSite& b) override {
    return b.target_pc <= b.pc ? Prediction::Taken : Prediction::NotTaken;
  }
  void update(const BranchSite&, bool) override {}
};
}  // namespace

std::unique_ptr<BranchPredictorIF> make_static_btfn() { return std::make_unique<StaticBtfn>(); }

}  // namespace gputlm::sm
