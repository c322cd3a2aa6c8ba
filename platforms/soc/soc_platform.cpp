#include "platforms/soc/soc_platform.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>

#include "core/config/config_source.h"

namespace gputlm::platforms::soc {

namespace {
SocConfig checked(SocConfig cfg) {
  if (cfg.dram_bytes % 4096) throw config::ConfigError("key 'dram_bytes': must be a multiple of 4096");
  if (cfg.regs_base < cfg.dram_base + cfg.dram_bytes && cfg.dram_base < cfg.regs_base + regs::kWindowBytes)
    throw config::ConfigError("key 'regs_base': the register window overlaps host DRAM");
  cfg.device.host_memory_base = cfg.dram_base;
  cfg.device.host_memory_bytes = cfg.dram_bytes;
  cfg.device.validate("device");
  return cfg;
}
}  // namespace

SocPlatform::SocPlatform(sc_core::sc_module_name name, SocConfig cfg)
    : sc_core::sc_module(name),
      cfg_(checked(std::move(cfg))),
      host_("host", sc_core::sc_time(cfg_.quantum_ns, sc_core::SC_NS)),
      router_("router"),
      dram_("dram", cfg_.dram_bytes, cfg_.dram),
      device_("device", cfg_.gpu, cfg_.device),
      irq_("irq") {
  router_.map(0, cfg_.dram_base, cfg_.dram_bytes, "dram");
  router_.map(1, cfg_.regs_base, regs::kWindowBytes, "gpu registers");
  host_.set_heap(cfg_.dram_base, cfg_.dram_bytes);
  // Checkers record violations instead of throwing: tests and the summary count them.
  auto through = [&](const char* what) -> ProtocolChecker* {
    if (!cfg_.protocol_checkers) return nullptr;
    checkers_.push_back(std::make_unique<ProtocolChecker>(what, false));
    return checkers_.back().get();
  };
  if (ProtocolChecker* c = through("chk_host")) {
    host_.bus.bind(c->in);
    c->out.bind(router_.in);
  } else {
    host_.bus.bind(router_.in);
  }
  if (ProtocolChecker* c = through("chk_gpu")) {
    device_.mem.bind(c->in);
    c->out.bind(router_.in);
  } else {
    device_.mem.bind(router_.in);
  }
  if (ProtocolChecker* c = through("chk_dram")) {  // router.out[0]
    router_.out.bind(c->in);
    c->out.bind(dram_.in);
  } else {
    router_.out.bind(dram_.in);
  }
  if (ProtocolChecker* c = through("chk_regs")) {  // router.out[1]
    router_.out.bind(c->in);
    c->out.bind(device_.regs);
  } else {
    router_.out.bind(device_.regs);
  }
  device_.irq.bind(irq_);
  host_.irq.bind(irq_);
}

uint64_t SocPlatform::protocol_violations() const {
  uint64_t n = 0;
  for (const auto& c : checkers_) n += c->violations().size();
  return n;
}

void SocPlatform::run(HostCpu::Program program) {
  host_.set_program(std::move(program));
  gpu::Gpu& g = device_.gpu();
  const sc_core::sc_time end(cfg_.max_time_ms, sc_core::SC_MS);
  // In slices of core cycles, so that the GPU's watchdog and max_cycles end a stuck or
  // endless kernel as they do in Gpu::run(); an idle platform starves and ends the loop.
  const sc_core::sc_time slice = g.core_clock().time_of(65536);
  while (true) {
    sc_core::sc_time until = sc_core::sc_time_stamp() + slice;
    // SC_EXIT_ON_STARVATION leaves time at the last event, so a slice holding no event (the
    // host sleeping longer than a slice while the GPU idles) would be run again and again:
    // a slice reaches at least the next event.
    if (sc_core::sc_start_of_simulation_invoked() && sc_core::sc_pending_activity())
      until = std::max(until, sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity());
    until = std::min(end, until);
    try {
      sc_core::sc_start(until - sc_core::sc_time_stamp(), sc_core::SC_EXIT_ON_STARVATION);
    } catch (const sc_core::sc_report& e) {
      // A process threw (a kernel's execution error, a protocol error): say where.
      throw gpu::SimulationError(std::string(e.get_msg()) + " (at " + sc_core::sc_time_stamp().to_string() + ")");
    }
    if (g.deadlock()) throw gpu::DeadlockError(*g.deadlock());
    if (g.config().max_cycles && g.cycle() >= g.config().max_cycles && !g.cta_scheduler().idle())
      throw gpu::SimulationError("soc: the GPU exceeded max_cycles = " + std::to_string(g.config().max_cycles) +
                                 " core cycles\n" + g.state_dump());
    // Done: nothing left to happen, or nothing before the limit (an unfinished host is
    // reported below).
    if (!sc_core::sc_pending_activity() || sc_core::sc_time_stamp() >= end ||
        sc_core::sc_time_to_pending_activity() > end - sc_core::sc_time_stamp())
      break;
  }
  if (!host_.finished())
    throw std::runtime_error("soc: the host program has not finished after max_time_ms = " +
                             std::to_string(cfg_.max_time_ms) + " ms of simulated time\n" + g.state_dump());
  for (const auto& c : checkers_) c->check_quiescent();
}

namespace {

int run_soc(const config::ConfigSource& source, const RunOptions& opts, std::ostream& out) {
  SocConfig cfg;
  config::read(source, cfg);
  SocPlatform top("soc", cfg);
  ExampleResult result;
  const ExampleConfig example = top.config().example;
  const uint64_t regs_base = top.config().regs_base;
  const auto t0 = std::chrono::steady_clock::now();
  top.run([&](HostCpu& cpu) { run_example(cpu, regs_base, example, result); });
  const double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const bool ok = top.host().failure().empty() && result.done && result.mismatches == 0 &&
                  top.protocol_violations() == 0;
  if (!opts.quiet) {
    const auto& port = top.device().host_memory();
    out << "gputlm soc: host CPU (loosely timed, quantum " << top.config().quantum_ns << " ns) -> router -> host DRAM"
        << (top.config().dram.dmi && top.config().device.dmi ? " (DMI)" : " (no DMI)") << " + GPU device ("
        << top.config().gpu.name << ", " << top.config().gpu.sms << " SMs)\n";
    out << "  vecadd  " << std::setw(8) << result.vecadd_cycles << " GPU core cycles, done at host time "
        << result.vecadd_done << "\n";
    out << "  saxpy   " << std::setw(8) << result.saxpy_cycles << " GPU core cycles, done at host time "
        << result.saxpy_done << "\n";
    out << "  outputs " << result.checked << " elements checked, " << result.mismatches << " wrong"
        << (result.first_mismatch.empty() ? "" : " (first: " + result.first_mismatch + ")") << "\n";
    out << "  GPU -> host memory: " << port.transport_accesses() << " b_transport accesses, " << port.dmi_grants()
        << " DMI grants, " << port.mapped_pages() << " pages mapped\n";
    uint64_t calls = 0;
    for (const auto& c : top.checkers()) calls += c->checked_calls();
    out << "  protocol checkers   " << top.checkers().size() << " sockets, " << calls << " calls checked, "
        << top.protocol_violations() << " violations\n";
    if (!top.host().failure().empty()) out << "  host program failed: " << top.host().failure() << "\n";
    out << "  simulated " << sc_core::sc_time_stamp() << ", host time " << std::setprecision(3) << host_s << " s\n";
    out << (ok ? "PASS" : "FAIL") << "\n";
  }
  if (!opts.stats_file.empty()) {
    top.device().gpu().update_stats();
    nlohmann::json j = {{"platform", "soc"},
                        {"config", config::to_json(top.config())},
                        {"vecadd_cycles", result.vecadd_cycles},
                        {"saxpy_cycles", result.saxpy_cycles},
                        {"mismatches", result.mismatches},
                        {"stats", top.device().gpu().stats().to_json(stats::View::Total)}};
    std::ofstream f(opts.stats_file);
    if (!f) throw std::runtime_error("cannot write statistics file '" + opts.stats_file + "'");
    f << j.dump(2) << "\n";
  }
  return ok ? 0 : 1;
}

}  // namespace

PlatformInfo platform_info() {
  PlatformInfo info;
  info.description = "host CPU (loosely timed) + router + host DRAM + GPU device: vecadd then saxpy, verified";
  info.list_params = [] { return config::list(SocConfig{}); };
  info.run = run_soc;
  return info;
}

}  // namespace gputlm::platforms::soc
