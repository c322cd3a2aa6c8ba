// The control hazard of sm.branch on a whole SM, with exact cycles, on a hand-written
// kernel with one branch of each kind (cu/branch_kinds.ptx). exec.latency_branch is made
// long (300) so that a branch's resolution, not the refetch after it nor the parameter
// load, decides when its warp issues again: a warp that waits issues its next instruction
// exactly latency_branch + 3 (the pipeline overhead: the branch's writeback) +
// redirect_penalty cycles after the branch.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "sm_test_harness.h"
#include "support/sm/ptx_kernel.h"

using namespace sm_test;

namespace {
constexpr const char* kBranchPtx = "tests/sm/cu/branch_kinds.ptx";
constexpr uint32_t kLatency = 300, kPenalty = 5, kResolved = kLatency + 3 + kPenalty;

SmConfig branch_config(const std::string& predictor) {
  SmConfig cfg;
  cfg.scheduler.count = 1;
  cfg.scheduler.policy = "lrr";
  cfg.scheduler.verify_repeats = true;
  cfg.operand_collector.schedulers = 1;
  cfg.exec.latency_branch = kLatency;
  cfg.branch.predictor = predictor;
  cfg.branch.redirect_penalty = kPenalty;
  return cfg;
}

// One issue of warp 0: the instruction index (its first issue is index 0) and the cycle
// its next instruction issued.
struct Issue {
  uint32_t index;
  uint64_t cycle, next_cycle;
};

// Runs branch_kinds with n = 3 on one warp (checking every output); warp 0's issues.
std::vector<Issue> run_branch_kinds(SmHarness& tb, uint32_t threads = 32) {
  PtxKernel k(kBranchPtx, "branch_kinds", {1, 1, 1}, {threads, 1, 1});
  const uint64_t out = k.upload(std::vector<int>(threads, -1));
  k.set_param<uint64_t>(0, out);
  k.set_param<uint32_t>(1, 3);
  tb.run(k.instance());
  const std::vector<int> got = k.download<int>(out, threads);
  for (uint32_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    REQUIRE(got[t] == 0 + 1 + 2 + (t % 2 == 0 ? 2000 : 1000));
  }
  std::vector<Issue> w0;
  uint64_t base = 0;
  for (const IssueRecord& r : tb.issued) {
    if (r.warp != 0) continue;
    if (w0.empty()) base = r.pc;
    if (!w0.empty()) w0.back().next_cycle = r.cycle;
    w0.push_back(Issue{static_cast<uint32_t>((r.pc - base) / 8), r.cycle, 0});
  }
  REQUIRE(w0.size() > 20);
  w0.pop_back();  // ret: nothing issues after it
  return w0;
}

// Distances to the next issue after each issue of instruction `index`, in order.
std::vector<uint64_t> gaps_after(const std::vector<Issue>& w0, uint32_t index) {
  std::vector<uint64_t> g;
  for (const Issue& i : w0)
    if (i.index == index) g.push_back(i.next_cycle - i.cycle);
  return g;
}

}  // namespace

TEST_CASE("sm branch: predictor none models no control hazard and adds no statistics", "[sm][branch]") {
  SmHarness tb("tb", branch_config("none"));
  const auto w0 = run_branch_kinds(tb);
  for (const Issue& i : w0) {
    INFO("after instruction " << i.index);
    CHECK(i.next_cycle - i.cycle < kResolved);
  }
  CHECK(tb.root.find("sm0.branch.conditional") == nullptr);
}

TEST_CASE("sm branch: static BTFN waits exactly until a mispredicted uniform branch resolves", "[sm][branch]") {
  SmHarness tb("tb", branch_config("static_btfn"));
  const auto w0 = run_branch_kinds(tb);
  // The loop branch: taken twice (backward, predicted), then not taken (mispredicted).
  const auto loop = gaps_after(w0, 8);
  REQUIRE(loop.size() == 3);
  CHECK(loop[0] < kResolved);
  CHECK(loop[1] < kResolved);
  CHECK(loop[2] == kResolved);
  // The forward branch, taken by every lane: mispredicted.
  CHECK(gaps_after(w0, 10) == std::vector<uint64_t>{kResolved});
  // The divergent branch and the unconditional one never wait.
  REQUIRE(gaps_after(w0, 14).size() == 1);
  CHECK(gaps_after(w0, 14)[0] < kResolved);
  REQUIRE(gaps_after(w0, 16).size() == 1);
  CHECK(gaps_after(w0, 16)[0] < kResolved);
  // Accuracy counts the non-divergent conditional branches only.
  CHECK(tb.stat("sm0.branch.conditional") == 5);
  CHECK(tb.stat("sm0.branch.divergent") == 1);
  CHECK(tb.stat("sm0.branch.nondivergent") == 4);
  CHECK(tb.stat("sm0.branch.correct") == 2);
  CHECK(tb.stat("sm0.branch.mispredicted") == 2);
  CHECK(tb.stat("sm0.branch.waits") == 2);
  CHECK(tb.sm.idle());
}

TEST_CASE("sm branch: without prediction every conditional branch waits and unconditional ones never",
          "[sm][branch]") {
  SmHarness tb("tb", branch_config("stall"));
  const auto w0 = run_branch_kinds(tb);
  CHECK(gaps_after(w0, 8) == std::vector<uint64_t>(3, kResolved));
  CHECK(gaps_after(w0, 10) == std::vector<uint64_t>{kResolved});
  CHECK(gaps_after(w0, 14) == std::vector<uint64_t>{kResolved});  // no prediction: divergence does not help
  REQUIRE(gaps_after(w0, 16).size() == 1);
  CHECK(gaps_after(w0, 16)[0] < kResolved);
  for (const Issue& i : w0)
    if (i.index != 8 && i.index != 10 && i.index != 14) CHECK(i.next_cycle - i.cycle < kResolved);
  CHECK(tb.stat("sm0.branch.conditional") == 5);
  CHECK(tb.stat("sm0.branch.waits") == 5);
  CHECK(tb.root.find("sm0.branch.correct") == nullptr);  // nothing is predicted
}

TEST_CASE("sm branch: a divergent branch never waits whatever the prediction", "[sm][branch]") {
  // Perfect predicts the divergent branch taken (some lane takes it), BTFN not taken: both
  // go on at once, and neither counts it in the accuracy.
  const char* names[3] = {"perfect", "static_btfn", "gshare"};
  SmHarness perfect(names[0], branch_config(names[0])), btfn(names[1], branch_config(names[1])),
      gshare(names[2], branch_config(names[2]));  // all before the run: one elaboration
  int i = 0;
  for (SmHarness* t : {&perfect, &btfn, &gshare}) {
    INFO(names[i++]);
    SmHarness& tb = *t;
    const auto w0 = run_branch_kinds(tb);
    REQUIRE(gaps_after(w0, 14).size() == 1);
    CHECK(gaps_after(w0, 14)[0] < kResolved);
    CHECK(tb.stat("sm0.branch.divergent") == 1);
    CHECK(tb.stat("sm0.branch.correct") + tb.stat("sm0.branch.mispredicted") ==
          tb.stat("sm0.branch.nondivergent"));
  }
}

TEST_CASE("sm branch: the perfect predictor never waits", "[sm][branch]") {
  SmHarness tb("tb", branch_config("perfect"));
  const auto w0 = run_branch_kinds(tb);
  for (const Issue& i : w0) {
    INFO("after instruction " << i.index);
    CHECK(i.next_cycle - i.cycle < kResolved);
  }
  CHECK(tb.stat("sm0.branch.correct") == 4);
  CHECK(tb.stat("sm0.branch.mispredicted") == 0);
  CHECK(tb.stat("sm0.branch.waits") == 0);
}

TEST_CASE("sm branch: redirect_penalty 0 resolves at the branch's writeback", "[sm][branch]") {
  SmConfig cfg = branch_config("static_btfn");
  cfg.branch.redirect_penalty = 0;
  SmHarness tb("tb", cfg);
  const auto w0 = run_branch_kinds(tb);
  CHECK(gaps_after(w0, 10) == std::vector<uint64_t>{kLatency + 3});
}

TEST_CASE("sm branch: a waiting warp holds back only itself", "[sm][branch]") {
  // Two warps, no prediction: while one waits for its branch the other issues.
  SmHarness tb("tb", branch_config("stall"));
  run_branch_kinds(tb, 64);
  // Warp 0's first loop branch (instruction 8) and its next issue.
  uint64_t base = ~uint64_t{0}, branch_cycle = 0, next0 = 0;
  for (const IssueRecord& r : tb.issued) {
    if (r.warp != 0) continue;
    if (base == ~uint64_t{0}) base = r.pc;
    if (branch_cycle == 0 && r.pc == base + 8 * 8) branch_cycle = r.cycle;
    else if (branch_cycle != 0 && next0 == 0) next0 = r.cycle;
  }
  REQUIRE(next0 == branch_cycle + kResolved);
  bool other = false;
  for (const IssueRecord& r : tb.issued) other = other || (r.warp == 1 && r.cycle > branch_cycle && r.cycle < next0);
  CHECK(other);
}
