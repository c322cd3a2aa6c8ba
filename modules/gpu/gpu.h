// The GPU top (issue 5 item 3): N SMs, the CTA scheduler, the memory side (crossbar and
// memory partitions, L2 bank + DRAM channel each: mem::MemorySystem) and the deadlock
// watchdog, in four clock domains (core, interconnect, L2, DRAM), with one statistics
// tree rooted at "gpu" (the memory side's groups sit beside the SMs: "gpu.icnt",
// "gpu.l2p0", ...).
//
//   SM i (L1I/L1D/L1C/L1T -> SM memory port) --> memory sm_side[i] (crossbar)
//   crossbar mem_side[p] --> memory partition p (L2 bank -> queues -> DRAM channel)
//
// Kernels are launched from a decoded module (isa::LoadedModule, whose DeviceMemory the
// functional model reads and writes as instructions issue) and run cycle by cycle by
// run(). The timing memory system carries no data: timing decides when, the functional
// model what (docs/architecture.md §5).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/clock/clock_domain.h"
#include "core/stats/stats.h"
#include "core/tlm/socket_tap.h"
#include "gpu/cta_scheduler/cta_scheduler.h"
#include "gpu/gpu_config.h"
#include "gpu/observe/run_observer.h"
#include "gpu/watchdog/watchdog.h"
#include "isa/analysis/elf.h"
#include "isa/exec/functional_executor.h"
#include "mem/interconnect/interconnect.h"
#include "mem/l2/l2_partition.h"
#include "mem/l2/memory_system.h"
#include "sm/sm.h"

namespace gputlm::gpu {

// The run ended because nothing made progress (watchdog) or the simulation starved
// with kernels unfinished. what() carries the state dump.
class DeadlockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Any other failure during simulation (an execution error of the functional model such
// as an out-of-bounds access, a protocol violation, the cycle limit).
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What one kernel launch did on the timing GPU.
struct KernelRun {
  uint32_t id = 0;
  std::string kernel;  // mangled name
  std::string label;
  uint32_t stream = 0;  // KernelLaunchOptions::stream it was launched on
  isa::Dim3 grid, block;
  uint32_t registers_per_thread = 0;
  sm::CtaDemand demand;
  uint64_t ctas = 0;
  uint64_t start_cycle = 0, end_cycle = 0, cycles = 0;  // core cycles (first CTA launch .. last CTA finish)
  uint64_t last_cta_time = 0;                           // KAWS Table 2
  uint64_t warp_instructions = 0, thread_instructions = 0;
  // ELF (sm.scheduler.policy = elf): program points of the kernel before and after
  // merging (000 Table 2); both 0 under other policies.
  uint32_t elf_points_before_merge = 0, elf_points = 0;
  double host_seconds = 0;  // from admission to completion
  nlohmann::json stats;     // the statistics tree's epoch that this kernel's completion closed
  bool done = false;
};

class Gpu : public sc_core::sc_module, private CtaSchedulerListener {
 public:
  // Validates cfg (config::ConfigError naming the key). `taps` may put observers on
  // sockets (docs/observability.md): each SM's L1 sockets and its port to the crossbar
  // ("icnt"), each partition's L2 bank and DRAM channel.
  Gpu(sc_core::sc_module_name name, GpuConfig cfg, SocketTapIF* taps = nullptr);
  ~Gpu() override;

  struct LaunchOptions {
    KernelLaunchOptions dispatch;  // stream and optional SM set
    std::optional<uint32_t> registers_per_thread;  // from ptxas (resources JSON); unknown: 0
    std::optional<uint32_t> static_shared_bytes;    // overrides the PTX's declared shared memory
    std::string label;
    isa::ExecOptions exec;
  };
  // Queues a launch; returns its kernel id (launch order). The module must outlive the run.
  uint32_t launch(const isa::LoadedModule& module, const isa::LaunchParams& params, const LaunchOptions& options);

  // Runs until every launched kernel has completed, or until `stop` (asked whenever a
  // kernel completes) says so: the simulation then pauses at the end of that delta cycle,
  // and launches queued before the next run() join the kernels still running (a host that
  // relaunches as soon as a stream drains). Throws DeadlockError (watchdog or starvation,
  // with the state dump) or SimulationError.
  void run(std::function<bool()> stop = {});
  // Host threads ticking the SMs of a core edge (config `threads`; 1 with socket taps).
  unsigned host_threads() const;
  // Core edges whose SMs ticked on several host threads, and those ticked serially.
  uint64_t parallel_edges() const;
  uint64_t serial_edges() const;
  // Ticks every edge on the simulation thread from now on: observers that record the SMs'
  // events in one sequence (the timeline's issue tracer) call it.
  void serialize_edges();
  // Called about every `period` core cycles during run() (progress bars).
  void set_progress_callback(std::function<void(uint64_t cycle)> cb, uint64_t period = 100000);
  // run() stops at the observer's cycles and lets it look (not owned; outlives the runs).
  void add_run_observer(RunObserverIF& o) { observers_.push_back(&o); }
  // Every core cycle before this one has been simulated (and none after, but for
  // cycles without any event).
  uint64_t simulated_to() const { return simulated_to_; }
  // Thread instructions the kernel with this id has issued so far.
  uint64_t kernel_thread_instructions(uint32_t id) const;

  const KernelRun& kernel_run(uint32_t id) const;
  const std::deque<KernelRun>& kernel_runs() const { return runs_; }
  // Hands each completed kernel's statistics epoch to `sink` instead of keeping it in its
  // KernelRun (whose `stats` then stays null): a run of many launches does not hold every
  // launch's statistics tree (about 2 MB each on the GTX480) until it ends.
  using KernelStatsSink = std::function<void(const KernelRun& run, nlohmann::json&& stats)>;
  void set_kernel_stats_sink(KernelStatsSink sink) { stats_sink_ = std::move(sink); }
  // Every SM's state, outstanding memory requests and running kernels.
  std::string state_dump() const;
  // The watchdog's report once it has fired (for platforms that run the GPU in their
  // own sc_start instead of run()).
  const std::optional<std::string>& deadlock() const { return deadlock_; }

  const GpuConfig& config() const { return cfg_; }
  stats::Group& stats() { return stats_; }
  const ClockDomain& core_clock() const { return core_; }
  uint64_t cycle() const { return core_.now(); }
  CtaScheduler& cta_scheduler() { return *cta_scheduler_; }
  sm::Sm& sm(uint32_t i) { return *sms_.at(i); }
  MemorySystem& memory() { return *memory_; }
  Interconnect& interconnect() { return memory_->interconnect(); }
  L2Partition& partition(uint32_t p) { return memory_->partition(p); }
  // Brings cycle-weighted statistics (DRAM utilisation) up to now.
  void update_stats();
  // Warp instructions issued plus memory packets moved so far (watchdog progress).
  uint64_t progress() const;

 private:
  struct Kernel {
    std::unique_ptr<isa::GridExecution> grid;
    std::unique_ptr<isa::analysis::ElfProgramPoints> elf;  // computed at launch under ELF
    sm::KernelInstance instance;
    std::chrono::steady_clock::time_point admitted;
  };
  // CtaSchedulerListener
  void kernel_admitted(const KernelRecord& r) override;
  void kernel_completed(const KernelRecord& r) override;
  void watchdog_fired(uint64_t cycle, uint64_t stalled_since);
  void notify_observers();
  void simulate_until(uint64_t until);

  GpuConfig cfg_;
  ClockDomain core_, icnt_clock_, l2_clock_, dram_clock_;
  stats::Group stats_;
  std::unique_ptr<MemorySystem> memory_;
  std::vector<std::unique_ptr<sm::Sm>> sms_;
  std::unique_ptr<CtaScheduler> cta_scheduler_;
  std::unique_ptr<Watchdog> watchdog_;
  std::vector<std::unique_ptr<TlmPassThrough>> taps_;  // observers on the SM -> crossbar sockets
  std::deque<Kernel> kernels_;  // parallel to runs_, by kernel id; a completed one's grid is freed
  uint64_t completed_warp_instructions_ = 0;  // of the kernels whose grid was freed
  std::deque<KernelRun> runs_;
  std::optional<std::string> deadlock_;
  std::function<void(uint64_t)> progress_cb_;
  KernelStatsSink stats_sink_;
  uint64_t progress_period_ = 100000;
  std::vector<RunObserverIF*> observers_;
  uint64_t simulated_to_ = 0;
  std::function<bool()> stop_;  // run()'s stop condition
  bool stopped_ = false;        // it held at a kernel completion: sc_pause() was called
};

}  // namespace gputlm::gpu
