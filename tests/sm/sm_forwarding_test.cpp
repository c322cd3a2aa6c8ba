// Data bypassing (sm.exec.forwarding, 004 §4.1, digest §F2) on the whole Sm: exact issue
// distances of alu_chain's dependent chain (cu/pipeline.cu) on the ILP SM of
// configs/ilp_baseline.json (8 lanes: 4 slices, barrel scoreboard, LRR), with
// sm.scheduler.verify_repeats on.
//
// Without forwarding a dependent issues at its producer's writeback: issue I, dispatch
// I + 2, last slice done at I + 2 + L + (slices - 1), written back (registers released) one
// cycle later: L + slices + 2 apart (L + 3 with 32 lanes). With forwarding = alu the unit
// reports the result at D + L - 2 (ExecUnit::forward_cycle), so the dependent issues L
// apart and dispatches max(L, slices) apart (the lanes are the producer's for `slices`
// cycles); for L >= slices both are max(L, slices).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_source.h"
#include "sm_test_harness.h"
#include "support/sm/pipeline_kernels.h"

using namespace sm_test;

namespace {
constexpr uint64_t kSlices = 4;  // ilp_baseline: 32 threads on 8 lanes

// The SM of configs/ilp_baseline.json with every ALU latency (ADD, MAX, MUL, MAD, logic,
// moves, branch) set to `latency`, forwarding `fwd`, scoreboard `scoreboard`.
SmConfig ilp_sm(uint32_t latency, const std::string& fwd, const std::string& scoreboard = "barrel") {
  auto src = config::ConfigSource::from_file("configs/ilp_baseline.json");
  const std::string l = std::to_string(latency);
  for (const char* list : {"latency_int", "latency_fp"})
    src.apply_override(std::string("sm.exec.") + list + "=[" + l + "," + l + "," + l + "," + l + ",145]");
  src.apply_override("sm.exec.latency_other=" + l);
  src.apply_override("sm.exec.latency_branch=" + l);
  src.apply_override("sm.exec.forwarding=" + fwd);
  src.apply_override("sm.scoreboard.policy=" + scoreboard);
  SmConfig cfg;
  config::read(src, cfg, "sm");
  cfg.scheduler.verify_repeats = true;
  return cfg;
}

std::vector<uint64_t> distances(const std::vector<IssueRecord>& chain) {
  std::vector<uint64_t> d;
  for (std::size_t i = 1; i < chain.size(); ++i) d.push_back(chain[i].cycle - chain[i - 1].cycle);
  return d;
}

uint64_t epoch_count(SmHarness& tb, const char* key) {
  const auto* s = tb.root.find(key);
  REQUIRE(s != nullptr);
  return static_cast<uint64_t>(s->scalar(stats::View::Epoch));
}

// The issue-to-issue distances of warp `warp` after each of its LSU loads ("ld."), in order.
std::vector<uint64_t> after_loads(const std::vector<IssueRecord>& all, uint32_t warp) {
  std::vector<uint64_t> d;
  const IssueRecord* prev = nullptr;
  for (const IssueRecord& r : all) {
    if (r.warp != warp) continue;
    if (prev && prev->text.rfind("ld.", 0) == 0) d.push_back(r.cycle - prev->cycle);
    prev = &r;
  }
  return d;
}
}  // namespace

TEST_CASE("sm forwarding none keeps the dependent-issue distance L + slices + 2 on the ILP SM", "[sm][forwarding]") {
  // (the SMs of one test are all elaborated before the first run)
  std::vector<std::unique_ptr<SmHarness>> tbs;
  const std::vector<std::pair<uint32_t, std::string>> cases{{8, "barrel"}, {4, "barrel"}, {8, "conventional"}};
  for (const auto& [l, sb] : cases)
    tbs.push_back(std::make_unique<SmHarness>(("sm_l" + std::to_string(l) + "_" + sb).c_str(), ilp_sm(l, "none", sb)));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("L " << cases[i].first << ", " << cases[i].second);
    run_alu_chain(*tbs[i], 32, 3);  // checks every output
    const auto chain = alu_chain_issues(tbs[i]->issued, 0);
    REQUIRE(chain.size() == 8);
    CHECK(distances(chain) == std::vector<uint64_t>(7, cases[i].first + kSlices + 2));
    CHECK(tbs[i]->root.find("sm0.forwarded") == nullptr);  // no statistic without forwarding
    CHECK(tbs[i]->sm.idle());
  }
}

TEST_CASE("sm forwarding alu issues a dependent ALU pair max of L and slices apart", "[sm][forwarding]") {
  std::vector<std::unique_ptr<SmHarness>> tbs;
  const std::vector<std::pair<uint32_t, std::string>> cases{
      {8, "barrel"}, {4, "barrel"}, {8, "conventional"}, {4, "conventional"}};
  for (const auto& [l, sb] : cases)
    tbs.push_back(std::make_unique<SmHarness>(("sm_l" + std::to_string(l) + "_" + sb).c_str(), ilp_sm(l, "alu", sb)));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const uint64_t l = cases[i].first;
    INFO("L " << l << ", " << cases[i].second);
    run_alu_chain(*tbs[i], 32, 3);  // checks every output
    const auto chain = alu_chain_issues(tbs[i]->issued, 0);
    REQUIRE(chain.size() == 8);
    CHECK(distances(chain) == std::vector<uint64_t>(7, std::max(l, kSlices)));
    // Every SP instruction with a destination was forwarded (the chain's 8 among them), and
    // each was still written back once: nothing is left pending (the run would not end).
    CHECK(epoch_count(*tbs[i], "sm0.forwarded") >= 8);
    CHECK(epoch_count(*tbs[i], "sm0.writebacks") == epoch_count(*tbs[i], "sm0.warp_instructions"));
    CHECK(tbs[i]->sm.idle());
  }
}

TEST_CASE("sm forwarding alu never bypasses a load: its dependent waits for the writeback", "[sm][forwarding]") {
  // Barrel: the instruction after a load issues at the load's writeback, with or without
  // forwarding. alu_chain's parameter loads and barrier_diverge's shared-memory load.
  SmHarness none("none", ilp_sm(8, "none")), alu("alu", ilp_sm(8, "alu"));
  std::vector<uint64_t> d[2];
  int k = 0;
  for (SmHarness* tb : {&none, &alu}) {
    run_alu_chain(*tb, 32, 3);
    run_barrier_diverge(*tb, 1, 32, 5);
    d[k++] = after_loads(tb->issued, 0);
    CHECK(tb->sm.idle());
  }
  REQUIRE(d[0].size() >= 3);
  CHECK(d[1] == d[0]);  // (a parameter load is written back 6 cycles after its issue)
  // ... while the ALU chain did get faster.
  CHECK(distances(alu_chain_issues(alu.issued, 0)) == std::vector<uint64_t>(7, 8));
}

TEST_CASE("sm forwarding alu at L = 8 and 4 slices: one warp takes the lanes half the cycles and two warps "
          "all of them (004 Fig. 2c)",
          "[sm][forwarding]") {
  SmHarness one("one", ilp_sm(8, "alu")), two("two", ilp_sm(8, "alu"));
  run_alu_chain(one, 32, 3);
  run_alu_chain(two, 64, 3);
  const auto c1 = alu_chain_issues(one.issued, 0);
  const auto a = alu_chain_issues(two.issued, 0), b = alu_chain_issues(two.issued, 1);
  REQUIRE(c1.size() == 8);
  REQUIRE(a.size() == 8);
  REQUIRE(b.size() == 8);
  // Each warp's chain keeps its 8-cycle distance; the second warp's instruction takes the
  // lanes in the 4 cycles between (it issued one cycle after the first warp's and waited
  // in its collector for the lanes, dispatching 4 cycles after it).
  CHECK(distances(c1) == std::vector<uint64_t>(7, 8));
  CHECK(distances(a) == std::vector<uint64_t>(7, 8));
  CHECK(distances(b) == std::vector<uint64_t>(7, 8));
  for (std::size_t k = 0; k < 8; ++k) {
    INFO(a[k].text);
    CHECK(b[k].cycle - a[k].cycle == 4);
  }
  // Lane cycles taken over the chain: one warp 8 x 4 of 7 x 8 + 4 = 60 cycles (about half),
  // two warps 16 x 4 of 7 x 8 + 4 + 4 = 64 (all).
  const uint64_t span1 = c1.back().cycle - c1.front().cycle + kSlices;
  const uint64_t span2 = b.back().cycle - a.front().cycle + kSlices;
  CHECK(8 * kSlices * 1000 / span1 == 533);
  CHECK(16 * kSlices == span2);
  CHECK(one.sm.idle());
  CHECK(two.sm.idle());
}
