// KAWS (seed 003 §3, digest §B6; sm/scheduler/kaws/kaws_state.h, policies/kaws_policy.h) on a
// scripted warp table: age order until the kernel's last CTA is issued, progress order
// (fewest warp instructions issued first, oldest within) from the next cycle exactly, the
// counters reset per CTA, the greedy reading, and the policy's state version.
#include <catch2/catch.hpp>

#include "sm/scheduler/kaws/kaws_state.h"
#include "sm/scheduler/policies/kaws_policy.h"
#include "sm/warp_table.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
using Order = std::vector<uint32_t>;

// Places CTA `seq` in CTA slot `cta` with `warps` warps in the lowest free warp slots.
std::vector<uint32_t> place(WarpTable& t, KawsState& k, const KernelInstance& kernel, uint32_t cta, uint64_t seq,
                            uint32_t warps) {
  std::vector<uint32_t> slots;
  uint32_t w = 0;
  for (uint32_t i = 0; i < warps; ++i) {
    while (t[w].valid) ++w;
    t.place(w, cta);
    t[w].kernel_id = kernel.id;
    t[w].age = warp_age(seq, i);
    slots.push_back(w);
  }
  t.note_residency_change();
  k.cta_launched(cta, kernel);
  return slots;
}

std::vector<WarpView> views(const WarpTable& t) {
  std::vector<WarpView> v;
  for (uint32_t w = 0; w < t.size(); ++w)
    if (t.live(w)) v.push_back(WarpView{w, w, t[w].age});
  return v;
}

std::unique_ptr<SchedulerPolicyIF> make_kaws(KawsState& state, const WarpTable& table, bool greedy = false) {
  SchedulerConfig c;
  c.policy = "kaws";
  c.kaws.greedy = greedy;
  PolicyContext ctx;
  ctx.warps = &table;
  ctx.kaws = &state;
  return make_scheduler_policy(c, "sm.scheduler", ctx);
}

Order order(SchedulerPolicyIF& p, const WarpTable& t) {
  Order o;
  p.order(views(t), o);
  return o;
}
}  // namespace

TEST_CASE("kaws orders oldest first until the last CTA is issued, then by CTA progress from the next cycle",
          "[sm][kaws]") {
  WarpTable t(8, 2);
  stats::Group root("sm0");
  KawsState k(4, &root);
  KernelInstance kernel;
  kernel.id = 1;
  place(t, k, kernel, 0, 0, 2);  // slots 0, 1 (oldest CTA)
  place(t, k, kernel, 1, 1, 2);  // slots 2, 3
  auto p = make_kaws(k, t);
  // CTA 0 has issued 5 warp instructions, CTA 1 two.
  for (int i = 0; i < 5; ++i) k.issued(0);
  for (int i = 0; i < 2; ++i) k.issued(1);
  k.begin_cycle(10);
  CHECK(order(*p, t) == Order{0, 1, 2, 3});  // normal mode: age
  kernel.last_cta_issue_cycle = 10;          // the CTA scheduler issued the last CTA in cycle 10
  k.begin_cycle(10);
  CHECK_FALSE(k.progress_mode(0));
  CHECK(order(*p, t) == Order{0, 1, 2, 3});  // not yet in the cycle of the issue
  const uint64_t v = p->state_version();
  k.begin_cycle(11);
  CHECK(k.progress_mode(0));
  CHECK(k.progress_mode(1));
  CHECK(p->state_version() != v);
  CHECK(order(*p, t) == Order{2, 3, 0, 1});  // CTA 1 has made less progress
  // Issues in progress mode move the order and the version.
  const uint64_t v2 = p->state_version();
  for (int i = 0; i < 4; ++i) k.issued(1);  // CTA 1: 6 > 5
  CHECK(p->state_version() != v2);
  CHECK(order(*p, t) == Order{0, 1, 2, 3});
  CHECK(root.find("kaws.switches")->scalar(stats::View::Total) == 2);
  CHECK(root.find("kaws.progress_cycles")->scalar(stats::View::Total) == 1);
  CHECK(root.find("kaws.cycles")->scalar(stats::View::Total) == 3);
}

TEST_CASE("kaws restarts a CTA slot's counter for a new CTA and keeps other kernels in age order", "[sm][kaws]") {
  WarpTable t(8, 2);
  KawsState k(4, nullptr);
  KernelInstance done, fresh;
  done.id = 1;
  fresh.id = 2;
  done.last_cta_issue_cycle = 3;
  const auto a = place(t, k, done, 0, 0, 2);   // slots 0, 1
  place(t, k, fresh, 1, 1, 2);  // slots 2, 3: a kernel still issuing CTAs
  for (int i = 0; i < 9; ++i) k.issued(0);
  k.begin_cycle(4);
  CHECK(k.progress(0) == 9);
  auto p = make_kaws(k, t);
  // Progress-mode CTAs first (their kernel is the one finishing), the other kernel by age.
  CHECK(order(*p, t) == Order{0, 1, 2, 3});
  // CTA slot 0 finishes; a new CTA of the done kernel takes it, with a fresh counter.
  for (uint32_t w : a) t.clear(w);
  k.cta_finished(0);
  place(t, k, done, 0, 2, 1);  // slot 0 again, youngest CTA
  CHECK(k.progress(0) == 0);
  CHECK_FALSE(k.progress_mode(0));
  k.begin_cycle(5);
  CHECK(k.progress_mode(0));
  CHECK(order(*p, t) == Order{0, 2, 3});
}

TEST_CASE("kaws greedy reading puts the warp issued last first in normal mode", "[sm][kaws]") {
  WarpTable t(8, 2);
  KawsState k(4, nullptr);
  KernelInstance kernel;
  place(t, k, kernel, 0, 0, 3);  // slots 0, 1, 2
  auto oldest = make_kaws(k, t, false);
  auto greedy = make_kaws(k, t, true);
  isa::Instruction in;
  oldest->issued(2, in);
  greedy->issued(2, in);
  k.begin_cycle(1);
  CHECK(order(*oldest, t) == Order{0, 1, 2});
  CHECK(order(*greedy, t) == Order{2, 0, 1});
}

TEST_CASE("kaws needs its per-SM state", "[sm][kaws]") {
  WarpTable t(8, 2);
  SchedulerConfig c;
  c.policy = "kaws";
  PolicyContext ctx;
  ctx.warps = &t;
  CHECK_THROWS_WITH(make_scheduler_policy(c, "sm.scheduler", ctx), Catch::Contains("KAWS state"));
}
