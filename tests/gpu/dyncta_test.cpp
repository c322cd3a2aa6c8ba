// DYNCTA (cta_scheduler.limit = dyncta): the n-update rule on known inputs, parameter
// checks naming the key, and the CTA scheduler applying the limit against fake SMs whose
// stall counts are all-memory or all-idle.
#include <catch2/catch.hpp>

#include <memory>
#include <systemc>
#include <vector>

#include "core/config/config_source.h"
#include "fake_sm.h"
#include "gpu/cta_scheduler/cta_scheduler.h"
#include "gpu/cta_scheduler/dyncta.h"

using namespace gputlm;
using gpu::DynctaConfig;
using gpu::DynctaStep;
using gpu::dyncta_next;

namespace {

DynctaConfig defaults() { return DynctaConfig{}; }  // 2048, 16, 128, 1024, max

}  // namespace

TEST_CASE("dyncta rule raises n when the SM was idle for t_idle cycles or more", "[gpu][dyncta]") {
  const DynctaConfig c = defaults();
  auto d = dyncta_next(c, 16, 2000, 3, 8);  // idle wins even with heavy memory stalls
  CHECK(d.n == 4);
  CHECK(d.step == DynctaStep::Up);
  CHECK(dyncta_next(c, 15, 2000, 3, 8).n == 2);  // below t_idle: the memory rule decides
}

TEST_CASE("dyncta rule raises n when C_mem is below t_mem_l", "[gpu][dyncta]") {
  const DynctaConfig c = defaults();
  CHECK(dyncta_next(c, 0, 127, 3, 8).n == 4);
  CHECK(dyncta_next(c, 0, 127, 3, 8).step == DynctaStep::Up);
  CHECK(dyncta_next(c, 0, 128, 3, 8).n == 3);  // t_mem_l itself holds
}

TEST_CASE("dyncta rule lowers n when C_mem exceeds t_mem_h", "[gpu][dyncta]") {
  const DynctaConfig c = defaults();
  CHECK(dyncta_next(c, 0, 1025, 3, 8).n == 2);
  CHECK(dyncta_next(c, 0, 1025, 3, 8).step == DynctaStep::Down);
  CHECK(dyncta_next(c, 0, 1024, 3, 8).n == 3);  // t_mem_h itself holds
  CHECK(dyncta_next(c, 0, 1024, 3, 8).step == DynctaStep::Hold);
  CHECK(dyncta_next(c, 0, 500, 3, 8).step == DynctaStep::Hold);  // between the thresholds
}

TEST_CASE("dyncta rule clamps n to 1 and the occupancy maximum", "[gpu][dyncta]") {
  const DynctaConfig c = defaults();
  auto up = dyncta_next(c, 100, 0, 8, 8);
  CHECK(up.n == 8);
  CHECK(up.step == DynctaStep::Hold);  // no change: not an increment
  auto down = dyncta_next(c, 0, 2048, 1, 8);
  CHECK(down.n == 1);
  CHECK(down.step == DynctaStep::Hold);
  CHECK(dyncta_next(c, 0, 500, 12, 8).n == 8);  // above a lowered maximum: clamped
  CHECK(dyncta_next(c, 0, 500, 0, 8).n == 1);
  CHECK(dyncta_next(c, 100, 0, 1, 1).n == 1);  // max 1: nothing to modulate
}

TEST_CASE("dyncta initial n is the occupancy maximum or half of it rounded up", "[gpu][dyncta]") {
  DynctaConfig c = defaults();
  CHECK(gpu::dyncta_initial(c, 8) == 8);
  c.initial = "half";
  CHECK(gpu::dyncta_initial(c, 8) == 4);
  CHECK(gpu::dyncta_initial(c, 7) == 4);
  CHECK(gpu::dyncta_initial(c, 1) == 1);
}

TEST_CASE("dyncta rejects impossible parameters naming the key", "[gpu][dyncta]") {
  gpu::CtaSchedulerConfig cfg;
  cfg.limit = "dyncta";
  cfg.dyncta.period = 0;
  CHECK_THROWS_WITH(cfg.validate(), Catch::Contains("cta_scheduler.dyncta.period"));
  cfg.dyncta = {};
  cfg.dyncta.t_mem_l = 2000;
  CHECK_THROWS_WITH(cfg.validate(), Catch::Contains("cta_scheduler.dyncta.t_mem_l"));
  cfg.dyncta = {};
  cfg.dyncta.initial = "quarter";
  CHECK_THROWS_WITH(cfg.validate(), Catch::Contains("cta_scheduler.dyncta.initial"));
  cfg.dyncta = {};
  cfg.limit = "mascar";
  CHECK_THROWS_WITH(cfg.validate(), Catch::Contains("cta_scheduler.limit"));
  cfg.limit = "dyncta";
  CHECK_NOTHROW(cfg.validate());
}

namespace {

// A fake SM whose every resident cycle is a memory stall (or an idle one).
class StallingFakeSm : public test::FakeSm {
 public:
  StallingFakeSm(sc_core::sc_module_name n, uint32_t id, const ClockDomain& core, test::FakeSmLimits limits,
                 Duration d, std::vector<test::FakeLaunch>& log, bool memory)
      : test::FakeSm(n, id, core, limits, std::move(d), log), memory_(memory) {}
  void enable_issue_stalls() override { enabled_ = true; }
  sm::SmIssueStalls issue_stalls(uint64_t cycle) const override {
    sm::SmIssueStalls s;
    if (!enabled_) return s;
    (memory_ ? s.mem : s.idle) = cycle;
    return s;
  }

 private:
  bool memory_, enabled_ = false;
};

struct CheckedLimit : gpu::CtaSchedulerListener {
  gpu::CtaScheduler* sched = nullptr;
  std::vector<test::FakeSm*> sms;
  uint32_t launches = 0, violations = 0;
  void cta_launched(const gpu::KernelRecord&, uint32_t sm, uint64_t) override {
    ++launches;
    if (sms[sm]->resident_ctas() > sched->cta_limit(sm)) ++violations;
  }
};

struct StallGpu {
  ClockDomain core = ClockDomain::from_mhz("core", 700);
  stats::Group root{"gpu"};
  std::vector<test::FakeLaunch> log;
  std::unique_ptr<gpu::CtaScheduler> sched;
  std::vector<std::unique_ptr<StallingFakeSm>> sms;
  CheckedLimit check;
  StallGpu(uint32_t n, bool memory, gpu::CtaSchedulerConfig cfg, uint64_t cta_cycles) {
    sched = std::make_unique<gpu::CtaScheduler>("cta_scheduler", cfg, core, root);
    for (uint32_t i = 0; i < n; ++i) {
      sms.push_back(std::make_unique<StallingFakeSm>(("sm" + std::to_string(i)).c_str(), i, core,
                                                     test::FakeSmLimits{}, [cta_cycles](uint32_t, uint64_t) {
                                                       return cta_cycles;
                                                     },
                                                     log, memory));
      sched->add_sm(*sms.back());
      check.sms.push_back(sms.back().get());
    }
    check.sched = sched.get();
    sched->add_listener(check);
  }
};

sm::KernelInstance kernel256() {
  sm::KernelInstance k;
  k.name = "k";
  k.registers_per_thread = 16;
  k.demand = {256, 8, 16 * 256, 0};  // 6 per SM (warps 48 / 8)
  return k;
}

gpu::CtaSchedulerConfig dyncta_cfg() {
  gpu::CtaSchedulerConfig cfg;
  cfg.limit = "dyncta";
  cfg.dyncta.period = 100;
  cfg.dyncta.t_idle = 10;
  cfg.dyncta.t_mem_l = 10;
  cfg.dyncta.t_mem_h = 50;
  return cfg;
}

}  // namespace

TEST_CASE("cta_scheduler with limit dyncta lowers n by one per period on an SM stalled on memory", "[gpu][dyncta]") {
  StallGpu g(2, true, dyncta_cfg(), 250);
  sm::KernelInstance k = kernel256();
  g.sched->submit(k, 200);
  sc_core::sc_start();
  REQUIRE(g.sched->completed(0));
  for (uint32_t s = 0; s < 2; ++s) {
    const auto& h = g.sched->cta_limit_history(s);
    REQUIRE(h.size() == 6);  // 6 at admission, then 5, 4, 3, 2, 1 at the period boundaries
    CHECK(h[0] == std::make_pair(uint64_t{1}, 6u));
    for (uint32_t i = 1; i < 6; ++i) CHECK(h[i] == std::make_pair(uint64_t{100} * i, 6u - i));
    CHECK(g.sched->cta_limit(s) == 1);
    CHECK(g.root.find("cta_scheduler.dyncta.sm" + std::to_string(s) + ".decrements")->scalar(stats::View::Total) == 5);
    CHECK(g.root.find("cta_scheduler.dyncta.sm" + std::to_string(s) + ".increments")->scalar(stats::View::Total) == 0);
    CHECK(g.root.find("cta_scheduler.dyncta.sm" + std::to_string(s) + ".n")->scalar(stats::View::Total) == 1);
  }
  CHECK(g.check.launches == 200);
  CHECK(g.check.violations == 0);
  // Once n is 1, an SM holds one CTA at a time: the late CTAs run one after another.
  const test::FakeLaunch& last = g.log.back();
  const test::FakeLaunch& before = g.log[g.log.size() - 3];  // the same SM's previous CTA
  CHECK(last.sm == before.sm);
  CHECK(last.cycle == before.cycle + 250 + 1);
}

TEST_CASE("cta_scheduler with limit dyncta keeps n at the maximum on an SM with idle cycles", "[gpu][dyncta]") {
  gpu::CtaSchedulerConfig cfg = dyncta_cfg();
  cfg.dyncta.initial = "half";
  StallGpu g(2, false, cfg, 250);
  sm::KernelInstance k = kernel256();
  g.sched->submit(k, 200);
  sc_core::sc_start();
  REQUIRE(g.sched->completed(0));
  const auto& h = g.sched->cta_limit_history(0);
  REQUIRE(h.size() == 4);  // half of 6 = 3, then up to the maximum in three periods
  CHECK(h[0].second == 3);
  CHECK(h[3] == std::make_pair(uint64_t{300}, 6u));
  CHECK(g.sched->cta_limit(0) == 6);
  CHECK(g.check.violations == 0);
  CHECK(g.root.find("cta_scheduler.dyncta.sm0.increments")->scalar(stats::View::Total) == 3);
}
