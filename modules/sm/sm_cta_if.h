// The boundary between the CTA scheduler (modules/gpu) and an SM (modules/sm): which
// kernel a CTA belongs to, whether an SM has room for one more CTA of it, and the
// notification when a CTA finishes. Several kernels may be resident on one SM at once
// (concurrent kernels on shared SM sets), so every call names its kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "isa/exec/functional_executor.h"

namespace gputlm::isa::analysis {
class ElfProgramPoints;
}

namespace gputlm::sm {

// Per-CTA resource demand of a kernel, as the hardware counts it.
struct CtaDemand {
  uint32_t threads = 0;          // threads per CTA (block size)
  uint32_t warps = 0;            // ceil(threads / warp size)
  uint32_t registers = 0;        // registers per CTA (per-thread count x threads, allocation-granular)
  uint32_t shared_bytes = 0;     // static + dynamic shared memory per CTA
};

// A kernel launch as the SMs see it. Owned by the GPU top for the kernel's lifetime.
struct KernelInstance {
  static constexpr uint64_t kNotIssued = ~uint64_t{0};
  uint32_t id = 0;                       // launch order, unique per GPU
  std::string name;                      // mangled kernel name
  isa::GridExecution* grid = nullptr;    // functional state: start_cta/step/peek/retire_cta
  CtaDemand demand;
  uint32_t registers_per_thread = 0;
  // ELF program points of the kernel, computed by the launcher before launch when the
  // SMs schedule with sm.scheduler.policy = elf (make_elf_program_points); else null.
  const isa::analysis::ElfProgramPoints* elf = nullptr;
  // Core cycle the CTA scheduler issued the kernel's last CTA (KAWS' kernel-wide trigger,
  // read by the SMs from the next cycle on); kNotIssued before.
  uint64_t last_cta_issue_cycle = kNotIssued;
};

// The L1 caches of an SM, as bits of a set (kernel-boundary invalidation).
enum L1Cache : uint8_t { kL1I = 1, kL1D = 2, kL1C = 4, kL1T = 8, kAllL1 = 15 };

// Core cycles with resident CTAs in which the SM issued nothing, by cause (DYNCTA's
// C_idle and C_mem; docs/blocks/gpu.md "CTA limit"). The cause of such a cycle is read
// from the union of every warp scheduler's warp blocks that cycle (stall_classification.h):
//   mem:  its ELF class is mem_conflict or mem_dep (the warp that got furthest waits on
//         memory: the LSU path is full, or a memory result is outstanding);
//   idle: its KAWS class is idle (no warp waits on a scoreboard hazard or a unit: every
//         warp waits for fetch, at a barrier, has exited or is throttled; too few warps).
// Other stalls (ALU dependences, non-memory units) count in neither.
struct SmIssueStalls {
  uint64_t idle = 0;
  uint64_t mem = 0;
};

// What an SM tells the CTA scheduler.
struct CtaCompletion {
  uint32_t kernel_id = 0;
  uint64_t cta_linear_id = 0;
  uint32_t sm = 0;
  uint64_t start_cycle = 0;   // core cycle the CTA was launched on the SM
  uint64_t finish_cycle = 0;  // core cycle its last warp finished
};

class SmCtaIF {
 public:
  virtual ~SmCtaIF() = default;
  virtual uint32_t sm_id() const = 0;
  // True when one more CTA of `k` fits now (CTA slots, threads, warps, registers,
  // shared memory), considering every kernel resident on the SM.
  virtual bool can_accept_cta(const KernelInstance& k) const = 0;
  // Starts CTA `cta_linear_id` of `k` on this SM at the current core cycle; the SM calls
  // grid->start_cta itself. Precondition: can_accept_cta(k).
  virtual void launch_cta(KernelInstance& k, uint64_t cta_linear_id) = 0;
  // Called (from the SM's tick) when a CTA has finished and its resources are free.
  virtual void set_completion_callback(std::function<void(const CtaCompletion&)> cb) = 0;
  // CTAs of `k` that fit on this SM when it is empty (its occupancy limit for k; 0 if
  // one CTA does not fit): what steering policies read as the kernel's concurrency.
  virtual uint32_t max_resident_ctas(const KernelInstance& k) const = 0;
  // Number of CTAs resident (all kernels), for statistics and the watchdog.
  virtual uint32_t resident_ctas() const = 0;
  // DYNCTA's counters (SmIssueStalls): off until enabled, so an SM whose CTA scheduler
  // does not limit CTAs does no per-cycle work for them. issue_stalls(cycle) counts the
  // core cycles before `cycle` since enabling (including cycles a sleeping SM has not
  // accounted yet); it only reads. An SM without the counters reports zeros.
  virtual void enable_issue_stalls() {}
  virtual SmIssueStalls issue_stalls(uint64_t /*cycle*/) const { return {}; }
  // Kernel boundary (the CTA scheduler's l1_invalidation policy): invalidate the L1
  // caches in `which` (L1Cache bits) at their next edge (mem::CacheControlIF::
  // invalidate_all: valid lines dropped, dirty ones written back, lines awaiting fills kept).
  virtual void invalidate_l1s(uint8_t which) = 0;
  // True when the SM has made no progress this cycle and nothing is in flight that
  // could make progress later (deadlock detection); and a human-readable dump of every
  // warp: PC, next instruction, why it waits, outstanding memory requests.
  virtual std::string state_dump() const = 0;
};

}  // namespace gputlm::sm
