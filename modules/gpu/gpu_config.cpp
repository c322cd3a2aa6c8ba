#include "gpu/gpu_config.h"

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
  make_steering_policy(cta_scheduler.steering, "cta_scheduler.steering");
}

}  // namespace gputlm::gpu
