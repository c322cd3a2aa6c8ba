// The timing path of `gputlm run` (issue 5 item 4): a launch spec on the timing GPU of a
// config file, outputs verified exactly as on the functional path, and a summary of the
// run (cycles, IPC, instructions, stall breakdowns, hit rates, DRAM bandwidth,
// simulation speed).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gputlm::cli {

struct TimingRunOptions {
  std::string spec_path;
  std::string config_path;
  std::vector<std::string> overrides;  // "-p key=value"
  std::string stats_path;              // write the statistics JSON here when not empty
  bool quiet = false;
  bool progress = false;  // force the progress bar (default: only when stderr is a terminal)
  // Observation (docs/observability.md); each is off when empty / zero.
  std::string timeline_path;         // --timeline: Chrome/Perfetto trace-event JSON
  std::string timeline_window;       // --timeline-window A:B (core cycles A..B-1; default: the whole run)
  uint64_t timeline_counter_period = 1000;  // --timeline-counters N: cycles between stall counters
  std::string transactions_path;     // --transactions: SQLite trace database
  std::string transactions_on;       // --transactions-on KINDS (default l1d,l2,dram)
  std::string sample_every;          // --sample-every N: sets the config's sample_period
};

// Result of one timing run, for the suite table.
struct TimingRunResult {
  bool ok = false;             // every expectation held
  uint64_t cycles = 0;         // core cycles in which a launch ran (gpu::busy_cycles): overlap counts once
  uint64_t warp_instructions = 0, thread_instructions = 0;
  double host_seconds = 0;     // host time of the GPU's simulation (its synchronisations)
};

// Runs the spec; throws on errors (bad spec/config, deadlock, execution error).
TimingRunResult run_timing(const TimingRunOptions& opts);

// `gputlm run ... --config`: prints the report; returns the exit status (0 ok, 3 mismatch).
int run_timing_command(const TimingRunOptions& opts);

}  // namespace gputlm::cli
