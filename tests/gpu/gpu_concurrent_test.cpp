// Concurrent kernels on the real GPU top: two vecadd launches on different streams and
// disjoint SM sets run at the same time, each CTA only on its kernel's SMs, with correct
// results; a third launch on stream 0 waits for the first.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "gpu/timing_backend.h"
#include "platforms/gpu_platform.h"
#include "runtime/runtime.h"
#include "vecadd_launch.h"

using namespace gputlm;

namespace {
struct SmLog : gpu::CtaSchedulerListener {
  std::vector<std::pair<uint32_t, uint32_t>> launches;  // (kernel, sm)
  void cta_launched(const gpu::KernelRecord& r, uint32_t sm, uint64_t) override {
    launches.emplace_back(r.kernel->id, sm);
  }
};
}  // namespace

TEST_CASE("gpu_top runs concurrent kernels on disjoint SM sets with correct results", "[gpu]") {
  const gpu::GpuConfig cfg =
      platforms::read_gpu_config(config::ConfigSource::from_file("configs/fermi_gtx480.json"));
  auto backend = std::make_unique<gpu::TimingBackend>(cfg);
  gpu::TimingBackend& timing = *backend;
  runtime::Runtime rt(std::move(backend));
  const auto m = rt.load_module("workloads/vecadd/vecadd.ptx");
  const int n = 8192;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[static_cast<std::size_t>(i)] = static_cast<float>(i);
    b[static_cast<std::size_t>(i)] = 0.5f * static_cast<float>(i);
  }
  const auto da = rt.malloc(n * 4), db = rt.malloc(n * 4);
  rt.memcpy_to_device(da, a.data(), n * 4);
  rt.memcpy_to_device(db, b.data(), n * 4);
  std::vector<runtime::DevicePtr> out;
  for (int k = 0; k < 3; ++k) out.push_back(rt.malloc(n * 4));

  SmLog log;
  gpu::Gpu& g = timing.gpu();
  g.cta_scheduler().add_listener(log);
  const isa::LoadedModule& lm = rt.module(m);
  auto params = [&](runtime::DevicePtr c) {
    const isa::LaunchParams p = gpu_test::vecadd_launch(lm, {16, 1, 1}, {128, 1, 1}, n, da.addr, db.addr, c.addr);
    return p;
  };
  gpu::Gpu::LaunchOptions o0, o1, o2;
  o0.dispatch = {0, {0, 1, 2, 3}};
  o1.dispatch = {1, {8, 9, 10}};
  o2.dispatch = {0, {}};
  const uint32_t k0 = g.launch(lm, params(out[0]), o0);
  const uint32_t k1 = g.launch(lm, params(out[1]), o1);
  const uint32_t k2 = g.launch(lm, params(out[2]), o2);
  g.run();

  for (const auto& [kernel, sm] : log.launches) {
    if (kernel == k0) CHECK(sm <= 3);
    if (kernel == k1) CHECK((sm >= 8 && sm <= 10));
  }
  const gpu::KernelRecord& r0 = g.cta_scheduler().record(k0);
  const gpu::KernelRecord& r1 = g.cta_scheduler().record(k1);
  const gpu::KernelRecord& r2 = g.cta_scheduler().record(k2);
  CHECK(r1.first_cta_cycle < r0.end_cycle);  // overlapping in time
  CHECK(r0.first_cta_cycle < r1.end_cycle);
  CHECK(r2.admit_cycle == r0.end_cycle + 1);  // same stream: after kernel 0
  CHECK(r2.sm_set.size() == 15);
  for (uint32_t k : {k0, k1, k2}) {
    CHECK(g.kernel_run(k).done);
    CHECK(g.kernel_run(k).warp_instructions > 0);
  }
  for (int k = 0; k < 3; ++k) {
    std::vector<float> c(n);
    rt.memcpy_to_host(c.data(), out[static_cast<std::size_t>(k)], n * 4);
    for (int i = 0; i < n; ++i) REQUIRE(c[static_cast<std::size_t>(i)] == 1.5f * static_cast<float>(i));
  }
}
