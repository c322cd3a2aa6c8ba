// GTO (digest §A2), oldest-first, SWL (§A8) and SFP (§A5): age- or id-ordered policies.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "isa/exec/warp_context.h"
#include "sm/scheduler/policies/base_policies.h"
#include "sm/warp_table.h"

namespace gputlm::sm::policies {

void oldest_first(const std::vector<WarpView>& warps, uint32_t skip, std::vector<uint32_t>& order) {
  // Insertion into a small fixed array keeps this allocation-free; ages are unique per SM
  // (CTA sequence, warp in CTA) and the slot breaks ties defensively.
  // (A plain array of a type without initialisers: std::pair would zero all 64 each call.)
  struct Key {
    uint64_t age;
    uint32_t slot;
    bool operator<(const Key& o) const { return age != o.age ? age < o.age : slot < o.slot; }
  };
  Key keys[64];  // sm.max_warps is at most 64 (validated)
  std::size_t n = 0;
  for (const WarpView& w : warps) {
    if (w.slot == skip) continue;
    const Key k{w.age, w.slot};
    std::size_t i = n++;
    while (i > 0 && k < keys[i - 1]) {
      keys[i] = keys[i - 1];
      --i;
    }
    keys[i] = k;
  }
  for (std::size_t i = 0; i < n; ++i) order.push_back(keys[i].slot);
}

const std::vector<uint32_t>& AgeSorted::of(const std::vector<WarpView>& warps) {
  const bool same = warps.size() == seen_.size() &&
                    std::equal(warps.begin(), warps.end(), seen_.begin(), [](const WarpView& a, const WarpView& b) {
                      return a.slot == b.slot && a.age == b.age;
                    });
  if (!same) {
    seen_.assign(warps.begin(), warps.end());
    sorted_.clear();
    oldest_first(warps, 0xffffffffu, sorted_);
  }
  return sorted_;
}

namespace {

constexpr uint32_t kNoWarp = 0xffffffffu;

// Greedy then oldest: the last warp that issued first, then the others oldest first.
// Any inability of the greedy warp to issue moves greed to the oldest ready warp (the
// scheduler issues it and issued() records it), per the digest's [impl] note.
class Gto : public SchedulerPolicyIF {
 public:
  const char* name() const override { return "gto"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    bool greedy_resident = false;
    for (const WarpView& w : warps) greedy_resident = greedy_resident || w.slot == greedy_;
    if (greedy_resident) out.push_back(greedy_);
    for (uint32_t w : by_age_.of(warps))
      if (w != greedy_) out.push_back(w);
  }
  void issued(uint32_t slot, const isa::Instruction&) override { greedy_ = slot; }
  void warp_removed(uint32_t slot) override {
    if (slot == greedy_) greedy_ = kNoWarp;
  }

 private:
  uint32_t greedy_ = kNoWarp;
  AgeSorted by_age_;
};

// Oldest first, no greedy part (KAWS "normal mode", 003 §4.1).
class Oldest : public SchedulerPolicyIF {
 public:
  const char* name() const override { return "oldest"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    const std::vector<uint32_t>& sorted = by_age_.of(warps);
    out.insert(out.end(), sorted.begin(), sorted.end());
  }
  void issued(uint32_t, const isa::Instruction&) override {}

 private:
  AgeSorted by_age_;
};

// Static warp limiting (B-SWL): GTO over the `limit` oldest warps of the scheduler (or,
// with sm_scope, of the SM); the others may not issue. With the warp table, warps waiting
// at a barrier neither count nor are held: a limit below a CTA's warps would otherwise stop
// the CTA at its first barrier, waiting for warps the limit holds back.
class Swl : public SchedulerPolicyIF {
 public:
  Swl(uint32_t limit, bool sm_scope, const WarpTable* table) : limit_(limit), sm_scope_(sm_scope), table_(table) {}
  const char* name() const override { return "swl"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    candidates_.clear();
    if (sm_scope_) {  // every live warp of the SM
      for (uint32_t w = 0; w < table_->size(); ++w)
        if (table_->live(w)) candidates_.push_back(WarpView{w, w, (*table_)[w].age});
    } else {
      candidates_ = warps;
    }
    waiting_.clear();
    if (table_) {
      auto at_barrier = [&](const WarpView& w) { return (*table_)[w.slot].ctx->status == isa::WarpStatus::AtBarrier; };
      for (const WarpView& w : candidates_)
        if (at_barrier(w)) waiting_.push_back(w.slot);
      candidates_.erase(std::remove_if(candidates_.begin(), candidates_.end(), at_barrier), candidates_.end());
    }
    allowed_.clear();
    oldest_first(candidates_, kNoWarp, allowed_);
    if (allowed_.size() > limit_) allowed_.resize(limit_);
    allowed_.insert(allowed_.end(), waiting_.begin(), waiting_.end());
    subset_.clear();
    for (const WarpView& w : warps)
      if (std::find(allowed_.begin(), allowed_.end(), w.slot) != allowed_.end()) subset_.push_back(w);
    gto_.order(subset_, out);
  }
  // The allowed set changes with barrier arrivals and releases and, with sm_scope, with the
  // other schedulers' warps (a scheduler repeating its decision would not see those).
  // Both versions only grow, so their sum changes whenever one does.
  bool has_state_version() const override { return table_ != nullptr; }
  uint64_t state_version() const override {
    if (!table_) return 0;
    return table_->barrier_version() + (sm_scope_ ? table_->residency_version() : 0);
  }
  void issued(uint32_t slot, const isa::Instruction& in) override { gto_.issued(slot, in); }
  void warp_removed(uint32_t slot) override { gto_.warp_removed(slot); }

 private:
  uint32_t limit_;
  bool sm_scope_;
  const WarpTable* table_;
  Gto gto_;
  std::vector<uint32_t> allowed_, waiting_;
  std::vector<WarpView> subset_, candidates_;
};

// Simple fixed priority: lower warp id first, always (the warp keeps issuing until it
// cannot, then the next ready warp by id; it regains priority as soon as it is ready).
class Sfp : public SchedulerPolicyIF {
 public:
  const char* name() const override { return "sfp"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    for (const WarpView& w : warps) out.push_back(w.slot);
  }
  void issued(uint32_t, const isa::Instruction&) override {}
};

}  // namespace

std::unique_ptr<SchedulerPolicyIF> make_gto() { return std::make_unique<Gto>(); }
std::unique_ptr<SchedulerPolicyIF> make_oldest() { return std::make_unique<Oldest>(); }
std::unique_ptr<SchedulerPolicyIF> make_swl(uint32_t warp_limit, bool sm_scope, const WarpTable* table) {
  if (sm_scope && table == nullptr) throw std::invalid_argument("swl with sm scope needs the SM's warp table");
  return std::make_unique<Swl>(warp_limit, sm_scope, table);
}
std::unique_ptr<SchedulerPolicyIF> make_sfp() { return std::make_unique<Sfp>(); }

}  // namespace gputlm::sm::policies
