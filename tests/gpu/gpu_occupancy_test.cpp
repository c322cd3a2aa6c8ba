// SmCtaIF::max_resident_ctas of the real SM (what steering policies read as a kernel's
// concurrency) equals the CTAs the SM actually holds at once when given plenty.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "gpu/timing_backend.h"
#include "platforms/gpu_platform.h"
#include "runtime/runtime.h"
#include "vecadd_launch.h"

using namespace gputlm;

namespace {
struct PeakResidency : gpu::CtaSchedulerListener {
  gpu::Gpu* gpu = nullptr;
  uint32_t peak = 0;
  void cta_launched(const gpu::KernelRecord&, uint32_t sm, uint64_t) override {
    peak = std::max(peak, gpu->sm(sm).resident_ctas());
  }
};
}  // namespace

TEST_CASE("gpu_top SM max_resident_ctas equals the peak CTAs resident on the SM", "[gpu][steering]") {
  const gpu::GpuConfig cfg =
      platforms::read_gpu_config(config::ConfigSource::from_file("configs/fermi_gtx480.json"));
  auto backend = std::make_unique<gpu::TimingBackend>(cfg);
  gpu::Gpu& g = backend->gpu();
  runtime::Runtime rt(std::move(backend));
  const auto m = rt.load_module("workloads/vecadd/vecadd.ptx");
  const int n = 24 * 192;
  const auto da = rt.malloc(n * 4), db = rt.malloc(n * 4), dc = rt.malloc(n * 4);
  rt.memset(da, 0, n * 4);
  rt.memset(db, 0, n * 4);
  const isa::LoadedModule& lm = rt.module(m);
  const isa::LaunchParams p = gpu_test::vecadd_launch(lm, {24, 1, 1}, {192, 1, 1}, n, da.addr, db.addr, dc.addr);
  gpu::Gpu::LaunchOptions o;
  o.dispatch = {0, {0}};  // every CTA on SM 0
  o.registers_per_thread = 22;  // 24 after rounding to a multiple of 4: 192 x 24 = 4608 registers per CTA
  PeakResidency peak;
  peak.gpu = &g;
  g.cta_scheduler().add_listener(peak);
  const uint32_t k = g.launch(lm, p, o);
  // 192 threads = 6 warps: CTA slots 8, threads 1536 / 192 = 8, warps 48 / 6 = 8,
  // registers 32768 / 4608 = 7 -> 7.
  const sm::KernelInstance& inst = *g.cta_scheduler().record(k).kernel;
  CHECK(g.sm(0).max_resident_ctas(inst) == 7);
  g.run();
  CHECK(peak.peak == 7);
}
