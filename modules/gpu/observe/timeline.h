// The timeline of a timing run (docs/observability.md): a Chrome / Perfetto trace-event
// file for a window of core cycles (begin to end-1: timestamps in [begin, end]), with
//   process "GPU"            a thread per stream: kernel slices (launch label)
//   process "SM i"           a thread per warp scheduler: one slice per issued warp
//                            instruction (name: opcode; args: warp, pc, cta, kernel; a
//                            dual-issued second one nests in the first one's cycle);
//                            async slices: CTAs (launch to last warp finished) and the
//                            transactions of the SM's observed sockets (l1i/l1d/l1c/l1t/icnt);
//                            counters "stall_elf" and "stall_kaws": the share of the SM's
//                            scheduler-cycles in each stall class per counter period
//   process "partition p"    async slices: transactions on the L2 bank and DRAM sockets
// `ts` is the core cycle (ui.perfetto.dev shows it as 1 ns: displayTimeUnit "ns";
// chrome://tracing as 1 us). Outside the window nothing is
// traced: the schedulers' tracer is installed when the window opens and removed when it
// closes; transactions and CTAs crossing a window edge are cut at it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/trace_event_writer.h"
#include "core/tlm/transaction_recorder.h"
#include "gpu/cta_scheduler/cta_scheduler.h"
#include "gpu/gpu.h"
#include "gpu/observe/run_observer.h"
#include "sm/scheduler/issue_tracer.h"

namespace gputlm::gpu {

// "A:B" (core cycles A to B-1, A < B) or "A:" (from A to the end of the run); throws
// std::invalid_argument saying what is wrong.
trace::Window parse_cycle_window(const std::string& text);

class Timeline : public RunObserverIF,
                 public sm::IssueTracerIF,
                 public CtaSchedulerListener,
                 public TransactionSink {
 public:
  // Creates the file `path` (an error names it). Counters are sampled every
  // `counter_period` core cycles of the window (> 0).
  Timeline(const std::string& path, trace::Window window, uint64_t counter_period);

  // After the GPU is elaborated (its socket recorders report here already): names the
  // tracks and starts watching the run.
  void observe(Gpu& gpu);
  // The kernels, the last counters; closes the file (throws when a write failed).
  void finish();
  uint64_t events() const { return out_.events(); }

  // RunObserverIF
  uint64_t next_stop() const override;
  void at(uint64_t cycle) override;
  // sm::IssueTracerIF
  void issued(const sm::WarpInstruction& wi) override;
  // CtaSchedulerListener
  void cta_completed(const KernelRecord& r, const sm::CtaCompletion& c) override;
  // TransactionSink
  uint32_t attach(const TransactionRecorder& r) override;
  void finished(uint32_t socket, const TransactionRecord& t) override;

 private:
  struct Socket {
    uint32_t pid = 0;
    std::string kind;
  };
  static uint32_t sm_pid(uint32_t sm) { return 10 + sm; }
  static uint32_t partition_pid(uint32_t p) { return 10000 + p; }  // above every SM (sms <= 1024)
  void open_window(uint64_t cycle);
  void close_window(uint64_t cycle);
  void sample_counters(uint64_t cycle);
  const std::string& label(uint32_t kernel_id) const;

  trace::TraceEventWriter out_;
  uint64_t counter_period_;
  uint64_t begin_, end_;  // cycles begin_ .. end_-1 are traced; end_ = kNever: to the end of the run
  Gpu* gpu_ = nullptr;
  double core_period_ps_ = 1;
  bool active_ = false, closed_ = false;
  uint64_t next_counter_ = 0, last_counter_ = 0;
  std::vector<uint64_t> elf_, kaws_;  // per SM x class, at last_counter_
  std::vector<Socket> sockets_;
  uint64_t next_id_ = 1;
};

}  // namespace gputlm::gpu
