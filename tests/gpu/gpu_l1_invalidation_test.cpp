// Kernel-boundary L1 invalidation on the real GPU top: two vecadd launches on SM 0, one
// after the other, reading the same buffers. With cta_scheduler.l1_invalidation =
// on_idle (the GTX480 default) the second kernel finds the L1D empty: every one of its
// loads misses and the lines the first kernel left are counted as invalidated. With none
// every load of the second kernel hits.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "gpu/timing_backend.h"
#include "platforms/gpu_platform.h"
#include "runtime/runtime.h"
#include "vecadd_launch.h"

using namespace gputlm;

namespace {

// The first two kernels' L1D counters of SM 0 (each kernel's statistics epoch).
struct L1dCounts {
  double loads, hits, invalidations, l1i_invalidations;
};

double at(const nlohmann::json& stats, const std::vector<std::string>& path) {
  const nlohmann::json* j = &stats;
  for (const std::string& p : path) {
    REQUIRE(j->contains(p));
    j = &(*j)[p];
  }
  return j->get<double>();
}

std::vector<L1dCounts> run_twice(const std::string& policy, const std::string& caches = "") {
  config::ConfigSource src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  src.apply_override("cta_scheduler.l1_invalidation=" + policy);
  if (!caches.empty()) src.apply_override("cta_scheduler.l1_invalidation_caches=" + caches);
  const gpu::GpuConfig cfg = platforms::read_gpu_config(src);
  auto backend = std::make_unique<gpu::TimingBackend>(cfg);
  gpu::Gpu& g = backend->gpu();
  runtime::Runtime rt(std::move(backend));
  const auto m = rt.load_module("workloads/vecadd/vecadd.ptx");
  const int n = 512;  // a and b: 16 lines of 128 B each, far below the 16 KB L1D
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[static_cast<std::size_t>(i)] = static_cast<float>(i);
    b[static_cast<std::size_t>(i)] = static_cast<float>(3 * i);
  }
  const auto da = rt.malloc(n * 4), db = rt.malloc(n * 4), dc = rt.malloc(n * 4);
  rt.memcpy_to_device(da, a.data(), n * 4);
  rt.memcpy_to_device(db, b.data(), n * 4);
  const isa::LoadedModule& lm = rt.module(m);
  const isa::LaunchParams p = gpu_test::vecadd_launch(lm, {2, 1, 1}, {128, 1, 1}, n, da.addr, db.addr, dc.addr);
  gpu::Gpu::LaunchOptions o;
  o.dispatch = {0, {0}};  // both on SM 0, stream 0
  const uint32_t k0 = g.launch(lm, p, o);
  const uint32_t k1 = g.launch(lm, p, o);
  g.run();
  rt.memcpy_to_host(c.data(), dc, n * 4);
  for (int i = 0; i < n; ++i) REQUIRE(c[static_cast<std::size_t>(i)] == static_cast<float>(4 * i));
  std::vector<L1dCounts> out;
  for (uint32_t k : {k0, k1}) {
    const nlohmann::json& s = g.kernel_run(k).stats;
    out.push_back({at(s, {"sm0", "l1d", "loads"}), at(s, {"sm0", "l1d", "load_hits"}),
                   at(s, {"sm0", "l1d", "invalidations"}), at(s, {"sm0", "l1i", "invalidations"})});
  }
  CHECK(g.stats().find("cta_scheduler.l1_invalidations")->scalar(stats::View::Total) == (policy == "none" ? 0 : 1));
  return out;
}

}  // namespace

TEST_CASE("gpu_top l1_invalidation on_idle: the next kernel's first-touch loads all miss in L1D",
          "[gpu][l1_invalidation]") {
  const std::vector<L1dCounts> k = run_twice("on_idle");
  CHECK(k[0].loads == 32);  // 8 warps x 2 loop iterations x 2 loads (a, b), one 128 B line each
  CHECK(k[0].hits == 0);    // cold: every line is touched once
  CHECK(k[0].invalidations == 0);
  CHECK(k[1].loads == k[0].loads);
  CHECK(k[1].hits == 0);
  CHECK(k[1].invalidations == 32);  // the 16 + 16 lines of a and b kernel 0 left behind
  CHECK(k[1].l1i_invalidations == 0);  // GPGPU-Sim's default: the L1D only
}

TEST_CASE("gpu_top l1_invalidation with l1_invalidation_caches naming the L1I invalidates it too",
          "[gpu][l1_invalidation]") {
  const std::vector<L1dCounts> k = run_twice("on_idle", R"(["l1i", "l1d"])");
  CHECK(k[1].hits == 0);
  CHECK(k[1].invalidations == 32);
  CHECK(k[1].l1i_invalidations > 0);  // the kernel's code lines
  CHECK(k[0].l1i_invalidations == 0);
}

TEST_CASE("gpu_top l1_invalidation none: the next kernel hits the lines the previous one left",
          "[gpu][l1_invalidation]") {
  const std::vector<L1dCounts> k = run_twice("none");
  CHECK(k[0].loads == 32);
  CHECK(k[0].hits == 0);
  CHECK(k[1].loads == k[0].loads);
  CHECK(k[1].hits == k[1].loads);
  CHECK(k[1].invalidations == 0);
}
