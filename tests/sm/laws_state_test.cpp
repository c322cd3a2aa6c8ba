// LAWS state (digest §B3-B4; sm/scheduler/laws/laws_state.h) with hand-computed answers:
// the score and Miss_CNT for each (Hit, LT) class, their saturation, the GTO/GTLR flip on
// the sign (per SM and per scheduler), the throttling unit's rules on constructed Hit_CNT
// and Load_CNT histories (intra, stabilised under both §Z16 readings, divergence and its
// raise, the clamp, the hold and both release readings, none in GTLR mode, none under laws_nmd's divergence case),
// the allowed warps (the limit-many oldest), a kernel restart, the policy's order, and
// config errors naming the key.
#include <catch2/catch.hpp>

#include <functional>
#include <vector>

#include "core/config/config_source.h"
#include "sm/scheduler/laws/laws_state.h"
#include "sm/scheduler/policies/laws_policy.h"
#include "isa/exec/warp_context.h"
#include "sm/warp_table.h"

using namespace gputlm;
using namespace gputlm::sm;
using mem::LocalityClass;

namespace {
using T = LawsState::Throttling;

mem::AccessRecord rec(int32_t warp, LocalityClass c, uint64_t cycle = 0) {
  mem::AccessRecord r;
  r.warp = warp;
  r.locality = c;
  r.cycle = cycle;
  r.outcome = c == LocalityClass::Miss ? mem::AccessOutcome::PrimaryMiss : mem::AccessOutcome::Hit;
  return r;
}

struct Bench {
  explicit Bench(T t, LawsSchedulerConfig c = {}, uint32_t slots = 8, uint32_t schedulers = 1)
      : root("t"), s(c, t, slots, schedulers, "sm.scheduler", &root), table(slots, 2), ctx(slots) {}
  // An access; `full`: every MSHR entry occupied after it.
  void access(int32_t warp, LocalityClass c, uint64_t cycle = 0, bool full = false) {
    mem::AccessRecord r = rec(warp, c, cycle);
    r.mshr_full = full;
    s.access(r, owners_fn);
  }
  // A refused access while the MSHRs are full (no class): the MSHR-full event alone.
  void full_event(uint64_t cycle, int32_t warp = 0) {
    mem::AccessRecord r;
    r.warp = warp;
    r.cycle = cycle;
    r.outcome = mem::AccessOutcome::ReservationFail;
    r.mshr_full = true;
    s.access(r, owners_fn);
  }
  void place(uint32_t warps) {
    for (uint32_t w = 0; w < warps; ++w) {
      table.clear(w);
      table[w].valid = true;
      table[w].ctx = &ctx[w];
      table[w].age = warp_age(0, warps - 1 - w);  // slot 0 is the youngest: age order differs from slot order
    }
    table.note_residency_change();
  }
  stats::Group root;
  LawsState s;
  WarpTable table;
  std::vector<isa::WarpContext> ctx;
  uint64_t owners = 0;
  uint32_t owner_reads = 0;
  std::function<uint64_t()> owners_fn = [this] {
    ++owner_reads;
    return owners;
  };
};
}  // namespace

TEST_CASE("laws: each (Hit, LT) class moves the score and Miss_CNT as 001 §2.5.1 says", "[sm][laws]") {
  Bench b(T::None);
  b.access(0, LocalityClass::Miss);
  b.access(1, LocalityClass::Miss);
  b.access(2, LocalityClass::Miss);
  CHECK(b.s.score() == 3);
  CHECK(b.s.miss_cnt() == 3);
  b.access(0, LocalityClass::Intra);       // intra-warp L1 hit: +1
  b.access(0, LocalityClass::IntraMerge);  // intra-warp MSHR hit: +1
  CHECK(b.s.score() == 5);
  CHECK(b.s.miss_cnt() == 3);
  CHECK(b.s.mode(0) == LawsState::Mode::Gto);
  b.access(1, LocalityClass::Inter);  // -(Miss_CNT + 1) = -4, Miss_CNT = 0
  CHECK(b.s.score() == 1);
  CHECK(b.s.miss_cnt() == 0);
  b.access(1, LocalityClass::InterMerge);  // -(0 + 1)
  CHECK(b.s.score() == 0);
  CHECK(b.s.mode(0) == LawsState::Mode::Gto);  // 0 is not negative
  const uint64_t v = b.s.version();
  b.access(1, LocalityClass::InterMerge);
  CHECK(b.s.score() == -1);
  CHECK(b.s.mode(0) == LawsState::Mode::Gtlr);
  CHECK(b.s.version() != v);
  b.access(3, LocalityClass::Intra);
  CHECK(b.s.mode(0) == LawsState::Mode::Gto);
  CHECK(b.s.stats()->flips.value() == 2);
  CHECK(b.s.stats()->accesses.value(0) == 3);  // miss
  CHECK(b.s.stats()->accesses.value(4) == 2);  // inter_m
  b.access(3, LocalityClass::None);  // not a demand load: nothing
  CHECK(b.s.score() == 0);
}

TEST_CASE("laws: Miss_CNT saturates at miss_cnt_max and the 16-bit score saturates", "[sm][laws]") {
  LawsSchedulerConfig c;
  c.miss_cnt_max = 4;
  Bench b(T::None, c);
  for (int i = 0; i < 10; ++i) b.access(0, LocalityClass::Miss);
  CHECK(b.s.miss_cnt() == 4);
  CHECK(b.s.score() == 10);
  b.access(1, LocalityClass::Inter);
  CHECK(b.s.score() == 5);  // 10 - (4 + 1)
  for (int i = 0; i < 40000; ++i) b.access(0, LocalityClass::Intra);
  CHECK(b.s.score() == 32767);
  for (int i = 0; i < 20000; ++i) {
    b.access(0, LocalityClass::Miss);
    b.access(0, LocalityClass::Miss);
    b.access(0, LocalityClass::Miss);
    b.access(0, LocalityClass::Miss);
    b.access(1, LocalityClass::Inter);  // net -1 per round
  }
  CHECK(b.s.score() == 32763 - 20000);  // the first round lost 5 (its misses were clipped), the others 1
  Bench d(T::None);
  for (int i = 0; i < 40000; ++i) d.access(1, LocalityClass::Inter);  // -1 each (Miss_CNT 0)
  CHECK(d.s.score() == -32768);
  d.access(0, LocalityClass::Intra);
  CHECK(d.s.score() == -32767);
}

TEST_CASE("laws scope scheduler: each scheduler's warps feed and read their own score", "[sm][laws]") {
  LawsSchedulerConfig c;
  c.scope = "scheduler";
  Bench b(T::None, c, 8, 2);
  b.access(0, LocalityClass::Miss);   // scheduler 0
  b.access(2, LocalityClass::Inter);  // scheduler 0: 1 - 2
  b.access(1, LocalityClass::Intra);  // scheduler 1
  CHECK(b.s.score(0) == -1);
  CHECK(b.s.score(1) == 1);
  CHECK(b.s.mode(0) == LawsState::Mode::Gtlr);
  CHECK(b.s.mode(1) == LawsState::Mode::Gto);
  CHECK(b.s.mode_of_warp(4) == LawsState::Mode::Gtlr);
  CHECK(b.s.mode_of_warp(5) == LawsState::Mode::Gto);
  b.s.begin_cycle(1, b.table);
  b.s.begin_cycle(2, b.table);
  CHECK(b.s.stats()->gtlr_cycles.value() == 2);  // one of two scopes, two cycles
  CHECK(b.s.stats()->cycles.value() == 2);
}

TEST_CASE("laws-th intra rule: Hit_CNT + 1, clamped to min_limit, held hold_cycles", "[sm][laws]") {
  Bench b(T::Full);
  b.place(8);
  b.access(3, LocalityClass::Intra, 10);  // IL_vec = {3}
  CHECK(b.s.il_vec() == 0x8);
  b.full_event(20);
  CHECK(b.s.warp_limit() == 2);  // Hit_CNT + 1 = 2 (also the clamp)
  CHECK(b.s.min_cnt() == 1);
  CHECK(b.s.max_cnt() == 1);
  b.access(4, LocalityClass::Intra, 30);
  b.access(5, LocalityClass::Intra, 30);
  b.access(6, LocalityClass::Intra, 30);
  b.full_event(1019);  // hold until 1020: no decision
  CHECK(b.s.warp_limit() == 2);
  CHECK(b.s.stats()->thu->decisions.value() == 1);
  b.full_event(1020);
  CHECK(b.s.warp_limit() == 5);  // Hit_CNT 4 + 1
  CHECK(b.s.max_cnt() == 4);
  CHECK(b.s.min_cnt() == 1);
  b.access(3, LocalityClass::Miss, 1030);  // a primary miss clears the warp's bit
  CHECK(b.s.il_vec() == 0x70);
  b.s.warp_exited(4);
  CHECK(b.s.il_vec() == 0x60);
  // The allowed warps: the 5 oldest live ones (slot 7 is the oldest, slot 0 the youngest).
  b.s.begin_cycle(1031, b.table);
  CHECK(b.s.allowed() == (~uint64_t{0} & ~uint64_t{0x7}));
  CHECK(b.s.stats()->thu->by_intra.value() == 2);
  CHECK(b.owner_reads == 0);  // Load_CNT was never needed
}

TEST_CASE("laws-th release: on_full_event keeps a limit until a decision, hold_expiry lifts it after a quiet hold",
          "[sm][laws]") {
  for (const char* release : {"on_full_event", "hold_expiry"}) {
    LawsSchedulerConfig c;
    c.release = release;
    Bench b(T::Full, c);
    b.place(8);
    b.access(3, LocalityClass::Intra, 10);
    b.full_event(20);  // decision: limit 2, hold until 1020
    CHECK(b.s.warp_limit() == 2);
    CHECK(b.s.release_pending() == (c.release == "hold_expiry"));
    b.full_event(900);  // inside the hold: no decision, but the MSHRs were full at 900
    b.s.begin_cycle(1020, b.table);  // hold expired, yet only 120 quiet cycles
    CHECK(b.s.warp_limit() == 2);
    b.s.begin_cycle(1899, b.table);
    CHECK(b.s.warp_limit() == 2);
    b.s.begin_cycle(1900, b.table);  // 1000 cycles since the last MSHR-full event
    if (c.release == "hold_expiry") {
      CHECK(b.s.warp_limit() == 0);
      CHECK(b.s.allowed() == ~uint64_t{0});
      CHECK_FALSE(b.s.release_pending());
      CHECK(b.s.stats()->thu->expired.value() == 1);
      CHECK(b.s.stats()->thu->period_cycles.count() == 1);  // the period 20..1900 ended
    } else {
      CHECK(b.s.warp_limit() == 2);
      b.s.begin_cycle(500000, b.table);
      CHECK(b.s.warp_limit() == 2);  // the thesis text: no MSHR-full event, no end
      CHECK(b.s.stats()->thu->expired.value() == 0);
    }
    CHECK(b.s.stats()->thu->decisions.value() == 1);
    b.full_event(600000);  // either way the next MSHR-full event decides again
    CHECK(b.s.warp_limit() == 2);
    CHECK(b.s.stats()->thu->decisions.value() == 2);
  }
}

TEST_CASE("laws-th stabilised rule: after stable_periods decisions without a Min/Max update", "[sm][laws]") {
  for (const std::string rule : {"neither", "either"}) {
    LawsSchedulerConfig c;
    c.stable_periods = 3;
    c.stable_rule = rule;
    c.hold_cycles = 1;
    Bench b(T::Full, c, 16);
    uint64_t t = 100;
    auto decide_with = [&](uint32_t hits) {
      for (uint32_t w = 0; w < 16; ++w) b.access(static_cast<int32_t>(w), LocalityClass::Miss, t);  // clear IL_vec
      for (uint32_t w = 0; w < hits; ++w) b.access(static_cast<int32_t>(w), LocalityClass::Intra, t);
      b.full_event(t);
      t += 10;
      return b.s.warp_limit();
    };
    INFO("stable_rule " << rule);
    CHECK(decide_with(3) == 4);   // first: Min = Max = 3
    CHECK(decide_with(7) == 8);   // Max 7 (Min unchanged 1)
    CHECK(decide_with(5) == 6);   // Min unchanged 2, Max unchanged 1
    // Min unchanged 3 (>= 3) and Max unchanged 2: "either" is stable now, "neither" not yet.
    CHECK(decide_with(5) == (rule == "either" ? 5u : 6u));  // ceil((3 + 7) / 2) = 5
    CHECK(decide_with(4) == 5u);  // both unchanged >= 3: stable under both readings
    CHECK(b.s.stats()->thu->by_stable.value() == (rule == "either" ? 2u : 1u));
  }
}

TEST_CASE("laws-th divergence rule: Load_CNT below divergence_loads limits, an intra hit raises it", "[sm][laws]") {
  Bench b(T::Full);
  b.place(8);
  b.owners = 0x5;  // warps 0 and 2 own every MSHR entry: Load_CNT 2 < 8
  b.full_event(100);
  CHECK(b.owner_reads == 1);
  CHECK(b.s.warp_limit() == 2);
  CHECK(b.s.divergence_throttling());
  b.access(1, LocalityClass::Intra, 110);
  b.access(2, LocalityClass::Intra, 111);  // Hit_CNT 2: 3 > 2 raises the limit
  CHECK(b.s.warp_limit() == 3);
  CHECK(b.s.stats()->thu->divergence_raises.value() == 1);
  b.s.begin_cycle(112, b.table);
  CHECK(b.s.stats()->thu->divergence_cycles.value() == 1);
  CHECK(b.s.stats()->thu->limit_cycles.value(3) == 1);
  // Load_CNT >= 8 and no intra hit: released.
  Bench r(T::Full);
  r.owners = 0xff;
  r.full_event(100);
  CHECK(r.s.warp_limit() == 0);
  CHECK(r.s.stats()->thu->released.value() == 1);
  // laws_nmd has no divergence rule: Load_CNT is never read.
  Bench n(T::NoDivergence);
  n.owners = 0x1;
  n.full_event(100);
  CHECK(n.s.warp_limit() == 0);
  CHECK(n.owner_reads == 0);
}

TEST_CASE("laws-th: no decision in GTLR mode, and the limit applies only to warps in GTO mode", "[sm][laws]") {
  Bench b(T::Full);
  b.place(8);
  b.access(1, LocalityClass::Inter, 5);  // score -1: GTLR
  b.access(2, LocalityClass::Intra, 6);  // score 0: GTO again
  b.access(2, LocalityClass::Inter, 7);  // GTLR
  REQUIRE(b.s.mode(0) == LawsState::Mode::Gtlr);
  b.full_event(10, 2);
  CHECK(b.s.stats()->thu->mshr_full_events.value() == 1);
  CHECK(b.s.stats()->thu->decisions.value() == 0);
  b.access(2, LocalityClass::Intra, 11);
  b.access(2, LocalityClass::Intra, 11);  // score 1: GTO
  b.full_event(12, 2);
  CHECK(b.s.warp_limit() == 2);
  b.s.begin_cycle(13, b.table);
  CHECK(__builtin_popcountll(b.s.allowed() & 0xff) == 2);
  CHECK(b.s.stats()->thu->throttled_cycles.value() == 1);
  b.access(1, LocalityClass::Inter, 14);
  b.access(1, LocalityClass::Inter, 14);  // GTLR: the limit is kept but throttles nobody
  b.s.begin_cycle(15, b.table);
  CHECK(b.s.allowed() == ~uint64_t{0});
  CHECK(b.s.warp_limit() == 2);
  CHECK(b.s.stats()->thu->throttled_cycles.value() == 1);
  CHECK(b.s.stats()->thu->limit_cycles.value(0) == 1);  // the GTLR cycle counts as no limit
}

TEST_CASE("laws-th: warps waiting at a barrier neither count toward the limit nor are held", "[sm][laws]") {
  Bench b(T::Full);
  b.place(8);  // one CTA: slot 7 oldest
  b.access(0, LocalityClass::Intra, 1);
  b.full_event(2);  // limit 2
  b.s.begin_cycle(3, b.table);
  CHECK(b.s.allowed() == (~uint64_t{0} & ~uint64_t{0x3f}));  // slots 7 and 6
  // Slots 7 and 6 reach the CTA's barrier: the next two oldest may issue, the waiting
  // ones stay allowed (they issue again once released).
  b.ctx[7].status = isa::WarpStatus::AtBarrier;
  b.ctx[6].status = isa::WarpStatus::AtBarrier;
  b.table.note_barrier_change();
  b.s.begin_cycle(4, b.table);
  CHECK(b.s.allowed() == (~uint64_t{0} & ~uint64_t{0x0f}));  // 7, 6 (waiting), 5, 4
  b.ctx[7].status = b.ctx[6].status = isa::WarpStatus::Ready;  // released
  b.table.note_barrier_change();
  b.s.begin_cycle(5, b.table);
  CHECK(b.s.allowed() == (~uint64_t{0} & ~uint64_t{0x3f}));
}

TEST_CASE("laws: a new kernel on an idle SM restarts the score and the throttling unit", "[sm][laws]") {
  Bench b(T::Full);
  b.s.cta_launched(1, true);
  b.access(1, LocalityClass::Inter, 5);
  b.access(2, LocalityClass::Intra, 6);
  b.full_event(7);
  b.s.cta_launched(1, false);  // another CTA of the same kernel: nothing restarts
  CHECK(b.s.score() == 0);
  CHECK(b.s.warp_limit() == 2);
  b.access(1, LocalityClass::Inter, 8);
  b.s.cta_launched(1, true);  // same kernel again after the SM emptied: no restart either
  CHECK(b.s.score() == -1);
  b.s.cta_launched(2, true);
  CHECK(b.s.score() == 0);
  CHECK(b.s.miss_cnt() == 0);
  CHECK(b.s.il_vec() == 0);
  CHECK(b.s.warp_limit() == 0);
  CHECK(b.s.mode(0) == LawsState::Mode::Gto);
  b.access(2, LocalityClass::Intra, 9);
  b.full_event(10);  // no hold left from the old kernel
  CHECK(b.s.warp_limit() == 2);
}

TEST_CASE("laws initial_score: a kernel starts in the mode of its sign and restarts there", "[sm][laws]") {
  LawsSchedulerConfig c;
  c.initial_score = -1;
  Bench b(T::None, c);
  CHECK(b.s.score() == -1);
  CHECK(b.s.mode(0) == LawsState::Mode::Gtlr);
  b.s.cta_launched(1, true);
  CHECK(b.s.mode(0) == LawsState::Mode::Gtlr);
  b.access(1, LocalityClass::Miss, 5);  // -1 + 1 = 0: GTO
  CHECK(b.s.score() == 0);
  CHECK(b.s.mode(0) == LawsState::Mode::Gto);
  const uint64_t v = b.s.version();
  b.s.cta_launched(2, true);  // a new kernel: back to -1 and GTLR
  CHECK(b.s.score() == -1);
  CHECK(b.s.miss_cnt() == 0);
  CHECK(b.s.mode(0) == LawsState::Mode::Gtlr);
  CHECK(b.s.version() != v);
  c.initial_score = 5;
  Bench g(T::None, c);
  g.access(1, LocalityClass::Inter, 1);  // 5 - (0 + 1) = 4: still GTO
  CHECK(g.s.score() == 4);
  CHECK(g.s.mode(0) == LawsState::Mode::Gto);
}

TEST_CASE("laws policy: GTO order in GTO mode, GTLR order in GTLR mode, only allowed warps", "[sm][laws]") {
  Bench b(T::Full);
  b.place(4);  // ages: slot 3 oldest ... slot 0 youngest
  SchedulerConfig sc;
  sc.policy = "laws_th";
  PolicyContext ctx;
  ctx.laws = &b.s;
  auto p = make_laws_policy(sc, "sm.scheduler", ctx);
  CHECK(std::string(p->name()) == "laws_th");
  std::vector<WarpView> v;
  for (uint32_t w = 0; w < 4; ++w) v.push_back(WarpView{w, w, b.table[w].age});
  isa::Instruction load;
  load.is_load = true;
  isa::Instruction alu;
  std::vector<uint32_t> out;
  p->issued(1, alu);
  p->order(v, out);
  CHECK(out == std::vector<uint32_t>{1, 3, 2, 0});  // GTO: greedy 1, then oldest first
  b.access(0, LocalityClass::Inter);  // GTLR
  out.clear();
  p->order(v, out);
  CHECK(out == std::vector<uint32_t>{1, 2, 3, 0});  // GTLR: current 1, then round robin after it
  p->issued(1, load);  // a load: GTLR moves on
  out.clear();
  p->order(v, out);
  CHECK(out == std::vector<uint32_t>{2, 3, 0, 1});
  b.access(0, LocalityClass::Intra);  // GTO; Hit_CNT 1
  b.full_event(4);                    // limit 2: the two oldest, slots 3 and 2
  b.s.begin_cycle(5, b.table);
  out.clear();
  p->order(v, out);
  CHECK(out == std::vector<uint32_t>{3, 2});
  CHECK(p->has_state_version());
}

TEST_CASE("laws: bad parameters are config errors naming the key", "[sm][laws]") {
  stats::Group root("t");
  auto make = [&](LawsSchedulerConfig c) { LawsState s(c, T::Full, 8, 2, "sm.scheduler", nullptr); };
  LawsSchedulerConfig c;
  c.miss_cnt_max = 0;
  CHECK_THROWS_WITH(make(c), Catch::Contains("key 'sm.scheduler.laws.miss_cnt_max'"));
  c = {};
  c.scope = "warp";
  CHECK_THROWS_WITH(make(c), Catch::Contains("key 'sm.scheduler.laws.scope'"));
  c = {};
  c.hold_cycles = 0;
  CHECK_THROWS_WITH(make(c), Catch::Contains("key 'sm.scheduler.laws.hold_cycles'"));
  c = {};
  c.stable_rule = "both";
  CHECK_THROWS_WITH(make(c), Catch::Contains("key 'sm.scheduler.laws.stable_rule'"));
  c = {};
  c.initial_score = 40000;
  CHECK_THROWS_WITH(make(c), Catch::Contains("key 'sm.scheduler.laws.initial_score'"));
  c = {};
  c.release = "never";
  CHECK_THROWS_WITH(make(c), Catch::Contains("key 'sm.scheduler.laws.release'"));
  CHECK_THROWS_WITH(LawsState(LawsSchedulerConfig{}, T::Full, 65, 2, "sm.scheduler", nullptr),
                    Catch::Contains("key 'sm.max_warps'"));
  SchedulerConfig sc;
  sc.policy = "laws";
  CHECK_THROWS_AS(make_laws_policy(sc, "sm.scheduler", PolicyContext{}), std::invalid_argument);
  sc.laws.min_limit = 0;
  CHECK_THROWS_WITH(make_laws_policy(sc, "sm.scheduler", PolicyContext{}),
                    Catch::Contains("key 'sm.scheduler.laws.min_limit'"));
}
