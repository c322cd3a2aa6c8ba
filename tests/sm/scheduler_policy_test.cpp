// Issue order of each scheduling policy on constructed warp states (digest §A): the
// order a policy returns is the order in which the scheduler tries warps.
#include <catch2/catch.hpp>

#include "core/config/config_source.h"
#include "isa/exec/warp_context.h"
#include "sm/scheduler/scheduler_policy.h"
#include "sm/warp_table.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
using Order = std::vector<uint32_t>;

// Scheduler 0 of 2: slots 0, 2, 4, 6. Slot 4 belongs to the oldest CTA (sequence 0), slots
// 0 and 2 to CTA 1 (warps 0 and 1), slot 6 to CTA 2.
std::vector<WarpView> four_warps() {
  return {{0, 0, warp_age(1, 0)}, {2, 1, warp_age(1, 1)}, {4, 2, warp_age(0, 0)}, {6, 3, warp_age(2, 0)}};
}

Order order_of(SchedulerPolicyIF& p, const std::vector<WarpView>& w) {
  Order o;
  p.order(w, o);
  return o;
}

std::unique_ptr<SchedulerPolicyIF> make(const std::string& name) {
  SchedulerConfig c;
  c.policy = name;
  return make_scheduler_policy(c);
}

isa::Instruction alu() { return isa::Instruction{}; }
isa::Instruction load() {
  isa::Instruction in;
  in.is_load = true;
  in.cls = isa::OpClass::MemGlobal;
  return in;
}
}  // namespace

TEST_CASE("policy_lrr: round robin from the warp after the last one issued", "[sm][policy]") {
  auto p = make("lrr");
  const auto w = four_warps();
  CHECK(order_of(*p, w) == Order{0, 2, 4, 6});
  p->issued(2, alu());
  CHECK(order_of(*p, w) == Order{4, 6, 0, 2});
  p->issued(6, alu());
  CHECK(order_of(*p, w) == Order{0, 2, 4, 6});
}

TEST_CASE("policy_gto: greedy warp first, then oldest (CTA order, then warp id)", "[sm][policy]") {
  auto p = make("gto");
  const auto w = four_warps();
  CHECK(order_of(*p, w) == Order{4, 0, 2, 6});
  p->issued(6, alu());
  CHECK(order_of(*p, w) == Order{6, 4, 0, 2});
  p->issued(2, alu());
  CHECK(order_of(*p, w) == Order{2, 4, 0, 6});
  p->warp_removed(2);
  auto w3 = w;
  w3.erase(w3.begin() + 1);
  CHECK(order_of(*p, w3) == Order{4, 0, 6});
}

TEST_CASE("policy_gto and policy_oldest: a slot refilled by a younger warp moves back", "[sm][policy]") {
  // The policies keep their age-sorted list while the same warps are passed in; the same
  // slots with other ages (slot 4's CTA retired, CTA 3 took the slot) must sort again.
  for (const char* name : {"gto", "oldest"}) {
    auto p = make(name);
    auto w = four_warps();
    CHECK(order_of(*p, w) == Order{4, 0, 2, 6});
    CHECK(order_of(*p, w) == Order{4, 0, 2, 6});
    w[2].age = warp_age(3, 0);
    CHECK(order_of(*p, w) == Order{0, 2, 6, 4});
    std::swap(w[0], w[3]);  // same warps, another input order: the same sorted order
    CHECK(order_of(*p, w) == Order{0, 2, 6, 4});
  }
}

TEST_CASE("policy_oldest: always oldest first, no greedy part", "[sm][policy]") {
  auto p = make("oldest");
  const auto w = four_warps();
  p->issued(6, alu());
  CHECK(order_of(*p, w) == Order{4, 0, 2, 6});
}

TEST_CASE("policy_gtrr: greedy, then round robin from the current warp", "[sm][policy]") {
  auto p = make("gtrr");
  const auto w = four_warps();
  CHECK(order_of(*p, w) == Order{0, 2, 4, 6});
  p->issued(4, alu());
  CHECK(order_of(*p, w) == Order{4, 6, 0, 2});
  p->issued(4, load());  // a load does not move GTRR
  CHECK(order_of(*p, w) == Order{4, 6, 0, 2});
}

TEST_CASE("policy_gtlr: like GTRR, but moves on right after the current warp issues a load", "[sm][policy]") {
  auto p = make("gtlr");
  const auto w = four_warps();
  p->issued(4, alu());
  CHECK(order_of(*p, w) == Order{4, 6, 0, 2});
  p->issued(4, load());
  CHECK(order_of(*p, w) == Order{6, 0, 2, 4});
  p->issued(6, alu());
  CHECK(order_of(*p, w) == Order{6, 0, 2, 4});
}

TEST_CASE("policy_sfp: fixed priority by warp id", "[sm][policy]") {
  auto p = make("sfp");
  const auto w = four_warps();
  p->issued(6, alu());
  CHECK(order_of(*p, w) == Order{0, 2, 4, 6});
}

TEST_CASE("policy_swl: GTO over the warp_limit oldest warps only", "[sm][policy]") {
  SchedulerConfig c;
  c.policy = "swl";
  c.warp_limit = 2;
  auto p = make_scheduler_policy(c);
  const auto w = four_warps();
  CHECK(order_of(*p, w) == Order{4, 0});
  p->issued(0, alu());
  CHECK(order_of(*p, w) == Order{0, 4});
}

TEST_CASE("policy_swl: warps waiting at a barrier neither count nor are held; sm scope counts the SM", "[sm][policy]") {
  // Slots 0..3 of one CTA, slot 3 the oldest.
  WarpTable t(4, 2);
  std::vector<isa::WarpContext> ctx(4);
  std::vector<WarpView> all;
  for (uint32_t w = 0; w < 4; ++w) {
    t[w].valid = true;
    t[w].ctx = &ctx[w];
    t[w].age = warp_age(0, 3 - w);
    all.push_back({w, w, t[w].age});
  }
  t.note_residency_change();
  SchedulerConfig c;
  c.policy = "swl";
  c.warp_limit = 2;
  PolicyContext ctx_in;
  ctx_in.warps = &t;
  auto p = make_scheduler_policy(c, "sm.scheduler", ctx_in);
  CHECK(order_of(*p, all) == Order{3, 2});
  CHECK(p->has_state_version());
  const uint64_t v = p->state_version();
  ctx[3].status = isa::WarpStatus::AtBarrier;  // the oldest waits: the next two oldest may issue
  t.note_barrier_change();
  CHECK(p->state_version() != v);
  CHECK(order_of(*p, all) == Order{3, 2, 1});
  ctx[3].status = isa::WarpStatus::Ready;
  t.note_barrier_change();
  CHECK(order_of(*p, all) == Order{3, 2});
  // sm scope, two schedulers: the SM's two oldest (3 and 2) are split between them.
  c.warp_limit_scope = "sm";
  auto s0 = make_scheduler_policy(c, "sm.scheduler", ctx_in), s1 = make_scheduler_policy(c, "sm.scheduler", ctx_in);
  CHECK(order_of(*s0, {all[0], all[2]}) == Order{2});
  CHECK(order_of(*s1, {all[1], all[3]}) == Order{3});
  CHECK_THROWS_AS(make_scheduler_policy(c), std::invalid_argument);  // sm scope needs the warp table
}

TEST_CASE("policy_two_level: active fetch group first, inner and outer policies", "[sm][policy]") {
  // One scheduler, slots 0..5, groups of 2: {0,1} {2,3} {4,5}; CTA order makes group 2 oldest.
  std::vector<WarpView> w;
  for (uint32_t s = 0; s < 6; ++s) w.push_back({s, s, warp_age(s < 4 ? 1 + s / 2 : 0, s % 2)});
  SchedulerConfig c;
  c.policy = "two_level";
  c.fetch_group_size = 2;
  c.inner_policy = "lrr";
  c.outer_policy = "lrr";
  auto rr = make_scheduler_policy(c);
  CHECK(order_of(*rr, w) == Order{0, 1, 2, 3, 4, 5});
  rr->issued(3, alu());  // group 1 becomes active
  CHECK(order_of(*rr, w) == Order{2, 3, 4, 5, 0, 1});

  c.outer_policy = "gto";
  auto g = make_scheduler_policy(c);
  // Active group 0 first, then groups by their oldest warp: group 2 (CTA 0), group 1.
  CHECK(order_of(*g, w) == Order{0, 1, 4, 5, 2, 3});
  g->issued(1, alu());
  CHECK(order_of(*g, w) == Order{0, 1, 4, 5, 2, 3});  // inner lrr after 1 wraps to 0
  c.inner_policy = "gto";
  auto gg = make_scheduler_policy(c);
  gg->issued(5, alu());
  CHECK(order_of(*gg, w) == Order{5, 4, 0, 1, 2, 3});
}

TEST_CASE("policy registry: unknown names are errors naming the key", "[sm][policy]") {
  SchedulerConfig c;
  c.policy = "nope";
  CHECK_THROWS_WITH(make_scheduler_policy(c), Catch::Contains("scheduler.policy") && Catch::Contains("nope"));
  c.policy = "two_level";
  c.inner_policy = "bogus";
  CHECK_THROWS_WITH(make_scheduler_policy(c), Catch::Contains("scheduler.inner_policy"));
  CHECK(scheduler_policy_names().size() == 16);
  CHECK(scheduler_policy_names().back() == "kaws");
}
