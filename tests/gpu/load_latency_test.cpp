// Load-miss latency on an idle GPU: one warp loads one word that misses in L1D and L2.
// Four GPUs are elaborated side by side, the base and three that each add DELTA cycles to
// one configured path latency (interconnect traversal, L2 miss latency, DRAM minimum
// latency). The L1D miss-to-fill time must change by exactly DELTA per traversal of that
// hop (twice for the interconnect: request and reply), and the base latency must be the
// sum of the configured latencies plus the fixed hand-over cycles between blocks.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu.h"
#include "platforms/fermi/fermi_platform.h"
#include "runtime/runtime.h"

using namespace gputlm;

namespace {

constexpr uint32_t kDelta = 37;

gpu::GpuConfig base_config() {
  auto src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  // One clock for every domain, a fixed-latency interconnect and a DRAM whose minimum
  // latency dominates its timing, so that every hop has one configured latency.
  for (const char* o : {"clocks.dram_mhz=700", "interconnect.topology=\"fixed_latency\"", "interconnect.latency=20",
                        "l2.bank.miss_latency=30", "l2.dram.min_latency=100"})
    src.apply_override(o);
  return platforms::fermi::read_gpu_config(src);
}

struct Probe {
  uint64_t miss_cycle = 0, fill_cycle = 0, block = 0;
  bool missed = false, filled = false;
  void attach(mem::Cache& l1d) {
    l1d.set_access_hook([this](const mem::AccessRecord& r) {
      if (!missed && r.outcome == mem::AccessOutcome::PrimaryMiss) {
        missed = true;
        miss_cycle = r.cycle;
        block = r.block;
      }
    });
    l1d.set_fill_hook([this](uint64_t cycle, uint64_t b, int32_t) {
      if (missed && !filled && b == block) {
        filled = true;
        fill_cycle = cycle;
      }
    });
  }
  uint64_t latency() const { return fill_cycle - miss_cycle; }
};

}  // namespace

TEST_CASE("gpu_top load-miss latency on an idle GPU follows the configured path latencies", "[gpu][latency]") {
  std::vector<gpu::GpuConfig> cfgs(4, base_config());
  cfgs[1].interconnect.latency += kDelta;
  cfgs[2].l2.bank.miss_latency += kDelta;
  cfgs[3].l2.dram.min_latency += kDelta;  // DRAM clock = core clock here

  runtime::Runtime rt;  // device memory and the module; the GPUs below run the kernel
  const auto m = rt.load_module("workloads/vecadd/vecadd.ptx");
  const auto a = rt.malloc(4096), b = rt.malloc(4096), c = rt.malloc(4096);
  const isa::LoadedModule& lm = rt.module(m);
  isa::LaunchParams p = isa::make_launch(lm, "vecadd", {1, 1, 1}, {32, 1, 1});
  const int32_t n = 1;
  const uint64_t pa = a.addr, pb = b.addr, pc = c.addr;
  isa::set_kernel_param(p, lm, 0, &n, 4);
  isa::set_kernel_param(p, lm, 1, &pa, 8);
  isa::set_kernel_param(p, lm, 2, &pb, 8);
  isa::set_kernel_param(p, lm, 3, &pc, 8);

  std::vector<std::unique_ptr<gpu::Gpu>> gpus;
  std::vector<Probe> probes(cfgs.size());
  for (std::size_t i = 0; i < cfgs.size(); ++i) {
    gpus.push_back(std::make_unique<gpu::Gpu>(("gpu" + std::to_string(i)).c_str(), cfgs[i]));
    probes[i].attach(gpus[i]->sm(0).l1d());
    gpus[i]->launch(lm, p, {});
  }
  for (auto& g : gpus) g->run();
  for (const Probe& pr : probes) {
    REQUIRE(pr.missed);
    REQUIRE(pr.filled);
  }
  const uint64_t base = probes[0].latency();
  CHECK(probes[1].latency() == base + 2 * kDelta);  // request and reply each cross the interconnect
  CHECK(probes[2].latency() == base + kDelta);
  CHECK(probes[3].latency() == base + kDelta);
  const gpu::GpuConfig& c0 = cfgs[0];
  const uint64_t configured = c0.sm.l1d.miss_latency + 2 * uint64_t{c0.interconnect.latency} +
                              c0.l2.bank.miss_latency + 2 * uint64_t{c0.l2.queue_latency} + c0.l2.dram.min_latency;
  WARN("idle load-miss latency " << base << " core cycles = configured " << configured << " + "
                                 << (base - configured) << " hand-over cycles");
  CHECK(base >= configured);
  CHECK(base - configured < 20);
}
