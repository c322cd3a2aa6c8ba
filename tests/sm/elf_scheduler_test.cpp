// ELF scheduling (digest §B1/§B2): the warp priority table after every issue on a
// hand-written kernel with a known PP table (cu/elf_wpt.ptx), both recalc polarities;
// the issue order (lowest WPT, ties oldest first); the counters; config errors; and in a
// whole SM, the WPT cycle by cycle, the coordinated fetch order and 2-wide fetch.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>

#include "core/config/config_source.h"
#include "sm/fetch/fetch_policy.h"
#include "sm/scheduler/policies/elf_policy.h"
#include "sm_test_harness.h"
#include "support/sm/ptx_kernel.h"

using namespace sm_test;

namespace {
constexpr const char* kElfPtx = "tests/sm/cu/elf_wpt.ptx";

// elf_wpt with n = 2 and every input 0, warps after one another (no pipeline): each issue
// is GridExecution::step, as the scheduler does it.
struct FunctionalElf {
  explicit FunctionalElf(const std::string& recalc_on, uint32_t warps = 1)
      : kernel(kElfPtx, "elf_wpt", {1, 1, 1}, {32 * warps, 1, 1}), table(8, 2), root("t"), stats(root) {
    const uint64_t in = kernel.upload(std::vector<int>(32 * warps, 0));
    out = kernel.upload(std::vector<int>(32 * warps, 7));
    kernel.set_param<uint64_t>(0, in);
    kernel.set_param<uint64_t>(1, out);
    kernel.set_param<uint32_t>(2, 2);
    KernelInstance& k = kernel.instance();
    cfg.policy = "elf";
    cfg.elf.recalc_on = recalc_on;
    elf = make_elf_program_points(cfg, k.grid->kernel());
    isa::CtaContext& cta = k.grid->start_cta(0);
    for (uint32_t w = 0; w < warps; ++w) {
      WarpSlot& s = table[w];
      s.valid = true;
      s.grid = k.grid;
      s.ctx = &cta.warps[w];
      s.elf = elf.get();
      s.age = w;
    }
    policy = std::make_unique<ElfPolicy>(cfg.elf, "sm.scheduler", PolicyContext{&table, &stats});
  }
  std::vector<uint32_t> order(const std::vector<WarpView>& views) {
    std::vector<uint32_t> o;
    policy->order(views, o);
    return o;
  }
  // Issues warp w's next instruction; returns its index in the kernel.
  uint32_t issue(uint32_t w) {
    WarpSlot& s = table[w];
    const isa::StepResult r = s.grid->step(*s.ctx);
    policy->issued(w, *r.instr);
    policy->issued_at(w, r, r.warp_finished ? 0 : s.grid->peek_pc(*s.ctx));
    if (r.warp_finished) s.issue_done = true;
    return r.index;
  }
  uint32_t wpt(uint32_t w) const {
    uint32_t v = 0;
    REQUIRE(policy->priority(w, v));
    return v;
  }

  PtxKernel kernel;
  uint64_t out = 0;
  SchedulerConfig cfg;
  std::unique_ptr<isa::analysis::ElfProgramPoints> elf;
  WarpTable table;
  stats::Group root;
  ElfStats stats;
  std::unique_ptr<ElfPolicy> policy;
};

struct Step {
  uint32_t index;  // instruction issued
  uint32_t wpt;    // the warp's priority after it
};

// Hand-derived (docs/blocks/scheduler.md): PP table {8: load, 12: branch score 1};
// calculator: pc 0 -> 8, 9 -> 4, 13 and later -> 255.
const std::vector<Step> kNotTaken = {
    {0, 7},  {1, 6}, {2, 5},  {3, 4},  {4, 3},   {5, 2},   {6, 1},   {7, 0},
    {8, 4},                        // load: recalculated at 9
    {9, 3},  {10, 2}, {11, 1}, {12, 0},  // taken back edge, bit set: decrement only (exact)
    {8, 4},  {9, 3},  {10, 2}, {11, 1},
    {12, 255},                     // not taken, bit set: recalculated at 13 (no PP ahead)
    {13, 254}, {14, 255},          // forward branch taken, bit clear: recalculated at 17
    {17, 254}, {18, 253}, {19, 252}};
const std::vector<Step> kTaken = {
    {0, 7},  {1, 6},  {2, 5},  {3, 4},  {4, 3}, {5, 2},  {6, 1},  {7, 0},
    {8, 4},  {9, 3},  {10, 2}, {11, 1},
    {12, 0},                       // taken, bit set: recalculated at 8 (a load: 0)
    {8, 4},  {9, 3},  {10, 2}, {11, 1},
    {12, 0}, {13, 0}, {14, 0},     // not taken / taken with the bit clear: no recalculation
    {17, 0}, {18, 0}, {19, 0}};

void check_wpt_sequence(const std::string& recalc_on, const std::vector<Step>& want, uint64_t recalcs) {
  FunctionalElf f(recalc_on);
  const std::vector<WarpView> views = {{0, 0, 0}};
  CHECK(f.elf->points_before_merge() == 2);
  REQUIRE(f.elf->table().size() == 2);
  CHECK(f.order(views) == std::vector<uint32_t>{0});
  CHECK(f.wpt(0) == 8);  // calculator at the start PC
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("issue " << i);
    CHECK(f.issue(0) == want[i].index);
    CHECK(f.wpt(0) == want[i].wpt);
  }
  CHECK(f.table[0].issue_done);
  CHECK(f.stats.naive_recalcs.value() == want.size());
  CHECK(f.stats.prio_recalcs.value() == recalcs);
  CHECK(f.stats.prio_inits.value() == 1);
}
}  // namespace

TEST_CASE("elf: WPT after every issue with recalc_on not_taken", "[sm][elf]") {
  check_wpt_sequence("not_taken", kNotTaken, 4);
}

TEST_CASE("elf: WPT after every issue with recalc_on taken", "[sm][elf]") { check_wpt_sequence("taken", kTaken, 3); }

TEST_CASE("elf: issue order is lowest WPT first with ties oldest first", "[sm][elf]") {
  FunctionalElf f("not_taken", 3);
  // Ages not in slot order: slot 1 is the oldest, then 2, then 0.
  f.table[0].age = 5;
  f.table[1].age = 3;
  f.table[2].age = 4;
  const std::vector<WarpView> views = {{0, 0, 5}, {1, 1, 3}, {2, 2, 4}};
  CHECK(f.order(views) == std::vector<uint32_t>{1, 2, 0});  // all 8: by age
  f.issue(2);
  CHECK(f.order(views) == std::vector<uint32_t>{2, 1, 0});  // 7 < 8
  f.issue(0);
  CHECK(f.order(views) == std::vector<uint32_t>{2, 0, 1});  // 7 = 7: slot 2 older than 0
  f.issue(0);
  CHECK(f.order(views) == std::vector<uint32_t>{0, 2, 1});  // 6
  for (int i = 0; i < 8; ++i) f.issue(1);                    // warp 1 at its load: 0
  CHECK(f.wpt(1) == 0);
  CHECK(f.order(views) == std::vector<uint32_t>{1, 0, 2});
  CHECK(f.issue(1) == 8);  // the load: recalculated to 4
  CHECK(f.wpt(1) == 4);
  CHECK(f.order(views) == std::vector<uint32_t>{1, 0, 2});  // 4 < 6 < 7
  f.issue(0);
  f.issue(0);
  CHECK(f.order(views) == std::vector<uint32_t>{1, 0, 2});  // 4 = 4: slot 1 (age 3) before slot 0 (age 5)
  CHECK(f.wpt(0) == 4);
  // A removed warp's entry is gone; the next warp in the slot starts from the calculator
  // at its PC (here the old context, one instruction in: 7).
  f.policy->warp_removed(2);
  uint32_t v = 0;
  CHECK_FALSE(f.policy->priority(2, v));
  CHECK(f.stats.prio_inits.value() == 3);
  f.order(views);
  CHECK(f.wpt(2) == 7);
  CHECK(f.stats.prio_inits.value() == 4);
}

TEST_CASE("elf: bad parameters are config errors naming the key", "[sm][elf][config]") {
  SchedulerConfig c;
  c.policy = "elf";
  c.elf.max_pp = 0;
  WarpTable table(4, 2);
  CHECK_THROWS_WITH(make_scheduler_policy(c, "sm.scheduler", PolicyContext{&table, nullptr}),
                    Catch::Contains("sm.scheduler.elf.max_pp"));
  c.elf.max_pp = 32;
  c.elf.recalc_on = "sometimes";
  CHECK_THROWS_WITH(make_scheduler_policy(c, "sm.scheduler", PolicyContext{&table, nullptr}),
                    Catch::Contains("sm.scheduler.elf.recalc_on") && Catch::Contains("sometimes"));
  // Through a configuration file and -p, the reader names the key and its origin.
  auto read = [](const std::string& override_text) {
    auto src = config::ConfigSource::from_json(nlohmann::json::object(), "test");
    src.apply_override(override_text);
    SmConfig sm;
    config::read(src, sm);
    return sm;
  };
  CHECK(read("scheduler.policy=elf").scheduler.elf.recalc_on == "not_taken");
  CHECK_THROWS_WITH(read("scheduler.elf.max_pp=0"), Catch::Contains("scheduler.elf.max_pp"));
  CHECK_THROWS_WITH(read("scheduler.elf.recalc_on=both"),
                    Catch::Contains("scheduler.elf.recalc_on") && Catch::Contains("not_taken"));
  CHECK_THROWS_WITH(read("fetch.eligible=always"), Catch::Contains("fetch.eligible"));
}

namespace {
SmConfig elf_sm(uint32_t schedulers) {
  SmConfig cfg;
  cfg.scheduler.count = schedulers;
  cfg.operand_collector.schedulers = schedulers;
  cfg.scheduler.policy = "elf";
  return cfg;
}
}  // namespace

TEST_CASE("elf: WPT in a whole SM after each issue cycle by cycle", "[sm][elf]") {
  SmHarness tb("tb", elf_sm(1));
  PtxKernel k(kElfPtx, "elf_wpt", {1, 1, 1}, {32, 1, 1});
  const uint64_t in = k.upload(std::vector<int>(32, 0));
  const uint64_t out = k.upload(std::vector<int>(32, 7));
  k.set_param<uint64_t>(0, in);
  k.set_param<uint64_t>(1, out);
  k.set_param<uint32_t>(2, 2);
  WarpScheduler& s = tb.sm.core().scheduler(0);
  const auto& policy = dynamic_cast<const ElfPolicy&>(s.policy());
  struct Seen {
    uint64_t cycle;
    uint32_t index, wpt;
  };
  std::vector<Seen> seen;
  s.set_issue_observer([&](const WarpInstruction& wi) {
    uint32_t v = 0;
    REQUIRE(policy.priority(wi.warp, v));
    seen.push_back({wi.issue_cycle, wi.result.index, v});
  });
  KernelInstance& inst = k.instance();
  tb.run(inst);
  REQUIRE(seen.size() == kNotTaken.size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    INFO("issue " << i << " at cycle " << seen[i].cycle);
    CHECK(seen[i].index == kNotTaken[i].index);
    CHECK(seen[i].wpt == kNotTaken[i].wpt);
    if (i > 0) CHECK(seen[i].cycle > seen[i - 1].cycle);
  }
  CHECK(k.download<int>(out, 32) == std::vector<int>(32, 0));
  CHECK(tb.root.find("sm0.elf.naive_recalcs")->scalar(stats::View::Total) == kNotTaken.size());
  CHECK(tb.root.find("sm0.elf.prio_recalcs")->scalar(stats::View::Total) == 4);
  CHECK(tb.root.find("sm0.elf.prio_inits")->scalar(stats::View::Total) == 1);
  CHECK(tb.root.find("sm0.warp_instructions")->scalar(stats::View::Total) == kNotTaken.size());
}

TEST_CASE("elf: priority orders and coordinated fetch follow the WPT every cycle", "[sm][elf][fetch]") {
  // Two schedulers, one CTA of 8 warps, loads that take 50 cycles: each cycle, each scheduler's
  // priority_order() (what scheduler_priority fetch interleaves) is sorted by the WPT as
  // it stood when the cycle began, then by age; the fetch order is their interleaving.
  SmConfig cfg = elf_sm(2);
  cfg.fetch.policy = "scheduler_priority";
  cfg.fetch.eligible = "not_full";
  SmHarness tb("tb", cfg);
  PtxKernel k(kElfPtx, "elf_wpt", {1, 1, 1}, {256, 1, 1});
  std::vector<int> input(256);
  for (int i = 0; i < 256; ++i) input[i] = i % 5;
  const uint64_t in = k.upload(input);
  const uint64_t out = k.upload(std::vector<int>(256, 0));
  k.set_param<uint64_t>(0, in);
  k.set_param<uint64_t>(1, out);
  k.set_param<uint32_t>(2, 3);
  KernelInstance& inst = k.instance();
  SmCore& core = tb.sm.core();
  std::unique_ptr<isa::analysis::ElfProgramPoints> elf = make_elf_program_points(cfg.scheduler, inst.grid->kernel());
  inst.elf = elf.get();
  REQUIRE(tb.sm.can_accept_cta(inst));
  tb.sm.launch_cta(inst, 0);
  auto policy = [&](uint32_t s) -> const ElfPolicy& { return dynamic_cast<const ElfPolicy&>(core.scheduler(s).policy()); };
  std::map<uint32_t, uint32_t> before;  // WPT at the start of the cycle
  auto fetch_order = make_scheduler_priority_fetch(core);
  uint64_t checked = 0, reordered = 0;
  std::vector<uint32_t> previous[2];
  while (tb.completions.empty() && tb.clock.now() < 20000) {
    sc_core::sc_start(tb.clock.period());
    for (uint32_t s = 0; s < 2; ++s) {
      const std::vector<uint32_t>& o = core.priority_order(s);
      for (std::size_t i = 1; i < o.size(); ++i) {
        if (!before.count(o[i - 1]) || !before.count(o[i])) continue;
        INFO("cycle " << tb.clock.now() << " scheduler " << s);
        const auto a = std::make_pair(before[o[i - 1]], core.warps()[o[i - 1]].age);
        const auto b = std::make_pair(before[o[i]], core.warps()[o[i]].age);
        CHECK(a < b);
        ++checked;
      }
      reordered += o != previous[s] ? 1 : 0;
      previous[s] = o;
    }
    std::vector<uint32_t> want, got;
    interleave_orders({&core.priority_order(0), &core.priority_order(1)}, want);
    fetch_order->order({}, got);
    CHECK(got == want);
    before.clear();
    for (uint32_t s = 0; s < 2; ++s)
      for (uint32_t w : core.priority_order(s)) {
        uint32_t v = 0;
        if (policy(s).priority(w, v)) before[w] = v;
      }
  }
  REQUIRE(tb.completions.size() == 1);
  CHECK(checked > 1000);
  CHECK(reordered > 50);  // the order moves with the WPT, not only with residency
  CHECK(tb.sm.core().fetch().order_policy().name() == std::string("scheduler_priority"));
  const std::vector<int> got = k.download<int>(out, 256);
  for (int t = 0; t < 256; ++t) {
    const int sum = 3 * (t % 5);
    INFO("thread " << t);
    CHECK(got[t] == (sum == 0 ? 0 : sum + 2));
  }
}

TEST_CASE("fetch: width 2 delivers two instructions of one warp per fetch and not_full refills one slot", "[sm][fetch]") {
  // One warp of elf_wpt on one scheduler; the fetch cycle of each issued instruction shows
  // how it was fetched. Instructions 0-7 are straight-line code in one L1I line.
  struct Variant {
    const char* name;
    uint32_t width;
    const char* eligible;
  };
  const std::vector<Variant> variants = {{"w2", 2, "room_for_width"}, {"w1", 1, "room_for_width"},
                                         {"w2_not_full", 2, "not_full"}};
  std::vector<std::unique_ptr<SmHarness>> tbs;
  std::vector<std::vector<uint64_t>> fetched(variants.size());
  for (std::size_t v = 0; v < variants.size(); ++v) {
    SmConfig cfg;
    cfg.scheduler.count = 1;
    cfg.operand_collector.schedulers = 1;
    cfg.fetch.width = variants[v].width;
    cfg.fetch.eligible = variants[v].eligible;
    tbs.push_back(std::make_unique<SmHarness>(variants[v].name, cfg));
    tbs.back()->sm.core().scheduler(0).set_issue_observer(
        [&fetched, v](const WarpInstruction& wi) { fetched[v].push_back(wi.fetch_cycle); });
  }
  for (std::size_t v = 0; v < variants.size(); ++v) {
    PtxKernel k(kElfPtx, "elf_wpt", {1, 1, 1}, {32, 1, 1});
    k.set_param<uint64_t>(0, k.upload(std::vector<int>(32, 1)));
    const uint64_t out = k.upload(std::vector<int>(32, 0));
    k.set_param<uint64_t>(1, out);
    k.set_param<uint32_t>(2, 2);
    tbs[v]->run(k.instance());
    CHECK(k.download<int>(out, 32) == std::vector<int>(32, 4));
    REQUIRE(fetched[v].size() == 25);  // 8 + 2 x 5 + 13-19 (the forward branch is not taken)
  }
  const auto& w2 = fetched[0];
  const auto& w1 = fetched[1];
  const auto& nf = fetched[2];
  for (std::size_t i = 0; i < 8; i += 2) {
    INFO("instructions " << i << " and " << i + 1);
    CHECK(w2[i] == w2[i + 1]);  // one fetch, two instructions
    CHECK(w1[i] < w1[i + 1]);   // one instruction per fetch
    if (i > 0) CHECK(w2[i] > w2[i - 1]);
  }
  CHECK(nf[0] == nf[1]);  // the empty buffer takes a pair
  for (std::size_t i = 2; i < 8; ++i) {
    INFO("instruction " << i);
    CHECK(nf[i] > nf[i - 1]);  // then one instruction into each slot freed by an issue
  }
  auto fetches = [&](std::size_t v) { return tbs[v]->root.find("sm0.fetch.fetches")->scalar(stats::View::Total); };
  CHECK(fetches(1) > fetches(0));  // width 1: a fetch per instruction
  CHECK(fetches(2) > fetches(0));  // not_full: single-instruction refills
}
