// LRR (digest §A1), GTRR (§A3), GTLR (§A4): round-robin families.
#include <algorithm>

#include "sm/scheduler/policies/base_policies.h"

namespace gputlm::sm::policies {

void round_robin_after(const std::vector<WarpView>& warps, uint32_t last, std::vector<uint32_t>& order) {
  // warps is ascending by slot: first those after `last`, then wrap around.
  auto split = std::upper_bound(warps.begin(), warps.end(), last,
                                [](uint32_t v, const WarpView& w) { return v < w.slot; });
  for (auto it = split; it != warps.end(); ++it) order.push_back(it->slot);
  for (auto it = warps.begin(); it != split; ++it) order.push_back(it->slot);
}

namespace {

constexpr uint32_t kNoWarp = 0xffffffffu;

// Loose round robin: scan from the warp after the last one issued; not-ready warps are
// skipped by the scheduler's walk ("loose").
class Lrr : public SchedulerPolicyIF {
 public:
  const char* name() const override { return "lrr"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    round_robin_after(warps, last_, out);
  }
  void issued(uint32_t slot, const isa::Instruction&) override { last_ = slot; }

 private:
  uint32_t last_ = kNoWarp;  // nothing issued yet: start at the lowest slot
};

// Greedy then round robin: the current warp first; when it cannot issue, the next warp in
// round-robin order from it becomes the current one. GTLR additionally moves on right
// after the current warp issues a load (001 §2.3; loads only, see docs: stores do not
// trigger the switch).
class Gtrr : public SchedulerPolicyIF {
 public:
  explicit Gtrr(bool switch_on_load) : switch_on_load_(switch_on_load) {}
  const char* name() const override { return switch_on_load_ ? "gtlr" : "gtrr"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    if (current_ == kNoWarp) {
      round_robin_after(warps, kNoWarp, out);
      return;
    }
    // current first (if resident), then round robin after it.
    const std::size_t before = out.size();
    round_robin_after(warps, current_, out);
    if (leave_current_) return;  // after a load: current goes last (it is already last)
    auto it = std::find(out.begin() + static_cast<std::ptrdiff_t>(before), out.end(), current_);
    if (it != out.end()) std::rotate(out.begin() + static_cast<std::ptrdiff_t>(before), it, it + 1);
  }
  void issued(uint32_t slot, const isa::Instruction& in) override {
    current_ = slot;
    leave_current_ = switch_on_load_ && in.is_load;
  }
  void warp_removed(uint32_t slot) override {
    if (slot == current_) leave_current_ = true;
  }

 private:
  bool switch_on_load_;
  uint32_t current_ = kNoWarp;
  bool leave_current_ = false;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_lrr() { return std::make_unique<Lrr>(); }
std::unique_ptr<SchedulerPolicyIF> make_gtrr() { return std::make_unique<Gtrr>(false); }
std::unique_ptr<SchedulerPolicyIF> make_gtlr() { return std::make_unique<Gtrr>(true); }

}  // namespace gputlm::sm::policies
