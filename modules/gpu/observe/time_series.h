// The time series of a timing run (docs/observability.md): every `period` core cycles,
// IPC (whole GPU and per launch), L1D and L2 load hit rates, DRAM bandwidth and the
// schedulers' stall classes, each over the interval that ends at the sample. Cumulative
// values are recorded by a stats::Sampler at the run loop's stops (Gpu::run stops only
// for observers, so a run without a time series never stops for one); the rates are
// differences of neighbouring samples. JSON:
//   {"period": N, "cycle": [c1, c2, ...],
//    "series": {"ipc": [...], "ipc.<launch label>": [...], "l1d_hit_rate": [...],
//               "l2_hit_rate": [...], "dram_bytes_per_cycle": [...],
//               "stall.<ELF class>": [...], "stall_kaws.<KAWS class>": [...],
//               "dyncta_n": [...]}}  (cta_scheduler.limit = dyncta: mean n over the SMs at the sample)
// cycle[i] is the first cycle after interval i (intervals are [cycle[i-1], cycle[i]),
// the first from the cycle sampling began); the last interval ends with the run and may
// be shorter than N.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/stats/stats.h"
#include "gpu/gpu.h"
#include "gpu/observe/run_observer.h"

namespace gputlm::gpu {

class TimeSeries : public RunObserverIF {
 public:
  // Samples `gpu` every `period` core cycles (period > 0) from now on; registers itself
  // as a run observer of `gpu`.
  TimeSeries(Gpu& gpu, uint64_t period);

  uint64_t next_stop() const override { return sampler_.next_sample(); }
  void at(uint64_t cycle) override;
  // The last, partial interval: up to the end of what has been simulated.
  void finish();
  // The JSON above, written as it is read back from the samples (a long series is never
  // a JSON tree in memory); to_json() parses it (small series: tests, the demo).
  void write_json(std::ostream& out) const;
  nlohmann::json to_json() const;

 private:
  void sample(uint64_t cycle, bool forced);

  Gpu& gpu_;
  uint64_t schedulers_ = 0;  // over the whole GPU
  stats::Sampler sampler_;
  uint64_t stall_cycle_ = 0;  // the cycle the stall probes count up to
  std::vector<uint64_t> elf_, kaws_;
  // Launches' thread instructions: a record (sample index; launch id, count) in
  // launch_log_ whenever a launch's count changed since the previous sample, and per
  // launch where its records start (memory O(launches), not O(samples x launches)).
  struct LaunchTrace {
    uint64_t last_value = 0;
    std::size_t first_record = 0, records = 0;
  };
  stats::RowLog launch_log_{2};
  std::vector<LaunchTrace> launches_;
  uint32_t settled_ = 0;  // launches below are done and their last count recorded
};

}  // namespace gputlm::gpu
