#include "gpu/gpu_config.h"

#include <cstdio>

#include "core/config/config_source.h"

namespace gputlm::gpu {

void GpuConfig::validate() {
  // The crossbar has one port per SM and one per partition: derived, so that `sms` and
  // `partitions` are the only knobs (a config that sets the ports must agree).
  if (interconnect.sm_ports != sms && interconnect.sm_ports != InterconnectConfig{}.sm_ports)
    throw config::ConfigError("key 'interconnect.sm_ports': " + std::to_string(interconnect.sm_ports) +
                              " does not match 'sms' = " + std::to_string(sms));
  if (interconnect.mem_ports != partitions && interconnect.mem_ports != InterconnectConfig{}.mem_ports)
    throw config::ConfigError("key 'interconnect.mem_ports': " + std::to_string(interconnect.mem_ports) +
                              " does not match 'partitions' = " + std::to_string(partitions));
  interconnect.sm_ports = sms;
  interconnect.mem_ports = partitions;
  interconnect.validate("interconnect");
  sm.validate("sm");
  l2.validate("l2");
  cta_scheduler.validate("cta_scheduler", sms);  // steering against this GPU's SMs (all of kind "sm")
}

double GpuConfig::dram_bandwidth_gbs() const {
  const double bytes_per_beat = static_cast<double>(l2.dram.bus_width_bytes) * l2.dram.chips_per_channel;
  return partitions * clocks.dram_mhz * 1e6 * l2.dram.data_command_ratio * bytes_per_beat / 1e9;
}

std::string GpuConfig::summary() const {
  auto kb = [](uint64_t b) { return std::to_string(b / 1024) + " KB"; };
  auto cache = [&](const mem::CacheConfig& c) {
    return kb(c.size_bytes()) + " " + std::to_string(c.ways) + "-way " + std::to_string(c.line_size) + " B lines, " +
           std::to_string(c.mshr.entries) + " MSHRs";
  };
  char bw[32];
  std::snprintf(bw, sizeof bw, "%.1f", dram_bandwidth_gbs());
  std::string s;
  s += name + " (" + platform + "): " + std::to_string(sms) + " SMs, " + std::to_string(partitions) +
       " memory partitions\n";
  s += "  clocks (MHz)  core " + std::to_string(static_cast<int>(clocks.core_mhz)) + ", icnt " +
       std::to_string(static_cast<int>(clocks.icnt_mhz)) + ", L2 " + std::to_string(static_cast<int>(clocks.l2_mhz)) +
       ", DRAM " + std::to_string(static_cast<int>(clocks.dram_mhz)) + "\n";
  s += "  SM           " + std::to_string(sm.max_warps) + " warps, " + std::to_string(sm.max_ctas) + " CTAs, " +
       std::to_string(sm.max_threads) + " threads, " + std::to_string(sm.registers) + " registers, " +
       kb(sm.shared_bytes) + " shared, " + std::to_string(sm.scheduler.count) + " " + sm.scheduler.policy +
       " schedulers\n";
  s += "  L1I          " + cache(sm.l1i) + "\n";
  s += "  L1D          " + cache(sm.l1d) + "\n";
  s += "  L1C / L1T    " + kb(sm.l1c.size_bytes()) + " / " + kb(sm.l1t.size_bytes()) + "\n";
  s += "  L2           " + kb(l2_bytes()) + " total, " + std::to_string(l2.sub_partitions) +
       " sub-partition(s) per partition, each " + cache(l2.bank) + "\n";
  s += "  DRAM         " + std::to_string(partitions) + " channels, " + l2.dram.scheduler + ", " + bw + " GB/s peak\n";
  return s;
}

}  // namespace gputlm::gpu
