// DYNCTA on the Fermi GPU (real SMs): a memory-bound kernel (vecadd, grid-stride) with a
// low t_mem_h drives the SM's n below its occupancy maximum; a compute-bound kernel keeps
// it at the maximum; at every CTA launch the SM's resident CTAs are within n; results are
// correct.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "gpu/timing_backend.h"
#include "platforms/gpu_platform.h"
#include "runtime/runtime.h"
#include "vecadd_launch.h"

using namespace gputlm;

namespace {

struct LimitCheck : gpu::CtaSchedulerListener {
  gpu::Gpu* gpu = nullptr;
  uint32_t launches = 0, violations = 0, peak = 0;
  void cta_launched(const gpu::KernelRecord&, uint32_t sm, uint64_t) override {
    ++launches;
    const uint32_t resident = gpu->sm(sm).resident_ctas();
    peak = std::max(peak, resident);
    if (resident > gpu->cta_scheduler().cta_limit(sm)) ++violations;
  }
};

gpu::GpuConfig dyncta_config() {
  gpu::GpuConfig cfg = platforms::read_gpu_config(config::ConfigSource::from_file("configs/fermi_gtx480.json"));
  cfg.cta_scheduler.limit = "dyncta";
  cfg.cta_scheduler.dyncta.period = 2048;
  cfg.cta_scheduler.dyncta.t_idle = 2049;  // the idle rule never fires
  cfg.cta_scheduler.dyncta.t_mem_l = 64;
  cfg.cta_scheduler.dyncta.t_mem_h = 512;
  return cfg;
}

// A compute-bound kernel: each thread runs `iters` dependent integer multiply-adds and
// stores the result once.
const char* const kSpinPtx = R"(
.version 7.0
.target sm_70
.address_size 64

.visible .entry spin(
	.param .u32 spin_param_0,
	.param .u64 spin_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<5>;

	ld.param.u32 	%r1, [spin_param_0];
	ld.param.u64 	%rd1, [spin_param_1];
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r3, %r2, %r4;
	mov.u32 	%r6, %r5;
	mov.u32 	%r7, 0;
$L_loop:
	mad.lo.s32 	%r6, %r6, 3, %r5;
	add.s32 	%r7, %r7, 1;
	setp.lt.s32 	%p1, %r7, %r1;
	@%p1 bra 	$L_loop;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r5, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r6;
	ret;
}
)";

}  // namespace

TEST_CASE("gpu_top with limit dyncta lowers n on a memory-bound kernel and keeps resident CTAs within n",
          "[gpu][dyncta]") {
  auto backend = std::make_unique<gpu::TimingBackend>(dyncta_config());
  gpu::Gpu& g = backend->gpu();
  runtime::Runtime rt(std::move(backend));
  const auto m = rt.load_module("workloads/vecadd/vecadd.ptx");
  const int ctas = 48, threads = 192, n = ctas * threads * 16;  // 16 grid-stride iterations per thread
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(2 * i);
  }
  const auto da = rt.malloc(n * 4), db = rt.malloc(n * 4), dc = rt.malloc(n * 4);
  rt.memcpy_to_device(da, a.data(), n * 4);
  rt.memcpy_to_device(db, b.data(), n * 4);
  rt.memset(dc, 0, n * 4);
  const isa::LoadedModule& lm = rt.module(m);
  // Few CTAs at a time would each stride over the whole array: give the SM ctas/8 rounds.
  const isa::LaunchParams p = gpu_test::vecadd_launch(lm, {ctas, 1, 1}, {threads, 1, 1}, n, da.addr, db.addr, dc.addr);
  gpu::Gpu::LaunchOptions o;
  o.dispatch = {0, {0}};  // every CTA on SM 0
  o.registers_per_thread = 14;
  LimitCheck check;
  check.gpu = &g;
  g.cta_scheduler().add_listener(check);
  const uint32_t k = g.launch(lm, p, o);
  const uint32_t max = g.sm(0).max_resident_ctas(*g.cta_scheduler().record(k).kernel);
  REQUIRE(max == 8);
  g.run();
  rt.memcpy_to_host(c.data(), dc, n * 4);
  for (int i = 0; i < n; ++i) REQUIRE(c[i] == static_cast<float>(3 * i));
  CHECK(check.launches == ctas);
  CHECK(check.violations == 0);
  const auto& h = g.cta_scheduler().cta_limit_history(0);
  REQUIRE(!h.empty());
  CHECK(h.front().second == max);
  uint32_t lowest = max;
  for (const auto& e : h) lowest = std::min(lowest, e.second);
  CHECK(lowest < max);
  CHECK(g.stats().find("cta_scheduler.dyncta.sm0.decrements")->scalar(stats::View::Total) > 0);
  CHECK(g.stats().find("cta_scheduler.dyncta.sm0.c_mem")->scalar(stats::View::Total) > 0);
  CHECK(g.stats().find("cta_scheduler.dyncta.sm0.n_avg")->scalar(stats::View::Total) < max);
}

TEST_CASE("gpu_top with limit dyncta keeps n at the occupancy maximum on a compute-bound kernel", "[gpu][dyncta]") {
  auto backend = std::make_unique<gpu::TimingBackend>(dyncta_config());
  gpu::Gpu& g = backend->gpu();
  runtime::Runtime rt(std::move(backend));
  const auto m = rt.load_module_text(kSpinPtx, "spin");
  const int ctas = 24, threads = 192, iters = 400;
  const auto dout = rt.malloc(ctas * threads * 4);
  rt.memset(dout, 0, ctas * threads * 4);
  const isa::LoadedModule& lm = rt.module(m);
  isa::LaunchParams p = isa::make_launch(lm, "spin", {ctas, 1, 1}, {threads, 1, 1});
  int32_t it = iters;
  uint64_t out = dout.addr;
  isa::set_kernel_param(p, lm, 0, &it, 4);
  isa::set_kernel_param(p, lm, 1, &out, 8);
  gpu::Gpu::LaunchOptions o;
  o.dispatch = {0, {0}};
  o.registers_per_thread = 10;
  LimitCheck check;
  check.gpu = &g;
  g.cta_scheduler().add_listener(check);
  const uint32_t k = g.launch(lm, p, o);
  const uint32_t max = g.sm(0).max_resident_ctas(*g.cta_scheduler().record(k).kernel);
  REQUIRE(max == 8);
  g.run();
  std::vector<uint32_t> r(ctas * threads);
  rt.memcpy_to_host(r.data(), dout, ctas * threads * 4);
  for (uint32_t i = 0; i < r.size(); ++i) {
    uint32_t v = i;
    for (int j = 0; j < iters; ++j) v = v * 3 + i;
    REQUIRE(r[i] == v);
  }
  CHECK(check.violations == 0);
  CHECK(check.peak == max);
  const auto& h = g.cta_scheduler().cta_limit_history(0);
  REQUIRE(h.size() == 1);  // n never moved from the maximum
  CHECK(h.front().second == max);
  CHECK(g.cta_scheduler().cta_limit(0) == max);
  CHECK(g.stats().find("cta_scheduler.dyncta.sm0.decrements")->scalar(stats::View::Total) == 0);
  CHECK(g.stats().find("cta_scheduler.dyncta.sm0.periods")->scalar(stats::View::Total) > 2);
}

TEST_CASE("fermi config reads the dyncta keys and rejects impossible values naming the key", "[gpu][fermi][dyncta]") {
  auto with = [](std::vector<std::string> overrides) {
    auto src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
    for (const auto& o : overrides) src.apply_override(o);
    return platforms::read_gpu_config(src);
  };
  CHECK(with({}).cta_scheduler.limit == "none");
  const gpu::GpuConfig d = with({"cta_scheduler.limit=dyncta", "cta_scheduler.dyncta.period=1000",
                                 "cta_scheduler.dyncta.t_idle=4", "cta_scheduler.dyncta.t_mem_l=10",
                                 "cta_scheduler.dyncta.t_mem_h=500", "cta_scheduler.dyncta.initial=half"});
  CHECK(d.cta_scheduler.limit == "dyncta");
  CHECK(d.cta_scheduler.dyncta.period == 1000);
  CHECK(d.cta_scheduler.dyncta.t_idle == 4);
  CHECK(d.cta_scheduler.dyncta.t_mem_l == 10);
  CHECK(d.cta_scheduler.dyncta.t_mem_h == 500);
  CHECK(d.cta_scheduler.dyncta.initial == "half");
  CHECK_THROWS_WITH(with({"cta_scheduler.limit=throttle"}), Catch::Contains("cta_scheduler.limit"));
  CHECK_THROWS_WITH(with({"cta_scheduler.dyncta.period=0"}), Catch::Contains("cta_scheduler.dyncta.period"));
  CHECK_THROWS_WITH(with({"cta_scheduler.dyncta.t_mem_l=2000"}), Catch::Contains("cta_scheduler.dyncta.t_mem_l"));
  CHECK_THROWS_WITH(with({"cta_scheduler.dyncta.initial=third"}), Catch::Contains("cta_scheduler.dyncta.initial"));
  CHECK_THROWS_WITH(with({"cta_scheduler.dyncta.t_mem=5"}), Catch::Contains("cta_scheduler.dyncta.t_mem"));
}
