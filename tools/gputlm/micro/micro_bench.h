// Microbenchmarks (workloads/micro/, docs/platforms/fermi_micro.md): runs one benchmark's
// launch spec on a timing GPU in this process (SystemC elaborates one GPU per process),
// checks its outputs against the CPU references, reads its timing buffer (cycles read
// with %clock, the SM core cycle) and derives its figures: latencies, bytes per cycle,
// operations per cycle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/gpu_config.h"

namespace gputlm::micro {

struct Figure {
  std::string item;  // "L1 hit", "stride 4 (4-way)", ...
  double value = 0;
  std::string unit;  // "cycles", "B/cycle", ...
};

struct BenchResult {
  std::string bench;
  bool ok = false;                    // every checked output matched its CPU reference
  std::vector<std::string> failures;  // output messages of the mismatches
  std::vector<uint32_t> timing;       // the kernel's raw timing buffer
  std::vector<Figure> figures;
};

// latency, bandwidth, shared, sfu, atomic, divergence.
const std::vector<std::string>& bench_names();

// Runs workloads/micro/<bench> from its generated spec (<build>/workloads/micro/<bench>/
// spec.json). Throws on errors (unknown bench, bad spec, deadlock).
BenchResult run_bench(const std::string& bench, const std::string& spec_path, const gpu::GpuConfig& cfg);

// "bench  item  value unit" lines, one figure per line.
std::string format_figures(const BenchResult& r);

}  // namespace gputlm::micro
