// `gputlm run SPEC.json (--functional | --config GPU.json [-p key=value]... [--progress]
// [observation options]) [--stats FILE] [--quiet]`: runs a launch spec
// (docs/launch-spec.md) on the functional executor or cycle by cycle on a timing GPU
// (timing_run.cpp) and checks its outputs. The observation options (timeline,
// transaction database, time series) are described in docs/observability.md.
// Exit status: 0 when every expectation
// holds, 3 when an output mismatches, 1 on any error (malformed spec, execution error),
// 2 on bad usage.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli.h"
#include "core/clock/clock_ticker.h"
#include "timing_run.h"
#include "isa/ir.h"
#include "runtime/concurrent_spec.h"
#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"

namespace {

using gputlm::runtime::LaunchResult;
using gputlm::runtime::OutputReport;
using gputlm::runtime::SpecReport;

constexpr int kExitMismatch = 3;

int run_usage(FILE* out) {
  std::fprintf(out,
               "usage: gputlm run SPEC.json (--functional | --config GPU.json [-p key=value]... [--progress]\n"
               "                 [--timeline FILE [--timeline-window A:B] [--timeline-counters N]]\n"
               "                 [--transactions FILE] [--transactions-on KINDS] [--sample-every N])\n"
               "                 [--stats FILE] [--quiet] [--threads N] [--tick-order-seed N]\n\n"
               "Runs the kernels of a launch spec (docs/launch-spec.md) and checks its outputs.\n"
               "  --functional   run on the functional SIMT executor (no timing)\n"
               "  --config FILE  run cycle by cycle on the timing GPU of FILE (configs/fermi_gtx480.json)\n"
               "  -p key=value   override a config parameter (gputlm params --config FILE lists them)\n"
               "  --progress     show the progress bar even when stderr is not a terminal\n"
               "  --stats FILE   write per-launch statistics and verification results as JSON\n"
               "  --quiet        print only errors and mismatches\n"
               "  --threads N    host threads ticking the SMs of one core edge (the config's `threads`):\n"
               "                 the statistics are identical for every N; observing a run ticks serially\n"
               "Observing a timing run (docs/observability.md; none of it changes the statistics):\n"
               "  --timeline FILE         write a Chrome/Perfetto trace-event JSON (open it in ui.perfetto.dev\n"
               "                          or chrome://tracing): kernels, CTAs, warp issue per scheduler, stall\n"
               "                          counters per SM, transactions on the --transactions-on sockets;\n"
               "                          ts = core cycle (1 ns in ui.perfetto.dev, 1 us in chrome://tracing)\n"
               "  --timeline-window A:B   trace only core cycles A to B-1 (A:  from A to the end)\n"
               "  --timeline-counters N   core cycles between the timeline's stall counters (default 1000)\n"
               "  --transactions FILE     record every transaction on the chosen sockets into an SQLite database\n"
               "  --transactions-on KINDS sockets for --transactions and --timeline, comma-separated from\n"
               "                          l1i,l1d,l1c,l1t,icnt,l2,dram or all (default l1d,l2,dram)\n"
               "  --sample-every N        add a \"time_series\" to --stats: IPC, hit rates, DRAM bytes/cycle and\n"
               "                          stall classes every N core cycles (the config's sample_period)\n"
               "Checking the model:\n"
               "  --tick-order-seed N     tick the blocks due at a clock edge in an order shuffled per edge from\n"
               "                          N (0: creation order, the default); the statistics must not change\n"
               "Exit status: 0 all expectations hold, 3 an output mismatches, 1 error, 2 usage.\n");
  return out == stdout ? 0 : 2;
}

std::string dim_str(const gputlm::runtime::Dim3& d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

// "sgemm_tiled" for "_Z11sgemm_tilediPKfS0_Pf": the demangled name without its parameters.
std::string short_name(const std::string& mangled) {
  std::string d = gputlm::isa::demangle(mangled);
  return d.substr(0, d.find('('));
}

double rate(uint64_t n, double seconds) { return seconds > 0 ? static_cast<double>(n) / seconds : 0.0; }

nlohmann::json to_json(const SpecReport& rep) {
  nlohmann::json j;
  j["spec"] = rep.spec_path;
  j["backend"] = rep.backend;
  j["ok"] = rep.ok();
  uint64_t warp = 0, thread = 0;
  double secs = 0;
  for (const LaunchResult& l : rep.launches) {
    nlohmann::json e;
    e["label"] = l.label;
    e["kernel"] = l.kernel;
    e["kernel_demangled"] = gputlm::isa::demangle(l.kernel);
    e["grid"] = {l.grid.x, l.grid.y, l.grid.z};
    e["block"] = {l.block.x, l.block.y, l.block.z};
    e["dynamic_shared_bytes"] = l.dynamic_shared_bytes;
    if (l.resources) {
      e["registers"] = l.resources->registers;
      e["static_shared_bytes"] = l.resources->shared_bytes;
    }
    e["ctas"] = l.ctas;
    e["warp_instructions"] = l.warp_instructions;
    e["thread_instructions"] = l.thread_instructions;
    e["host_seconds"] = l.host_seconds;
    e["warp_instructions_per_second"] = rate(l.warp_instructions, l.host_seconds);
    j["launches"].push_back(e);
    warp += l.warp_instructions;
    thread += l.thread_instructions;
    secs += l.host_seconds;
  }
  j["total"] = {{"warp_instructions", warp},
                {"thread_instructions", thread},
                {"host_seconds", secs},
                {"warp_instructions_per_second", rate(warp, secs)}};
  j["outputs"] = nlohmann::json::array();
  for (const OutputReport& o : rep.outputs) {
    nlohmann::json e;
    e["buffer"] = o.buffer;
    e["type"] = gputlm::runtime::elem_name(o.type);
    if (!o.written_file.empty()) e["file"] = o.written_file;
    e["checked"] = o.checked;
    if (o.checked) {
      e["ok"] = o.compare.ok();
      e["elements"] = o.compare.count;
      e["mismatches"] = o.compare.mismatches;
      e["max_abs_error"] = o.compare.max_abs_error;
      e["rtol"] = o.rtol;
      e["atol"] = o.atol;
      if (!o.compare.ok()) {
        e["first_bad_index"] = o.compare.first_bad;
        e["expected"] = o.compare.expected_value;
        e["actual"] = o.compare.actual_value;
      }
      e["message"] = o.message();
    }
    j["outputs"].push_back(e);
  }
  return j;
}

void print_report(const SpecReport& rep, bool quiet) {
  if (!quiet) {
    std::printf("%s (%s)\n", rep.spec_path.c_str(), rep.backend.c_str());
    std::printf("  %-14s %-24s %-12s %-10s %14s %16s %10s %14s\n", "launch", "kernel", "grid", "block",
                "warp instr", "thread instr", "host s", "warp instr/s");
    for (const LaunchResult& l : rep.launches)
      std::printf("  %-14s %-24s %-12s %-10s %14llu %16llu %10.4f %14.4g\n", l.label.c_str(), short_name(l.kernel).c_str(),
                  dim_str(l.grid).c_str(), dim_str(l.block).c_str(),
                  static_cast<unsigned long long>(l.warp_instructions),
                  static_cast<unsigned long long>(l.thread_instructions), l.host_seconds,
                  rate(l.warp_instructions, l.host_seconds));
  }
  for (const OutputReport& o : rep.outputs) {
    bool bad = o.checked && !o.compare.ok();
    if (quiet && !bad) continue;
    std::fprintf(bad ? stderr : stdout, "  output %-12s %s%s%s\n", o.buffer.c_str(), o.message().c_str(),
                 o.written_file.empty() ? "" : " -> ", o.written_file.c_str());
  }
  if (!quiet) std::printf("%s\n", rep.ok() ? "PASS" : "FAIL");
}

int cmd_run(int argc, char** argv) {
  std::string spec_path, stats_path, config_path;
  std::vector<std::string> overrides;
  bool functional = false, quiet = false, progress = false;
  gputlm::cli::TimingRunOptions t;
  std::string counters, order_seed, threads;
  // Options of a timing run that only observe it: refused with --functional.
  std::vector<std::string> observing;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") return run_usage(stdout);
    std::string* value = nullptr;
    if (a == "--config") value = &config_path;
    else if (a == "-p") value = &overrides.emplace_back();
    else if (a == "--stats") value = &stats_path;
    else if (a == "--timeline") value = &t.timeline_path;
    else if (a == "--timeline-window") value = &t.timeline_window;
    else if (a == "--timeline-counters") value = &counters;
    else if (a == "--transactions") value = &t.transactions_path;
    else if (a == "--transactions-on") value = &t.transactions_on;
    else if (a == "--sample-every") value = &t.sample_every;
    else if (a == "--tick-order-seed") value = &order_seed;
    else if (a == "--threads") value = &threads;
    if (value != nullptr) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "gputlm run: %s needs a value\n", a.c_str());
        return run_usage(stderr);
      }
      *value = argv[++i];
      if (a.rfind("--timeline", 0) == 0 || a.rfind("--transactions", 0) == 0 || a == "--sample-every" ||
          a == "--tick-order-seed")
        observing.push_back(a);
    } else if (a == "--functional") {
      functional = true;
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a == "--progress") {
      progress = true;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "gputlm run: unknown option '%s'\n", a.c_str());
      return run_usage(stderr);
    } else if (spec_path.empty()) {
      spec_path = a;
    } else {
      std::fprintf(stderr, "gputlm run: more than one spec given ('%s', '%s')\n", spec_path.c_str(), a.c_str());
      return run_usage(stderr);
    }
  }
  if (spec_path.empty()) {
    std::fprintf(stderr, "gputlm run: no spec given\n");
    return run_usage(stderr);
  }
  if (functional == !config_path.empty()) {
    std::fprintf(stderr, "gputlm run: error: choose one model: --config GPU.json (timing, e.g. "
                         "configs/fermi_gtx480.json) or --functional\n");
    return 1;
  }
  if (!overrides.empty() && functional) {
    std::fprintf(stderr, "gputlm run: -p overrides a GPU config: use it with --config\n");
    return run_usage(stderr);
  }
  if (!observing.empty() && functional) {
    std::fprintf(stderr, "gputlm run: %s observes a timing run: use it with --config\n", observing.front().c_str());
    return run_usage(stderr);
  }
  if (!threads.empty()) {
    if (functional) {
      std::fprintf(stderr, "gputlm run: --threads sets the timing GPU's host threads: use it with --config\n");
      return run_usage(stderr);
    }
    overrides.push_back("threads=" + threads);  // checked (1..256) with the config
  }
  if (!order_seed.empty()) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long seed = std::strtoull(order_seed.c_str(), &end, 10);
    if (order_seed[0] == '-' || end == order_seed.c_str() || *end != '\0' || errno == ERANGE) {
      std::fprintf(stderr, "gputlm run: --tick-order-seed needs an unsigned integer, got '%s'\n", order_seed.c_str());
      return 2;
    }
    gputlm::ClockTicker::set_order_seed(seed);
  }
  if (!config_path.empty()) {
    if (!counters.empty()) {
      std::size_t used = 0;
      try {
        t.timeline_counter_period = std::stoull(counters, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != counters.size() || counters[0] == '-' || t.timeline_counter_period == 0) {
        std::fprintf(stderr, "gputlm run: error: --timeline-counters: '%s' is not a positive number of core cycles\n",
                     counters.c_str());
        return 1;
      }
    }
    t.spec_path = spec_path;
    t.config_path = config_path;
    t.overrides = overrides;
    t.stats_path = stats_path;
    t.quiet = quiet;
    t.progress = progress;
    return gputlm::cli::run_timing_command(t);
  }
  const gputlm::runtime::SpecFile spec = gputlm::runtime::parse_spec_file(spec_path);
  gputlm::runtime::Runtime rt;
  SpecReport rep = gputlm::runtime::run_spec_file(spec, rt);
  print_report(rep, quiet);
  if (!stats_path.empty()) {
    std::ofstream f(stats_path);
    if (!f) throw std::runtime_error("cannot open stats file '" + stats_path + "' for writing");
    f << to_json(rep).dump(2) << "\n";
    if (!f) throw std::runtime_error("failed writing stats file '" + stats_path + "'");
  }
  return rep.ok() ? 0 : kExitMismatch;
}

}  // namespace

GPUTLM_CLI_COMMAND("run", "run a launch spec (kernels, buffers, expected outputs)", cmd_run);
