// The operand-collector stage of an SM (docs/blocks/operand_collector.md).
//
// An instruction issued in cycle I (through `issue_in`) is placed at once in a free
// collector unit of its unit type (per scheduler when configured); its distinct source
// registers (predicates live outside the banked register file) are requested from
// their banks, bank (r + warp) mod banks. From cycle I+1 every bank delivers one operand
// per cycle: the oldest request (issue order) whose collector still has a read port
// free this cycle. A collector whose last operand arrived in cycle R (or that needed
// none, allocated in I+1 = R) dispatches from cycle R+1 to a unit of its type that can
// accept (unit order: the dispatch ports of that type in index order; with
// units_per_scheduler only unit k mod schedulers of its scheduler, the LSU shared), oldest
// instruction first. A freed collector takes a new instruction from the next cycle.
//
// Sockets and status:
//   issue_in                   PipelineInSocket, bound by every scheduler's issue socket
//   issue_status_export        IssueStatusIF: can_accept(scheduler, unit), unit_for(instr)
//                              (readable by every scheduler: KAWS warp sharing)
//   dispatch[i], unit_status[i] one per execution unit instance, in the order of
//                              dispatch_ports(): SP x sp_units, SFU x sfu_units,
//                              DP x dp_units, INT x int_units, then the LSU (Mem)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/stats/stats.h"
#include "sm/exec/exec_config.h"
#include "sm/exec/unit_status_if.h"
#include "sm/operand_collector/operand_collector_config.h"
#include "sm/pipeline_protocol.h"

namespace gputlm::sm {

// The unit type of each dispatch port, in port order (see above).
std::vector<UnitType> dispatch_ports(const ExecConfig& exec);
// units_per_scheduler's conditions: per_scheduler, and SP/SFU/DP/INT unit counts that split
// evenly over the schedulers. Throws config::ConfigError naming key_prefix + the key.
void validate_unit_binding(const OperandCollectorConfig& cfg, const ExecConfig& exec, const std::string& key_prefix);

class OperandCollector : public sc_core::sc_module, public PipelineStage, public IssueStatusIF {
 public:
  PipelineInSocket issue_in;
  sc_core::sc_export<IssueStatusIF> issue_status_export;
  sc_core::sc_vector<PipelineOutSocket> dispatch;
  sc_core::sc_vector<sc_core::sc_port<UnitStatusIF>> unit_status;

  // Validates both configs (config::ConfigError naming "operand_collector.<key>").
  OperandCollector(sc_core::sc_module_name name, const OperandCollectorConfig& cfg, const ExecConfig& exec,
                   const ClockDomain& domain, stats::Group& parent);

  // IssueStatusIF
  bool can_accept(uint32_t scheduler, UnitType unit) const override;
  uint64_t availability_version(uint64_t cycle) const override {
    // Taking or freeing a collector is an event; a freed one becomes usable a cycle later.
    // An issue width used up in a cycle is free again the next.
    return 4 * collector_events_ + (cycle >= last_free_from_ ? 2 : 0) + (cycle >= width_free_from_ ? 1 : 0);
  }
  UnitType unit_for(const isa::Instruction& in) const override;
  // PipelineStage
  bool tick(uint64_t cycle) override;
  std::string state_dump() const override;

  uint32_t bank_of(uint32_t reg, uint32_t warp) const { return (reg + warp) % cfg_.register_banks; }
  bool idle() const { return occupied_ == 0; }
  const std::vector<UnitType>& ports() const { return ports_; }

 private:
  struct Collector {
    UnitType type = UnitType::Sp;
    uint32_t scheduler = 0;         // owner scheduler when per_scheduler
    WarpInstruction* wi = nullptr;
    uint64_t seq = 0;               // wi->seq, kept here: the dispatch scan compares ages
    uint32_t pending = 0;           // operands not yet read
    uint64_t ready = 0;             // first cycle it may dispatch (valid when pending == 0)
    uint64_t free_from = 0;         // first cycle it may take a new instruction
    uint64_t allocated = 0;         // cycle its instruction was placed in it
    uint64_t read_cycle = ~uint64_t{0};
    uint32_t reads_in_cycle = 0;
  };
  struct ReadRequest {
    uint64_t order = 0;       // issue order of the owning instruction, then operand order
    uint64_t eligible = 0;    // first cycle the bank may serve it
    uint32_t collector = 0;
  };
  void receive(WarpInstruction& wi);
  int32_t find_free(uint32_t scheduler, UnitType unit, uint64_t now) const;
  void dispatch_ready(uint64_t cycle);
  void read_banks(uint64_t cycle);

  OperandCollectorConfig cfg_;
  bool has_dp_, has_int_, divide_on_sfu_;
  const ClockDomain& domain_;
  std::vector<UnitType> ports_;
  static constexpr uint32_t kAnyScheduler = 0xffffffffu;
  std::vector<uint32_t> port_scheduler_;  // per port: the scheduler it serves (units_per_scheduler)
  std::vector<UnitStatusIF*> unit_if_;    // per port: unit_status[p]'s interface, found at the first tick
  std::vector<Collector> collectors_;
  // Per (scheduler group, unit type), at group * kUnitTypes + type: the collectors it may
  // use, a contiguous range of collectors_ (a search reads those only, not every collector).
  struct Range {
    uint32_t first = 0, end = 0;
  };
  std::vector<Range> ranges_;
  // Collectors holding an instruction with every operand read (bit i = collectors_[i]): the
  // dispatch scan's candidates.
  std::vector<uint64_t> complete_;
  void set_complete(std::size_t i) { complete_[i >> 6] |= uint64_t{1} << (i & 63); }
  void clear_complete(std::size_t i) { complete_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  std::vector<uint8_t> tried_;  // scratch: collectors whose units refused this cycle
  std::vector<std::vector<ReadRequest>> banks_;
  uint32_t queued_reads_ = 0;  // over all banks: read_banks has nothing to do at 0
  uint64_t order_ = 0;
  uint32_t occupied_ = 0;
  uint64_t collector_events_ = 0;  // collectors taken or freed (availability_version)
  uint64_t last_free_from_ = 0;
  uint64_t issued_cycle_ = ~uint64_t{0}, width_free_from_ = 0;
  std::array<uint32_t, 5> issued_{};  // per UnitType in issued_cycle_ (issue_width_*)

  stats::Group stats_;
  stats::Counter instructions_, operand_reads_, bank_conflict_cycles_, dispatch_stall_cycles_;
  stats::CounterVector dispatched_;
  stats::CounterVector busy_cycles_;  // per (scheduler when per_scheduler, unit type)
};

}  // namespace gputlm::sm
