// The figures a person wants after a timing run, taken from the statistics JSON of the
// GPU top (one kernel's epoch or the total): cycles, IPC, warp instructions, the two
// stall breakdowns (seed-mechanisms §S), L1D / L2 hit rates, DRAM bandwidth.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu/gpu_config.h"

namespace gputlm::gpu {

// The core cycles a launch ran: [start, end), as KernelRun's start_cycle (first CTA
// launched) and end_cycle (last CTA finished), so that end - start is KernelRun::cycles.
struct LaunchInterval {
  uint64_t start = 0, end = 0;
};

// Core cycles in which at least one launch ran: the size of the union of the intervals.
// Launches that overlap (different streams) count once; on one stream the launches are
// disjoint and this is the sum of their cycles (the cycle between one kernel's end and
// the next one's start, when the GPU runs nothing, is not counted). GPGPU-Sim's
// gpu_tot_sim_cycle likewise counts a cycle once however many kernels run in it.
// Order of `launches` does not matter; an interval with end <= start counts nothing.
uint64_t busy_cycles(std::vector<LaunchInterval> launches);

// One SM kind's share of a run on a GPU with sm_groups.
struct KindTotals {
  std::string kind;
  uint32_t first_sm = 0, sms = 0;  // its SM ids: first_sm .. first_sm + sms - 1
  uint64_t warp_instructions = 0, thread_instructions = 0;
};

struct RunSummary {
  uint64_t cycles = 0;         // of the whole run: busy_cycles of its launches
  uint64_t launch_cycles = 0;  // sum of the launches' own cycles; above `cycles` when launches overlapped
  uint64_t warp_instructions = 0, thread_instructions = 0;
  std::map<std::string, uint64_t> stall_elf, stall_kaws;  // scheduler-cycles, summed over SMs
  uint64_t l1d_loads = 0, l1d_load_hits = 0, l2_loads = 0, l2_load_hits = 0;
  uint64_t dram_reads = 0, dram_writes = 0;
  uint64_t dram_atoms = 0;  // RD and WR commands: the data moved is dram_atoms x atom bytes
  double dram_gbs = 0, dram_peak_gbs = 0;
  std::vector<KindTotals> kinds;  // per SM kind, in sm_groups' order; empty without sm_groups

  // GPGPU-Sim's gpu_ipc: thread instructions per core cycle; and warp instructions per cycle.
  double ipc() const { return cycles ? static_cast<double>(thread_instructions) / static_cast<double>(cycles) : 0; }
  double warp_ipc() const { return cycles ? static_cast<double>(warp_instructions) / static_cast<double>(cycles) : 0; }
  double l1d_hit_rate() const { return l1d_loads ? static_cast<double>(l1d_load_hits) / static_cast<double>(l1d_loads) : 0; }
  double l2_hit_rate() const { return l2_loads ? static_cast<double>(l2_load_hits) / static_cast<double>(l2_loads) : 0; }
};

// `stats` is Gpu::stats().to_json(view) or a KernelRun::stats; `cycles` the core cycles
// it covers (launch_cycles is set to the same; a caller summing overlapped launches sets it). Missing statistics count as 0 (an SM without an L1D access has its counters,
// but a kernel may use no memory at all).
RunSummary summarize(const nlohmann::json& stats, const GpuConfig& cfg, uint64_t cycles);

// Several lines: cycles (with the per-launch sum when launches overlapped), IPC, instructions, stall breakdowns (percent of scheduler-cycles
// without issue), hit rates, DRAM bandwidth, and with SM kinds each kind's share of the
// instructions. Each line starts with `indent`.
std::string format_summary(const RunSummary& s, const std::string& indent = "  ");

}  // namespace gputlm::gpu
