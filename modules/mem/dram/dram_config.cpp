#include "mem/dram/dram_config.h"

#include <algorithm>

#include "core/config/config_source.h"
#include "mem/dram/dram_address_mapping.h"

namespace gputlm {

void DramConfig::validate(const std::string& key) const {
  auto fail = [&](const std::string& k, const std::string& what) {
    throw config::ConfigError("key '" + key + "." + k + "': " + what);
  };
  if (banks == 0) fail("banks", "must be positive");
  if (data_command_ratio == 0 || burst_length % data_command_ratio != 0)
    fail("burst_length", "must be a positive multiple of data_command_ratio (" + std::to_string(data_command_ratio) +
                             "), got " + std::to_string(burst_length));
  if (queue_size == 0) fail("queue_size", "must be positive");
  if (return_queue_size == 0) fail("return_queue_size", "must be positive");
  if (scheduler != "frfcfs" && scheduler != "fifo") fail("scheduler", "unknown policy \"" + scheduler + "\"");
  if (timing.tRC < timing.tRAS) fail("timing.tRC", "must be at least tRAS (" + std::to_string(timing.tRAS) + ")");
  if (timing.tCCD == 0 || timing.tRRD == 0 || timing.tRCD == 0 || timing.tCL == 0)
    fail("timing", "tCCD, tRRD, tRCD and tCL must be at least 1");
  if (timing.tCL + burst_cycles() + 2 < timing.tWL)
    fail("timing.tWL", "must not exceed tCL + burst cycles + 2 (read-to-write turnaround would be negative)");
  const DramAddressMapping mapping(address_mapping, key + ".address_mapping");  // throws on a bad pattern
  if (mapping.banks() != banks)
    fail("address_mapping", "has " + std::to_string(mapping.bank_bits()) + " bank bits (" +
                                std::to_string(mapping.banks()) + " banks) but banks = " + std::to_string(banks));
}

DramDerivedTiming DramDerivedTiming::from(const DramConfig& cfg) {
  const DramTimingConfig& t = cfg.timing;
  DramDerivedTiming d{};
  d.burst = cfg.burst_cycles();
  d.tRCDWR = t.tRCD > t.tWL + 1 ? t.tRCD - (t.tWL + 1) : 1;
  d.tRTW = t.tCL + d.burst + 2 - t.tWL;
  d.tWTR = t.tWL + d.burst + t.tCDLR;
  d.tWTP = t.tWL + d.burst + t.tWR;
  return d;
}

}  // namespace gputlm
