#include "platforms/demo/demo_platform.h"

#include <chrono>
#include <fstream>
#include <iomanip>

namespace gputlm::platforms::demo {

DemoPlatform::DemoPlatform(sc_core::sc_module_name name, const DemoConfig& cfg)
    : sc_core::sc_module(name),
      cfg_(cfg),
      clock_(ClockDomain::from_mhz("core", cfg.clock_mhz)),
      stats_("demo"),
      generator_("generator", cfg.generator, clock_, stats_),
      memory_("memory", cfg.memory, clock_, stats_) {
  // generator -> [recorder] -> [checker] -> memory
  tlm::tlm_initiator_socket<>* upstream = &generator_.out;
  if (!cfg.trace_file.empty()) {
    recorder_ = std::make_unique<TransactionRecorder>("recorder", cfg.trace_file);
    upstream->bind(recorder_->in);
    upstream = &recorder_->out;
  }
  if (cfg.protocol_checker) {
    checker_ = std::make_unique<ProtocolChecker>("checker");
    upstream->bind(checker_->in);
    upstream = &checker_->out;
  }
  upstream->bind(memory_.in);
  if (cfg.sample_period)
    sampler_ = std::make_unique<stats::Sampler>(
        stats_, cfg.sample_period,
        std::vector<std::string>{"generator.completed", "memory.queue_occupancy"});
}

void DemoPlatform::run() {
  // Run in slices so that the time series is sampled and the cycle limit is checked
  // without a process that would keep an idle simulation alive.
  const uint64_t slice = cfg_.sample_period ? cfg_.sample_period : cfg_.max_cycles;
  while (!generator_.done()) {
    const uint64_t now = clock_.now();
    if (now >= cfg_.max_cycles)
      throw std::runtime_error("demo: traffic not finished after max_cycles=" +
                               std::to_string(cfg_.max_cycles) + " cycles (" +
                               std::to_string(generator_.completed()) + " of " +
                               std::to_string(cfg_.generator.requests) + " requests completed)");
    const uint64_t until = std::min(cfg_.max_cycles, (now / slice + 1) * slice);
    sc_core::sc_start(clock_.time_of(until) - sc_core::sc_time_stamp(), sc_core::SC_RUN_TO_TIME);
    if (sampler_) sampler_->sample(clock_.now());
    if (!generator_.done() && sc_core::sc_pending_activity() == false && clock_.now() < until)
      throw std::runtime_error("demo: simulation starved before the traffic finished (deadlock)");
  }
  cycles_ = generator_.last_completion_cycle();
  if (checker_) checker_->check_quiescent();
}

namespace {

int run_demo(const config::ConfigSource& source, const RunOptions& opts, std::ostream& out) {
  DemoConfig cfg;
  config::read(source, cfg);
  cfg.generator.validate();
  DemoPlatform top("top", cfg);
  const auto t0 = std::chrono::steady_clock::now();
  top.run();
  const double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const uint64_t cycles = top.cycles();
  if (!opts.quiet) {
    const auto& s = top.stats();
    auto value = [&](const char* p) { return s.find(p)->scalar(stats::View::Total); };
    out << "gputlm demo: traffic generator -> " << (cfg.protocol_checker ? "protocol checker -> " : "")
        << "memory, " << cfg.clock_mhz << " MHz\n";
    out << std::fixed << std::setprecision(2);
    out << "  requests completed   " << static_cast<uint64_t>(value("generator.completed")) << " ("
        << static_cast<uint64_t>(value("generator.reads")) << " reads, "
        << static_cast<uint64_t>(value("generator.writes")) << " writes)\n";
    out << "  simulated cycles     " << cycles << " (" << sc_core::sc_time_stamp() << ")\n";
    out << "  mean latency         " << value("generator.latency") << " cycles\n";
    out << "  throughput           " << (cycles ? value("generator.completed") / static_cast<double>(cycles) : 0)
        << " requests/cycle\n";
    out << "  back-pressure cycles " << static_cast<uint64_t>(value("memory.backpressure_cycles")) << "\n";
    out << "  mean queue occupancy " << value("memory.queue_occupancy") << "\n";
    if (top.checker())
      out << "  protocol checker     " << top.checker()->checked_calls() << " calls checked, "
          << top.checker()->violations().size() << " violations\n";
    out << "  activations          generator " << top.generator().process().activations() << ", memory "
        << top.memory().process().activations() << " (of " << cycles << " cycles)\n";
    out << "  host time            " << std::setprecision(3) << host_s << " s\n";
  }
  if (!opts.stats_file.empty()) {
    nlohmann::json j = {{"platform", "demo"},
                        {"config", config::to_json(cfg)},
                        {"cycles", cycles},
                        {"stats", top.stats().to_json(stats::View::Total)}};
    if (top.sampler()) j["time_series"] = top.sampler()->to_json();
    std::ofstream f(opts.stats_file);
    if (!f) throw std::runtime_error("cannot write statistics file '" + opts.stats_file + "'");
    f << j.dump(2) << "\n";
  }
  return 0;
}

}  // namespace

PlatformInfo platform_info() {
  PlatformInfo info;
  info.description = "traffic generator -> protocol checker -> fixed-latency memory";
  info.list_params = [] { return config::list(DemoConfig{}); };
  info.run = run_demo;
  return info;
}

}  // namespace gputlm::platforms::demo
