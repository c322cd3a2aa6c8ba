// CTA scheduler against fake SMs: round robin, one CTA per cycle, occupancy limits,
// replacement the cycle after a completion, kernel queueing by stream, concurrent
// kernels on disjoint and shared SM sets, the last-CTA time and event.
#include <catch2/catch.hpp>

#include <memory>
#include <systemc>
#include <vector>

#include "fake_sm.h"
#include "gpu/cta_scheduler/cta_scheduler.h"

using namespace gputlm;
using gputlm::test::FakeGpu;
using gputlm::test::FakeLaunch;
using gputlm::test::FakeSm;
using gputlm::test::FakeSmLimits;

namespace {

sm::KernelInstance make_kernel(uint32_t id, uint32_t threads, uint32_t regs_per_thread = 16, uint32_t shared = 0) {
  sm::KernelInstance k;
  k.id = id;
  k.name = "k" + std::to_string(id);
  k.registers_per_thread = regs_per_thread;
  k.demand.threads = threads;
  k.demand.warps = (threads + 31) / 32;
  k.demand.registers = regs_per_thread * threads;
  k.demand.shared_bytes = shared;
  return k;
}

// Peak CTAs resident on one SM for a kernel of `k`'s demand, with plenty of CTAs.
uint32_t occupancy(sm::KernelInstance k, FakeSmLimits limits) {
  FakeGpu b(1, limits, [](uint32_t, uint64_t) { return 100; });
  b.sched->submit(k, 64);
  b.run();
  REQUIRE(b.sched->completed(k.id));
  return b.sms[0]->peak();
}

}  // namespace

TEST_CASE("cta_scheduler assigns one CTA per cycle round robin over SMs", "[gpu][cta_scheduler]") {
  FakeGpu b(4, FakeSmLimits{}, [](uint32_t, uint64_t) { return 1000; });
  sm::KernelInstance k = make_kernel(0, 256);
  b.sched->submit(k, 10);
  b.run();
  REQUIRE(b.log.size() == 10);
  for (uint64_t i = 0; i < 10; ++i) {
    CHECK(b.log[i].cta == i);
    CHECK(b.log[i].sm == i % 4);
    CHECK(b.log[i].cycle == 1 + i);  // submitted at time 0: first decision at cycle 1
  }
  const auto& r = b.sched->record(0);
  CHECK(r.first_cta_cycle == 1);
  CHECK(r.last_cta_issue_cycle == 10);
  CHECK(r.end_cycle == 10 + 1000);
  CHECK(r.cycles() == 1009);
  CHECK(b.root.find("cta_scheduler.ctas_issued")->scalar(stats::View::Total) == 10);
}

TEST_CASE("cta_scheduler with ctas_per_cycle = SM count fills every SM in one cycle (GPGPU-Sim per-cluster issue)",
          "[gpu][cta_scheduler]") {
  gpu::CtaSchedulerConfig cfg;
  cfg.ctas_per_cycle = 3;
  FakeGpu b(3, FakeSmLimits{}, [](uint32_t, uint64_t) { return 50; }, cfg);
  sm::KernelInstance k = make_kernel(0, 128);
  b.sched->submit(k, 7);
  b.run();
  REQUIRE(b.log.size() == 7);
  for (uint64_t i = 0; i < 7; ++i) {
    CHECK(b.log[i].sm == i % 3);
    CHECK(b.log[i].cycle == 1 + i / 3);
  }
}

TEST_CASE("cta_scheduler delays a kernel's first CTA by the kernel and per-CTA launch latencies (GPGPU-Sim)",
          "[gpu][cta_scheduler]") {
  // GPGPU-Sim: a kernel's CTAs wait kernel_launch_latency + num_blocks x TB_launch_latency
  // cycles after it starts running. Two kernels on one stream: each pays from its admission.
  gpu::CtaSchedulerConfig cfg;
  cfg.kernel_launch_latency = 5;
  cfg.cta_launch_latency = 2;
  FakeGpu b(4, FakeSmLimits{}, [](uint32_t, uint64_t) { return 100; }, cfg);
  sm::KernelInstance k0 = make_kernel(0, 256), k1 = make_kernel(1, 256);
  b.sched->submit(k0, 10);
  b.sched->submit(k1, 3);
  b.run();
  REQUIRE(b.log.size() == 13);
  const auto& r0 = b.sched->record(0);
  const auto& r1 = b.sched->record(1);
  CHECK(r0.admit_cycle == 1);
  CHECK(r0.first_cta_cycle == 1 + 5 + 10 * 2);
  for (uint64_t i = 0; i < 10; ++i) CHECK(b.log[i].cycle == 26 + i);  // then one per cycle
  CHECK(r1.admit_cycle == r0.end_cycle + 1);
  CHECK(r1.first_cta_cycle == r1.admit_cycle + 5 + 3 * 2);
}

TEST_CASE("cta_scheduler occupancy limited by CTA slots", "[gpu][cta_scheduler]") {
  CHECK(occupancy(make_kernel(0, 32, 8), FakeSmLimits{}) == 8);
}
TEST_CASE("cta_scheduler occupancy limited by threads", "[gpu][cta_scheduler]") {
  CHECK(occupancy(make_kernel(0, 512, 8), FakeSmLimits{}) == 3);  // 1536 / 512
}
TEST_CASE("cta_scheduler occupancy limited by warps", "[gpu][cta_scheduler]") {
  FakeSmLimits l;
  l.threads = 4096;
  CHECK(occupancy(make_kernel(0, 320, 8), l) == 4);  // 10 warps per CTA, 48 warps
}
TEST_CASE("cta_scheduler occupancy limited by registers", "[gpu][cta_scheduler]") {
  CHECK(occupancy(make_kernel(0, 256, 40), FakeSmLimits{}) == 3);  // 10240 regs per CTA, 32768
}
TEST_CASE("cta_scheduler occupancy limited by shared memory", "[gpu][cta_scheduler]") {
  CHECK(occupancy(make_kernel(0, 64, 8, 20 * 1024), FakeSmLimits{}) == 2);  // 20 KB per CTA, 48 KB
}

TEST_CASE("cta_scheduler assigns a replacement CTA the cycle after a completion", "[gpu][cta_scheduler]") {
  FakeSmLimits l;
  l.ctas = 1;
  FakeGpu b(1, l, [](uint32_t, uint64_t) { return 10; });
  sm::KernelInstance k = make_kernel(0, 64);
  b.sched->submit(k, 3);
  b.run();
  REQUIRE(b.log.size() == 3);
  CHECK(b.log[0].cycle == 1);   // finishes at 11
  CHECK(b.log[1].cycle == 12);  // finishes at 22
  CHECK(b.log[2].cycle == 23);  // finishes at 33
  const auto& r = b.sched->record(0);
  CHECK(r.end_cycle == 33);
  REQUIRE(r.ctas.size() == 3);
  CHECK(r.ctas[1].start_cycle == 12);
  CHECK(r.ctas[1].finish_cycle == 22);
}

TEST_CASE("cta_scheduler serialises launches of one stream", "[gpu][cta_scheduler]") {
  FakeGpu b(2, FakeSmLimits{}, [](uint32_t, uint64_t) { return 20; });
  sm::KernelInstance a = make_kernel(0, 64), c = make_kernel(1, 64);
  b.sched->submit(a, 4);
  b.sched->submit(c, 2);
  b.run();
  const auto& ra = b.sched->record(0);
  const auto& rc = b.sched->record(1);
  CHECK(ra.end_cycle == 4 + 20);  // CTA 3 launched at cycle 4
  CHECK(rc.admit_cycle == ra.end_cycle + 1);
  CHECK(rc.first_cta_cycle == ra.end_cycle + 1);
  for (const auto& l : b.launches_of(1)) CHECK(l.cycle > ra.end_cycle);
}

TEST_CASE("cta_scheduler runs concurrent kernels on disjoint SM sets", "[gpu][cta_scheduler]") {
  FakeGpu b(4, FakeSmLimits{}, [](uint32_t k, uint64_t) { return k == 0 ? 40 : 25; });
  sm::KernelInstance a = make_kernel(0, 128), c = make_kernel(1, 128);
  b.sched->submit(a, 12, {0, {0, 1}});
  b.sched->submit(c, 12, {1, {2, 3}});
  b.run();
  auto la = b.launches_of(0), lc = b.launches_of(1);
  REQUIRE(la.size() == 12);
  REQUIRE(lc.size() == 12);
  for (const auto& l : la) CHECK((l.sm == 0 || l.sm == 1));
  for (const auto& l : lc) CHECK((l.sm == 2 || l.sm == 3));
  const auto& ra = b.sched->record(0);
  const auto& rc = b.sched->record(1);
  CHECK(ra.admit_cycle == 1);
  CHECK(rc.admit_cycle == 1);
  // Both kernels run at the same time, and one CTA per cycle is issued GPU-wide.
  CHECK(rc.first_cta_cycle < ra.end_cycle);
  CHECK(ra.first_cta_cycle < rc.end_cycle);
  for (std::size_t i = 1; i < b.log.size(); ++i) CHECK(b.log[i].cycle > b.log[i - 1].cycle);
}

TEST_CASE("cta_scheduler shares SMs between concurrent kernels, oldest kernel first", "[gpu][cta_scheduler]") {
  FakeSmLimits l;
  l.ctas = 2;
  FakeGpu b(2, l, [](uint32_t, uint64_t) { return 30; });
  sm::KernelInstance a = make_kernel(0, 64), c = make_kernel(1, 64);
  b.sched->submit(a, 3, {0, {}});
  b.sched->submit(c, 3, {1, {}});
  b.run();
  // Cycles 1-3: kernel 0's three CTAs; cycle 4: kernel 1 takes the last free slot.
  REQUIRE(b.log.size() == 6);
  for (int i = 0; i < 3; ++i) CHECK(b.log[static_cast<std::size_t>(i)].kernel == 0);
  CHECK(b.log[3].kernel == 1);
  CHECK(b.log[3].cycle == 4);
  CHECK(b.log[3].sm == 1);
}

TEST_CASE("cta_scheduler reports the last CTA issued, its execution time and the event", "[gpu][cta_scheduler]") {
  struct Probe : sc_core::sc_module {
    const sc_core::sc_event& ev;
    std::vector<sc_core::sc_time> seen;
    Probe(sc_core::sc_module_name n, const sc_core::sc_event& e) : sc_core::sc_module(n), ev(e) {
      SC_HAS_PROCESS(Probe);
      SC_METHOD(on_event);
      sensitive << ev;
      dont_initialize();
    }
    void on_event() { seen.push_back(sc_core::sc_time_stamp()); }
  };
  // CTA i runs 100 + 10*i cycles; 2 SMs with one slot each.
  FakeSmLimits l;
  l.ctas = 1;
  FakeGpu b(2, l, [](uint32_t, uint64_t cta) { return 100 + 10 * cta; });
  Probe probe("probe", b.sched->last_cta_issued_event());
  struct Listener : gpu::CtaSchedulerListener {
    std::vector<uint64_t> last_issued, completed;
    void last_cta_issued(const gpu::KernelRecord& r) override { last_issued.push_back(r.last_cta_issue_cycle); }
    void kernel_completed(const gpu::KernelRecord& r) override { completed.push_back(r.end_cycle); }
  } listener;
  b.sched->add_listener(listener);
  sm::KernelInstance k = make_kernel(0, 64);
  b.sched->submit(k, 4);
  b.run();
  // CTA0 sm0 @1..101, CTA1 sm1 @2..112, CTA2 sm0 @102..222, CTA3 sm1 @113..243.
  const auto& r = b.sched->record(0);
  CHECK(r.last_cta_id == 3);
  CHECK(r.last_cta_sm == 1);
  CHECK(r.last_cta_issue_cycle == 113);
  CHECK(r.last_cta_start == 113);
  CHECK(r.last_cta_finish == 243);
  CHECK(r.last_cta_time() == 130);
  CHECK(r.end_cycle == 243);
  REQUIRE(listener.last_issued == std::vector<uint64_t>{113});
  REQUIRE(listener.completed == std::vector<uint64_t>{243});
  REQUIRE(probe.seen.size() == 1);
  CHECK(b.core.cycle_at(probe.seen[0]) == 113);
  CHECK(b.root.find("cta_scheduler.last_cta_time")->scalar(stats::View::Total) == 130);
}

TEST_CASE("cta_scheduler sleeps while every SM is full", "[gpu][cta_scheduler]") {
  FakeSmLimits l;
  l.ctas = 1;
  FakeGpu b(1, l, [](uint32_t, uint64_t) { return 10000; });
  sm::KernelInstance k = make_kernel(0, 64);
  b.sched->submit(k, 2);
  b.run();
  CHECK(b.sched->record(0).end_cycle == 1 + 10000 + 1 + 10000);
  CHECK(b.sched->activations() < 10);
}

TEST_CASE("cta_scheduler rejects a bad SM set and a duplicate kernel id", "[gpu][cta_scheduler]") {
  FakeGpu b(2, FakeSmLimits{}, [](uint32_t, uint64_t) { return 1; });
  sm::KernelInstance k = make_kernel(0, 64);
  CHECK_THROWS_WITH(b.sched->submit(k, 1, {0, {5}}), Catch::Contains("SM set names SM 5"));
  b.sched->submit(k, 1);
  CHECK_THROWS_WITH(b.sched->submit(k, 1), Catch::Contains("kernel id already used"));
  CHECK_THROWS_WITH(gpu::make_steering_policy("nope"), Catch::Contains("unknown steering policy 'nope'"));
}
