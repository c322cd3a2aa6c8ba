// Kernel-boundary L1 invalidation by the CTA scheduler against a fake SM, for each
// cta_scheduler.l1_invalidation policy, on one constructed case with a concurrent kernel:
//
//   stream 0: k0 (cycles 1..101), k2 (102..202), k3 (from 203)
//   stream 1: k1 (2..152), sharing the SM with k0 and k2
//
// k1 and k2 arrive while other kernels' CTAs are resident; k3 arrives on an idle SM.
#include <catch2/catch.hpp>

#include <memory>
#include <systemc>
#include <vector>

#include "fake_sm.h"
#include "gpu/cta_scheduler/cta_scheduler.h"

using namespace gputlm;
using gputlm::test::FakeLaunch;
using gputlm::test::FakeSm;
using gputlm::test::FakeSmLimits;

namespace {

struct Run {
  std::vector<uint64_t> invalidations;  // cycles
  std::vector<uint8_t> caches;          // sm::L1Cache bits of each
  double counted = 0;
  std::vector<FakeLaunch> log;
};

Run run_case(const std::string& policy, std::vector<std::string> caches = {"l1d"}) {
  gpu::CtaSchedulerConfig cfg;
  cfg.l1_invalidation = policy;
  cfg.l1_invalidation_caches = std::move(caches);
  ClockDomain core = ClockDomain::from_mhz("core", 700);
  stats::Group root{"gpu"};
  Run out;
  gpu::CtaScheduler sched("cta_scheduler", cfg, core, root);
  const uint64_t duration[4] = {100, 150, 100, 20};
  FakeSm sm("sm0", 0, core, FakeSmLimits{}, [&](uint32_t k, uint64_t) { return duration[k]; }, out.log);
  sched.add_sm(sm);
  std::vector<sm::KernelInstance> k(4);
  for (uint32_t i = 0; i < 4; ++i) {
    k[i].id = i;
    k[i].name = "k" + std::to_string(i);
    k[i].demand.threads = 64;
    k[i].demand.warps = 2;
  }
  sched.submit(k[0], 1, {0, {}});
  sched.submit(k[1], 1, {1, {}});
  sched.submit(k[2], 1, {0, {}});
  sched.submit(k[3], 1, {0, {}});
  sc_core::sc_start();
  REQUIRE(sched.idle());
  // The constructed timeline (see the top of the file).
  REQUIRE(out.log.size() == 4);
  CHECK(out.log[0].kernel == 0);
  CHECK(out.log[0].cycle == 1);
  CHECK(out.log[1].kernel == 1);
  CHECK(out.log[1].cycle == 2);
  CHECK(out.log[2].kernel == 2);
  CHECK(out.log[2].cycle == 102);
  CHECK(out.log[3].kernel == 3);
  CHECK(out.log[3].cycle == 203);
  out.invalidations = sm.invalidations();
  out.caches = sm.invalidated_caches();
  out.counted = root.find("cta_scheduler.l1_invalidations")->scalar(stats::View::Total);
  return out;
}

}  // namespace

TEST_CASE("cta_scheduler l1_invalidation none never invalidates", "[gpu][cta_scheduler][l1_invalidation]") {
  const Run r = run_case("none");
  CHECK(r.invalidations.empty());
  CHECK(r.counted == 0);
}

TEST_CASE("cta_scheduler l1_invalidation on_idle defers a boundary until the SM has no resident CTA",
          "[gpu][cta_scheduler][l1_invalidation]") {
  // k0 finds the L1s cold (no invalidation); k1 and k2 arrive with CTAs resident
  // (deferred); k3 finds the SM idle and pays the owed invalidation once.
  const Run r = run_case("on_idle");
  CHECK(r.invalidations == std::vector<uint64_t>{203});
  CHECK(r.caches == std::vector<uint8_t>{sm::kL1D});  // GPGPU-Sim: the L1D only
  CHECK(r.counted == 1);
}

TEST_CASE("cta_scheduler l1_invalidation on_new_kernel invalidates at every kernel new to the SM",
          "[gpu][cta_scheduler][l1_invalidation]") {
  const Run r = run_case("on_new_kernel", {"l1t", "l1i", "l1d", "l1c"});
  CHECK(r.invalidations == std::vector<uint64_t>{2, 102, 203});
  CHECK(r.caches == std::vector<uint8_t>(3, sm::kAllL1));
  CHECK(r.counted == 3);
}

TEST_CASE("cta_scheduler l1_invalidation_caches rejects unknown caches and an empty list naming the key",
          "[gpu][cta_scheduler][l1_invalidation]") {
  gpu::CtaSchedulerConfig cfg;
  cfg.l1_invalidation_caches = {"l1d", "l2"};
  CHECK_THROWS_WITH(cfg.validate(), Catch::Contains("cta_scheduler.l1_invalidation_caches[1]"));
  cfg.l1_invalidation_caches = {};
  CHECK_THROWS_WITH(cfg.validate(), Catch::Contains("cta_scheduler.l1_invalidation_caches") &&
                                        Catch::Contains("empty"));
  cfg.l1_invalidation = "none";
  CHECK_NOTHROW(cfg.validate());
  cfg.l1_invalidation = "sometimes";
  CHECK_THROWS_WITH(cfg.validate(), Catch::Contains("cta_scheduler.l1_invalidation'"));
}

TEST_CASE("cta_scheduler l1_invalidation does not invalidate between CTAs of one kernel",
          "[gpu][cta_scheduler][l1_invalidation]") {
  // One CTA slot: every CTA of k0 waits for the previous one, leaving the SM idle for a
  // cycle in between; then k1 follows on the same stream.
  gpu::CtaSchedulerConfig cfg;
  cfg.l1_invalidation = "on_idle";
  ClockDomain core = ClockDomain::from_mhz("core", 700);
  stats::Group root{"gpu"};
  std::vector<FakeLaunch> log;
  gpu::CtaScheduler sched("cta_scheduler", cfg, core, root);
  FakeSmLimits one;
  one.ctas = 1;
  FakeSm sm("sm0", 0, core, one, [](uint32_t, uint64_t) { return 30; }, log);
  sched.add_sm(sm);
  sm::KernelInstance k0, k1;
  k0.id = 0;
  k1.id = 1;
  k0.demand.threads = k1.demand.threads = 32;
  k0.demand.warps = k1.demand.warps = 1;
  sched.submit(k0, 3);
  sched.submit(k1, 2);
  sc_core::sc_start();
  REQUIRE(log.size() == 5);
  CHECK(log[3].kernel == 1);
  CHECK(sm.invalidations() == std::vector<uint64_t>{log[3].cycle});
}
