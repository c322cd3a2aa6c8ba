// One streaming multiprocessor (docs/blocks/sm.md): the front half (SmCore: fetch,
// decode/I-buffers, scoreboard, warp schedulers, retire, CTA bookkeeping), the back half
// (OperandCollector, ExecUnits, Lsu, Writeback), the L1 caches (L1I, L1D, L1C, L1T:
// mem::Cache in reject mode) and the memory port merging their misses into one
// initiator socket towards the interconnect.
//
// One ClockedProcess in the core clock domain ticks the stages back to front each cycle:
//   writeback, execution units, LSU, operand collectors, issue (schedulers), decode +
//   fetch (+ retire of finished warps / CTAs)
// and sleeps when none of them has work that needs another cycle; a CTA launch, an L1I
// response or an LSU memory response wakes it. The caches and the memory port have
// their own clocked processes in the same domain.
//
// The CTA scheduler (modules/gpu) drives it through SmCtaIF; the GPU top binds
// memory_socket() to an SM-side port of the interconnect.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/stats/stats.h"
#include "core/tlm/socket_tap.h"
#include "mem/cache/cache.h"
#include "sm/exec/exec_unit.h"
#include "sm/exec/writeback.h"
#include "sm/lsu/lsu.h"
#include "sm/mem_port/mem_port_arbiter.h"
#include "sm/operand_collector/operand_collector.h"
#include "sm/sm_config.h"
#include "sm/sm_core.h"
#include "sm/sm_cta_if.h"

namespace gputlm::sm {

class Sm : public sc_core::sc_module, public SmCtaIF {
 public:
  // Validates cfg (config::ConfigError naming "sm.<key>"). Statistics go to group
  // "sm<sm_id>" under `parent`. num_sms: SMs of the GPU (the LSU's local-memory map).
  // `taps` may put an observer on the sockets fetch->L1I ("l1i") and LSU->L1D/L1C/L1T
  // ("l1d", "l1c", "l1t").
  Sm(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t sm_id, uint32_t num_sms,
     const ClockDomain& core_clock, stats::Group& parent, SocketTapIF* taps = nullptr);
  ~Sm() override;

  // SmCtaIF
  uint32_t sm_id() const override { return sm_id_; }
  bool can_accept_cta(const KernelInstance& k) const override { return core_.can_accept_cta(k); }
  void launch_cta(KernelInstance& k, uint64_t cta_linear_id) override { core_.launch_cta(k, cta_linear_id); }
  void set_completion_callback(std::function<void(const CtaCompletion&)> cb) override {
    core_.set_completion_callback(std::move(cb));
  }
  uint32_t resident_ctas() const override { return core_.resident_ctas(); }
  uint32_t max_resident_ctas(const KernelInstance& k) const override;
  void enable_issue_stalls() override { core_.enable_issue_stalls(); }
  SmIssueStalls issue_stalls(uint64_t cycle) const override { return core_.issue_stalls(cycle); }
  std::string state_dump() const override;

  // The SM's initiator socket towards the interconnect (all L1 misses).
  tlm::tlm_initiator_socket<>& memory_socket() { return arbiter_.downstream; }

  // Why one more CTA of k does not fit ("" if it does): "cta slots", "threads", ...
  std::string occupancy_limit(const KernelInstance& k) const { return core_.occupancy_limit(k); }
  // Kernel boundary: invalidate the L1 caches in `which` (L1Cache bits) at their next edge.
  void invalidate_l1s(uint8_t which = kAllL1) override;
  // True when nothing is resident, in flight or outstanding (end-of-run check).
  bool idle() const;

  SmCore& core() { return core_; }
  mem::Cache& l1i() { return l1i_; }
  mem::Cache& l1d() { return l1d_; }
  mem::Cache& l1c() { return l1c_; }
  mem::Cache& l1t() { return l1t_; }
  Lsu& lsu() { return lsu_; }
  mem::DataPrefetcherIF* data_prefetcher() { return prefetcher_.get(); }
  OperandCollector& operand_collector() { return oc_; }
  stats::Group& stats_group() { return group_; }
  const ClockedProcess& process() const { return *process_; }

 private:
  struct MascarPort;  // the memory side Mascar reads and drives (sm.cpp)
  bool tick(uint64_t cycle);

  uint32_t sm_id_;
  SmConfig cfg_;
  stats::Group group_;
  SmCore core_;
  mem::Cache l1i_, l1d_, l1c_, l1t_;
  MemPortArbiter arbiter_;
  OperandCollector oc_;
  std::vector<std::unique_ptr<ExecUnit>> units_;
  uint64_t busy_units_ = 0;  // bit i: units_[i] holds instructions (ticked); idle units are skipped
  Lsu lsu_;
  Writeback writeback_;
  std::vector<std::unique_ptr<TlmPassThrough>> taps_;  // observers on sockets, when asked for
  std::unique_ptr<MascarPort> mascar_port_;  // with sm.scheduler.policy = mascar only
  std::function<uint64_t()> laws_owners_;     // LAWS-TH's Load_CNT read (laws policies only)
  std::unique_ptr<mem::DataPrefetcherIF> prefetcher_;  // sm.l1d_prefetch.policy != none only
  std::unique_ptr<ClockedProcess> process_;
};

}  // namespace gputlm::sm
