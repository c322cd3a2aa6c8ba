// OWL scheduling (digest §A7; Jog et al. ASPLOS'13 §4.1-4.3; sm/scheduler/policies/owl_policy.h)
// on a scripted warp table: CTA groups formed in placement order, the order each scheme
// produces, switching away from a stalled prioritised group and back (locality) or on to
// the next group (cta_aware), the BLP pairing on odd and even SMs, and config errors
// naming the key.
#include <catch2/catch.hpp>

#include "core/config/config_source.h"
#include "core/config/params.h"
#include "sm/scheduler/policies/owl_policy.h"
#include "sm/warp_table.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
using Order = std::vector<uint32_t>;

// Places CTA `seq` (its placement sequence on the SM) of `kernel` with `warps` warps in the
// lowest free slots, as SmCore::launch_cta does; returns its slots.
std::vector<uint32_t> place(WarpTable& t, uint64_t seq, uint32_t warps, uint32_t kernel = 1) {
  std::vector<uint32_t> slots;
  uint32_t w = 0;
  for (uint32_t i = 0; i < warps; ++i) {
    while (t[w].valid) ++w;
    t.clear(w);
    t[w].valid = true;
    t[w].kernel_id = kernel;
    t[w].age = warp_age(seq, i);
    slots.push_back(w);
  }
  t.note_residency_change();
  return slots;
}

void retire(WarpTable& t, const std::vector<uint32_t>& slots) {
  for (uint32_t w : slots) t.clear(w);
}

// The live warps of scheduler `id` of `count` (slots w with w mod count == id).
std::vector<WarpView> views(const WarpTable& t, uint32_t id = 0, uint32_t count = 1) {
  std::vector<WarpView> v;
  for (uint32_t w = id; w < t.size(); w += count)
    if (t.live(w)) v.push_back(WarpView{w, w / count, t[w].age});
  return v;
}

OwlSchedulerConfig owl_cfg(const std::string& scheme, uint32_t group_warps) {
  OwlSchedulerConfig c;
  c.scheme = scheme;
  c.group_warps = group_warps;
  return c;
}

std::unique_ptr<SchedulerPolicyIF> make_owl(OwlState& state, const WarpTable& table) {
  SchedulerConfig c;
  c.policy = "owl";
  c.owl = state.config();
  return make_scheduler_policy(c, "sm.scheduler", PolicyContext{&table, nullptr, nullptr, nullptr, &state});
}

Order order_of(SchedulerPolicyIF& p, const WarpTable& t, uint32_t id = 0, uint32_t count = 1) {
  Order o;
  p.order(views(t, id, count), o);
  return o;
}

isa::Instruction alu_instruction() { return isa::Instruction{}; }
}  // namespace

TEST_CASE("owl: CTAs join the youngest group until it holds group_warps warps of one kernel", "[sm][owl]") {
  stats::Group root("t");
  WarpTable t(16, 2);
  OwlState s(owl_cfg("locality", 4), 16, 0, "sm.scheduler", &root);
  const auto c0 = place(t, 0, 2);  // slots 0 1
  const auto c1 = place(t, 1, 2);  // 2 3: group 0 now holds 4 warps
  const auto c2 = place(t, 2, 4);  // 4..7: a full group on its own
  const auto c3 = place(t, 3, 1);  // 8: opens group 2
  const auto c4 = place(t, 4, 1, 2);  // 9: another kernel opens group 3
  s.update(t);
  for (uint32_t w : c0) CHECK(s.group_of(w) == 0);
  for (uint32_t w : c1) CHECK(s.group_of(w) == 0);
  for (uint32_t w : c2) CHECK(s.group_of(w) == 1);
  CHECK(s.group_of(c3[0]) == 2);
  CHECK(s.group_of(c4[0]) == 3);
  CHECK(s.groups_formed() == 4);
  // A later CTA of kernel 2 joins group 3 (2 of 4 warps), the next one too (4 of 4);
  // one more opens group 4. Freed slots are reused: the new CTA is recognised by its
  // sequence number, not by its slots.
  retire(t, c0);
  const auto c5 = place(t, 5, 1, 2);  // slot 0
  const auto c6 = place(t, 6, 2, 2);  // slots 1 10
  const auto c7 = place(t, 7, 1, 2);
  s.update(t);
  CHECK(c5 == std::vector<uint32_t>{0});
  CHECK(s.group_of(0) == 3);
  for (uint32_t w : c6) CHECK(s.group_of(w) == 3);
  CHECK(s.group_of(c7[0]) == 4);
  for (uint32_t w : c1) CHECK(s.group_of(w) == 0);  // residents keep their group
  CHECK(s.stats()->groups_formed.value() == 5);
  CHECK(s.stats()->ctas_grouped.value() == 8);
  // locality: the key is the group's age.
  CHECK(s.priority_of(c2[0]) == 1);
  CHECK(s.priority_of(c7[0]) == 4);
}

TEST_CASE("owl locality: the oldest group leads and regains priority as soon as a warp of it is ready",
          "[sm][owl]") {
  stats::Group root("t");
  WarpTable t(8, 2);
  OwlState s(owl_cfg("locality", 2), 8, 0, "sm.scheduler", &root);
  place(t, 0, 2);  // group 0: slots 0 1
  place(t, 1, 2);  // group 1: slots 2 3
  const auto c2 = place(t, 2, 2);  // group 2: slots 4 5
  auto p = make_owl(s, t);
  CHECK(order_of(*p, t) == Order{0, 1, 2, 3, 4, 5});
  // Group 0 stalls: the scheduler's walk issues warp 2 of group 1. Group 0 stays first
  // (inner lrr continues after warp 2 inside every group).
  p->issued(2, alu_instruction());
  CHECK(order_of(*p, t) == Order{0, 1, 3, 2, 4, 5});
  p->issued(0, alu_instruction());  // group 0 ready again: it issues
  CHECK(order_of(*p, t) == Order{1, 0, 2, 3, 4, 5});
  CHECK(s.stats()->other_issues.value() == 1);
  CHECK(s.stats()->prioritized_issues.value() == 1);
  // Group 0's warps finish: group 1 leads; a CTA placed in the freed slots forms group 3,
  // which comes last.
  retire(t, {0, 1});
  place(t, 3, 2);  // slots 0 1
  CHECK(order_of(*p, t) == Order{2, 3, 4, 5, 1, 0});
  CHECK(s.group_of(0) == 3);
  // A warp past its last exit is no longer ordered; its group keeps its place.
  t[c2[0]].issue_done = true;
  t.note_residency_change();
  CHECK(order_of(*p, t) == Order{2, 3, 5, 1, 0});
}

TEST_CASE("owl cta_aware: the active group leads and the next group in round robin takes over when it stalls",
          "[sm][owl]") {
  stats::Group root("t");
  WarpTable t(8, 2);
  OwlState s(owl_cfg("cta_aware", 2), 8, 0, "sm.scheduler", &root);
  place(t, 0, 2);
  place(t, 1, 2);
  place(t, 2, 2);
  auto p = make_owl(s, t);
  CHECK(order_of(*p, t) == Order{0, 1, 2, 3, 4, 5});
  p->issued(2, alu_instruction());  // group 0 stalled, group 1 issued: group 1 is active
  CHECK(order_of(*p, t) == Order{3, 2, 4, 5, 0, 1});
  p->issued(5, alu_instruction());  // group 1 stalled: group 2, then group 0 (wrapping)
  CHECK(order_of(*p, t) == Order{4, 5, 0, 1, 2, 3});
  p->issued(0, alu_instruction());
  CHECK(order_of(*p, t) == Order{1, 0, 2, 3, 4, 5});
  CHECK(s.stats()->other_issues.value() == 3);
  // The active group finishes: the group after it leads.
  retire(t, {0, 1});
  CHECK(order_of(*p, t) == Order{2, 3, 4, 5});
}

TEST_CASE("owl: the schedulers of an SM share the groups and lead with the same one", "[sm][owl]") {
  stats::Group root("t");
  WarpTable t(16, 2);
  OwlState s(owl_cfg("locality", 4), 16, 0, "sm.scheduler", &root);
  place(t, 0, 4);  // slots 0..3: group 0
  place(t, 1, 4);  // 4..7: group 1
  auto s0 = make_owl(s, t);
  auto s1 = make_owl(s, t);
  CHECK(order_of(*s0, t, 0, 2) == Order{0, 2, 4, 6});
  CHECK(order_of(*s1, t, 1, 2) == Order{1, 3, 5, 7});
  s0->issued(4, alu_instruction());
  CHECK(order_of(*s0, t, 0, 2) == Order{0, 2, 6, 4});
  CHECK(order_of(*s1, t, 1, 2) == Order{1, 3, 5, 7});
  CHECK(s.groups_formed() == 2);
}

TEST_CASE("owl blp: odd SMs put the second group of each pair first and even SMs the first", "[sm][owl]") {
  WarpTable t(8, 2);
  for (uint32_t c = 0; c < 4; ++c) place(t, c, 2);  // groups 0..3: slots 2c, 2c+1
  stats::Group root("t");
  OwlState even(owl_cfg("blp", 2), 8, 4, "sm.scheduler", &root);
  OwlState odd(owl_cfg("blp", 2), 8, 7, "sm.scheduler", nullptr);
  auto pe = make_owl(even, t);
  auto po = make_owl(odd, t);
  CHECK(order_of(*pe, t) == Order{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(order_of(*po, t) == Order{2, 3, 0, 1, 6, 7, 4, 5});
  // Locality inside the pairing: group 1 leads the odd SM until it is done, then group 0.
  retire(t, {2, 3});
  CHECK(order_of(*po, t) == Order{0, 1, 6, 7, 4, 5});
  // blp_groups = 3 on SM 7 (7 mod 3 = 1): blocks {0,1,2} {3,...} start at their second member.
  WarpTable u(8, 2);
  for (uint32_t c = 0; c < 4; ++c) place(u, c, 2);
  OwlSchedulerConfig c3 = owl_cfg("blp", 2);
  c3.blp_groups = 3;
  OwlState three(c3, 8, 7, "sm.scheduler", nullptr);
  auto p3 = make_owl(three, u);
  CHECK(order_of(*p3, u) == Order{2, 3, 4, 5, 0, 1, 6, 7});
  // blp_groups = 1: no pairing, as locality.
  OwlSchedulerConfig c1 = owl_cfg("blp", 2);
  c1.blp_groups = 1;
  OwlState one(c1, 8, 7, "sm.scheduler", nullptr);
  auto p1 = make_owl(one, u);
  CHECK(order_of(*p1, u) == Order{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("owl: bad parameters are config errors naming the key", "[sm][owl][config]") {
  auto make = [](const OwlSchedulerConfig& c) {
    SchedulerConfig sc;
    sc.policy = "owl";
    sc.owl = c;
    WarpTable table(4, 2);
    return make_scheduler_policy(sc, "sm.scheduler", PolicyContext{&table, nullptr, nullptr, nullptr});
  };
  OwlSchedulerConfig c;
  c.scheme = "prefetch";
  CHECK_THROWS_WITH(make(c), Catch::Contains("sm.scheduler.owl.scheme") && Catch::Contains("prefetch"));
  c = {};
  c.group_warps = 0;
  CHECK_THROWS_WITH(make(c), Catch::Contains("sm.scheduler.owl.group_warps"));
  c = {};
  c.blp_groups = 0;
  CHECK_THROWS_WITH(make(c), Catch::Contains("sm.scheduler.owl.blp_groups"));
  c = {};
  c.inner_policy = "random";
  CHECK_THROWS_WITH(make(c), Catch::Contains("sm.scheduler.owl.inner_policy") && Catch::Contains("random"));
  c = {};
  CHECK_THROWS_AS(make(c), std::invalid_argument);  // good parameters, but no SM state given
  CHECK_THROWS_WITH(OwlState(c, 65, 0, "sm.scheduler", nullptr), Catch::Contains("sm.max_warps"));
  // Through a configuration file and -p, the reader names the key.
  auto read = [](const std::string& override_text) {
    auto src = config::ConfigSource::from_json(nlohmann::json::object(), "test");
    src.apply_override(override_text);
    SmConfig sm;
    config::read(src, sm);
    sm.validate("sm");
    return sm;
  };
  CHECK(read("scheduler.policy=owl").scheduler.owl.scheme == "blp");
  CHECK(read("scheduler.policy=owl").scheduler.owl.group_warps == 8);
  CHECK_THROWS_WITH(read("scheduler.owl.scheme=two_level"),
                    Catch::Contains("scheduler.owl.scheme") && Catch::Contains("two_level"));
  CHECK_THROWS_WITH(read("scheduler.owl.group_warps=0"), Catch::Contains("scheduler.owl.group_warps"));
  CHECK_THROWS_WITH(read("scheduler.owl.group_warps=49"), Catch::Contains("sm.scheduler.owl.group_warps"));
  auto read2 = [](const std::string& a, const std::string& b) {
    auto src = config::ConfigSource::from_json(nlohmann::json::object(), "test");
    src.apply_override(a);
    src.apply_override(b);
    SmConfig sm;
    config::read(src, sm);
    sm.validate("sm");
    return sm;
  };
  CHECK_THROWS_WITH(read("scheduler.owl.blp_groups=0"), Catch::Contains("scheduler.owl.blp_groups"));
  // More groups per block than CTA slots: an error under OWL only (001 ch. 4 runs other
  // policies with sm.max_ctas=1 and OWL's default blp_groups 2).
  CHECK_THROWS_WITH(read2("scheduler.policy=owl", "scheduler.owl.blp_groups=9"),
                    Catch::Contains("sm.scheduler.owl.blp_groups"));
  CHECK_THROWS_WITH(read2("scheduler.policy=owl", "max_ctas=1"), Catch::Contains("sm.scheduler.owl.blp_groups"));
  CHECK(read2("scheduler.policy=lrr", "max_ctas=1").max_ctas == 1);
  CHECK(read("scheduler.owl.blp_groups=9").scheduler.owl.blp_groups == 9);
  CHECK_THROWS_WITH(read("scheduler.owl.inner_policy=sfp"), Catch::Contains("scheduler.owl.inner_policy"));
}
