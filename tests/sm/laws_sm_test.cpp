// LAWS and LAWS-TH (digest §B3-B4) in a whole SM (real LSU, L1D with few MSHRs, a
// fixed-latency memory) on cu/ccws_reuse.ptx (each warp re-reads its own lines: intra-warp
// locality that a small L1D shared by many warps loses), results checked in every run: the
// score is fed exactly the L1D's load classes, the time counters add up, LAWS-TH throttles
// (MSHR-full events, decisions, limited cycles) and lifts limits under release = hold_expiry,
// and no LAWS statistics under other policies.
#include <catch2/catch.hpp>

#include "sm/scheduler/laws/laws_state.h"
#include "sm_test_harness.h"

using namespace sm_test;

namespace {
SmConfig laws_sm(const std::string& policy) {
  SmConfig cfg;
  cfg.scheduler.policy = policy;
  cfg.l1d.mshr.entries = 8;
  cfg.l1d.miss_queue = 64;  // the MSHRs, not the miss queue, fill
  return cfg;
}

}  // namespace

TEST_CASE("laws in a whole SM: the score sees every L1D load class and results verify", "[sm][laws]") {
  SmHarness tb("tb", laws_sm("laws"));
  run_reuse_kernel(tb, 32, 8, 4, 5, 1);
  const auto j = tb.root.to_json()["sm0"];
  const auto& loc = j["l1d"]["locality"];
  const auto& fed = j["laws"]["accesses"];
  const std::pair<const char*, const char*> classes[] = {
      {"miss", "MISS"}, {"intra", "INTRA"}, {"inter", "INTER"}, {"intra_m", "INTRA_M"}, {"inter_m", "INTER_M"}};
  double intra = 0;
  for (const auto& [ours, cache] : classes) {
    INFO(ours);
    CHECK(fed[ours].get<double>() == loc[cache].get<double>());
    if (std::string(ours) == "intra") intra = fed[ours].get<double>();
  }
  CHECK(intra > 0);
  CHECK(tb.stat("sm0.laws.cycles") == tb.stat("sm0.cycles"));
  CHECK(tb.stat("sm0.laws.gtlr_cycles") <= tb.stat("sm0.laws.cycles"));
  CHECK(tb.root.find("sm0.laws.decisions") == nullptr);  // no throttling unit under laws
}

TEST_CASE("laws_th in a whole SM: MSHR-full events throttle the warps and results verify", "[sm][laws]") {
  SmHarness tb("tb", laws_sm("laws_th"));
  run_reuse_kernel(tb, 32, 8, 4, 5, 1);
  CHECK(tb.stat("sm0.laws.mshr_full_events") > 0);
  CHECK(tb.stat("sm0.laws.decisions") > 0);
  CHECK(tb.stat("sm0.laws.decisions") == tb.stat("sm0.laws.by_intra") + tb.stat("sm0.laws.by_stable") +
                                               tb.stat("sm0.laws.by_divergence") + tb.stat("sm0.laws.released"));
  CHECK(tb.stat("sm0.laws.throttled_cycles") > 0);
  CHECK(tb.stat("sm0.laws.divergence_cycles") <= tb.stat("sm0.laws.throttled_cycles"));
  const auto j = tb.root.to_json()["sm0"]["laws"]["limit_cycles"];
  double sum = 0;
  for (auto it = j.begin(); it != j.end(); ++it) sum += it.value().get<double>();
  CHECK(sum == tb.stat("sm0.laws.cycles"));
  CHECK(tb.stat("sm0.laws.cycles") - j["none"].get<double>() == tb.stat("sm0.laws.throttled_cycles"));
}

TEST_CASE("laws_th release hold_expiry in a whole SM: limits lift after a quiet hold and results verify",
          "[sm][laws]") {
  SmConfig cfg = laws_sm("laws_th");
  cfg.scheduler.laws.release = "hold_expiry";
  cfg.scheduler.laws.hold_cycles = 100;
  SmHarness tb("tb", cfg);
  run_reuse_kernel(tb, 32, 8, 4, 5, 1);
  CHECK(tb.stat("sm0.laws.decisions") > 0);
  CHECK(tb.stat("sm0.laws.expired") > 0);
  const auto j = tb.root.to_json()["sm0"]["laws"]["limit_cycles"];
  double sum = 0;
  for (auto it = j.begin(); it != j.end(); ++it) sum += it.value().get<double>();
  CHECK(sum == tb.stat("sm0.laws.cycles"));
  CHECK(tb.stat("sm0.laws.cycles") == tb.stat("sm0.cycles"));
  CHECK(tb.stat("sm0.laws.throttled_cycles") < tb.stat("sm0.laws.cycles"));
}

TEST_CASE("laws adds no statistics and no hooks under other policies", "[sm][laws]") {
  SmHarness tb("tb", laws_sm("gto"));
  run_reuse_kernel(tb, 8, 4, 2, 5, 1);
  CHECK(tb.sm.core().laws() == nullptr);
  CHECK_FALSE(tb.root.to_json()["sm0"].contains("laws"));
}
