// `gputlm correlate`: our cycles (and counters) beside a reference's — another simulator's
// or hardware profiles' — per workload or per kernel, with Pearson r and mean / median
// absolute error, in the style of Accel-Sim's correlator.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gputlm::study {

// One reference row: `kernel` empty means the whole workload (every launch).
struct RefRow {
  std::string workload, kernel;
  std::map<std::string, double> values;  // "cycles" always, unless the reference run failed; optional counters
  // The reference run failed: a `ref_check` (or `check`) column not PASS and no reference
  // cycles (the GPGPU-Sim side-by-side file's row of a kernel GPGPU-Sim could not run).
  bool reference_failed = false;
};

// Reads a CSV with a header naming `workload`, optional `kernel`, the reference cycles as
// `cycles` or `ref_cycles` (the latter wins: GPGPU-Sim side-by-side files carry both), and
// optional counters `warp_instructions`/`ref_warp_insn`, `thread_instructions`. Errors name
// the file and line; a row without reference cycles is an error unless its reference check
// column says the reference run failed (then it is kept with reference_failed set).
std::vector<RefRow> read_reference_csv(const std::string& path);

struct CorrRow {
  std::string workload, kernel;
  std::map<std::string, double> ref, ours;  // per quantity
};

struct CorrStats {
  std::size_t n = 0;
  double pearson_r = 0, mean_abs_error = 0, median_abs_error = 0;  // errors as fractions of the reference
};

// Our value of each quantity for the row: the sum over the run's launches whose kernel (mangled,
// or demangled without parameters) or label equals `kernel`, or over every launch.
std::optional<CorrRow> match(const RefRow& ref, const nlohmann::json& stats);

CorrStats correlation(const std::vector<CorrRow>& rows, const std::string& quantity);

}  // namespace gputlm::study
