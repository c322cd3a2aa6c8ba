// Observation inside one process: stall classes sampled every cycle account each cycle of
// each SM exactly once, also while the SM sleeps (so the time series and the timeline's
// counters describe the cycles they claim to); the parsers of the cycle window and of the
// socket list.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/observe/run_observer.h"
#include "gpu/observe/socket_taps.h"
#include "gpu/observe/timeline.h"
#include "gpu/timing_backend.h"
#include "platforms/gpu_platform.h"
#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"
#include "sm/warp_instruction.h"

using namespace gputlm;

namespace {

// Every cycle: each SM's stall counts (SmCore::stall_cycles) and which schedulers issued.
class EveryCycle : public gpu::RunObserverIF, public sm::IssueTracerIF {
 public:
  explicit EveryCycle(gpu::Gpu& g) : gpu_(g) {
    for (uint32_t i = 0; i < g.config().sms; ++i) g.sm(i).core().set_issue_tracer(this);
    g.add_run_observer(*this);
    at(g.simulated_to());
  }
  uint64_t next_stop() const override { return next_; }
  void at(uint64_t cycle) override {
    for (uint32_t i = 0; i < gpu_.config().sms; ++i) {
      uint64_t e[sm::kElfStalls], k[sm::kKawsStalls];
      gpu_.sm(i).core().stall_cycles(cycle, e, k);
      uint64_t es = 0, ks = 0;
      for (uint64_t v : e) es += v;
      for (uint64_t v : k) ks += v;
      elf[i][cycle] = es;
      kaws[i][cycle] = ks;
    }
    next_ = cycle + 1;
  }
  void issued(const sm::WarpInstruction& wi) override {
    issuers[wi.sm][wi.issue_cycle] |= 1u << wi.issue_scheduler;
  }
  std::map<uint32_t, std::map<uint64_t, uint64_t>> elf, kaws;  // sm -> cycle -> stall scheduler-cycles before it
  std::map<uint32_t, std::map<uint64_t, uint32_t>> issuers;    // sm -> cycle -> schedulers that issued (bits)

 private:
  gpu::Gpu& gpu_;
  uint64_t next_ = 0;
};

}  // namespace

TEST_CASE("gpu_observe stall classes sampled every cycle count each scheduler-cycle once, sleeping SMs too",
          "[gpu][observe]") {
  config::ConfigSource source = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  source.apply_override("sms=4");
  const gpu::GpuConfig cfg = platforms::read_gpu_config(source);
  const runtime::LaunchSpec spec =
      runtime::parse_launch_spec(std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/saxpy/small/spec.json");
  auto backend = std::make_unique<gpu::TimingBackend>(cfg);
  gpu::Gpu& g = backend->gpu();
  EveryCycle probe(g);
  runtime::Runtime rt(std::move(backend));
  const runtime::SpecReport rep = runtime::run_launch_spec(spec, rt);
  REQUIRE(rep.ok());
  const uint32_t schedulers = cfg.sm.scheduler.count;
  uint64_t slept = 0, checked = 0;
  for (uint32_t i = 0; i < cfg.sms; ++i) {
    slept += static_cast<uint64_t>(g.stats().find("sm" + std::to_string(i) + ".sleep_cycles")->scalar(stats::View::Total));
    const auto& s = probe.elf[i];
    REQUIRE(s.size() > 100);
    for (auto it = std::next(s.begin()); it != s.end(); ++it) {
      const uint64_t cycle = it->first - 1;  // the sample at c + 1 adds cycle c
      const uint64_t stalls = it->second - std::prev(it)->second;
      const uint32_t bits = probe.issuers[i].count(cycle) ? probe.issuers[i][cycle] : 0u;
      const auto issuing = static_cast<uint64_t>(__builtin_popcount(bits));
      INFO("sm " << i << " cycle " << cycle << ": " << stalls << " stalled + " << issuing << " issuing schedulers");
      // With CTAs resident every scheduler either issues or stalls; without, neither.
      const bool whole = stalls + issuing == schedulers || stalls + issuing == 0;
      CHECK(whole);
      CHECK(probe.kaws[i][it->first] - probe.kaws[i][std::prev(it)->first] == stalls);
      ++checked;
    }
    // The last sample holds everything the statistics hold.
    const uint64_t total = static_cast<uint64_t>(
        g.stats().find("sm" + std::to_string(i) + ".stall_elf")->scalar(stats::View::Total));
    CHECK(s.rbegin()->second == total);
  }
  CHECK(slept > 0);  // the case that needs the cycles not yet accounted
  CHECK(checked > 400);
}

TEST_CASE("gpu_observe cycle windows: A:B, A:, and what is wrong with a bad one", "[gpu][observe]") {
  const trace::Window w = gpu::parse_cycle_window("1000:3000");
  CHECK(w.begin == 1000);
  CHECK(w.end == 3000);
  const trace::Window open = gpu::parse_cycle_window("5:");
  CHECK(open.begin == 5);
  CHECK(open.end == trace::Window{}.end);
  CHECK_THROWS_WITH(gpu::parse_cycle_window("5:3"), Catch::Contains("ends (3) before it starts (5)"));
  CHECK_THROWS_WITH(gpu::parse_cycle_window("5:5"), Catch::Contains("ends (5) before it starts (5)"));
  CHECK_THROWS_WITH(gpu::parse_cycle_window("100"), Catch::Contains("expected A:B"));
  CHECK_THROWS_WITH(gpu::parse_cycle_window("x:10"), Catch::Contains("start 'x' is not a core cycle number"));
  CHECK_THROWS_WITH(gpu::parse_cycle_window("1:-2"), Catch::Contains("end '-2' is not a core cycle number"));
}

TEST_CASE("gpu_observe socket lists name the sockets, an unknown one is an error listing the known", "[gpu][observe]") {
  CHECK(gpu::parse_socket_kinds("l1d,l2,dram") == std::vector<std::string>{"l1d", "l2", "dram"});
  CHECK(gpu::parse_socket_kinds("l2,l2") == std::vector<std::string>{"l2"});
  CHECK(gpu::parse_socket_kinds("all") == gpu::socket_kinds());
  CHECK_THROWS_WITH(gpu::parse_socket_kinds("l1d,l3"),
                    Catch::Contains("unknown socket 'l3'") && Catch::Contains("l1i, l1d, l1c, l1t, icnt, l2, dram"));
  CHECK_THROWS_WITH(gpu::parse_socket_kinds("l1d,"), Catch::Contains("empty socket name"));
  CHECK_THROWS_WITH(gpu::parse_socket_kinds(""), Catch::Contains("empty socket name"));
}
