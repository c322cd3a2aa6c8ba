// The SoC example platform (docs/platforms/soc.md): a loosely-timed host CPU, an
// address-decoding router, host DRAM and the GPU device (command processor + the
// cycle-accurate GPU top) in one SystemC simulation, with a TLM protocol checker on
// every socket:
//
//   host.bus -> [chk host] -> router.in                    router.out[0] -> [chk dram] -> dram.in
//   device.mem -> [chk gpu] -> router.in                   router.out[1] -> [chk regs] -> device.regs
//   device.irq -> irq signal -> host.irq
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/config/params.h"
#include "core/tlm/protocol_checker.h"
#include "gpu/command_processor/command_processor.h"
#include "gpu/gpu_config.h"
#include "platforms/platform_registry.h"
#include "platforms/soc/host_cpu.h"
#include "platforms/soc/host_dram.h"
#include "platforms/soc/router.h"
#include "platforms/soc/soc_example.h"

namespace gputlm::platforms::soc {

struct SocConfig {
  std::string platform = "soc";
  uint64_t dram_base = 0x80000000ull;
  uint64_t dram_bytes = 64ull << 20;
  uint64_t regs_base = 0x40000000ull;
  double quantum_ns = 1000;
  bool protocol_checkers = true;
  double max_time_ms = 1000;
  HostDramConfig dram;
  gpu::CommandProcessorConfig device;
  gpu::GpuConfig gpu;  // the GTX480 by default
  ExampleConfig example;

  template <class V>
  void visit(V& v) {
    v.param("platform", platform, "platform to build", config::one_of({"soc"}));
    v.param("dram_base", dram_base, "host DRAM's first address (also the GPU's global memory window)");
    v.param("dram_bytes", dram_bytes, "host DRAM size in bytes (whole 4 KiB pages)", config::at_least(4096));
    v.param("regs_base", regs_base, "address of the GPU device's register window");
    v.param("quantum_ns", quantum_ns, "global quantum of the loosely-timed host", config::in_range(0.001, 1e9));
    v.param("protocol_checkers", protocol_checkers, "put a TLM protocol checker on every socket");
    v.param("max_time_ms", max_time_ms, "simulated time after which an unfinished run is an error",
            config::in_range(0.001, 1e9));
    v.group("dram", dram, "host DRAM");
    v.group("device", device,
            "GPU device (command processor); its host_memory_base/bytes are set from dram_base/dram_bytes");
    v.group("gpu", gpu, "the GPU behind the command processor (GTX480 defaults)");
    v.group("example", example, "the host program of `gputlm demo`");
  }
};

class SocPlatform : public sc_core::sc_module {
 public:
  // Validates the config (config::ConfigError naming the key) and elaborates.
  SocPlatform(sc_core::sc_module_name name, SocConfig cfg);

  // Runs `program` on the host CPU until everything is idle (sc_start in slices of 65536
  // core cycles: one simulation, checked between slices). Throws std::runtime_error when
  // the host has not finished by max_time_ms (with the GPU's state), gpu::DeadlockError
  // when the GPU's watchdog fires, gpu::SimulationError when the model fails (a kernel's
  // fault) or a kernel runs past gpu.max_cycles.
  void run(HostCpu::Program program);

  const SocConfig& config() const { return cfg_; }
  HostCpu& host() { return host_; }
  Router& router() { return router_; }
  HostDram& dram() { return dram_; }
  gpu::CommandProcessor& device() { return device_; }
  // The checkers (empty when protocol_checkers is false), named by the socket they watch.
  const std::vector<std::unique_ptr<ProtocolChecker>>& checkers() const { return checkers_; }
  uint64_t protocol_violations() const;

 private:
  SocConfig cfg_;
  HostCpu host_;
  Router router_;
  HostDram dram_;
  gpu::CommandProcessor device_;
  sc_core::sc_signal<bool> irq_;
  std::vector<std::unique_ptr<ProtocolChecker>> checkers_;
};

PlatformInfo platform_info();

}  // namespace gputlm::platforms::soc
