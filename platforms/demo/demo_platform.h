// The demo platform: a traffic generator, through the TLM-2.0 protocol checker, into
// a fixed-latency memory. The smallest complete gputlm system: clock domain, config,
// statistics, pooled payloads, back-pressure, the clocked-process pattern.
#pragma once

#include <cstdint>
#include <memory>
#include <systemc>

#include "core/clock/clock_domain.h"
#include "core/config/params.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "core/tlm/transaction_recorder.h"
#include "core/traffic/simple_memory.h"
#include "core/traffic/traffic_generator.h"
#include "platforms/platform_registry.h"

namespace gputlm::platforms::demo {

struct DemoConfig {
  std::string platform = "demo";
  double clock_mhz = 700.0;
  bool protocol_checker = true;
  uint64_t max_cycles = 10'000'000;
  uint64_t sample_period = 0;
  std::string trace_file;
  TrafficGeneratorConfig generator;
  SimpleMemoryConfig memory;

  template <class V>
  void visit(V& v) {
    v.param("platform", platform, "platform to build", config::one_of({"demo"}));
    v.param("clock_mhz", clock_mhz, "clock frequency of the whole platform in MHz", config::in_range(1, 10000));
    v.param("protocol_checker", protocol_checker, "insert the TLM base-protocol checker between generator and memory");
    v.param("max_cycles", max_cycles, "stop with an error when the traffic has not finished by then", config::at_least(1));
    v.param("sample_period", sample_period, "cycles between time-series samples of the statistics (0: none)");
    v.param("trace_file", trace_file, "write every TLM call between generator and memory to this file (empty: off)");
    v.group("generator", generator, "traffic generator");
    v.group("memory", memory, "memory target");
  }
};

class DemoPlatform : public sc_core::sc_module {
 public:
  DemoPlatform(sc_core::sc_module_name name, const DemoConfig& cfg);
  // Runs until the generator finishes; throws when max_cycles pass first.
  void run();

  const ClockDomain& clock() const { return clock_; }
  stats::Group& stats() { return stats_; }
  TrafficGenerator& generator() { return generator_; }
  SimpleMemory& memory() { return memory_; }
  const ProtocolChecker* checker() const { return checker_.get(); }
  const TransactionRecorder* recorder() const { return recorder_.get(); }
  const stats::Sampler* sampler() const { return sampler_.get(); }
  uint64_t cycles() const { return cycles_; }

 private:
  DemoConfig cfg_;
  ClockDomain clock_;
  stats::Group stats_;
  TrafficGenerator generator_;
  SimpleMemory memory_;
  std::unique_ptr<TransactionRecorder> recorder_;
  std::unique_ptr<ProtocolChecker> checker_;
  std::unique_ptr<stats::Sampler> sampler_;
  uint64_t cycles_ = 0;
};

PlatformInfo platform_info();

}  // namespace gputlm::platforms::demo
