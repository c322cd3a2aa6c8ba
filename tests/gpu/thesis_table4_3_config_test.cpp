// The thesis' prefetching platform (configs/thesis_table4_3.json, 001 Table 4.3, digest §P5)
// and its "no data cache" variant: they parse and validate, and their key figures are those of
// docs/platforms/thesis_prefetch.md.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "platforms/gpu_platform.h"
#include "platforms/platform_registry.h"

using namespace gputlm;

namespace {
gpu::GpuConfig load(const std::string& file = "configs/thesis_table4_3.json",
                    const std::vector<std::string>& overrides = {}) {
  auto src = config::ConfigSource::from_file(file);
  for (const auto& o : overrides) src.apply_override(o);
  return platforms::read_gpu_config(src);
}
}  // namespace

TEST_CASE("thesis_table4_3 config has the GPU of 001 Table 4.3", "[gpu][thesis]") {
  const gpu::GpuConfig c = load();
  CHECK(c.sms == 14);                                   // 14 SMs
  CHECK(c.sm.exec.simd_width == 8);                     // SIMD width 8: 4 cycles per warp instruction
  CHECK(c.sm.exec.slices() == 4);
  CHECK(c.clocks.core_mhz == 900.0);                    // 900 MHz
  CHECK(c.sm.scheduler.policy == "lrr");                // round robin, a switch every instruction
  CHECK(c.sm.scheduler.count == 1);
  CHECK(c.sm.max_ctas == 8);                            // up to 8 thread blocks
  CHECK(c.sm.max_threads == 1024);                      // 768 / 1024: 1024 (the doc's reading)
  CHECK(c.sm.shared_bytes == 16 * 1024);                // 16 KB, 16 banks
  CHECK(c.sm.lsu.shared_memory.banks == 16);
  CHECK(c.sm.l1c.size_bytes() == 8 * 1024);             // constant 8 KB, 2-way, 64 B
  CHECK(c.sm.l1c.ways == 2);
  CHECK(c.sm.l1c.line_size == 64);
  CHECK(c.sm.l1t.size_bytes() == 64 * 1024);            // texture 64 KB, 2-way, 64 B
  CHECK(c.sm.l1t.ways == 2);
  CHECK(c.sm.l1t.line_size == 64);
  CHECK(c.sm.l1d.size_bytes() == 16 * 1024);            // L1 16 KB, 8-way, 64 B, LRU
  CHECK(c.sm.l1d.ways == 8);
  CHECK(c.sm.l1d.line_size == 64);
  CHECK(c.sm.l1d.replacement == "lru");
  CHECK(c.sm.lsu.global_l1d_bypass == "cg");            // the L1D caches global loads
  CHECK(c.l2.dram.scheduler == "frfcfs");               // FR-FCFS
  CHECK(c.partitions == 8);                             // 8 channels, 16 banks, BL 8
  CHECK(c.l2.dram.banks == 16);
  CHECK(c.l2.dram.burst_length == 8);
  CHECK(c.l2.dram.timing.tCL == 11);                    // tCL 11, tRCD 11, tRP 13
  CHECK(c.l2.dram.timing.tRCD == 11);
  CHECK(c.l2.dram.timing.tRP == 13);
  CHECK(std::abs(c.dram_bandwidth_gbs() - 57.6) < 0.05);   // 57.6 GB/s
  CHECK(c.interconnect.topology == "fixed_latency");    // fixed latency 50 / 100 / 200 / 400
  CHECK(c.interconnect.latency == 100);
  CHECK(c.interconnect.sm_ports == 14);
  CHECK(c.interconnect.mem_ports == 8);
}

TEST_CASE("thesis_table4_3 takes the study's sweeps as overrides", "[gpu][thesis]") {
  for (uint32_t ctas : {1u, 4u, 8u}) CHECK(load("configs/thesis_table4_3.json", {"sm.max_ctas=" + std::to_string(ctas)}).sm.max_ctas == ctas);
  for (uint32_t lat : {50u, 200u, 400u})
    CHECK(load("configs/thesis_table4_3.json", {"interconnect.latency=" + std::to_string(lat)}).interconnect.latency == lat);
  CHECK(load("configs/thesis_table4_3.json", {"sm.max_threads=768"}).sm.max_threads == 768);
  CHECK_THROWS_WITH(load("configs/thesis_table4_3.json", {"sm.max_ctas=0"}), Catch::Contains("sm.max_ctas"));
  CHECK_THROWS_WITH(load("configs/thesis_table4_3.json", {"interconnect.latency=0"}),
                    Catch::Contains("interconnect.latency"));
}

TEST_CASE("thesis_table4_3_nocache sends every global access past the L1D and changes nothing else",
          "[gpu][thesis]") {
  const gpu::GpuConfig base = load(), nocache = load("configs/variants/thesis_table4_3_nocache.json");
  CHECK(nocache.sm.lsu.global_l1d_bypass == "all");
  CHECK(nocache.sms == base.sms);
  CHECK(nocache.sm.l1d.size_bytes() == base.sm.l1d.size_bytes());
  CHECK(nocache.interconnect.latency == base.interconnect.latency);
  CHECK_THROWS_WITH(load("configs/thesis_table4_3.json", {"sm.lsu.global_l1d_bypass=everything"}),
                    Catch::Contains("sm.lsu.global_l1d_bypass") && Catch::Contains("all_but_nc, all"));
}
