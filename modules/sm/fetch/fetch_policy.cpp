#include "sm/fetch/fetch_policy.h"

#include <algorithm>

namespace gputlm::sm {

void interleave_orders(const std::vector<const std::vector<uint32_t>*>& lists, std::vector<uint32_t>& out) {
  std::size_t longest = 0;
  for (const auto* l : lists) longest = std::max(longest, l->size());
  for (std::size_t i = 0; i < longest; ++i)
    for (const auto* l : lists)
      if (i < l->size()) out.push_back((*l)[i]);
}

namespace {

constexpr uint32_t kNoWarp = 0xffffffffu;

class RoundRobinFetch : public FetchOrderIF {
 public:
  const char* name() const override { return "round_robin"; }
  void order(const std::vector<uint32_t>& live, std::vector<uint32_t>& out) override {
    auto split = std::upper_bound(live.begin(), live.end(), last_);
    out.insert(out.end(), split, live.end());
    out.insert(out.end(), live.begin(), split);
  }
  void fetched(uint32_t slot) override { last_ = slot; }

 private:
  uint32_t last_ = kNoWarp;
};

class SchedulerPriorityFetch : public FetchOrderIF {
 public:
  explicit SchedulerPriorityFetch(const SchedulerOrderIF& s) : schedulers_(s) {}
  const char* name() const override { return "scheduler_priority"; }
  void order(const std::vector<uint32_t>&, std::vector<uint32_t>& out) override {
    lists_.clear();
    for (uint32_t i = 0; i < schedulers_.scheduler_count(); ++i) lists_.push_back(&schedulers_.priority_order(i));
    interleave_orders(lists_, out);
  }
  void fetched(uint32_t) override {}

 private:
  const SchedulerOrderIF& schedulers_;
  std::vector<const std::vector<uint32_t>*> lists_;
};

class NoPrefetcher : public InstructionPrefetcherIF {
 public:
  const char* name() const override { return "none"; }
  void observe(const mem::AccessRecord&) override {}
  bool next(uint32_t, uint64_t&) override { return false; }
  void sent(bool) override {}
  bool may_prefetch() const override { return false; }
};

class NextLinePrefetcher : public InstructionPrefetcherIF {
 public:
  NextLinePrefetcher(uint32_t threshold, uint32_t line) : threshold_(threshold), line_(line) {}
  const char* name() const override { return "next_line"; }
  void observe(const mem::AccessRecord& rec) override {
    if (rec.kind == AccessKind::InstFetch && rec.outcome == mem::AccessOutcome::PrimaryMiss) {
      candidate_ = (rec.address / line_ + 1) * line_;
      has_candidate_ = true;
    }
  }
  bool next(uint32_t occupied, uint64_t& line_address) override {
    if (!has_candidate_ || occupied >= threshold_) return false;
    line_address = candidate_;
    return true;
  }
  // A refused prefetch is dropped, not retried (a prefetch is a hint).
  void sent(bool) override { has_candidate_ = false; }
  // Without a candidate the fetch unit may skip its cycle when no warp can fetch.
  bool may_prefetch() const override { return has_candidate_; }

 private:
  uint32_t threshold_, line_;
  uint64_t candidate_ = 0;
  bool has_candidate_ = false;
};

}  // namespace

std::unique_ptr<FetchOrderIF> make_round_robin_fetch() { return std::make_unique<RoundRobinFetch>(); }
std::unique_ptr<FetchOrderIF> make_scheduler_priority_fetch(const SchedulerOrderIF& s) {
  return std::make_unique<SchedulerPriorityFetch>(s);
}

std::unique_ptr<InstructionPrefetcherIF> make_instruction_prefetcher(const FetchConfig& cfg, uint32_t line_size) {
  if (cfg.prefetch == "next_line") return std::make_unique<NextLinePrefetcher>(cfg.prefetch_mshr_threshold, line_size);
  return std::make_unique<NoPrefetcher>();
}

}  // namespace gputlm::sm
