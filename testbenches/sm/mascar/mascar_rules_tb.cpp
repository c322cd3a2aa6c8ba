// Mascar's rules (digest §B5) on the SM front half with the toy back end (toy_harness.h):
// MP mode exactly while the saturation flag is raised (EP: no owner, no stall bits), only
// the owner issues memory instructions in MP mode and the owner is shared by the
// schedulers of the SM, the owner hand-over to the re-execution queue's head warp when no
// warp is memory-ready, and the owner's release at a barrier (without it the toy below
// deadlocks: the non-owner could never reach the barrier).
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/sm/ptx_kernel.h"
#include "toy_harness.h"

using namespace gputlm;
using namespace gputlm::sm;
using namespace gputlm::sm::tb;
using namespace gputlm::sm::test_support;

namespace {

using Owners = std::vector<std::pair<uint64_t, int32_t>>;

std::string str(const Owners& o) {
  std::string s;
  for (const auto& [t, w] : o) s += "(" + std::to_string(t) + "," + std::to_string(w) + ") ";
  return s;
}

void run(ToyHarness& tb, const char* kernel, uint32_t warps) {
  PtxKernel k(kToyPtx, kernel, {1, 1, 1}, {32 * warps, 1, 1});
  tb.run(k.instance());
}

const ToyCycle& at(const ToyHarness& tb, uint64_t cycle) {
  for (const ToyCycle& c : tb.trace)
    if (c.cycle == cycle) return c;
  FAIL("cycle " << cycle << " not traced");
  return tb.trace.front();
}

// Owner changes relative to the cycle of the last barrier issue.
Owners owners_after_barrier(const ToyHarness& tb) {
  uint64_t t0 = 0;
  for (const IssueRecord& r : tb.issued)
    if (r.text.rfind("bar.sync", 0) == 0) t0 = std::max(t0, r.cycle);
  Owners o;
  for (const auto& [c, w] : tb.back_end.owners) o.push_back({c - t0, w});
  return o;
}

}  // namespace

TEST_CASE("mascar is in MP mode exactly while the saturation flag is raised", "[mascar]") {
  ToyMachine m;
  m.mshrs = 4;
  m.saturation_margin = 1;  // raised while 3 or 4 loads are outstanding
  ToyHarness tb("tb", toy_sm_config("mascar"), m);
  run(tb, "mascar_chain", 6);
  REQUIRE(!tb.trace.empty());
  uint64_t rises = 0, mp = 0, ep = 0;
  bool was_mp = false;
  for (const ToyCycle& c : tb.trace) {
    INFO("cycle " << c.cycle);
    CHECK((c.mode == MascarState::Mode::MP) == c.saturated);
    if (c.mode == MascarState::Mode::EP) {
      CHECK(c.owner == -1);
      CHECK(c.stall == 0);
      ++ep;
    } else {
      ++mp;
      if (c.owner >= 0) CHECK(((c.stall >> c.owner) & 1u) == 0);
      else CHECK(c.stall == 0);
    }
    rises += c.mode == MascarState::Mode::MP && !was_mp;
    was_mp = c.mode == MascarState::Mode::MP;
  }
  CHECK(mp > 0);
  CHECK(ep > 0);
  const MascarStats& st = *tb.core.mascar()->stats();
  CHECK(st.ep_to_mp.value() == rises);
  CHECK(st.mp_cycles.value() + st.ep_cycles.value() == st.cycles.value());
  CHECK(st.cycles.value() == static_cast<uint64_t>(tb.root.to_json()["sm0"]["cycles"].get<double>()));
  CHECK(st.owner_changes.value() == st.owner_acquisitions.value() + st.owner_handovers.value());
  CHECK(st.owner_acquisitions.value() > 0);
}

TEST_CASE("mascar lets only the owner issue memory instructions in MP mode over two schedulers", "[mascar]") {
  ToyMachine m;
  m.mshrs = 4;
  m.saturation_margin = 1;
  m.schedulers = 2;
  ToyHarness tb("tb", toy_sm_config("mascar", 2), m);
  run(tb, "mascar_chain", 8);
  uint64_t mp_loads = 0;
  std::set<uint32_t> owner_schedulers;
  for (const IssueRecord& r : tb.issued) {
    if (r.text.rfind("ld.global", 0) != 0) continue;
    const ToyCycle& c = at(tb, r.cycle);
    if (c.mode != MascarState::Mode::MP) continue;
    INFO("cycle " << r.cycle << " warp " << r.warp);
    CHECK(c.owner == static_cast<int32_t>(r.warp));  // the owner, or it became the owner by this issue
    owner_schedulers.insert(r.scheduler);
    ++mp_loads;
  }
  CHECK(mp_loads > 0);
  CHECK(owner_schedulers == std::set<uint32_t>{0, 1});  // one owner per SM, whichever scheduler
}

TEST_CASE("mascar hands ownership to the re-execution queue head warp when no warp is memory-ready", "[mascar]") {
  ToyMachine m;  // 2 MSHRs, MP mode from the start
  ToyHarness tb("tb", toy_sm_config("mascar"), m);
  // From warp 0's first load on, warp 1 has a request at the head of the queue, so its
  // next memory instruction is not ready (the flag clears when warp 1's load leaves).
  tb.back_end.arm_head_warp = 1;
  tb.back_end.arm_queued_warps = 1u << 1;
  run(tb, "mascar_toy", 2);
  // t = 1: warp 0 is memory-ready and acquires ownership with its first load. t = 3: its
  // compute needs its own loads: released; warp 1 is not memory-ready (queued request):
  // the queue's head warp 1 becomes the owner. It is released at 8, after its loads left.
  const Owners o = owners_after_barrier(tb);
  INFO("owners " << str(o));
  CHECK(o == Owners{{1, 0}, {3, -1}, {3, 1}, {8, -1}});
  const MascarStats& st = *tb.core.mascar()->stats();
  CHECK(st.owner_acquisitions.value() == 1);
  CHECK(st.owner_handovers.value() == 1);
  CHECK(st.releases_own_load.value() == 2);
}

TEST_CASE("mascar releases an owner waiting at a barrier", "[mascar]") {
  ToyMachine m;  // 2 MSHRs, MP mode from the start
  ToyHarness tb("tb", toy_sm_config("mascar"), m);
  run(tb, "mascar_barrier", 2);
  // t = 1: warp 0 loads and owns; t = 2: it reaches the barrier; t = 3: released (at the
  // barrier), warp 1 loads and owns; t = 4: warp 1 reaches the barrier, both go on; t = 5:
  // warp 1's add needs its own load: released.
  uint64_t t0 = 0;
  for (const IssueRecord& r : tb.issued)
    if (r.text.rfind("ld.global", 0) == 0 && r.warp == 0) t0 = r.cycle - 1;
  Owners o;
  for (const auto& [c, w] : tb.back_end.owners) o.push_back({c - t0, w});
  INFO("owners " << str(o));
  CHECK(o == Owners{{1, 0}, {3, -1}, {3, 1}, {5, -1}});
  CHECK(tb.core.mascar()->stats()->releases_other.value() == 1);
}
