// Fetch order: round robin after the last warp fetched, ELF's interleaving of the
// schedulers' priority lists (000 §3.3), and the next-line L1I prefetcher's MSHR gate.
#include <catch2/catch.hpp>

#include "sm/fetch/fetch_policy.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
using Order = std::vector<uint32_t>;

class FixedOrders : public SchedulerOrderIF {
 public:
  std::vector<Order> lists;
  uint32_t scheduler_count() const override { return static_cast<uint32_t>(lists.size()); }
  const Order& priority_order(uint32_t s) const override { return lists[s]; }
};
}  // namespace

TEST_CASE("fetch order: round robin starts after the warp fetched last", "[sm][fetch]") {
  auto p = make_round_robin_fetch();
  const Order live{1, 3, 4, 8};
  Order o;
  p->order(live, o);
  CHECK(o == Order{1, 3, 4, 8});
  p->fetched(4);
  o.clear();
  p->order(live, o);
  CHECK(o == Order{8, 1, 3, 4});
  p->fetched(8);
  o.clear();
  p->order(live, o);
  CHECK(o == Order{1, 3, 4, 8});
}

TEST_CASE("fetch order: scheduler_priority interleaves S0's best, S1's best, S0's second, ...", "[sm][fetch]") {
  FixedOrders s;
  s.lists = {{4, 0, 2}, {5, 3, 1, 7, 9}};
  auto p = make_scheduler_priority_fetch(s);
  Order o;
  p->order({}, o);
  CHECK(o == Order{4, 5, 0, 3, 2, 1, 7, 9});
  s.lists[0] = {2};  // follows the schedulers' current orders each cycle
  o.clear();
  p->order({}, o);
  CHECK(o == Order{2, 5, 3, 1, 7, 9});
}

TEST_CASE("fetch prefetcher: next line after a demand miss, gated by occupied MSHRs", "[sm][fetch]") {
  FetchConfig cfg;
  cfg.prefetch = "next_line";
  cfg.prefetch_mshr_threshold = 16;
  auto pf = make_instruction_prefetcher(cfg, 128);
  uint64_t line = 0;
  CHECK_FALSE(pf->next(0, line));  // nothing missed yet
  CHECK_FALSE(pf->may_prefetch());  // the fetch unit may sleep with no warp to fetch
  mem::AccessRecord hit;
  hit.kind = AccessKind::InstFetch;
  hit.address = 0x1000;
  hit.outcome = mem::AccessOutcome::Hit;
  pf->observe(hit);
  CHECK_FALSE(pf->next(0, line));
  mem::AccessRecord miss = hit;
  miss.address = 0x1010;
  miss.outcome = mem::AccessOutcome::PrimaryMiss;
  pf->observe(miss);
  CHECK(pf->may_prefetch());
  CHECK_FALSE(pf->next(16, line));  // gate closed at T
  REQUIRE(pf->next(15, line));
  CHECK(line == 0x1080);
  pf->sent(true);
  CHECK_FALSE(pf->next(0, line));
  CHECK_FALSE(pf->may_prefetch());

  cfg.prefetch_mshr_threshold = 0;  // T = 0 disables
  auto off = make_instruction_prefetcher(cfg, 128);
  off->observe(miss);
  CHECK_FALSE(off->next(0, line));
  cfg.prefetch = "none";
  auto none = make_instruction_prefetcher(cfg, 128);
  none->observe(miss);
  CHECK_FALSE(none->next(0, line));
}
