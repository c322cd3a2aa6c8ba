// ELF — Earliest Load First (digest §B1, 000 §3.1-3.2): a warp priority table (WPT) of
// saturating score_bits-wide entries, one per warp slot; lower issues first, ties oldest
// first. An entry starts at the priority calculator's value for the warp's start PC,
// drops by 1 on every issue of its warp and is recalculated at the warp's next PC after
// a program-point load, after a branch whose outcome the recalc rule names, and after a
// call or return. The program points are the kernel's (KernelInstance::elf, computed by
// the launcher with make_elf_program_points). Readings: docs/blocks/scheduler.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/analysis/elf.h"
#include "sm/scheduler/scheduler_policy.h"

namespace gputlm::sm {

// The program points of `kernel` for SMs configured with `cfg` ("the runtime before
// launch", 000 §4): null unless cfg.policy is elf. Throws config::ConfigError naming
// key_prefix.elf.<key> for a bad parameter.
std::unique_ptr<isa::analysis::ElfProgramPoints> make_elf_program_points(const SchedulerConfig& cfg,
                                                                         const isa::Function& kernel,
                                                                         const std::string& key_prefix = "sm.scheduler");
// The pass's configuration from the scheduler's (checked as above).
isa::analysis::ElfConfig elf_config(const ElfSchedulerConfig& cfg, const std::string& key_prefix);

class ElfPolicy final : public SchedulerPolicyIF {
 public:
  ElfPolicy(const ElfSchedulerConfig& cfg, const std::string& key_prefix, const PolicyContext& context);
  const char* name() const override { return "elf"; }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override;
  void issued(uint32_t, const isa::Instruction&) override {}
  bool wants_issue_outcome() const override { return true; }
  void issued_at(uint32_t slot, const isa::StepResult& step, uint64_t next_pc) override;
  void warp_removed(uint32_t slot) override { wpt_[slot].valid = false; }

  // The WPT entry of `slot` (its current priority); false if the warp has none yet.
  bool priority(uint32_t slot, uint32_t& value) const;

 private:
  struct Entry {
    bool valid = false;
    uint64_t age = 0;  // the warp the entry belongs to (a slot is reused by later CTAs)
    uint32_t priority = 0;
  };
  void start_warp(uint32_t slot, uint64_t age);  // calculator at the warp's start PC
  bool recalculates(const isa::analysis::ElfProgramPoints& elf, const isa::StepResult& step,
                    uint64_t next_pc) const;

  const WarpTable& table_;
  ElfStats* stats_;
  bool recalc_when_taken_;  // recalc_on = taken: a set bit recalculates on a taken branch
  std::vector<Entry> wpt_;
};

}  // namespace gputlm::sm
