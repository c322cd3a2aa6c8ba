// The Pascal TITAN X config (configs/pascal_titanx.json): it parses and validates under the
// `pascal` platform, and its key figures are those of docs/platforms/pascal.md (KAWS
// Table 1 and GPGPU-Sim's SM6_TITANX, row by row there).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "platforms/gpu_platform.h"
#include "platforms/platform_registry.h"

using namespace gputlm;

namespace {
gpu::GpuConfig load(const std::vector<std::string>& overrides = {}) {
  auto src = config::ConfigSource::from_file("configs/pascal_titanx.json");
  for (const auto& o : overrides) src.apply_override(o);
  return platforms::read_gpu_config(src);
}
}  // namespace

TEST_CASE("pascal config titanx has the TITAN X parameters of KAWS Table 1", "[gpu][pascal]") {
  const gpu::GpuConfig c = load();
  CHECK(c.platform == "pascal");
  CHECK(c.sms == 28);                                        // KAWS: 28 SIMT cores
  CHECK(c.clocks.core_mhz == 1417.0);                        // KAWS: 1417 MHz core, icnt, L2
  CHECK(c.clocks.icnt_mhz == 1417.0);
  CHECK(c.clocks.l2_mhz == 1417.0);
  CHECK(c.clocks.dram_mhz == 2500.0);                        // KAWS: 2500 MHz GDDR5X
  CHECK(c.sm.scheduler.count == 4);                          // KAWS: 4 warp schedulers per SM
  CHECK(c.sm.scheduler.dual_issue);                          // KAWS §2.1: up to two per cycle
  CHECK(c.sm.operand_collector.schedulers == 4);
  CHECK(c.sm.operand_collector.per_scheduler);               // one OCU per (scheduler, unit type)
  CHECK(c.sm.operand_collector.collectors_sp == 1);
  CHECK(c.sm.operand_collector.collectors_sfu == 1);
  CHECK(c.sm.operand_collector.collectors_mem == 1);
  CHECK(c.sm.operand_collector.reads_per_collector == 1);    // single-ported
  CHECK(c.sm.operand_collector.units_per_scheduler);         // four SP/SFU widths, one per scheduler
  CHECK(c.sm.max_warps == 64);
  CHECK(c.sm.max_ctas == 32);                                // KAWS: 32 CTAs per SM
  CHECK(c.sm.registers == 65536);
  CHECK(c.sm.l1d.size_bytes() == 24 * 1024);                 // KAWS: 24 KB, 48-way
  CHECK(c.sm.l1d.ways == 48);
  CHECK(c.sm.l1d.sectors == 1);                              // whole lines: the LSU sends line requests (G11)
  CHECK(c.sm.lsu.global_l1d_bypass == "all_but_nc");         // GPGPU-Sim -gpgpu_gmem_skip_L1D 1
  CHECK(c.sm.l1i.size_bytes() == 4 * 1024);                  // KAWS: 4 KB L1I
  CHECK(c.sm.fetch.per_cycle == 8);                          // GPGPU-Sim -gpgpu_inst_fetch_throughput 8
  CHECK(c.sm.l1i.port_width == 8);
  CHECK(c.l2_bytes() == 3 * 1024 * 1024);                    // KAWS: 3 MB L2
  CHECK(c.l2.sub_partitions == 2);                           // 2 slices per channel
  CHECK(c.partitions == 12);                                 // KAWS: 12 memory controllers
  CHECK(std::abs(c.dram_bandwidth_gbs() - 480.0) < 0.05);    // 12 x 2500 MHz x QDR x 4 B
  CHECK(c.cta_scheduler.ctas_per_cycle == 1);                // KAWS §2.2: one CTA per cycle
  CHECK(c.interconnect.sm_ports == 28);
  CHECK(c.interconnect.mem_ports == 12);                     // channels; the crossbar gets a port per slice (24)
}

TEST_CASE("pascal platform is registered and takes overrides and bad keys like fermi", "[gpu][pascal]") {
  CHECK(platforms::find("pascal").list_params().size() > 50);
  CHECK(load({"sm.scheduler.policy=lrr"}).sm.scheduler.policy == "lrr");
  CHECK_THROWS_WITH(load({"sm.lsu.global_l1d_bypass=everything"}),
                    Catch::Contains("sm.lsu.global_l1d_bypass") && Catch::Contains("none, cg, all_but_nc, all"));
  CHECK_THROWS_WITH(load({"sm.exec.sp_units=6"}), Catch::Contains("exec.sp_units"));
  // The SM keeps its busy execution units in a 64-bit mask.
  CHECK_THROWS_WITH(load({"sm.exec.sp_units=60", "sm.exec.sfu_units=8"}),
                    Catch::Contains("exec.sp_units") && Catch::Contains("at most 64 execution units"));
  CHECK_NOTHROW(load({"sm.exec.sp_units=56", "sm.exec.sfu_units=8"}));
  CHECK_THROWS_WITH(load({"sm.l1d.wayz=4"}), Catch::Contains("sm.l1d.wayz"));
  auto wrong = config::ConfigSource::from_file("configs/pascal_titanx.json");
  wrong.apply_override("platform=kepler");
  CHECK_THROWS_WITH(platforms::read_gpu_config(wrong), Catch::Contains("kepler"));
}
