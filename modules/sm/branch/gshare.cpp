// sm.branch.predictor = gshare: one table of saturating counters and one global history per
// SM, shared by all its warps and CTAs (004 §4.3: "1K bits"; sizes and index from digest
// §Z43). Counters start weakly not-taken; the history shifts in each trained direction.
#include <vector>

#include "sm/branch/branch_predictor.h"

namespace gputlm::sm {

namespace {
class Gshare final : public BranchPredictorIF {
 public:
  explicit Gshare(const GshareConfig& cfg)
      : counters_(cfg.table_entries, static_cast<uint8_t>((1u << (cfg.counter_bits - 1)) - 1)),
        index_mask_(cfg.table_entries - 1),
        history_mask_(cfg.history_bits >= 32 ? ~uint32_t{0} : (uint32_t{1} << cfg.history_bits) - 1),
        max_(static_cast<uint8_t>((1u << cfg.counter_bits) - 1)),
        taken_from_(static_cast<uint8_t>(1u << (cfg.counter_bits - 1))) {}

  Prediction predict(const BranchSite& b) override {
    return counters_[index(b.pc)] >= taken_from_ ? Prediction::Taken : Prediction::NotTaken;
  }
  void update(const BranchSite& b, bool taken) override {
    uint8_t& c = counters_[index(b.pc)];
    if (taken && c < max_) ++c;
    if (!taken && c > 0) --c;
    history_ = ((history_ << 1) | (taken ? 1u : 0u)) & history_mask_;
  }

 private:
  uint32_t index(uint64_t pc) const { return (static_cast<uint32_t>(pc / 8) ^ history_) & index_mask_; }

  std::vector<uint8_t> counters_;
  uint32_t index_mask_, history_mask_;
  uint8_t max_, taken_from_;
  uint32_t history_ = 0;
};
}  // namespace

std::unique_ptr<BranchPredictorIF> make_gshare(const GshareConfig& cfg) { return std::make_unique<Gshare>(cfg); }

}  // namespace gputlm::sm
