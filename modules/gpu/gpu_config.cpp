#include "gpu/gpu_config.h"

#include <cstdio>

#include "core/config/config_source.h"

namespace gputlm::gpu {

namespace {
const std::string kHomogeneousKind = "sm";
}

void GpuConfig::validate() {
  if (sm_groups.empty()) {
    if (sms == 0) throw config::ConfigError("key 'sms': 0 SMs (0 means the sum of sm_groups' counts, but there are no sm_groups)");
  } else {
    // With groups the SM count is theirs; a config that states it must agree.
    uint32_t total = 0;
    for (std::size_t i = 0; i < sm_groups.size(); ++i) {
      const SmGroupConfig& g = sm_groups[i];
      const std::string key = "sm_groups[" + std::to_string(i) + "]";
      if (g.kind.empty()) throw config::ConfigError("key '" + key + ".kind': missing or empty (every group names its kind)");
      for (std::size_t j = 0; j < i; ++j)
        if (sm_groups[j].kind == g.kind)
          throw config::ConfigError("key '" + key + ".kind': \"" + g.kind + "\" is also sm_groups[" + std::to_string(j) +
                                    "].kind (one group per kind)");
      if (g.count == 0) throw config::ConfigError("key '" + key + ".count': missing (every group needs count >= 1)");
      g.sm.validate(key + ".sm");
      total += g.count;
    }
    if (total > 1024) throw config::ConfigError("key 'sm_groups': " + std::to_string(total) + " SMs in all (at most 1024)");
    if (sms != 0 && sms != total)
      throw config::ConfigError("key 'sms': " + std::to_string(sms) + " does not match the sm_groups' total of " +
                                std::to_string(total) + " SMs (with sm_groups leave sms at 0, or state the sum)");
    sms = total;
    // ELF's program points are computed once per launch, for every ELF SM alike.
    const sm::SmConfig* elf = sm_with_scheduler("elf");
    for (std::size_t i = 0; i < sm_groups.size(); ++i)
      if (elf && sm_groups[i].sm.scheduler.policy == "elf" &&
          config::to_json(sm_groups[i].sm.scheduler.elf) != config::to_json(elf->scheduler.elf))
        throw config::ConfigError("key 'sm_groups[" + std::to_string(i) +
                                  "].sm.scheduler.elf': differs from another elf kind's (the kernel's ELF program "
                                  "points are computed once for every ELF SM)");
  }
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
  cta_scheduler.validate("cta_scheduler", sm_kinds());  // steering against this GPU's SMs and their kinds
}

const sm::SmConfig& GpuConfig::sm_config(uint32_t i) const {
  for (const SmGroupConfig& g : sm_groups) {
    if (i < g.count) return g.sm;
    i -= g.count;
  }
  return sm;
}

const std::string& GpuConfig::sm_kind(uint32_t i) const {
  for (const SmGroupConfig& g : sm_groups) {
    if (i < g.count) return g.kind;
    i -= g.count;
  }
  return kHomogeneousKind;
}

std::vector<std::string> GpuConfig::sm_kinds() const {
  if (sm_groups.empty()) return std::vector<std::string>(sms, kHomogeneousKind);
  std::vector<std::string> out;
  for (const SmGroupConfig& g : sm_groups) out.insert(out.end(), g.count, g.kind);
  return out;
}

const sm::SmConfig* GpuConfig::sm_with_scheduler(const std::string& policy) const {
  if (sm_groups.empty()) return sm.scheduler.policy == policy ? &sm : nullptr;
  for (const SmGroupConfig& g : sm_groups)
    if (g.sm.scheduler.policy == policy) return &g.sm;
  return nullptr;
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
  // With groups each kind's SM also shows its scoreboard and lanes (what tells kinds apart).
  auto sm_lines = [&](const sm::SmConfig& c, const std::string& in) {
    s += in + "SM           " + std::to_string(c.max_warps) + " warps, " + std::to_string(c.max_ctas) + " CTAs, " +
         std::to_string(c.max_threads) + " threads, " + std::to_string(c.registers) + " registers, " +
         kb(c.shared_bytes) + " shared, " + std::to_string(c.scheduler.count) + " " + c.scheduler.policy +
         " schedulers" +
         (sm_groups.empty() ? "" : ", " + c.scoreboard.policy + " scoreboard, " + std::to_string(c.exec.simd_width) + " lanes") +
         "\n";
    s += in + "L1I          " + cache(c.l1i) + "\n";
    s += in + "L1D          " + cache(c.l1d) + "\n";
    s += in + "L1C / L1T    " + kb(c.l1c.size_bytes()) + " / " + kb(c.l1t.size_bytes()) + "\n";
  };
  if (sm_groups.empty()) {
    sm_lines(sm, "  ");
  } else {
    uint32_t first = 0;
    for (const SmGroupConfig& g : sm_groups) {
      s += "  kind " + g.kind + ": " + std::to_string(g.count) + " SMs (sm" + std::to_string(first) + "-sm" +
           std::to_string(first + g.count - 1) + ")\n";
      sm_lines(g.sm, "    ");
      first += g.count;
    }
  }
  s += "  L2           " + kb(l2_bytes()) + " total, " + std::to_string(l2.sub_partitions) +
       " sub-partition(s) per partition, each " + cache(l2.bank) + "\n";
  s += "  DRAM         " + std::to_string(partitions) + " channels, " + l2.dram.scheduler + ", " + bw + " GB/s peak\n";
  return s;
}

}  // namespace gputlm::gpu
