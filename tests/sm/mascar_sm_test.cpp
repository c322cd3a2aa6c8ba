// Mascar (digest §B5) and CAR (§C1) in a whole SM (real LSU, L1D with few MSHRs, a
// fixed-latency memory) on cu/ccws_reuse.ptx (each warp reads its own lines repeatedly),
// results checked in every run: MP mode exactly while the L1D's flag says free MSHRs <=
// almost_full_margin, the owner NACK in the L1D, CAR's recycling, consistent counters,
// and no Mascar / CAR statistics under other policies.
#include <catch2/catch.hpp>

#include <vector>

#include "sm/lsu/car_queue.h"
#include "sm/scheduler/mascar/mascar_state.h"
#include "sm_test_harness.h"

using namespace sm_test;

namespace {
SmConfig mascar_sm(const std::string& policy, const std::string& queue) {
  SmConfig cfg;
  cfg.scheduler.policy = policy;
  cfg.lsu.reexec_queue.policy = queue;
  cfg.l1d.mshr.entries = 4;
  cfg.l1d.mshr.almost_full_margin = 1;
  cfg.l1d.miss_queue = 64;  // the MSHRs, not the miss queue, saturate
  return cfg;
}

// `warps` warps in one CTA, each reading its `lines` lines `reps` times; outputs checked.
void run_mascar_reuse(SmHarness& tb, uint32_t warps, int lines, int reps) { run_reuse_kernel(tb, warps, lines, reps, 5, 1); }

// Records what MascarState reads each cycle (the flag and, for the same cycle, the L1D's
// MSHR occupancy and the mode decided from it) and forwards everything to the SM.
struct RecordingMemory final : MascarMemoryIF {
  RecordingMemory(Sm& sm, MascarState& state) : sm(sm), state(state) {}
  struct Cycle {
    bool flag;
    uint32_t free_mshrs;
    MascarState::Mode mode;
  };
  bool memory_saturated() const override {
    const bool f = sm.lsu().memory_saturated();
    cycles.push_back(Cycle{f, sm.l1d().mshr_capacity() - sm.l1d().mshr_occupied(), MascarState::Mode::EP});
    return f;
  }
  int32_t reexec_head_warp() const override { return sm.lsu().reexec_queue().head_warp(); }
  bool reexec_has_queued(uint32_t w) const override { return sm.lsu().reexec_queue().has_queued(static_cast<int32_t>(w)); }
  uint64_t reexec_queued_version() const override { return sm.lsu().reexec_queue().queued_version(); }
  void set_owner_warp(int32_t w) override { sm.l1d().set_owner_warp(w); }
  bool lsu_saturation_stalled(uint64_t cycle) const override {
    cycles.back().mode = state.mode();  // end_cycle: the mode this cycle was scheduled in
    return sm.lsu().saturation_stalled(cycle);
  }
  bool l1d_holds_any(const uint64_t* a, uint32_t n, mem::CacheStatusIF::ProbeStamp* since) const override {
    return sm.l1d().probe_any(a, n, since);
  }
  uint64_t l1d_contents_version() const override { return sm.l1d().contents_version(); }
  Sm& sm;
  MascarState& state;
  mutable std::vector<Cycle> cycles;
};
}  // namespace

TEST_CASE("mascar in a whole SM: MP mode exactly while the L1D has at most almost_full_margin free MSHRs", "[sm][mascar]") {
  SmHarness tb("tb", mascar_sm("mascar", "none"));
  MascarState& state = *tb.sm.core().mascar();
  RecordingMemory rec(tb.sm, state);
  state.set_memory(&rec);
  run_mascar_reuse(tb, 8, 4, 4);
  REQUIRE(!rec.cycles.empty());
  uint64_t mp = 0;
  for (std::size_t i = 0; i < rec.cycles.size(); ++i) {
    const auto& c = rec.cycles[i];
    INFO("sample " << i << ": free MSHRs " << c.free_mshrs);
    CHECK(c.flag == (c.free_mshrs <= 1));
    CHECK((c.mode == MascarState::Mode::MP) == c.flag);
    mp += c.mode == MascarState::Mode::MP;
  }
  CHECK(mp > 0);
  CHECK(mp < rec.cycles.size());
  CHECK(tb.stat("sm0.mascar.ep_to_mp") > 0);
  CHECK(tb.stat("sm0.mascar.mp_cycles") + tb.stat("sm0.mascar.ep_cycles") == tb.stat("sm0.cycles"));
  CHECK(tb.stat("sm0.mascar.owner_acquisitions") > 0);
  CHECK(tb.stat("sm0.mascar.lsu_stall_cycles") <= tb.stat("sm0.cycles"));
}

TEST_CASE("mascar with car in a whole SM: non-owner misses are NACKed and recycled and results verify", "[sm][mascar]") {
  SmHarness tb("tb", mascar_sm("mascar", "car"));
  run_mascar_reuse(tb, 8, 4, 4);
  const auto l1d = tb.root.to_json()["sm0"]["l1d"];
  const double l1d_nacks = l1d["read_outcomes"]["nack"].get<double>() + l1d["write_outcomes"]["nack"].get<double>();
  CHECK(l1d_nacks > 0);
  CHECK(tb.stat("sm0.lsu.car.recycled_nacked") + tb.stat("sm0.lsu.car.enqueued_nacked") == l1d_nacks);
  CHECK(tb.stat("sm0.lsu.car.enqueued") > 0);
  CHECK(tb.stat("sm0.lsu.car.services") - tb.stat("sm0.lsu.car.recycled") == tb.stat("sm0.lsu.car.enqueued"));
  CHECK(tb.stat("sm0.mascar.mp_cycles") > 0);
  CHECK(tb.stat("sm0.mascar.owner_changes") ==
        tb.stat("sm0.mascar.owner_acquisitions") + tb.stat("sm0.mascar.owner_handovers"));
  CHECK(tb.sm.lsu().reexec_queue().occupancy() == 0);
  // The LSU's own count of saturation stalls (kept head or full queue) is Mascar's.
  CHECK(tb.stat("sm0.lsu.saturation_stall_cycles") == tb.stat("sm0.mascar.lsu_stall_cycles"));
}

TEST_CASE("car without mascar scheduling in a whole SM: refused requests are queued and results verify", "[sm][mascar]") {
  SmHarness tb("tb", mascar_sm("gto", "car"));
  run_mascar_reuse(tb, 8, 4, 4);
  CHECK(tb.stat("sm0.lsu.car.enqueued") > 0);
  CHECK(tb.stat("sm0.lsu.car.enqueued_nacked") == 0);  // no owner: no NACK
  CHECK(tb.stat("sm0.lsu.reservation_fails") > 0);
  CHECK(tb.root.find("sm0.mascar.cycles") == nullptr);
}

TEST_CASE("car with warp_hold lsu: a warp's next memory instruction waits in the LSU and results verify", "[sm][mascar]") {
  // The other reading of digest §Z34: no issue filter; an instruction whose warp has an
  // older one queued waits in the LSU's latch while the queue is served, so it never enters
  // the queue behind it (held stays 0) and the wait counts as an LSU saturation stall.
  SmConfig cfg = mascar_sm("mascar", "car");
  cfg.lsu.reexec_queue.warp_hold = "lsu";
  SmHarness tb("tb", cfg);
  run_reuse_kernel(tb, 32, 4, 4, 5, 1);
  CHECK(tb.stat("sm0.lsu.warp_hold_cycles") > 0);
  CHECK(tb.stat("sm0.lsu.car.held") == 0);
  CHECK(tb.stat("sm0.lsu.car.enqueued") > 0);
  CHECK(tb.stat("sm0.lsu.car.services") - tb.stat("sm0.lsu.car.recycled") == tb.stat("sm0.lsu.car.enqueued"));
  CHECK(tb.stat("sm0.lsu.warp_hold_cycles") <= tb.stat("sm0.lsu.saturation_stall_cycles"));
  CHECK(tb.stat("sm0.lsu.saturation_stall_cycles") == tb.stat("sm0.mascar.lsu_stall_cycles"));
  CHECK(tb.sm.lsu().reexec_queue().occupancy() == 0);
}

TEST_CASE("car with warp_hold issue (default) has no LSU hold counter", "[sm][mascar]") {
  SmHarness tb("tb", mascar_sm("gto", "car"));
  run_mascar_reuse(tb, 8, 4, 4);
  CHECK(tb.stat("sm0.lsu.car.enqueued") > 0);
  CHECK(tb.root.find("sm0.lsu.warp_hold_cycles") == nullptr);
}

TEST_CASE("mascar counts LSU saturation stalls as the LSU does and stranded hits among them", "[sm][mascar]") {
  SmHarness tb("tb", mascar_sm("mascar", "none"));
  run_mascar_reuse(tb, 8, 4, 6);
  CHECK(tb.stat("sm0.mascar.lsu_stall_cycles") > 0);
  // Without a queue, a saturation stall is a cycle the LSU kept a refused head request.
  CHECK(tb.stat("sm0.mascar.lsu_stall_cycles") == tb.stat("sm0.lsu.lsu_sat_stall_cycles"));
  CHECK(tb.stat("sm0.mascar.lsu_stall_cycles") == tb.stat("sm0.lsu.saturation_stall_cycles"));
  CHECK(tb.stat("sm0.mascar.stranded_hit_cycles") <= tb.stat("sm0.mascar.lsu_stall_cycles"));
}

TEST_CASE("mascar and car add no statistics and no hooks under other policies", "[sm][mascar]") {
  SmHarness tb("tb", mascar_sm("gto", "none"));
  run_mascar_reuse(tb, 4, 2, 2);
  CHECK(tb.sm.core().mascar() == nullptr);
  CHECK(tb.root.find("sm0.mascar.cycles") == nullptr);
  CHECK(tb.root.find("sm0.lsu.car.enqueued") == nullptr);
  CHECK_FALSE(tb.root.to_json()["sm0"].contains("mascar"));
}

TEST_CASE("mascar schedulers that repeat unchanged decisions issue exactly as schedulers deciding every cycle", "[sm][mascar]") {
  // MascarState versions the mode and the owner, the schedulers track the I-buffers: a
  // scheduler may repeat its last decision while none changed. With an always-true issue
  // filter a scheduler decides every cycle; both must issue the same instructions in the
  // same cycles (MP mode and owner changes included) and count the same statistics.
  SmHarness repeat("repeat", mascar_sm("mascar", "none")), every("every", mascar_sm("mascar", "none"));
  for (uint32_t s = 0; s < 2; ++s)
    every.sm.core().scheduler(s).set_issue_filter([](uint32_t, const isa::Instruction&) { return true; });
  run_mascar_reuse(repeat, 8, 4, 4);
  run_mascar_reuse(every, 8, 4, 4);
  REQUIRE(repeat.issued.size() == every.issued.size());
  const uint64_t a0 = repeat.issued.front().cycle, b0 = every.issued.front().cycle;
  std::size_t same = 0;
  for (std::size_t i = 0; i < repeat.issued.size(); ++i)
    same += repeat.issued[i].cycle - a0 == every.issued[i].cycle - b0 && repeat.issued[i].warp == every.issued[i].warp &&
            repeat.issued[i].pc == every.issued[i].pc;
  CHECK(same == repeat.issued.size());
  CHECK(repeat.stat("sm0.mascar.mp_cycles") > 0);
  CHECK(repeat.root.to_json()["sm0"].dump() == every.root.to_json()["sm0"].dump());
}

TEST_CASE("mascar with car: repeated decisions count the same stall classes as deciding every cycle", "[sm][mascar]") {
  // As above with CAR: its issue filter (one queued instruction per warp) has a version
  // (queued_version, whose bump waits while a refused request leaves and comes back
  // unread), so a scheduler may repeat a decision. Deciding every cycle (the same filter
  // without a version) must give the same issues and every statistic, the stall classes
  // included. (This kernel never has a vetoed warp meet a busy unit without another change;
  // that case is caught by sm.scheduler.verify_repeats in tests/policies/suite_under_mascar.py.)
  SmHarness repeat("repeat", mascar_sm("mascar", "car")), every("every", mascar_sm("mascar", "car"));
  for (uint32_t s = 0; s < 2; ++s)
    every.sm.core().scheduler(s).set_issue_filter(
        [&every](uint32_t slot, const isa::Instruction&) {
          return !every.sm.lsu().reexec_queue().has_queued(static_cast<int32_t>(slot));
        },
        {}, kL1MemoryClasses);
  run_reuse_kernel(repeat, 32, 4, 4, 5, 1);
  run_reuse_kernel(every, 32, 4, 4, 5, 1);
  REQUIRE(repeat.issued.size() == every.issued.size());
  CHECK(repeat.stat("sm0.lsu.car.recycled") > 0);
  CHECK(repeat.stat("sm0.mascar.mp_cycles") > 0);
  CHECK(repeat.root.to_json()["sm0"].dump() == every.root.to_json()["sm0"].dump());
}

TEST_CASE("mascar stranded-hit cycles are the same when probes are reused while the L1D contents are unchanged", "[sm][mascar]") {
  // MascarState probes a warp's lines again only when the warp issued or the L1D's
  // contents version changed, and after a "none" only the lines filled since (the L1D's
  // gain log); a memory side whose version changes on every read and that probes every
  // line forces a full probe every cycle. Both count the same cycles.
  struct AlwaysProbe final : MascarMemoryIF {
    explicit AlwaysProbe(Sm& sm) : sm(sm) {}
    bool memory_saturated() const override { return sm.lsu().memory_saturated(); }
    int32_t reexec_head_warp() const override { return sm.lsu().reexec_queue().head_warp(); }
    bool reexec_has_queued(uint32_t w) const override { return sm.lsu().reexec_queue().has_queued(static_cast<int32_t>(w)); }
  uint64_t reexec_queued_version() const override { return sm.lsu().reexec_queue().queued_version(); }
    void set_owner_warp(int32_t w) override { sm.l1d().set_owner_warp(w); }
    bool lsu_saturation_stalled(uint64_t c) const override { return sm.lsu().saturation_stalled(c); }
    // Every line, every time: no stamp.
    bool l1d_holds_any(const uint64_t* a, uint32_t n, mem::CacheStatusIF::ProbeStamp*) const override {
      return sm.l1d().probe_any(a, n, nullptr);
    }
    uint64_t l1d_contents_version() const override { return ++reads; }
    Sm& sm;
    mutable uint64_t reads = 0;
  };
  SmHarness reuse("reuse", mascar_sm("mascar", "none")), always("always", mascar_sm("mascar", "none"));
  AlwaysProbe side(always.sm);
  always.sm.core().mascar()->set_memory(&side);
  run_mascar_reuse(reuse, 16, 4, 4);  // 64 lines: they fit in the 16 KB L1D, and the warps' later loads hit
  run_mascar_reuse(always, 16, 4, 4);
  CHECK(side.reads > 0);
  CHECK(reuse.stat("sm0.mascar.stranded_hit_cycles") > 0);
  CHECK(reuse.stat("sm0.mascar.stranded_hit_cycles") == always.stat("sm0.mascar.stranded_hit_cycles"));
  CHECK(reuse.root.to_json()["sm0"].dump() == always.root.to_json()["sm0"].dump());
}
