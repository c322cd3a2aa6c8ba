// Mascar's Fig. 3 (002 §II-C; digest §H3) on the real SM front half: fetch, I-buffers,
// scoreboard (with its long-latency bits), one scheduler with the real lrr / mascar policy
// and MascarState, on the toy machine's back end (toy_back_end.h): 1-cycle issue of each
// instruction, loads whose data returns 5 cycles after they leave for memory, three warps,
// single issue, and 2 MSHRs (or unlimited). toy.ptx's mascar_toy per warp: two loads, then
// four compute instructions that need both.
//
// Time t = cycles after the barrier that releases the three warps together. The paper's
// timelines give the cycle a load leaves for memory and the cycle a compute instruction
// issues; "cycles" is the t of the last compute instruction. Every such event is checked,
// not just the total: infinite resources + RR = 21, 2 MSHRs + RR = 26, 2 MSHRs + Mascar = 23.
//
// Two things the toy does not have are kept out of its timeline: a warp's exit waits for
// the last compare (the back end's ALU latency, 14), so no exit takes an issue slot before
// t = 24; and the saturation flag is raised from t = 1 ("the workload has been running for
// some time such that saturation occurs at t = 1": free MSHRs <= 2).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "support/sm/ptx_kernel.h"
#include "toy_harness.h"

using namespace gputlm;
using namespace gputlm::sm;
using namespace gputlm::sm::tb;
using namespace gputlm::sm::test_support;

namespace {

struct Timeline {
  std::map<uint32_t, std::vector<uint64_t>> compute;  // per warp: t of its 4 compute instructions
  std::map<uint32_t, std::vector<uint64_t>> loads;    // per warp: t its loads left for memory
  std::map<uint32_t, std::vector<uint64_t>> load_issue;  // per warp: t its loads issued
  std::vector<std::pair<uint64_t, int32_t>> owners;   // (t, warp) owner changes
  uint64_t cycles = 0;
};

Timeline run_toy(ToyHarness& tb) {
  PtxKernel k(kToyPtx, "mascar_toy", {1, 1, 1}, {96, 1, 1});
  tb.run(k.instance());
  uint64_t t0 = 0;  // the last barrier's issue: the three warps are released together
  for (const IssueRecord& r : tb.issued)
    if (r.text.rfind("bar.sync", 0) == 0) t0 = std::max(t0, r.cycle);
  Timeline tl;
  for (const IssueRecord& r : tb.issued) {
    if (r.text.rfind("add", 0) == 0 || r.text.rfind("setp", 0) == 0) tl.compute[r.warp].push_back(r.cycle - t0);
    if (r.text.rfind("ld.global", 0) == 0) tl.load_issue[r.warp].push_back(r.cycle - t0);
  }
  for (const ToyEvent& e : tb.back_end.sends) tl.loads[e.warp].push_back(e.cycle - t0);
  for (const auto& [c, w] : tb.back_end.owners) tl.owners.push_back({c - t0, w});
  for (const auto& [w, ts] : tl.compute) tl.cycles = std::max(tl.cycles, ts.back());
  return tl;
}

using V = std::vector<uint64_t>;

}  // namespace

TEST_CASE("mascar fig 3 toy: infinite resources with round robin take 21 cycles", "[mascar][fig3]") {
  ToyMachine m;
  m.mshrs = 0;  // unlimited MSHRs and bandwidth
  ToyHarness tb("tb", toy_sm_config("lrr"), m);
  const Timeline tl = run_toy(tb);
  // Loads of r1 at t = 1, 2, 3 and of r2 at 4, 5, 6; W0's r2 returns at 9, its compute
  // starts at 10; the twelve compute instructions take t = 10 ... 21 round robin.
  CHECK(tl.loads.at(0) == V{1, 4});
  CHECK(tl.loads.at(1) == V{2, 5});
  CHECK(tl.loads.at(2) == V{3, 6});
  CHECK(tl.compute.at(0) == V{10, 13, 16, 19});
  CHECK(tl.compute.at(1) == V{11, 14, 17, 20});
  CHECK(tl.compute.at(2) == V{12, 15, 18, 21});
  CHECK(tl.cycles == 21);
}

TEST_CASE("mascar fig 3 toy: round robin with 2 MSHRs takes 26 cycles", "[mascar][fig3]") {
  ToyMachine m;
  ToyHarness tb("tb", toy_sm_config("lrr"), m);
  const Timeline tl = run_toy(tb);
  // W2's r1 load finds no MSHR at t = 3 and leaves at 7, after W0's r1 returns at 6; W0's
  // r2 leaves at 8 and returns at 13; W1's and W2's r2 return at 18 and 19.
  CHECK(tl.loads.at(0) == V{1, 8});
  CHECK(tl.loads.at(1) == V{2, 13});
  CHECK(tl.loads.at(2) == V{7, 14});
  CHECK(tl.load_issue.at(2) == V{3, 13});
  CHECK(tl.compute.at(0) == V{14, 15, 16, 17});
  CHECK(tl.compute.at(1) == V{19, 21, 23, 25});
  CHECK(tl.compute.at(2) == V{20, 22, 24, 26});
  CHECK(tl.cycles == 26);
  CHECK(tb.core.mascar() == nullptr);  // no Mascar state under another policy
}

TEST_CASE("mascar fig 3 toy: mascar with 2 MSHRs takes 23 cycles", "[mascar][fig3]") {
  ToyMachine m;
  ToyHarness tb("tb", toy_sm_config("mascar"), m);
  const Timeline tl = run_toy(tb);
  // MP mode throughout. W0 owns memory and sends both loads (t = 1, 2); W1 issues its r1
  // load at 3 and becomes the owner, it leaves at 7; its r2 load at 8; W0 computes 8 ... 11
  // over W1's accesses; W2 issues at 12 and 13 (its loads leave at 13 and 14); W1 computes
  // 14 ... 17, W2 20 ... 23.
  CHECK(tl.loads.at(0) == V{1, 2});
  CHECK(tl.loads.at(1) == V{7, 8});
  CHECK(tl.loads.at(2) == V{13, 14});
  CHECK(tl.load_issue.at(1) == V{3, 7});
  CHECK(tl.load_issue.at(2) == V{12, 13});
  CHECK(tl.compute.at(0) == V{8, 9, 10, 11});
  CHECK(tl.compute.at(1) == V{14, 15, 16, 17});
  CHECK(tl.compute.at(2) == V{20, 21, 22, 23});
  CHECK(tl.cycles == 23);
  // Owners: W0 at its first load; released at t = 3 (its compute needs its own loads) and
  // W1 takes over with its first load; W1 released at 8; W2 from its first load at 12.
  using O = std::vector<std::pair<uint64_t, int32_t>>;
  const O owners(tl.owners.begin(), tl.owners.begin() + std::min<std::size_t>(tl.owners.size(), 6));
  CHECK(owners == O{{1, 0}, {3, -1}, {3, 1}, {8, -1}, {12, 2}, {14, -1}});
  const MascarStats& st = *tb.core.mascar()->stats();
  CHECK(st.owner_acquisitions.value() == 3);
  CHECK(st.releases_own_load.value() == 3);
  CHECK(st.ep_to_mp.value() == 1);
  CHECK(st.ep_cycles.value() == 0);
  CHECK(st.mp_cycles.value() == st.cycles.value());
}

TEST_CASE("mascar fig 3 toy counts LSU stall and stranded-hit cycles", "[mascar][fig3]") {
  // The Mascar timeline above, with every probed line resident in the L1D. The LSU (its
  // latch) is held at t = 3 ... 7 (W1's loads wait for MSHRs) and at 12, 13 (W2's): 7
  // stall cycles. Nothing issues at t = 4, 5, 6, while W1 and W2 each have a global load
  // next: 3 stranded-hit cycles (002 Fig. 5).
  ToyMachine m;
  ToyHarness tb("tb", toy_sm_config("mascar"), m);
  tb.back_end.all_resident = true;
  const Timeline tl = run_toy(tb);
  REQUIRE(tl.cycles == 23);  // the probe does not change the timeline
  const MascarStats& st = *tb.core.mascar()->stats();
  CHECK(st.lsu_stall_cycles.value() == 7);
  CHECK(st.stranded_hit_cycles.value() == 3);
}
