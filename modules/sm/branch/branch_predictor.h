// Branch predictors of an SM (sm.branch.predictor), created by name
// (make_branch_predictor). The issue stage asks one about every conditional branch it
// issues and trains it with the direction it should learn (BranchUnit decides which).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "sm/branch/branch_config.h"

namespace gputlm::sm {

enum class Prediction : uint8_t { None, NotTaken, Taken };  // None: the policy does not predict

// A conditional branch as the predictor sees it.
struct BranchSite {
  uint64_t pc = 0;
  uint64_t target_pc = 0;
  uint32_t warp = 0;
  bool outcome_taken = false;  // the real outcome, known to the model at issue: only the oracle reads it
};

class BranchPredictorIF {
 public:
  virtual ~BranchPredictorIF() = default;
  virtual Prediction predict(const BranchSite& b) = 0;
  // Trains with `taken` (the outcome, or for a divergent branch the prediction itself).
  virtual void update(const BranchSite& b, bool taken) = 0;
};

// One factory per policy (each in its own file).
std::unique_ptr<BranchPredictorIF> make_no_prediction();
std::unique_ptr<BranchPredictorIF> make_static_btfn();
std::unique_ptr<BranchPredictorIF> make_gshare(const GshareConfig& cfg);
std::unique_ptr<BranchPredictorIF> make_perfect();

// The predictor named by cfg.predictor; null for "none" (no control hazard modelled).
// Throws config::ConfigError naming `key` + ".predictor" for an unknown name.
std::unique_ptr<BranchPredictorIF> make_branch_predictor(const BranchConfig& cfg, const std::string& key);

}  // namespace gputlm::sm
