// Memory-system benchmark (issue 3 item 8; run by hand, not a test): GTX480-like
// traffic through L1 -> crossbar -> L2 partition -> DRAM, in two patterns:
//   stream: each SM reads (10% writes) consecutive lines of its own region;
//   random: each SM reads (10% writes) random lines of a 256 MB range.
// Reports simulated transactions (completed SM requests) per host second and host ns
// per simulated core cycle, plus a few simulated figures (L1/L2 hit rates, DRAM
// bandwidth utilisation and row-hit rate) as a sanity check.
//
//   mem_bench [--requests N_per_sm] [--pattern stream|random] [--sms N] [--partitions N]
// (environment MEM_BENCH_STATS=1 also prints the statistics tree as JSON)
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/stats/stats.h"
#include "core/traffic/traffic_generator.h"
#include "mem/cache/cache.h"
#include "mem/l2/memory_system.h"

using namespace gputlm;

namespace {

struct Options {
  uint64_t requests = 20000;
  std::string pattern = "stream";
  uint32_t sms = 15;        // GTX480
  uint32_t partitions = 6;  // GTX480 -gpgpu_n_mem 6
};

struct Result {
  uint64_t transactions = 0, core_cycles = 0, dram_requests = 0;
  double host_seconds = 0, wall_seconds = 0, l1_hit_rate = 0, l2_hit_rate = 0, dram_util = 0, row_hit_rate = 0;
};

// SMs' L1s in front of the memory system. SystemC allows one elaboration per process,
// so a run simulates one pattern.
class Bench {
 public:
  explicit Bench(const Options& o)
      : core_(ClockDomain::from_mhz("core", 700.0)),  // -gpgpu_clock_domains 700:700:700:924
        icnt_clk_(ClockDomain::from_mhz("icnt", 700.0)),
        l2_clk_(ClockDomain::from_mhz("l2", 700.0)),
        dram_clk_(ClockDomain::from_mhz("dram", 924.0)),
        root_("gpu") {
    MemorySystemConfig mc;
    mc.icnt.sm_ports = o.sms;
    mc.icnt.mem_ports = o.partitions;
    memory_ = std::make_unique<MemorySystem>("memory", mc, icnt_clk_, l2_clk_, dram_clk_, root_);
    for (uint32_t i = 0; i < o.sms; ++i) {
      mem::CacheConfig l1;  // 32 KB, 8-way, 128 B, 32 x 8 MSHRs, write-evict, reject mode
      l1s_.push_back(std::make_unique<mem::Cache>(("l1_" + std::to_string(i)).c_str(), l1, core_, root_));
      l1s_.back()->downstream.bind(memory_->sm_side());
    }
  }
  void add_generators(const std::string& pattern, const Options& o) {
    for (uint32_t i = 0; i < o.sms; ++i) {
      TrafficGeneratorConfig g;
      g.requests = o.requests;
      g.pattern = pattern == "stream" ? "sequential" : "random";
      g.range_bytes = pattern == "stream" ? (64ull << 20) : (256ull << 20);
      g.base_address = pattern == "stream" ? i * (64ull << 20) : 0;
      g.write_fraction = 0.1;
      g.max_outstanding = 32;
      // TrafficGenerator seeds s and s+1 give the same stream shifted by one draw: spread them.
      g.seed = 1 + uint64_t{i} * 1000003;
      gens_.push_back(std::make_unique<TrafficGenerator>((pattern + "_sm" + std::to_string(i)).c_str(), g, core_,
                                                         root_));
      gens_.back()->out.bind(l1s_[i]->upstream);
    }
  }
  std::vector<std::unique_ptr<TrafficGenerator>>& gens() { return gens_; }
  MemorySystem& memory() { return *memory_; }
  stats::Group& root() { return root_; }
  const ClockDomain& core() const { return core_; }

 private:
  ClockDomain core_, icnt_clk_, l2_clk_, dram_clk_;
  stats::Group root_;
  std::unique_ptr<MemorySystem> memory_;
  std::vector<std::unique_ptr<mem::Cache>> l1s_;
  std::vector<std::unique_ptr<TrafficGenerator>> gens_;
};

double total(stats::Group& root, const std::string& path) {
  const stats::Stat* s = root.find(path);
  if (!s) {
    std::fprintf(stderr, "mem_bench: no statistic %s\n", path.c_str());
    std::exit(2);
  }
  return s->scalar(stats::View::Total);
}

Result run(Bench& m, const Options& o) {
  Result r;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  auto done = [&] {
    for (auto& g : m.gens())
      if (!g->done()) return false;
    return true;
  };
  while (!done()) sc_core::sc_start(m.core().period() * 1000);
  // Host CPU time of this process: the machine is shared, wall time is reported beside it.
  r.host_seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.memory().update_stats();
  for (auto& g : m.gens()) {
    r.transactions += g->completed();
    r.core_cycles = std::max(r.core_cycles, g->last_completion_cycle() + 1);
  }
  double l1_loads = 0, l1_hits = 0, l2_loads = 0, l2_hits = 0, busy = 0, cycles = 0, rows = 0, row_hits = 0;
  for (uint32_t i = 0; i < o.sms; ++i) {
    l1_loads += total(m.root(), "l1_" + std::to_string(i) + ".loads");
    l1_hits += total(m.root(), "l1_" + std::to_string(i) + ".load_hits");
  }
  for (uint32_t p = 0; p < o.partitions; ++p) {
    const std::string q = "memory.l2p" + std::to_string(p);
    for (uint32_t k = 0; k < m.memory().partition(p).sub_partitions(); ++k) {
      l2_loads += total(m.root(), q + ".sub" + std::to_string(k) + ".bank.loads");
      l2_hits += total(m.root(), q + ".sub" + std::to_string(k) + ".bank.load_hits");
    }
    busy += total(m.root(), q + ".dram.data_bus_busy_cycles");
    cycles += total(m.root(), q + ".dram.cycles");
    row_hits += total(m.root(), q + ".dram.row_hits");
    rows += total(m.root(), q + ".dram.row_hits") + total(m.root(), q + ".dram.row_misses") +
            total(m.root(), q + ".dram.row_conflicts");
    r.dram_requests += static_cast<uint64_t>(total(m.root(), q + ".dram.reads") + total(m.root(), q + ".dram.writes"));
  }
  r.l1_hit_rate = l1_loads > 0 ? l1_hits / l1_loads : 0;
  r.l2_hit_rate = l2_loads > 0 ? l2_hits / l2_loads : 0;
  r.dram_util = cycles > 0 ? busy / cycles : 0;
  r.row_hit_rate = rows > 0 ? row_hits / rows : 0;
  return r;
}

void print(const char* pattern, const Result& r) {
  std::printf("%-7s transactions %9llu  core cycles %9llu  host CPU %.3f s (wall %.3f s)  |  %.3f M transactions/host s  "
              "%.1f host ns/core cycle  |  L1 hit %.3f  L2 hit %.3f  DRAM requests %llu  bus util %.3f  row hit %.3f\n",
              pattern, static_cast<unsigned long long>(r.transactions), static_cast<unsigned long long>(r.core_cycles),
              r.host_seconds, r.wall_seconds, r.transactions / r.host_seconds / 1e6, r.host_seconds * 1e9 / r.core_cycles,
              r.l1_hit_rate, r.l2_hit_rate, static_cast<unsigned long long>(r.dram_requests), r.dram_util,
              r.row_hit_rate);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "mem_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--requests") o.requests = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--pattern") o.pattern = value();
    else if (a == "--sms") o.sms = static_cast<uint32_t>(std::strtoul(value().c_str(), nullptr, 10));
    else if (a == "--partitions") o.partitions = static_cast<uint32_t>(std::strtoul(value().c_str(), nullptr, 10));
    else {
      std::fprintf(stderr, "usage: mem_bench [--requests N_per_sm] [--pattern stream|random] [--sms N] [--partitions N]\n");
      return 2;
    }
  }
  if (o.pattern != "stream" && o.pattern != "random") {
    std::fprintf(stderr, "mem_bench: --pattern must be stream or random (one pattern per process: SystemC "
                         "elaborates once)\n");
    return 2;
  }
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  Bench m(o);
  m.add_generators(o.pattern, o);
  std::printf("mem_bench: %u SMs (L1 32 KB) -> crossbar -> %u L2 partitions (128 KB) -> GDDR5 channels, "
              "%llu requests per SM, pattern %s\n",
              o.sms, o.partitions, static_cast<unsigned long long>(o.requests), o.pattern.c_str());
  print(o.pattern.c_str(), run(m, o));
  if (std::getenv("MEM_BENCH_STATS")) std::printf("%s\n", m.root().to_json().dump(1).c_str());
  return 0;
}
