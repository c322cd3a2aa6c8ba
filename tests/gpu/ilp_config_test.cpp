// The ILP paper's baseline GPU (configs/ilp_baseline.json, seed 004 Table 1): it parses and
// validates under the `ilp` platform, and its key figures are those of docs/platforms/ilp.md
// (Table 1, GPGPU-Sim 3.0.1's QuadroFX5800 DRAM, the GTX480 elsewhere).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "platforms/gpu_platform.h"
#include "platforms/platform_registry.h"

using namespace gputlm;

namespace {
gpu::GpuConfig load(const std::vector<std::string>& overrides = {}) {
  auto src = config::ConfigSource::from_file("configs/ilp_baseline.json");
  for (const auto& o : overrides) src.apply_override(o);
  return platforms::read_gpu_config(src);
}
}  // namespace

TEST_CASE("ilp config baseline has the GPU of 004 Table 1", "[gpu][ilp]") {
  const gpu::GpuConfig c = load();
  CHECK(c.platform == "ilp");
  CHECK(c.sms == 30);                                        // T1: 30 SMs
  CHECK(c.clocks.core_mhz == 1300.0);                        // T1: 325/650/1300 MHz; 1300 (Z44)
  CHECK(c.clocks.icnt_mhz == 650.0);                         // QuadroFX5800 325:650:650:800
  CHECK(c.clocks.l2_mhz == 650.0);
  CHECK(c.clocks.dram_mhz == 800.0);                         // T1: 800 MHz
  CHECK(c.sm.warp_size == 32);
  CHECK(c.sm.exec.simd_width == 8);                          // T1: SIMD width 8
  CHECK(c.sm.exec.slices() == 4);                            // a warp instruction holds the lanes 4 cycles
  CHECK(c.sm.exec.sp_units == 1);                            // one 8-lane ALU pipe
  CHECK(c.sm.max_warps == 32);
  CHECK(c.sm.max_ctas == 8);                                 // T1: 8 TBs / 1024 threads
  CHECK(c.sm.max_threads == 1024);
  CHECK(c.sm.registers == 16384);                            // T1: 16k, the reference size
  CHECK(c.sm.shared_bytes == 16 * 1024);                     // T1: 16 KB
  CHECK(c.sm.scheduler.count == 1);
  CHECK(c.sm.scheduler.policy == "lrr");                     // T1: round robin
  CHECK(c.sm.operand_collector.schedulers == 1);
  CHECK(c.sm.scoreboard.policy == "barrel");                 // 004 IV: one instruction in flight per warp
  for (std::size_t i = 0; i < 4; ++i) {                      // ADD, MAX, MUL, MAD: the 8-cycle ALU
    CHECK(c.sm.exec.latency_int[i] == 8);
    CHECK(c.sm.exec.latency_fp[i] == 8);
  }
  CHECK(c.sm.exec.latency_int[4] == 145);                    // DIV: GTX480 kept
  CHECK(c.sm.exec.latency_other == 8);
  CHECK(c.sm.exec.latency_branch == 8);                      // resolved at EX8
  CHECK(c.sm.exec.pipeline_registers == 0);
  CHECK(c.sm.l1d.size_bytes() == 48 * 1024);                 // T1: 48 KB, 8-way, 64 B lines
  CHECK(c.sm.l1d.sets == 96);
  CHECK(c.sm.l1d.ways == 8);
  CHECK(c.sm.l1d.line_size == 64);
  CHECK(c.sm.lsu.coalescer.line_size == 64);
  CHECK(c.sm.l1d.mshr.entries == 64);                        // GTX480 kept (T1 silent)
  CHECK(c.sm.l1i.size_bytes() == 2 * 1024);                  // GTX480 kept (T1 silent)
  CHECK(c.partitions == 16);                                 // T1: 16 memory channels
  CHECK(c.l2.sub_partitions == 1);
  CHECK(c.l2.bank.size_bytes() == 256 * 1024);               // T1: 256 KB per channel, 8-way, 64 B
  CHECK(c.l2.bank.sets == 512);
  CHECK(c.l2.bank.ways == 8);
  CHECK(c.l2.bank.line_size == 64);
  CHECK(c.l2_bytes() == 4 * 1024 * 1024);
  CHECK(c.l2.rop_latency == 120);                            // GTX480 kept (T1 silent)
  CHECK(c.l2.dram.banks == 8);                               // T1: 8 banks
  CHECK(c.l2.dram.burst_length == 4);                        // QuadroFX5800 GDDR3
  CHECK(c.l2.dram.data_command_ratio == 2);
  CHECK(c.l2.dram.bus_width_bytes == 4);
  CHECK(c.l2.dram.chips_per_channel == 2);
  CHECK(c.l2.dram.atom_bytes() == 32);
  CHECK(c.l2.dram.timing.tCL == 10);                         // T1: tCL 10, tRP 10, tRCD 12
  CHECK(c.l2.dram.timing.tRP == 10);
  CHECK(c.l2.dram.timing.tRCD == 12);
  CHECK(c.l2.dram.timing.tCCD == 2);                         // QuadroFX5800 8:2:8:12:25:10:35:10:7:6:11
  CHECK(c.l2.dram.timing.tRRD == 8);
  CHECK(c.l2.dram.timing.tRAS == 25);
  CHECK(c.l2.dram.timing.tRC == 35);
  CHECK(c.l2.dram.timing.tWL == 7);
  CHECK(c.l2.dram.timing.tCDLR == 6);
  CHECK(c.l2.dram.timing.tWR == 11);
  // 16 channels x 800 MHz x 2 beats per command cycle x 4 B x 2 chips (T1: "200GB/S").
  CHECK(std::abs(c.dram_bandwidth_gbs() - 204.8) < 0.05);
  CHECK(c.interconnect.sm_ports == 30);
  CHECK(c.interconnect.mem_ports == 16);
}

TEST_CASE("ilp config summary names the Table 1 figures", "[gpu][ilp]") {
  const std::string s = load().summary();
  CHECK_THAT(s, Catch::Contains("(ilp): 30 SMs, 16 memory partitions"));
  CHECK_THAT(s, Catch::Contains("core 1300, icnt 650, L2 650, DRAM 800"));
  CHECK_THAT(s, Catch::Contains("32 warps") && Catch::Contains("8 CTAs") && Catch::Contains("1024 threads") &&
                    Catch::Contains("16384 registers") && Catch::Contains("16 KB shared") &&
                    Catch::Contains("1 lrr schedulers"));
  CHECK_THAT(s, Catch::Contains("48 KB 8-way 64 B lines, 64 MSHRs"));
  CHECK_THAT(s, Catch::Contains("4096 KB total, 1 sub-partition(s) per partition, each 256 KB 8-way 64 B lines"));
  CHECK_THAT(s, Catch::Contains("16 channels, frfcfs, 204.8 GB/s peak"));
}

TEST_CASE("ilp platform is registered and takes overrides and bad keys like fermi", "[gpu][ilp]") {
  CHECK(platforms::find("ilp").list_params().size() > 50);
  CHECK_THAT(platforms::find("ilp").description, Catch::Contains("004"));
  // The register-file sweep of 004 (8k / 16k / 32k) is an override.
  CHECK(load({"sm.registers=8192"}).sm.registers == 8192);
  CHECK(load({"sm.registers=32768"}).sm.registers == 32768);
  CHECK(load({"clocks.core_mhz=325"}).clocks.core_mhz == 325.0);
  CHECK_THROWS_WITH(load({"sm.scoreboard.policy=bogus"}), Catch::Contains("sm.scoreboard.policy"));
  CHECK_THROWS_WITH(load({"sm.exec.simd_width=6"}), Catch::Contains("sm.exec.simd_width"));
  CHECK_THROWS_WITH(load({"sm.l1d.wayz=4"}), Catch::Contains("sm.l1d.wayz"));
  // 8 banks need 3 bank bits in the DRAM address mapping.
  CHECK_THROWS_WITH(load({"l2.dram.banks=16"}), Catch::Contains("l2.dram.address_mapping"));
  // The coalescer's request is the L1D line.
  CHECK_THROWS_WITH(load({"sm.lsu.coalescer.line_size=128"}), Catch::Contains("sm.lsu.coalescer.line_size"));
  auto wrong = config::ConfigSource::from_file("configs/ilp_baseline.json");
  wrong.apply_override("platform=kepler");
  CHECK_THROWS_WITH(platforms::read_gpu_config(wrong), Catch::Contains("kepler"));
}
