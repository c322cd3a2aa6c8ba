// Each TEST_CASE runs in its own process (one SystemC elaboration, one GPU): one
// microbenchmark on configs/fermi_gtx480.json, optionally with overrides.
#include <catch2/catch.hpp>

#include <algorithm>
#include <initializer_list>
#include <string>

#include "micro/micro_bench.h"
#include "platforms/gpu_platform.h"
#include "sm/exec/op_timing.h"

using namespace gputlm;

namespace {

gpu::GpuConfig fermi(std::initializer_list<const char*> overrides = {}) {
  auto src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  for (const char* o : overrides) src.apply_override(o);
  return platforms::read_gpu_config(src);
}

micro::BenchResult run(const std::string& bench, const gpu::GpuConfig& cfg) {
  micro::BenchResult r = micro::run_bench(bench, std::string(GPUTLM_MICRO_DIR) + "/" + bench + "/spec.json", cfg);
  for (const auto& f : r.failures) INFO(f);
  REQUIRE(r.ok);
  return r;
}

// One pointer-chase step on an L1 hit: ld.global -> mul.wide.u32 -> add.s64 -> ld.global.
// The load (docs/blocks/operand_collector.md, lsu.md, exec.md): issued I, dispatched I+2,
// request to the L1 at D+1, hit response at D+1+hit_latency, processed one cycle later,
// registers released by writeback one cycle after that; a dependent instruction issues
// in that cycle (writeback precedes issue, docs/blocks/sm.md).
constexpr uint64_t kIssueToDispatch = 2;   // operand_collector.md: issued I -> dispatched I+2
constexpr uint64_t kDispatchToRequest = 1; // lsu.md: the LSU's tick after dispatch sends the request
constexpr uint64_t kResponseProcessed = 1; // lsu.md: a response received in R is processed at R+1
constexpr uint64_t kWritebackRelease = 1;  // exec.md: a result finished in N releases in N+1
// docs/blocks/sm.md: an ALU consumer issues latency(producer) + 3 + sm.exec.pipeline_registers
// after its producer.
constexpr uint64_t kAluHop = 3;

uint64_t l1_hit_step(const gpu::GpuConfig& c) {
  const auto& lat = c.sm.exec.latency_int;
  const uint64_t mul = lat[static_cast<std::size_t>(sm::LatencyColumn::Mul)];  // mul.wide.u32
  const uint64_t add = lat[static_cast<std::size_t>(sm::LatencyColumn::Add)];  // add.s64
  const uint64_t regs = c.sm.exec.pipeline_registers;
  return c.sm.l1d.hit_latency + kIssueToDispatch + kDispatchToRequest + kResponseProcessed + kWritebackRelease +
         (mul + kAluHop + regs) + (add + kAluHop + regs);
}

double figure(const micro::BenchResult& r, std::size_t i) {
  REQUIRE(i < r.figures.size());
  INFO(r.figures[i].item);
  return r.figures[i].value;
}

}  // namespace

TEST_CASE("micro_latency: pointer chase L1 < L2 < DRAM (cold or beyond the L2), L1 step exactly the configured hit path", "[micro]") {
  const auto cfg = fermi();
  const auto r = run("latency", cfg);
  const double l1 = figure(r, 0), l2 = figure(r, 1), dram = figure(r, 2);
  CHECK(l1 == double(l1_hit_step(cfg)));  // 35 + 5 + 10 + 10 = 60 on the GTX480
  CHECK(l1 < l2);
  CHECK(l2 < dram);
  // An L2 hit still pays the L1 miss path and the ROP stage; DRAM the DRAM minimum latency.
  CHECK(l2 > l1 + cfg.l2.rop_latency);
  CHECK(dram > l2 + cfg.l2.dram.min_latency * cfg.clocks.core_mhz / cfg.clocks.dram_mhz - 1);
  // A warmed chain larger than the L2 misses it as cold lines do.
  const double beyond_l2 = figure(r, 3);
  CHECK(beyond_l2 > l2);
  CHECK(beyond_l2 == Approx(dram).epsilon(0.02));
}

TEST_CASE("micro_latency: L1 step follows hit_latency and the ALU latencies exactly", "[micro]") {
  // Other values for every term of the formula: a wrong term would move the result.
  const auto cfg = fermi({"sm.l1d.hit_latency=72", "sm.exec.latency_int=[9,13,6,5,145]"});
  const auto r = run("latency", cfg);
  CHECK(l1_hit_step(cfg) == 72 + 5 + 9 + 12 + 2 * cfg.sm.exec.pipeline_registers);
  CHECK(figure(r, 0) == double(l1_hit_step(cfg)));
}

TEST_CASE("micro_bandwidth: per-SM bandwidth L1 > L2 > DRAM, DRAM within its peak", "[micro]") {
  const auto cfg = fermi();
  const auto r = run("bandwidth", cfg);
  // Figures per level: per SM B/cycle, GPU B/cycle, GPU GB/s.
  const double l1 = figure(r, 0), l2 = figure(r, 3), dram = figure(r, 6), dram_gpu = figure(r, 7);
  CHECK(l1 > l2);
  CHECK(l2 > dram);
  // At most one line per cycle from the L1 (lsu.requests_per_cycle 1).
  CHECK(l1 <= cfg.sm.l1d.line_size);
  // docs/platforms/fermi.md: partitions x dram_mhz x data_command_ratio x bus width x chips.
  const auto& d = cfg.l2.dram;
  const double peak = cfg.partitions * cfg.clocks.dram_mhz / cfg.clocks.core_mhz * d.data_command_ratio *
                      d.bus_width_bytes * d.chips_per_channel;
  CHECK(peak == Approx(177408.0 / 700.0));
  // A sectored L2 fetches 32 B sectors, each in a whole DRAM atom (64 B on the GTX480, as
  // GPGPU-Sim): line fills can use at most sector / atom of the bus.
  const double sector = double(cfg.l2.bank.line_size) / cfg.l2.bank.sectors;
  const double useful = peak * std::min(1.0, sector / d.atom_bytes());
  CHECK(dram_gpu <= useful);
  CHECK(dram_gpu > 0.75 * useful);
}

TEST_CASE("micro_shared: cycles per warp access grow with the bank-conflict degree", "[micro]") {
  const auto r = run("shared", fermi());
  REQUIRE(r.figures.size() == 6);
  for (std::size_t i = 1; i < 6; ++i) CHECK(figure(r, i) > figure(r, i - 1));
  // From 4-way on the banks bound the loop: k bank cycles per access, plus little.
  for (std::size_t i = 2; i < 6; ++i) {
    const double k = double(1u << i);
    CHECK(figure(r, i) >= k);
    CHECK(figure(r, i) < k * 1.05);
  }
}

TEST_CASE("micro_sfu: SFU throughput is 32 lanes per initiation interval per SFU", "[micro]") {
  const auto cfg = fermi();
  const auto r = run("sfu", cfg);
  const double sfu_peak = 32.0 * cfg.sm.exec.sfu_units / cfg.sm.exec.initiation_sfu;  // 4 on the GTX480
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(figure(r, i) <= sfu_peak);
    CHECK(figure(r, i) > 0.95 * sfu_peak);
  }
  const double sp_peak = 32.0 * cfg.sm.exec.sp_units;  // one warp instruction per SP unit per cycle
  CHECK(figure(r, 2) <= sp_peak);
  CHECK(figure(r, 2) > figure(r, 0));
}

TEST_CASE("micro_atomic: one word < a word per warp < a word per thread", "[micro]") {
  const auto r = run("atomic", fermi());
  CHECK(figure(r, 0) < figure(r, 1));
  CHECK(figure(r, 1) < figure(r, 2));
}

TEST_CASE("micro_divergence: cycles grow with the paths of a warp", "[micro]") {
  const auto r = run("divergence", fermi());
  REQUIRE(r.figures.size() == 6);
  for (std::size_t i = 1; i < 6; ++i) CHECK(figure(r, i) > 1.5 * figure(r, i - 1));
  CHECK(figure(r, 5) > 16 * figure(r, 0));  // 32 serialised paths against one
}
