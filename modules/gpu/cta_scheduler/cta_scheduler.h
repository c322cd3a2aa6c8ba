// The CTA scheduler (issue 5 item 3): a queue of kernel launches, admission of kernels
// (several may run at once, on disjoint or shared SM sets chosen by a steering policy),
// and the assignment of CTAs to SMs: at most `ctas_per_cycle` CTAs per core cycle, each
// to a different SM, round robin over the SMs starting after the SM that got the last
// CTA (GPGPU-Sim's issue_block2core), the SM deciding whether the CTA fits
// (SmCtaIF::can_accept_cta: CTA slots, threads, warps, registers, shared memory).
// Among running kernels the oldest admitted kernel with CTAs left is served first.
//
// Time (docs/blocks/gpu.md): the scheduler's decisions at core cycle N are taken after
// every SM has done its cycle N (the scheduler runs one delta cycle after the clock
// edge), so they never depend on SystemC's evaluation order. A CTA launched at cycle N
// has its warps eligible from cycle N + 1. A CTA that completes at cycle N frees its SM
// for a replacement from cycle N + 1 (KAWS, seed-mechanisms §P2: "a replacement CTA is
// assigned the cycle after a CTA completes"). A kernel completes at the finish cycle of
// its last CTA; a kernel waiting behind it on the same stream is admitted at the next
// cycle.
//
// CTA limit (`limit`, docs/blocks/gpu.md "CTA limit"): none, or dyncta, which caps the
// CTAs resident on each SM at a per-SM n moved every dyncta.period cycles from the SM's
// memory and idle stall cycles (dyncta.h). A limited SM gets no new CTA while its resident
// CTAs (all kernels) are >= n; resident CTAs are never preempted.
//
// An idle scheduler (nothing to issue, or every SM of every running kernel full) sleeps
// until a launch or a CTA completion wakes it.
//
// Kernel boundaries (docs/blocks/gpu.md, "L1 invalidation"): the L1 caches are not
// coherent, so an SM's L1s are invalidated when a kernel new to the SM gets a CTA there
// (`l1_invalidation`), as GPGPU-Sim's -gpgpu_flush_l1_cache does for the GTX480.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/config/params.h"
#include "core/stats/stats.h"
#include "gpu/cta_scheduler/dyncta.h"
#include "gpu/dispatch/steering_policy.h"
#include "sm/sm_cta_if.h"

namespace gputlm::gpu {

struct CtaSchedulerConfig {
  uint32_t ctas_per_cycle = 1;
  uint32_t kernel_launch_latency = 0;
  uint32_t cta_launch_latency = 0;
  uint32_t max_concurrent_kernels = 16;
  std::string steering = "all";
  SplitSteeringConfig split;
  KindSteeringConfig by_kind;
  IlpTlpSteeringConfig ilp_tlp;
  std::string l1_invalidation = "on_idle";
  std::vector<std::string> l1_invalidation_caches = {"l1d"};
  std::string limit = "none";
  DynctaConfig dyncta;

  template <class V>
  void visit(V& v) {
    v.param("ctas_per_cycle", ctas_per_cycle,
            "CTAs assigned per core cycle, GPU-wide, each to a different SM (KAWS / seed §P2: 1; "
            "GPGPU-Sim assigns one per SIMT-core cluster per cycle, i.e. one per SM on Fermi: set it to the SM count)",
            config::at_least(1));
    v.param("kernel_launch_latency", kernel_launch_latency,
            "cycles from a kernel's admission to its first CTA (GPGPU-Sim -gpgpu_kernel_launch_latency; 0 on "
            "SM2_GTX480)",
            config::at_least(0));
    v.param("cta_launch_latency", cta_launch_latency,
            "further cycles per CTA of the kernel before its first CTA (GPGPU-Sim -gpgpu_TB_launch_latency, which "
            "delays the kernel by num_blocks x this; 0 on SM2_GTX480)",
            config::at_least(0));
    v.param("max_concurrent_kernels", max_concurrent_kernels,
            "kernels that may be admitted (running) at once; later launches wait in the queue (Fermi: 16)",
            config::at_least(1));
    v.param("steering", steering,
            "kernel steering policy choosing a kernel's SM set at admission: all (every SM), split (disjoint "
            "fixed SM groups for concurrent kernels, see split.*), by_kind (the SMs of the kind a per-kernel "
            "rule names, see by_kind.*), ilp_tlp (the ILP or TLP SMs by the kernel's resource usage, the "
            "heterogeneous GPU's rule, see ilp_tlp.*)",
            config::any());
    v.group("split", split, "parameters of steering policy 'split'");
    v.group("by_kind", by_kind, "parameters of steering policy 'by_kind'");
    v.group("ilp_tlp", ilp_tlp, "parameters of steering policy 'ilp_tlp'");
    v.param("l1_invalidation", l1_invalidation,
            "when an SM's L1s (those in l1_invalidation_caches) are invalidated at a kernel boundary, i.e. when "
            "a kernel new to the SM gets a CTA there: none (never), on_idle (only if the SM has no resident CTA, else at the next "
            "CTA launch that finds it idle: GPGPU-Sim -gpgpu_flush_l1_cache 1, the GTX480 default), "
            "on_new_kernel (at once, even with other kernels' CTAs resident: valid lines dropped, lines "
            "awaiting fills kept)",
            config::one_of({"none", "on_idle", "on_new_kernel"}));
    v.param("l1_invalidation_caches", l1_invalidation_caches,
            "the L1 caches a kernel-boundary invalidation drops, any of l1i, l1d, l1c, l1t (GPGPU-Sim "
            "invalidates only the L1D: ldst_unit::invalidate)",
            config::one_of({"l1i", "l1d", "l1c", "l1t"}));
    v.param("limit", limit,
            "per-SM limit on resident CTAs below the occupancy maximum: none, or dyncta (DYNCTA, seed §A10: n per "
            "SM, moved every dyncta.period cycles from the SM's memory/idle stall cycles, see dyncta.*)",
            config::one_of({"none", "dyncta"}));
    v.group("dyncta", dyncta, "parameters of limit 'dyncta' (thresholds and period: seed unspec., our reading of "
                              "Kayiran PACT'13)");
  }

  SteeringConfig steering_config() const { return SteeringConfig{split, by_kind, ilp_tlp}; }
  // l1_invalidation_caches as sm::L1Cache bits; throws config::ConfigError naming the key
  // (under `prefix`) for an unknown cache, or an empty list with l1_invalidation != none.
  uint8_t l1_invalidation_cache_bits(const std::string& prefix = "cta_scheduler") const;
  // Every cross-field check: the L1 invalidation keys, the steering policy and every
  // policy's parameters, the chosen policy against a GPU whose SMs have `sm_kinds` (one
  // per SM; skipped when empty). Throws config::ConfigError naming the key.
  void validate(const std::string& prefix = "cta_scheduler", const std::vector<std::string>& sm_kinds = {}) const;
};

// How a kernel is launched: its stream (launches on one stream run one after the other,
// launches on different streams may run concurrently) and, optionally, an explicit SM
// set that overrides the steering policy.
struct KernelLaunchOptions {
  uint32_t stream = 0;
  std::vector<uint32_t> sm_set;  // empty: the steering policy chooses
};

// Everything the scheduler knows about one launch; cycles are core cycles.
struct KernelRecord {
  static constexpr uint64_t kNotYet = ~uint64_t{0};
  sm::KernelInstance* kernel = nullptr;
  uint32_t stream = 0;
  uint64_t cta_count = 0;
  std::vector<uint32_t> sm_set;  // chosen at admission
  // Of sm_set, the SMs its CTAs go to first (SteeringPolicyIF::preferred); empty: none.
  std::vector<uint32_t> preferred;
  uint64_t submit_cycle = kNotYet, admit_cycle = kNotYet;
  uint64_t issue_from = 0;                  // first cycle a CTA may be launched (after the launch latency)
  uint64_t first_cta_cycle = kNotYet;       // first CTA launched
  uint64_t last_cta_issue_cycle = kNotYet;  // last CTA launched ("last CTA issued", KAWS)
  uint64_t end_cycle = kNotYet;             // finish cycle of the kernel's last completing CTA
  uint64_t ctas_issued = 0, ctas_completed = 0;
  bool waited_for_sms = false;  // the steering policy had no SMs for it at least once
  // The last CTA issued (KAWS Table 2's "last CTA"): where it ran and when.
  uint64_t last_cta_id = kNotYet;
  uint32_t last_cta_sm = 0;
  uint64_t last_cta_start = kNotYet, last_cta_finish = kNotYet;
  std::vector<sm::CtaCompletion> ctas;  // every completed CTA, in completion order

  bool admitted() const { return admit_cycle != kNotYet; }
  bool all_issued() const { return ctas_issued == cta_count; }
  bool completed() const { return end_cycle != kNotYet; }
  // Issue-to-completion cycles of the last CTA issued (seed-mechanisms §S last_cta_time).
  uint64_t last_cta_time() const { return last_cta_finish - last_cta_start; }
  // Cycles from the first CTA launch to the completion of the last CTA.
  uint64_t cycles() const { return end_cycle - first_cta_cycle; }
};

// Observers of kernel progress (the GPU top's per-kernel statistics, KAWS's last-CTA
// policy). Called from the scheduler's cycle, in a deterministic order.
class CtaSchedulerListener {
 public:
  virtual ~CtaSchedulerListener() = default;
  virtual void kernel_admitted(const KernelRecord&) {}
  virtual void cta_launched(const KernelRecord&, uint32_t /*sm*/, uint64_t /*cta*/) {}
  virtual void last_cta_issued(const KernelRecord&) {}
  virtual void cta_completed(const KernelRecord&, const sm::CtaCompletion&) {}
  virtual void kernel_completed(const KernelRecord&) {}
};

class CtaScheduler : public sc_core::sc_module {
 public:
  CtaScheduler(sc_core::sc_module_name name, const CtaSchedulerConfig& cfg, const ClockDomain& core,
               stats::Group& parent);
  ~CtaScheduler() override;

  // Elaboration: the SMs in id order (sm.sm_id() must equal the number added before it);
  // `kind` is what steering policies see.
  void add_sm(sm::SmCtaIF& sm, const std::string& kind = "sm");
  // Replaces the configured steering policy (before the first submit).
  void set_steering(std::unique_ptr<SteeringPolicyIF> policy);
  const SteeringPolicyIF& steering() const { return *steering_; }
  void add_listener(CtaSchedulerListener& listener) { listeners_.push_back(&listener); }

  // Queues a launch of `kernel` with `cta_count` CTAs (at any time; it is considered from
  // the next core cycle). The kernel instance must outlive its completion; kernel.id must
  // be unique. Throws std::invalid_argument for a bad SM set, a duplicate id or no SMs;
  // the first submit checks the steering policy's parameters against the SMs
  // (config::ConfigError naming the key).
  void submit(sm::KernelInstance& kernel, uint64_t cta_count, const KernelLaunchOptions& options = {});

  // Nothing queued and nothing running.
  bool idle() const { return queue_.empty() && running_.empty(); }
  bool completed(uint32_t kernel_id) const { return record(kernel_id).completed(); }
  const KernelRecord& record(uint32_t kernel_id) const;
  const std::deque<KernelRecord>& records() const { return records_; }
  // Kernels admitted and not yet completed, in admission order.
  std::vector<const KernelRecord*> running() const;
  uint32_t sm_count() const { return static_cast<uint32_t>(sms_.size()); }

  // Notified (at the cycle) when the last CTA of a kernel has been issued (KAWS).
  const sc_core::sc_event& last_cta_issued_event() const { return last_cta_issued_event_; }
  uint64_t activations() const { return activations_; }
  const CtaSchedulerConfig& config() const { return cfg_; }

  // limit = dyncta: SM `sm`'s current n (0 before its first kernel), and every value it
  // took as (core cycle from which it holds, n), starting with the value set when a
  // kernel started on the idle SM. Empty / 0 with limit = none.
  uint32_t cta_limit(uint32_t sm) const { return sms_.at(sm).dyn.n; }
  const std::vector<std::pair<uint64_t, uint32_t>>& cta_limit_history(uint32_t sm) const {
    return sms_.at(sm).dyn.history;
  }
  bool limits_ctas() const { return dyncta_on_; }

 private:
  enum class L1Invalidation : uint8_t { None, OnIdle, OnNewKernel };
  // DYNCTA state of one SM.
  struct DynctaSm {
    uint32_t n = 0;                   // the limit (0: no kernel has started on the SM yet)
    sm::SmIssueStalls base;           // the SM's counts at the start of the current period
    uint64_t period_start = 0;        // first cycle of the current period
    std::vector<std::pair<uint64_t, uint32_t>> history;
    std::unique_ptr<stats::Group> group;
    std::unique_ptr<stats::Counter> ups, downs, c_idle, c_mem, periods;
    std::unique_ptr<stats::Average> n_avg;
    std::unique_ptr<GaugeStat> n_final;
  };
  struct SmSlot {
    sm::SmCtaIF* sm = nullptr;
    std::string kind;
    uint64_t eligible_from = 0;  // a CTA completed: no replacement before this cycle
    // Kernels with a CTA launched here since the L1s were last invalidated (first use:
    // since elaboration), and whether a kernel boundary still owes an invalidation.
    std::vector<uint32_t> epoch_kernels;
    bool owes_invalidation = false;
    DynctaSm dyn;
    // Completions reported from a parallel edge's SM tick, applied at the edge's end.
    std::vector<sm::CtaCompletion> deferred;
  };
  void on_completion(const sm::CtaCompletion& c);
  void record_completion(const sm::CtaCompletion& c);
  void wake();
  void wake_at(uint64_t cycle);
  void run();
  bool tick(uint64_t cycle);
  void retire_completions(uint64_t cycle);
  void admit(uint64_t cycle);
  bool issue_one(uint64_t cycle, std::vector<uint8_t>& used);
  // One round-robin pass over the SMs; with `preferred_only`, a kernel with preferred SMs
  // takes only those.
  bool issue_pass(uint64_t cycle, std::vector<uint8_t>& used, bool preferred_only);
  // Before a CTA of `r` is launched on `slot`: the kernel-boundary L1 invalidation.
  void kernel_boundary(SmSlot& slot, const KernelRecord& r);
  // What steering policies see; max_resident_ctas is filled for `kernel` if given.
  SteeringContext steering_context(const sm::KernelInstance* kernel = nullptr) const;
  KernelRecord& record_of(uint32_t kernel_id);
  static bool in_set(const std::vector<uint32_t>& set, uint32_t sm);
  // DYNCTA: a kernel admitted on `r.sm_set`; the period boundary at `cycle`.
  void dyncta_admitted(const KernelRecord& r, uint64_t cycle);
  void dyncta_period(uint64_t cycle);
  void dyncta_set(SmSlot& slot, uint32_t n, uint64_t cycle);

  CtaSchedulerConfig cfg_;
  const ClockDomain& core_;
  std::unique_ptr<SteeringPolicyIF> steering_;
  bool steering_checked_ = false;  // SteeringPolicyIF::check ran (at the first submit)
  L1Invalidation l1_invalidation_ = L1Invalidation::OnIdle;
  uint8_t l1_invalidation_caches_ = 0;  // sm::L1Cache bits
  std::vector<SmSlot> sms_;
  std::vector<CtaSchedulerListener*> listeners_;
  std::deque<KernelRecord> records_;   // every launch, in submission order (stable addresses)
  std::vector<KernelRecord*> queue_;   // submitted, not admitted, in submission order
  std::vector<KernelRecord*> running_; // admitted, not completed, in admission order
  struct Reported {
    uint64_t cycle;  // the edge the SM reported it at
    sm::CtaCompletion c;
  };
  std::vector<Reported> completions_;        // reported, not yet retired
  std::vector<sm::CtaCompletion> retiring_;  // retire_completions scratch
  std::map<uint32_t, KernelRecord*> by_id_;
  std::map<uint32_t, uint64_t> stream_free_from_;  // per stream: first cycle a successor may start
  // The running set changes (admissions, completions); a kernel the steering policy
  // refused is asked again only after it changed (kernel id -> change count at refusal).
  uint64_t running_changes_ = 0;
  std::map<uint32_t, uint64_t> refused_at_;
  std::vector<uint8_t> used_;          // per SM: got a CTA this cycle (scratch)
  uint32_t rr_next_ = 0;               // first SM tried for the next CTA
  bool dyncta_on_ = false;             // limit == dyncta
  uint64_t dyncta_next_ = 0;           // next period boundary

  // process state (see run())
  sc_core::sc_event wake_event_, last_cta_issued_event_;
  bool sleeping_ = true, edge_phase_ = true;
  uint64_t timer_cycle_ = ~uint64_t{0};
  uint64_t activations_ = 0;

  stats::Group stats_;
  stats::Counter ctas_issued_, ctas_completed_, kernels_admitted_, kernels_completed_, issue_cycles_;
  stats::Counter l1_invalidations_, steering_waits_;
  stats::Average cta_time_, last_cta_time_, kernel_cycles_;
  std::unique_ptr<stats::Group> dyncta_stats_;
  std::unique_ptr<stats::Counter> dyncta_limited_;
};

}  // namespace gputlm::gpu
