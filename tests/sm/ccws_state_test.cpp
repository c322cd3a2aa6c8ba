// CCWS state (digest §A9; sm/scheduler/ccws/ccws_state.h) with hand-computed answers:
// victim tags inserted on eviction and hit on re-reference, fifo and lru replacement at 16
// entries, the score rise of a VTA hit (LLDS), decay to the base score, the cutoff test on
// a hand-made set of scores, a warp leaving its slot, and config errors naming the key.
#include <catch2/catch.hpp>

#include "core/config/config_source.h"
#include "core/config/params.h"
#include "sm/scheduler/ccws/ccws_state.h"
#include "sm/scheduler/policies/ccws_policy.h"
#include "sm/warp_table.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
CcwsSchedulerConfig cfg_with(uint32_t ways, const std::string& replacement) {
  CcwsSchedulerConfig c;
  c.vta_ways = ways;
  c.vta_replacement = replacement;
  return c;
}
}  // namespace

TEST_CASE("ccws: an evicted line's tag enters its warp's VTA and a miss of that warp hits it", "[sm][ccws]") {
  stats::Group root("t");
  CcwsState s(CcwsSchedulerConfig{}, 8, "sm.scheduler", &root);
  CHECK_FALSE(s.vta_holds(3, 10));
  s.evicted(3, 10);
  CHECK(s.vta_holds(3, 10));
  CHECK_FALSE(s.vta_holds(2, 10));   // another warp's VTA
  CHECK_FALSE(s.probe(2, 10));       // inter-warp: not lost intra-warp locality
  CHECK_FALSE(s.probe(3, 11));
  CHECK(s.probe(3, 10));
  CHECK(s.vta_holds(3, 10));         // a hit leaves the tag
  s.evicted(-1, 12);                 // no warp (e.g. a prefetch): ignored
  s.evicted(8, 12);                  // beyond the slots: ignored
  CHECK_FALSE(s.probe(-1, 12));
  CcwsStats& st = *s.stats();
  CHECK(st.evictions_recorded.value() == 1);
  CHECK(st.vta_probes.value() == 3);
  CHECK(st.vta_hits.value() == 1);
}

TEST_CASE("ccws: fifo victim tags at 16 entries drop the oldest insertion", "[sm][ccws]") {
  CcwsState s(cfg_with(16, "fifo"), 4, "sm.scheduler", nullptr);  // one set of 16
  for (uint64_t b = 0; b < 16; ++b) s.evicted(0, b);
  for (uint64_t b = 0; b < 16; ++b) CHECK(s.vta_holds(0, b));
  CHECK(s.probe(0, 0));  // a hit does not reorder fifo
  s.evicted(0, 16);
  CHECK_FALSE(s.vta_holds(0, 0));
  CHECK(s.vta_holds(0, 1));
  CHECK(s.vta_holds(0, 16));
  s.evicted(0, 1);  // already present: refreshed (now the newest), nothing dropped
  s.evicted(0, 17);
  CHECK(s.vta_holds(0, 1));
  CHECK_FALSE(s.vta_holds(0, 2));
  CHECK(s.vta_holds(0, 17));
}

TEST_CASE("ccws: lru victim tags at 16 entries drop the least recently hit", "[sm][ccws]") {
  CcwsState s(cfg_with(16, "lru"), 4, "sm.scheduler", nullptr);
  for (uint64_t b = 0; b < 16; ++b) s.evicted(1, b);
  CHECK(s.probe(1, 0));  // refreshes tag 0
  s.evicted(1, 16);
  CHECK(s.vta_holds(1, 0));
  CHECK_FALSE(s.vta_holds(1, 1));
  CHECK(s.vta_holds(1, 16));
}

TEST_CASE("ccws: the default VTA is 2 sets of 8 ways indexed by block", "[sm][ccws]") {
  CcwsState s(CcwsSchedulerConfig{}, 4, "sm.scheduler", nullptr);
  for (uint64_t b = 0; b < 18; b += 2) s.evicted(0, b);  // 9 even blocks: set 0
  s.evicted(0, 1);                                      // set 1
  CHECK_FALSE(s.vta_holds(0, 0));                       // the first of 9 in an 8-way set
  for (uint64_t b = 2; b < 18; b += 2) CHECK(s.vta_holds(0, b));
  CHECK(s.vta_holds(0, 1));
}

namespace {
CcwsSchedulerConfig uncapped() {
  CcwsSchedulerConfig c;
  c.score_cap_k = 0;
  return c;
}
}  // namespace

TEST_CASE("ccws: a VTA hit raises the score by LLDS and scores decay to the base", "[sm][ccws]") {
  CcwsState s(uncapped(), 4, "sm.scheduler", nullptr);
  s.advance(0, 0xF);  // 4 active warps: cutoff 4 x 100
  CHECK(s.cutoff() == 400);
  for (int i = 0; i < 100; ++i) s.issued(0);
  s.evicted(0, 5);
  CHECK(s.score(0) == 100);
  // LLDS = hits 1 / issued 100 x k_throttle 8 x cutoff 400 = 32
  CHECK(s.probe(0, 5));
  CHECK(s.score(0) == 132);
  // second hit: 2 / 100 x 8 x 400 = 64
  CHECK(s.probe(0, 5));
  CHECK(s.score(0) == 196);
  CHECK(s.score(1) == 100);
  s.advance(10, 0xF);  // 10 cycles x 1
  CHECK(s.score(0) == 186);
  s.advance(10, 0xF);  // same cycle: no decay
  CHECK(s.score(0) == 186);
  s.advance(1000, 0xF);
  CHECK(s.score(0) == 100);  // never below the base
  CHECK(s.score(1) == 100);
}

TEST_CASE("ccws: the default cap holds a score at hits / issued x 8 x cutoff", "[sm][ccws]") {
  CcwsState s(CcwsSchedulerConfig{}, 4, "sm.scheduler", nullptr);
  s.advance(0, 0xF);  // cutoff 400
  for (int i = 0; i < 10; ++i) s.issued(1);
  s.evicted(1, 3);
  // LLDS = 1 / 10 x 8 x 400 = 320: 100 + 320 = 420, capped at the same 320
  CHECK(s.probe(1, 3));
  CHECK(s.score(1) == 320);
  // second hit: LLDS = cap = 2 / 10 x 8 x 400 = 640: 320 + 640 capped at 640
  CHECK(s.probe(1, 3));
  CHECK(s.score(1) == 640);
  // A hit whose cap is under the base leaves the base (our reading; see scheduler.md).
  for (int i = 0; i < 990; ++i) s.issued(2);
  s.evicted(2, 4);
  CHECK(s.probe(2, 4));  // cap = 3 / 1000 x 8 x 400 = 9
  CHECK(s.score(2) == 100);
}

TEST_CASE("ccws: score_on_hit decay_per_cycle and score_cap_k", "[sm][ccws]") {
  CcwsSchedulerConfig c;
  c.score_on_hit = 50;
  c.decay_per_cycle = 7;
  c.score_cap_k = 4;
  CcwsState s(c, 4, "sm.scheduler", nullptr);
  s.advance(0, 0xF);
  for (int i = 0; i < 100; ++i) s.issued(2);
  s.evicted(2, 9);
  // 100 + 50 + 32 = 182; cap = 1 / 100 x 4 x 400 = 16, never below base 100: 100
  CHECK(s.probe(2, 9));
  CHECK(s.score(2) == 100);
  c.score_cap_k = 0;
  CcwsState u(c, 4, "sm.scheduler", nullptr);
  u.advance(0, 0xF);
  for (int i = 0; i < 100; ++i) u.issued(2);
  u.evicted(2, 9);
  CHECK(u.probe(2, 9));
  CHECK(u.score(2) == 182);
  u.advance(3, 0xF);  // 3 x 7
  CHECK(u.score(2) == 161);
}

TEST_CASE("ccws: stacking scores against the cutoff throttles the warps above it", "[sm][ccws]") {
  stats::Group root("t");
  CcwsState s(CcwsSchedulerConfig{}, 8, "sm.scheduler", &root);
  s.advance(5, 0xF);  // warps 0-3 active
  CHECK_FALSE(s.limited());  // all at base: 4 x 100 = the cutoff, everyone fits
  for (uint32_t w = 0; w < 8; ++w) CHECK(s.may_issue_load(w));
  // Stack: w1 250 (0 below), w3 120 (250), w0 100 (370), w2 100 (470 >= 400: throttled).
  s.set_score(0, 100);
  s.set_score(1, 250);
  s.set_score(2, 100);
  s.set_score(3, 120);
  s.advance(5, 0xF);
  CHECK(s.may_issue_load(1));
  CHECK(s.may_issue_load(3));
  CHECK(s.may_issue_load(0));
  CHECK_FALSE(s.may_issue_load(2));  // ties go to the lower slot: 0 before 2
  CHECK(s.may_issue_load(5));         // not active: not the test's business
  CHECK(s.limited());
  // w1 alone reaches the cutoff: everyone else is throttled.
  s.set_score(1, 400);
  s.advance(5, 0xF);
  CHECK(s.allowed_mask() == (~uint64_t{0xF} | 0x2));
  // Warp 3 no longer active: cutoff 3 x 100 = 300; w1 400 still fills it alone.
  s.advance(5, 0x7);
  CHECK(s.cutoff() == 300);
  CHECK(s.allowed_mask() == (~uint64_t{0x7} | 0x2));
  // Decay: after 200 cycles w1 = 200, w3 = 100 (base): stack w1 200, w0 100 -> 300 >= 300.
  s.advance(205, 0x7);
  CHECK(s.score(1) == 200);
  CHECK(s.may_issue_load(1));
  CHECK(s.may_issue_load(0));
  CHECK_FALSE(s.may_issue_load(2));
  s.advance(305, 0x7);  // all at base: none throttled
  CHECK_FALSE(s.limited());
  CcwsStats& st = *s.stats();
  CHECK(st.limited_cycles.value() == 4);            // the 4 limited evaluations
  CHECK(st.throttled_warp_cycles.value() == 1 + 3 + 2 + 1);
}

TEST_CASE("ccws: a warp leaving its slot takes its VTA score and counts", "[sm][ccws]") {
  CcwsState s(uncapped(), 4, "sm.scheduler", nullptr);
  s.advance(0, 0x3);  // cutoff 200
  for (int i = 0; i < 50; ++i) s.issued(0);
  for (int i = 0; i < 50; ++i) s.issued(1);
  s.evicted(0, 1);
  s.evicted(1, 2);
  CHECK(s.probe(0, 1));  // 1 / 100 x 8 x 200 = 16
  CHECK(s.score(0) == 116);
  s.warp_removed(0);
  CHECK(s.score(0) == 100);
  CHECK_FALSE(s.vta_holds(0, 1));
  // Only warp 1's counts remain: 1 hit (this one) / 50 issued x 8 x 200 = 32
  CHECK(s.probe(1, 2));
  CHECK(s.score(1) == 132);
}

TEST_CASE("ccws: the throttled instructions are L1D loads", "[sm][ccws]") {
  isa::Instruction ld;
  ld.is_load = true;
  for (isa::OpClass c : {isa::OpClass::MemGlobal, isa::OpClass::MemLocal, isa::OpClass::MemGeneric}) {
    ld.cls = c;
    CHECK(is_ccws_throttled_load(ld));
  }
  for (isa::OpClass c : {isa::OpClass::MemShared, isa::OpClass::MemConst, isa::OpClass::MemParam,
                         isa::OpClass::MemTexture}) {
    ld.cls = c;
    CHECK_FALSE(is_ccws_throttled_load(ld));
  }
  isa::Instruction st;
  st.cls = isa::OpClass::MemGlobal;
  CHECK_FALSE(is_ccws_throttled_load(st));
}

TEST_CASE("ccws: bad parameters are config errors naming the key", "[sm][ccws][config]") {
  auto make = [](const CcwsSchedulerConfig& c) {
    SchedulerConfig sc;
    sc.policy = "ccws";
    sc.ccws = c;
    WarpTable table(4, 2);
    return make_scheduler_policy(sc, "sm.scheduler", PolicyContext{&table, nullptr, nullptr});
  };
  CcwsSchedulerConfig c;
  c.vta_entries = 0;
  CHECK_THROWS_WITH(make(c), Catch::Contains("sm.scheduler.ccws.vta_entries"));
  c = {};
  c.vta_ways = 3;
  CHECK_THROWS_WITH(make(c), Catch::Contains("sm.scheduler.ccws.vta_ways"));
  c = {};
  c.decay_per_cycle = 0;
  CHECK_THROWS_WITH(make(c), Catch::Contains("sm.scheduler.ccws.decay_per_cycle"));
  c = {};
  c.vta_replacement = "random";
  CHECK_THROWS_WITH(make(c), Catch::Contains("sm.scheduler.ccws.vta_replacement") && Catch::Contains("random"));
  c = {};
  CHECK_THROWS_AS(make(c), std::invalid_argument);  // good parameters, but no SM state given
  // Through a configuration file and -p, the reader names the key.
  auto read = [](const std::string& override_text) {
    auto src = config::ConfigSource::from_json(nlohmann::json::object(), "test");
    src.apply_override(override_text);
    SmConfig sm;
    config::read(src, sm);
    sm.validate("sm");
    return sm;
  };
  CHECK(read("scheduler.policy=ccws").scheduler.ccws.vta_entries == 16);
  CHECK_THROWS_WITH(read("scheduler.policy=ccwz"), Catch::Contains("scheduler.policy") && Catch::Contains("ccwz"));
  CHECK_THROWS_WITH(read("scheduler.ccws.vta_entries=0"), Catch::Contains("scheduler.ccws.vta_entries"));
  CHECK_THROWS_WITH(read("scheduler.ccws.vta_ways=5"), Catch::Contains("sm.scheduler.ccws.vta_ways"));
  CHECK_THROWS_WITH(read("scheduler.ccws.decay_per_cycle=0"), Catch::Contains("scheduler.ccws.decay_per_cycle"));
  CHECK_THROWS_WITH(read("scheduler.ccws.throttle=everything"),
                    Catch::Contains("scheduler.ccws.throttle") && Catch::Contains("loads"));
}
