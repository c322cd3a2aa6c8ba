// sm.branch.predictor = stall: no predictor. Fetch cannot know which way a conditional
// branch goes, so its warp waits for every one, divergent or not (004's baseline SM).
#include "sm/branch/branch_predictor.h"

namespace gputlm::sm {

namespace {
class NoPrediction final : public BranchPredictorIF {
 public:
  Prediction predict(const BranchSite&) override { return Prediction::None; }
  void update(const BranchSite&, bool) override {}
};
}  // namespace

std::unique_ptr<BranchPredictorIF> make_no_prediction() { return std::make_unique<NoPrediction>(); }

}  // namespace gputlm::sm
