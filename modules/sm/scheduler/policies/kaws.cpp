// KAWS order (003 §3): see kaws_policy.h. Progress-mode CTAs' warps come before normal-mode
// ones (with concurrent kernels, the kernel that has issued all its CTAs is the one whose
// CTAs should finish together); among them the CTA with the smallest counter first, then
// the older warp; normal-mode warps oldest first, after the greedy warp with kaws.greedy.
#include "sm/scheduler/policies/kaws_policy.h"

#include <algorithm>
#include <stdexcept>

#include "sm/scheduler/kaws/kaws_state.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

namespace {

constexpr uint32_t kNoWarp = 0xffffffffu;

class KawsPolicy final : public SchedulerPolicyIF {
 public:
  KawsPolicy(KawsState& state, const WarpTable& table, bool greedy) : state_(state), table_(table), greedy_(greedy) {
    keyed_.reserve(64);
  }
  const char* name() const override { return "kaws"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    keyed_.clear();
    for (const WarpView& v : warps) {
      const uint32_t cta = table_[v.slot].cta_slot;
      Key k;
      k.slot = v.slot;
      k.age = v.age;
      if (state_.progress_mode(cta)) {
        k.mode = 0;
        k.progress = state_.progress(cta);
      } else {
        k.mode = 1;
        k.progress = greedy_ && v.slot == last_ ? 0 : 1;  // GTO's greedy warp first
      }
      keyed_.push_back(k);
    }
    std::sort(keyed_.begin(), keyed_.end(), [](const Key& a, const Key& b) {
      if (a.mode != b.mode) return a.mode < b.mode;
      if (a.progress != b.progress) return a.progress < b.progress;
      return a.age < b.age;
    });
    for (const Key& k : keyed_) out.push_back(k.slot);
  }
  void issued(uint32_t slot, const isa::Instruction&) override {
    if (greedy_ && slot != last_) {
      last_ = slot;
      ++greedy_changes_;
    }
  }
  void warp_removed(uint32_t slot) override {
    if (slot == last_) last_ = kNoWarp;
  }
  // The order depends on the CTAs' modes and counters (changed by every scheduler's
  // issues) besides this scheduler's own issues.
  bool has_state_version() const override { return true; }
  uint64_t state_version() const override { return state_.version() + greedy_changes_; }

 private:
  struct Key {
    uint32_t slot = 0;
    uint32_t mode = 0;      // 0 progress, 1 normal
    uint64_t progress = 0;  // progress mode: the CTA's counter; normal: 0 for the greedy warp
    uint64_t age = 0;
  };
  KawsState& state_;
  const WarpTable& table_;
  bool greedy_;
  uint32_t last_ = kNoWarp;
  uint64_t greedy_changes_ = 0;
  std::vector<Key> keyed_;
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_kaws_policy(const SchedulerConfig& cfg, const PolicyContext& context) {
  if (context.kaws == nullptr || context.warps == nullptr)
    throw std::invalid_argument("kaws scheduling policy: no KAWS state or warp table given (the SM creates them)");
  return std::make_unique<KawsPolicy>(*context.kaws, *context.warps, cfg.kaws.greedy);
}

}  // namespace gputlm::sm
