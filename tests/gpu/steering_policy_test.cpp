// Steering policies on constructed cases (exact SM sets), their parameter checks, and
// the CTA scheduler admitting kernels with them against fake SMs.
#include <catch2/catch.hpp>

#include <memory>
#include <systemc>
#include <vector>

#include "core/config/config_source.h"
#include "fake_sm.h"
#include "gpu/cta_scheduler/cta_scheduler.h"
#include "gpu/dispatch/kind_steering.h"
#include "gpu/dispatch/split_steering.h"

using namespace gputlm;
using gputlm::test::FakeGpu;
using gputlm::test::FakeLaunch;
using gputlm::test::FakeSm;
using gputlm::test::FakeSmLimits;
using Set = std::vector<uint32_t>;

namespace {

sm::KernelInstance named_kernel(uint32_t id, const std::string& name, uint32_t threads = 128) {
  sm::KernelInstance k;
  k.id = id;
  k.name = name;
  k.demand.threads = threads;
  k.demand.warps = (threads + 31) / 32;
  return k;
}

gpu::SteeringContext context(uint32_t sms, std::vector<Set> running = {}, std::vector<std::string> kinds = {}) {
  gpu::SteeringContext c;
  c.sm_count = sms;
  c.sm_kinds = kinds.empty() ? std::vector<std::string>(sms, "sm") : kinds;
  c.running_sets = std::move(running);
  return c;
}

std::unique_ptr<gpu::SteeringPolicyIF> split(uint32_t parts, const std::string& when_full) {
  gpu::SteeringConfig c;
  c.split.parts = parts;
  c.split.when_full = when_full;
  return gpu::make_steering_policy("split", c);
}

std::unique_ptr<gpu::SteeringPolicyIF> by_kind(const std::string& default_kind, std::vector<std::string> rules) {
  gpu::SteeringConfig c;
  c.by_kind.default_kind = default_kind;
  c.by_kind.kernels = std::move(rules);
  return gpu::make_steering_policy("by_kind", c);
}

}  // namespace

TEST_CASE("steering_policy split gives concurrent kernels disjoint fixed groups", "[gpu][steering]") {
  auto p = split(3, "wait");
  const sm::KernelInstance k = named_kernel(0, "k");
  CHECK(p->name() == "split");
  // 8 SMs in 3 groups: [0, 2), [2, 5), [5, 8).
  CHECK(p->choose(k, 10, context(8)) == Set{0, 1});
  CHECK(p->choose(k, 10, context(8, {{0, 1}})) == Set{2, 3, 4});
  CHECK(p->choose(k, 10, context(8, {{2, 3, 4}})) == Set{0, 1});
  CHECK(p->choose(k, 10, context(8, {{0, 1}, {2, 3, 4}})) == Set{5, 6, 7});
  // An explicit set straddling groups 1 and 2 makes both busy.
  CHECK(p->choose(k, 10, context(8, {{4, 5}})) == Set{0, 1});
  CHECK(p->choose(k, 10, context(8, {{4, 5}, {0}})).empty());
  // Every group in use: wait.
  CHECK(p->choose(k, 10, context(8, {{0, 1}, {2, 3, 4}, {5, 6, 7}})).empty());
}

TEST_CASE("steering_policy split with when_full = share picks the least used group", "[gpu][steering]") {
  auto p = split(2, "share");
  const sm::KernelInstance k = named_kernel(0, "k");
  // 5 SMs in 2 groups: [0, 2), [2, 5).
  CHECK(p->choose(k, 1, context(5)) == Set{0, 1});
  CHECK(p->choose(k, 1, context(5, {{0, 1}})) == Set{2, 3, 4});
  CHECK(p->choose(k, 1, context(5, {{0, 1}, {2, 3, 4}})) == Set{0, 1});  // tie: lowest group
  CHECK(p->choose(k, 1, context(5, {{0, 1}, {2, 3, 4}, {1}})) == Set{2, 3, 4});
  CHECK(p->choose(k, 1, context(5, {{0, 1, 2, 3, 4}})) == Set{0, 1});  // one kernel on all: tie
}

TEST_CASE("steering_policy split rejects impossible parameters naming the key", "[gpu][steering]") {
  CHECK_THROWS_AS(split(9, "wait")->check(context(8)), config::ConfigError);
  CHECK_THROWS_WITH(split(9, "wait")->check(context(8)),
                    Catch::Contains("cta_scheduler.split.parts") && Catch::Contains("the GPU has 8"));
  CHECK_NOTHROW(split(8, "wait")->check(context(8)));
  CHECK_THROWS_WITH(split(0, "wait"), Catch::Contains("cta_scheduler.split.parts"));
  CHECK_THROWS_WITH(split(2, "queue"), Catch::Contains("cta_scheduler.split.when_full"));
  CHECK_THROWS_WITH(gpu::make_steering_policy("spread", gpu::SteeringConfig{}),
                    Catch::Contains("cta_scheduler.steering") && Catch::Contains("all, by_kind, ilp_tlp, split"));
}

TEST_CASE("steering_policy by_kind selects the SMs of the kind a kernel rule names", "[gpu][steering]") {
  auto p = by_kind("tlp", {"saxpy=ilp", "_Z6vecaddiPKfS0_Pf=tlp", "scale=gpu"});
  const std::vector<std::string> kinds = {"tlp", "tlp", "ilp", "ilp", "tlp", "gpu"};
  CHECK(p->name() == "by_kind");
  CHECK_NOTHROW(p->check(context(6, {}, kinds)));
  // Demangled name without its parameter list, exact mangled name, default kind.
  CHECK(p->choose(named_kernel(0, "_Z5saxpyifPfS_"), 4, context(6, {}, kinds)) == Set{2, 3});
  CHECK(p->choose(named_kernel(1, "_Z6vecaddiPKfS0_Pf"), 4, context(6, {}, kinds)) == Set{0, 1, 4});
  CHECK(p->choose(named_kernel(2, "scale"), 4, context(6, {}, kinds)) == Set{5});
  CHECK(p->choose(named_kernel(3, "_Z7reduce1PKfPfi"), 4, context(6, {{0, 1, 4}}, kinds)) == Set{0, 1, 4});
}

TEST_CASE("steering_policy by_kind rejects malformed rules and kinds no SM has", "[gpu][steering]") {
  const std::vector<std::string> kinds = {"tlp", "ilp"};
  CHECK_THROWS_WITH(by_kind("tlp", {"saxpy=ilp", "vecadd"}), Catch::Contains("cta_scheduler.by_kind.kernels[1]"));
  CHECK_THROWS_WITH(by_kind("tlp", {"=ilp"}), Catch::Contains("cta_scheduler.by_kind.kernels[0]"));
  CHECK_THROWS_WITH(by_kind("tlp", {"a=b=c"}), Catch::Contains("cta_scheduler.by_kind.kernels[0]"));
  CHECK_THROWS_WITH(by_kind("tlp", {"saxpy=ilp", "saxpy=tlp"}),
                    Catch::Contains("cta_scheduler.by_kind.kernels[1]") && Catch::Contains("kernels[0]"));
  CHECK_THROWS_WITH(by_kind("", {}), Catch::Contains("cta_scheduler.by_kind.default_kind"));
  CHECK_THROWS_WITH(by_kind("sm", {})->check(context(2, {}, kinds)),
                    Catch::Contains("cta_scheduler.by_kind.default_kind") && Catch::Contains("ilp, tlp"));
  CHECK_THROWS_WITH(by_kind("tlp", {"saxpy=ilp", "k=fast"})->check(context(2, {}, kinds)),
                    Catch::Contains("cta_scheduler.by_kind.kernels[1]") && Catch::Contains("'fast'"));
}

TEST_CASE("cta_scheduler with steering split runs concurrent kernels on disjoint groups, a third waits for a group",
          "[gpu][cta_scheduler][steering]") {
  gpu::CtaSchedulerConfig cfg;
  cfg.steering = "split";
  cfg.split.parts = 2;
  FakeGpu b(4, FakeSmLimits{}, [](uint32_t k, uint64_t) { return k == 0 ? 100 : k == 1 ? 300 : 50; }, cfg);
  sm::KernelInstance k0 = named_kernel(0, "k0"), k1 = named_kernel(1, "k1"), k2 = named_kernel(2, "k2");
  b.sched->submit(k0, 4, {0, {}});
  b.sched->submit(k1, 4, {1, {}});
  b.sched->submit(k2, 2, {2, {}});
  sc_core::sc_start();
  const auto& r0 = b.sched->record(0);
  const auto& r1 = b.sched->record(1);
  const auto& r2 = b.sched->record(2);
  CHECK(r0.sm_set == Set{0, 1});
  CHECK(r1.sm_set == Set{2, 3});
  CHECK(b.sms_of(0) == Set{0, 1});
  CHECK(b.sms_of(1) == Set{2, 3});
  CHECK(r0.admit_cycle == 1);
  CHECK(r1.admit_cycle == 1);
  CHECK(r1.first_cta_cycle < r0.end_cycle);  // concurrent
  // Kernel 2 (its own stream) waits until kernel 0 frees group 0, then gets it: the cycle
  // after kernel 0's last CTA finished, when its completion is retired.
  CHECK(r2.admit_cycle == r0.end_cycle + 1);
  CHECK(r2.sm_set == Set{0, 1});
  CHECK(b.sms_of(2) == Set{0, 1});
  CHECK(r2.first_cta_cycle < r1.end_cycle);
  CHECK(b.stat("cta_scheduler.steering_waits") == 1);
  CHECK(b.sched->idle());
}

TEST_CASE("cta_scheduler with steering split and when_full = share admits a third kernel at once",
          "[gpu][cta_scheduler][steering]") {
  gpu::CtaSchedulerConfig cfg;
  cfg.steering = "split";
  cfg.split.parts = 2;
  cfg.split.when_full = "share";
  FakeGpu b(4, FakeSmLimits{}, [](uint32_t, uint64_t) { return 100; }, cfg);
  sm::KernelInstance k0 = named_kernel(0, "k0"), k1 = named_kernel(1, "k1"), k2 = named_kernel(2, "k2");
  b.sched->submit(k0, 4, {0, {}});
  b.sched->submit(k1, 4, {1, {}});
  b.sched->submit(k2, 2, {2, {}});
  sc_core::sc_start();
  CHECK(b.sched->record(2).admit_cycle == 1);
  CHECK(b.sched->record(2).sm_set == Set{0, 1});
  CHECK(b.stat("cta_scheduler.steering_waits") == 0);
}

TEST_CASE("cta_scheduler with steering by_kind places kernels on their kind's SMs", "[gpu][cta_scheduler][steering]") {
  gpu::CtaSchedulerConfig cfg;
  cfg.steering = "by_kind";
  cfg.by_kind.default_kind = "tlp";
  cfg.by_kind.kernels = {"ilp_kernel=ilp"};
  FakeGpu b(5, FakeSmLimits{}, [](uint32_t, uint64_t) { return 80; }, cfg, {"tlp", "ilp", "tlp", "ilp", "tlp"});
  sm::KernelInstance k0 = named_kernel(0, "ilp_kernel"), k1 = named_kernel(1, "other");
  b.sched->submit(k0, 6, {0, {}});
  b.sched->submit(k1, 6, {1, {}});
  sc_core::sc_start();
  CHECK(b.sms_of(0) == Set{1, 3});
  CHECK(b.sms_of(1) == Set{0, 2, 4});
  CHECK(b.sched->record(1).first_cta_cycle < b.sched->record(0).end_cycle);
}

TEST_CASE("cta_scheduler checks the steering parameters against its SMs at the first launch",
          "[gpu][cta_scheduler][steering]") {
  gpu::CtaSchedulerConfig cfg;
  cfg.steering = "by_kind";
  cfg.by_kind.default_kind = "ilp";
  FakeGpu b(2, FakeSmLimits{}, [](uint32_t, uint64_t) { return 10; }, cfg);
  sm::KernelInstance k0 = named_kernel(0, "k0");
  CHECK_THROWS_WITH(b.sched->submit(k0, 1), Catch::Contains("cta_scheduler.by_kind.default_kind"));
}

namespace {
std::unique_ptr<gpu::SteeringPolicyIF> ilp_tlp(const std::string& when_busy = "wait",
                                                const std::string& when_alone = "kind") {
  gpu::SteeringConfig c;
  c.ilp_tlp.when_busy = when_busy;
  c.ilp_tlp.when_alone = when_alone;
  return gpu::make_steering_policy("ilp_tlp", c);
}
// GPU-H in miniature: SMs 0-2 TLP, 3-4 ILP; `fit` CTAs of the kernel fit on each SM.
gpu::SteeringContext gpu_h(uint32_t fit, std::vector<Set> running = {}) {
  gpu::SteeringContext c = context(5, std::move(running), {"tlp", "tlp", "tlp", "ilp", "ilp"});
  c.max_resident_ctas.assign(5, fit);
  return c;
}
}  // namespace

TEST_CASE("steering_policy ilp_tlp applies the GPU-H rule: few warps per SM or few threads go to the ILP SMs",
          "[gpu][steering]") {
  auto p = ilp_tlp();
  CHECK(p->name() == "ilp_tlp");
  CHECK_NOTHROW(p->check(gpu_h(1)));
  const sm::KernelInstance k256 = named_kernel(0, "k", 256);  // 8 warps per CTA
  // Rule 1: 1 CTA per SM = 8 warps < 16 -> ILP, however many threads.
  CHECK(p->choose(k256, 1000, gpu_h(1)) == Set{3, 4});
  // 2 CTAs per SM = 16 warps, not < 16; rule 2: 128 x 256 = 32768 threads <= 32768 -> ILP.
  CHECK(p->choose(k256, 128, gpu_h(2)) == Set{3, 4});
  // 16 warps and 129 x 256 = 33024 threads -> TLP.
  CHECK(p->choose(k256, 129, gpu_h(2)) == Set{0, 1, 2});
  // Occupancy is read on the TLP SMs (SM 0), not on the ILP ones.
  gpu::SteeringContext mixed = gpu_h(6);
  mixed.max_resident_ctas[3] = mixed.max_resident_ctas[4] = 1;
  CHECK(p->choose(k256, 1000, mixed) == Set{0, 1, 2});
}

TEST_CASE("steering_policy ilp_tlp keeps concurrent kernels on disjoint sets (wait) or shares (share)",
          "[gpu][steering]") {
  const sm::KernelInstance k = named_kernel(0, "k", 256);
  CHECK(ilp_tlp("wait")->choose(k, 1000, gpu_h(1, {{3, 4}})).empty());
  CHECK(ilp_tlp("wait")->choose(k, 1000, gpu_h(1, {{0, 1, 2}})) == Set{3, 4});
  CHECK(ilp_tlp("share")->choose(k, 1000, gpu_h(1, {{3, 4}})) == Set{3, 4});
}

TEST_CASE("steering_policy ilp_tlp when_alone spill gives a kernel alone every SM only when its kind is too small",
          "[gpu][steering]") {
  const sm::KernelInstance k = named_kernel(0, "k", 1024);  // 32 warps per CTA: rule 1 never applies
  auto spill = ilp_tlp("wait", "spill");
  // 200 CTAs of 1024 threads: TLP; its 3 SMs hold 3 x 2 = 6 at once -> alone it takes all 5.
  CHECK(spill->choose(k, 200, gpu_h(2)) == Set{0, 1, 2, 3, 4});
  CHECK(ilp_tlp("wait", "kind")->choose(k, 200, gpu_h(2)) == Set{0, 1, 2});
  // 6 CTAs = 6144 threads: ILP, whose 2 SMs hold 2 x 2 = 4 at once < 6 -> all 5.
  CHECK(spill->choose(k, 6, gpu_h(2)) == Set{0, 1, 2, 3, 4});
  // Spilled, it prefers its kind's SMs.
  CHECK(spill->preferred(k, 200, gpu_h(2)) == Set{0, 1, 2});
  CHECK(spill->preferred(k, 6, gpu_h(2)) == Set{3, 4});
  // 4 CTAs: ILP (4096 threads), and its 2 SMs hold all 4 at once: it keeps to its kind.
  CHECK(spill->choose(k, 4, gpu_h(2)) == Set{3, 4});
  CHECK(spill->preferred(k, 4, gpu_h(2)).empty());
  CHECK(ilp_tlp("wait", "kind")->preferred(k, 200, gpu_h(2)).empty());
  // Not alone: another kernel runs (on any SMs) or one of another stream waits to be placed.
  CHECK(spill->choose(k, 200, gpu_h(2, {{3}})) == Set{0, 1, 2});
  gpu::SteeringContext waiting = gpu_h(2);
  waiting.waiting_kernels = 1;
  CHECK(spill->choose(k, 200, waiting) == Set{0, 1, 2});
}

namespace {
// 5 SMs, TLP at 0, 2, 4; "big" kernels: 256-thread CTAs, 6 fit per SM (48 warps), 200 CTAs =
// 51200 threads -> TLP, whose SMs hold 18 at once < 200.
gpu::CtaSchedulerConfig spill_config() {
  gpu::CtaSchedulerConfig cfg;
  cfg.steering = "ilp_tlp";
  cfg.ilp_tlp.when_alone = "spill";
  return cfg;
}
const std::vector<std::string> kSpillKinds = {"tlp", "ilp", "tlp", "ilp", "tlp"};
}  // namespace

TEST_CASE("cta_scheduler with ilp_tlp when_alone spill: a big kernel alone fills both kinds",
          "[gpu][cta_scheduler][steering]") {
  FakeGpu b(5, FakeSmLimits{}, [](uint32_t, uint64_t) { return 60; }, spill_config(), kSpillKinds);
  sm::KernelInstance k0 = named_kernel(0, "big", 256), k1 = named_kernel(1, "big2", 256);
  b.sched->submit(k0, 200, {0, {}});
  b.sched->submit(k1, 200, {0, {}});  // its own stream's next launch is not another kernel waiting
  sc_core::sc_start();
  CHECK(b.sms_of(0) == Set{0, 1, 2, 3, 4});
  CHECK(b.sms_of(1) == Set{0, 1, 2, 3, 4});
  // Its kind's SMs first: the first 18 CTAs (3 TLP SMs x 6) all go to SMs 0, 2, 4.
  REQUIRE(b.log.size() >= 19);
  for (std::size_t i = 0; i < 18; ++i) {
    INFO("launch " << i << " on sm" << b.log[i].sm);
    CHECK(b.log[i].sm % 2 == 0);
  }
  CHECK(b.log[18].sm % 2 == 1);
}

TEST_CASE("cta_scheduler with ilp_tlp when_alone spill: an ILP kernel too big for its kind fills the ILP SMs first",
          "[gpu][cta_scheduler][steering]") {
  FakeGpu b(5, FakeSmLimits{}, [](uint32_t, uint64_t) { return 60; }, spill_config(), kSpillKinds);
  // 1024-thread CTAs: one per SM (32 warps, but 6 x 1024 = 6144 threads <= 32768 -> ILP);
  // the 2 ILP SMs hold 2 < 6.
  sm::KernelInstance k0 = named_kernel(0, "small", 1024);
  b.sched->submit(k0, 6, {0, {}});
  sc_core::sc_start();
  CHECK(b.sms_of(0) == Set{0, 1, 2, 3, 4});
  REQUIRE(b.log.size() == 6);
  CHECK(b.log[0].sm % 2 == 1);
  CHECK(b.log[1].sm % 2 == 1);
  for (std::size_t i = 2; i < 5; ++i) CHECK(b.log[i].sm % 2 == 0);
  // The sixth waits for a free SM: the first to free, an ILP one, takes it (all CTAs last
  // 60 cycles, and the ILP SMs got theirs first).
  CHECK(b.log[5].sm % 2 == 1);
}

TEST_CASE("cta_scheduler with ilp_tlp when_alone spill: a kernel of another stream waiting keeps both to their kinds",
          "[gpu][cta_scheduler][steering]") {
  FakeGpu b(5, FakeSmLimits{}, [](uint32_t, uint64_t) { return 60; }, spill_config(), kSpillKinds);
  sm::KernelInstance k0 = named_kernel(0, "big", 256), k1 = named_kernel(1, "small", 1024);
  b.sched->submit(k0, 200, {0, {}});
  b.sched->submit(k1, 8, {1, {}});
  sc_core::sc_start();
  CHECK(b.sms_of(0) == Set{0, 2, 4});
  CHECK(b.sms_of(1) == Set{1, 3});
  CHECK(b.sched->record(1).first_cta_cycle < b.sched->record(0).end_cycle);
}

TEST_CASE("steering_policy ilp_tlp rejects missing kinds and bad parameters naming the key", "[gpu][steering]") {
  CHECK_THROWS_WITH(ilp_tlp()->check(context(4)), Catch::Contains("cta_scheduler.ilp_tlp.ilp_kind"));
  CHECK_THROWS_WITH(ilp_tlp()->check(context(2, {}, {"ilp", "big"})), Catch::Contains("cta_scheduler.ilp_tlp.tlp_kind"));
  CHECK_THROWS_WITH(ilp_tlp("queue"), Catch::Contains("cta_scheduler.ilp_tlp.when_busy"));
  CHECK_THROWS_WITH(ilp_tlp("wait", "all"), Catch::Contains("cta_scheduler.ilp_tlp.when_alone"));
  gpu::SteeringConfig c;
  c.ilp_tlp.tlp_kind = "ilp";
  CHECK_THROWS_WITH(gpu::make_steering_policy("ilp_tlp", c), Catch::Contains("cta_scheduler.ilp_tlp.tlp_kind"));
}

TEST_CASE("cta_scheduler with steering ilp_tlp runs a low-TLP and a high-TLP kernel on disjoint kinds",
          "[gpu][cta_scheduler][steering]") {
  gpu::CtaSchedulerConfig cfg;
  cfg.steering = "ilp_tlp";
  FakeGpu b(5, FakeSmLimits{}, [](uint32_t, uint64_t) { return 60; }, cfg, {"tlp", "ilp", "tlp", "ilp", "tlp"});
  // k0: 1024-thread CTAs, 1 fits per SM (32 warps) but 8 CTAs = 8192 threads -> ILP.
  // k1: 256-thread CTAs, 6 fit (48 warps), 200 CTAs = 51200 threads -> TLP.
  // k2: like k0 on a third stream: the ILP SMs are busy, it waits for k0.
  sm::KernelInstance k0 = named_kernel(0, "small", 1024), k1 = named_kernel(1, "big", 256),
                     k2 = named_kernel(2, "small2", 1024);
  b.sched->submit(k0, 8, {0, {}});
  b.sched->submit(k1, 200, {1, {}});
  b.sched->submit(k2, 2, {2, {}});
  sc_core::sc_start();
  CHECK(b.sms_of(0) == Set{1, 3});
  CHECK(b.sms_of(1) == Set{0, 2, 4});
  CHECK(b.sms_of(2) == Set{1, 3});
  CHECK(b.sched->record(1).first_cta_cycle < b.sched->record(0).end_cycle);
  CHECK(b.sched->record(2).admit_cycle == b.sched->record(0).end_cycle + 1);  // completion retired the cycle after
  CHECK(b.stat("cta_scheduler.steering_waits") == 1);
}
