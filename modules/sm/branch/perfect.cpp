// sm.branch.predictor = perfect: an oracle (the model knows each outcome at issue), the
// upper bound a real predictor is compared with.
#include "sm/branch/branch_predictor.h"

namespace gputlm::sm {

namespace {
class Perfect final : public BranchPredictorIF {
 public:
  Prediction predict(const BranchSite& b) override {
    return b.outcome_taken ? Prediction::Taken : Prediction::NotTaken;
  }
  void update(const BranchSite&, bool) override {}
};
}  // namespace

std::unique_ptr<BranchPredictorIF> make_perfect() { return std::make_unique<Perfect>(); }

}  // namespace gputlm::sm
