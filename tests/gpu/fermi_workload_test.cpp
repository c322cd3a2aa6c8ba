// Every workload's small input runs to completion on the Fermi GTX480 timing model with
// its outputs verified against the CPU reference (one test per workload).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "gpu/run_summary.h"
#include "gpu/timing_backend.h"
#include "platforms/gpu_platform.h"
#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"

namespace {

void run_on_fermi(const std::string& name, const std::vector<std::string>& overrides = {}) {
  using namespace gputlm;
  config::ConfigSource source = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  for (const auto& o : overrides) source.apply_override(o);
  const gpu::GpuConfig cfg = platforms::read_gpu_config(source);
  const std::string spec_path = std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/" + name + "/small/spec.json";
  const runtime::LaunchSpec spec = runtime::parse_launch_spec(spec_path);
  auto backend = std::make_unique<gpu::TimingBackend>(cfg);
  gpu::TimingBackend& timing = *backend;
  runtime::Runtime rt(std::move(backend));
  const runtime::SpecReport rep = runtime::run_launch_spec(spec, rt);
  REQUIRE(rep.launches.size() == spec.launches.size());
  REQUIRE(timing.kernel_runs().size() == spec.launches.size());
  uint64_t cycles = 0, warp = 0;
  for (const gpu::KernelRun& k : timing.kernel_runs()) {
    CHECK(k.done);
    CHECK(k.cycles > 0);
    CHECK(k.warp_instructions > 0);
    CHECK(k.end_cycle >= k.start_cycle + k.last_cta_time);
    cycles += k.cycles;
    warp += k.warp_instructions;
  }
  REQUIRE_FALSE(rep.outputs.empty());
  for (const auto& o : rep.outputs) {
    INFO(name << " output " << o.buffer << ": " << o.message());
    CHECK(o.checked);
    CHECK(o.compare.ok());
  }
  CHECK(timing.gpu().cta_scheduler().idle());
  WARN(name << ": " << cycles << " cycles, " << warp << " warp instructions");
}

}  // namespace

#define GPUTLM_FERMI_WORKLOAD_TEST(name)                                                              \
  TEST_CASE("fermi_workload_" #name " runs on the GTX480 timing model with verified outputs", "[gpu]") { \
    run_on_fermi(#name);                                                                              \
  }

GPUTLM_FERMI_WORKLOAD_TEST(vecadd)
GPUTLM_FERMI_WORKLOAD_TEST(saxpy)
GPUTLM_FERMI_WORKLOAD_TEST(lbm)
GPUTLM_FERMI_WORKLOAD_TEST(bfs)
GPUTLM_FERMI_WORKLOAD_TEST(spmv)
GPUTLM_FERMI_WORKLOAD_TEST(kmeans)
GPUTLM_FERMI_WORKLOAD_TEST(strided)
GPUTLM_FERMI_WORKLOAD_TEST(laplace3d)
GPUTLM_FERMI_WORKLOAD_TEST(hotspot)
GPUTLM_FERMI_WORKLOAD_TEST(sgemm)
GPUTLM_FERMI_WORKLOAD_TEST(mriq)
GPUTLM_FERMI_WORKLOAD_TEST(cutcp)
GPUTLM_FERMI_WORKLOAD_TEST(nqueen)
GPUTLM_FERMI_WORKLOAD_TEST(storegpu)
GPUTLM_FERMI_WORKLOAD_TEST(reduce)
GPUTLM_FERMI_WORKLOAD_TEST(scan)
GPUTLM_FERMI_WORKLOAD_TEST(histogram)
GPUTLM_FERMI_WORKLOAD_TEST(atomics)
GPUTLM_FERMI_WORKLOAD_TEST(tailwork)
GPUTLM_FERMI_WORKLOAD_TEST(dgemv)
GPUTLM_FERMI_WORKLOAD_TEST(conv1d)
GPUTLM_FERMI_WORKLOAD_TEST(dstencil)
GPUTLM_FERMI_WORKLOAD_TEST(nw)
GPUTLM_FERMI_WORKLOAD_TEST(fwt)
GPUTLM_FERMI_WORKLOAD_TEST(sortnet)

// One SM runs many CTAs in turn, so warp slots of finished CTAs are reused: a CTA whose
// warps sit in higher slots than its last-finishing warp must free all of them.
TEST_CASE("fermi_workload_vecadd on a single SM reuses the warp slots of finished CTAs", "[gpu]") {
  run_on_fermi("vecadd", {"sms=1"});
}

namespace {
// vecadd's small input run to completion on `cfg`; `timing` holds its statistics.
struct VecaddRun {
  explicit VecaddRun(const gputlm::gpu::GpuConfig& cfg)
      : backend_(new gputlm::gpu::TimingBackend(cfg)),
        timing(*backend_),
        rt(std::unique_ptr<gputlm::gpu::TimingBackend>(backend_)) {
    gputlm::runtime::run_launch_spec(
        gputlm::runtime::parse_launch_spec(std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/vecadd/small/spec.json"), rt);
  }
  gputlm::gpu::TimingBackend* backend_;  // owned by rt
  gputlm::gpu::TimingBackend& timing;
  gputlm::runtime::Runtime rt;
};
}  // namespace

// Cold start (issue 10 item 4): with GPGPU-Sim's -gpgpu_perfect_inst_const_cache 0, the first
// instruction fetches miss the L1I and the kernel-parameter loads (ld.param) miss the
// constant cache, and both go to the L2 over the interconnect like data misses: every L2
// access of the run is an L1 miss of some SM (instruction, data, constant or texture).
TEST_CASE("fermi_workload_vecadd cold start: L1I and kernel-parameter misses are served by the L2", "[gpu]") {
  using namespace gputlm;
  const gpu::GpuConfig cfg = platforms::read_gpu_config(config::ConfigSource::from_file("configs/fermi_gtx480.json"));
  VecaddRun run(cfg);
  gpu::TimingBackend& timing = run.timing;
  stats::Group& st = timing.gpu().stats();
  auto total = [&](const std::string& path) {
    const stats::Stat* s = st.find(path);
    REQUIRE(s != nullptr);
    return s->scalar(stats::View::Total);
  };
  double l1_to_l2 = 0;
  uint32_t active = 0;
  for (uint32_t i = 0; i < cfg.sms; ++i) {
    const std::string sm = "sm" + std::to_string(i) + ".";
    for (const char* c : {"l1i", "l1d", "l1c", "l1t"})
      l1_to_l2 += total(sm + c + ".load_primary_misses") + total(sm + c + ".write_outcomes");
    if (total(sm + "warp_instructions") == 0) continue;
    ++active;
    INFO("SM " << i);
    CHECK(total(sm + "l1i.load_primary_misses") >= 1);  // its first instructions came from the L2
    CHECK(total(sm + "l1c.load_primary_misses") >= 1);  // ... and its kernel parameters
  }
  CHECK(active >= 2);
  // Requests that reached the L2: the bank's accesses (not the retried ones), with the
  // sector requests of a split request counted as the one request they came from.
  double l2_requests = 0;
  for (uint32_t p = 0; p < cfg.partitions; ++p)
    for (uint32_t k = 0; k < cfg.l2.sub_partitions; ++k) {
      const std::string sub = "l2p" + std::to_string(p) + ".sub" + std::to_string(k) + ".";
      l2_requests += total(sub + "bank.accesses") - total(sub + "bank.fail_causes");
      if (cfg.l2.bank.sectors > 1)
        l2_requests += total(sub + "split.split_requests") - total(sub + "split.sector_requests");
    }
  CHECK(l2_requests == l1_to_l2);
}

// The summary's DRAM bandwidth counts the data the DRAM moved: one atom per RD/WR command
// (a request of the sectored L2 is one 32 B sector, not a 128 B line), so it stays under
// the peak and covers vecadd's two input arrays read once.
TEST_CASE("fermi_workload_vecadd summary DRAM bandwidth counts the atoms the DRAM moved", "[gpu]") {
  using namespace gputlm;
  const gpu::GpuConfig cfg = platforms::read_gpu_config(config::ConfigSource::from_file("configs/fermi_gtx480.json"));
  VecaddRun run(cfg);
  gpu::TimingBackend& timing = run.timing;
  REQUIRE(timing.kernel_runs().size() == 1);
  const uint64_t cycles = timing.kernel_runs()[0].cycles;
  const gpu::RunSummary s = gpu::summarize(timing.gpu().stats().to_json(stats::View::Total), cfg, cycles);
  const double bytes = static_cast<double>(s.dram_atoms) * cfg.l2.dram.atom_bytes();
  CHECK(cfg.l2.dram.atom_bytes() == 64);  // GDDR5: burst 8 x 4 B x 2 chips; a 32 B sector costs one atom
  CHECK(bytes >= 2.0 * 4096 * 4);                   // a and b, 16 KiB each, come from DRAM
  CHECK(bytes <= 4.0 * 4096 * 4 + 64 * 1024);       // plus c and the code and parameters at most
  CHECK(s.dram_gbs == Approx(bytes / (static_cast<double>(cycles) / (cfg.clocks.core_mhz * 1e6)) / 1e9));
  CHECK(s.dram_gbs < s.dram_peak_gbs);
}
