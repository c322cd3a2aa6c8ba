// ELF warp priority table and issue order (digest §B1). The order is a function of the
// WPT, which changes only when this scheduler issues, so order_changes_only_on_issue()
// keeps its default (true); a newly placed warp changes residency, which makes the
// scheduler ask again, and order() gives it its initial value then.
#include "sm/scheduler/policies/elf_policy.h"

#include <array>
#include <stdexcept>
#include <tuple>

#include "core/config/config_source.h"
#include "sm/pipeline_protocol.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

ElfStats::ElfStats(stats::Group& sm_group)
    : group(sm_group, "elf"),
      prio_recalcs(group, "prio_recalcs",
                   "ELF priority-calculator runs triggered by issued instructions (loads, branches per "
                   "recalc_on, calls, returns; 000 Fig. 8)"),
      naive_recalcs(group, "naive_recalcs",
                    "calculator runs a naive WPT would make: one per instruction issued under ELF"),
      prio_inits(group, "prio_inits", "calculator runs giving a newly placed warp its initial priority") {}

isa::analysis::ElfConfig elf_config(const ElfSchedulerConfig& cfg, const std::string& key_prefix) {
  const std::string p = key_prefix.empty() ? "elf." : key_prefix + ".elf.";
  if (cfg.max_pp == 0) throw config::ConfigError("key '" + p + "max_pp': must be at least 1 (got 0)");
  if (cfg.score_bits == 0 || cfg.score_bits > 16)
    throw config::ConfigError("key '" + p + "score_bits': must be in 1..16 (got " + std::to_string(cfg.score_bits) +
                              ")");
  if (cfg.recalc_on != "taken" && cfg.recalc_on != "not_taken")
    throw config::ConfigError("key '" + p + "recalc_on': unknown branch outcome \"" + cfg.recalc_on +
                              "\" (taken or not_taken)");
  isa::analysis::ElfConfig c;
  c.max_pp = cfg.max_pp;
  c.score_bits = cfg.score_bits;
  c.local_loads = cfg.local_loads;
  c.generic_loads = cfg.generic_loads;
  return c;
}

std::unique_ptr<isa::analysis::ElfProgramPoints> make_elf_program_points(const SchedulerConfig& cfg,
                                                                         const isa::Function& kernel,
                                                                         const std::string& key_prefix) {
  if (cfg.policy != "elf") return nullptr;
  return std::make_unique<isa::analysis::ElfProgramPoints>(kernel, elf_config(cfg.elf, key_prefix));
}

ElfPolicy::ElfPolicy(const ElfSchedulerConfig& cfg, const std::string& key_prefix, const PolicyContext& context)
    : table_([&]() -> const WarpTable& {
        elf_config(cfg, key_prefix);  // the same checks as the launcher's
        if (context.warps == nullptr) throw std::invalid_argument("elf scheduling policy: no warp table given");
        return *context.warps;
      }()),
      stats_(context.elf_stats),
      recalc_when_taken_(cfg.recalc_on == "taken"),
      wpt_(context.warps->size()) {}

void ElfPolicy::start_warp(uint32_t slot, uint64_t age) {
  const WarpSlot& s = table_[slot];
  if (s.elf == nullptr)
    throw PipelineError("elf scheduling policy: warp " + std::to_string(slot) +
                        " belongs to a kernel launched without ELF program points");
  Entry& e = wpt_[slot];
  e.valid = true;
  e.age = age;
  e.priority = s.elf->priority(s.grid->peek_pc(*s.ctx));
  if (stats_) ++stats_->prio_inits;
}

void ElfPolicy::order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) {
  // Insertion into a fixed array (no allocation): (priority, age, slot) ascending.
  std::array<std::tuple<uint32_t, uint64_t, uint32_t>, 64> keys;
  std::size_t n = 0;
  for (const WarpView& w : warps) {
    const Entry& e = wpt_[w.slot];
    if (!e.valid || e.age != w.age) start_warp(w.slot, w.age);
    const auto k = std::make_tuple(wpt_[w.slot].priority, w.age, w.slot);
    std::size_t i = n++;
    while (i > 0 && k < keys[i - 1]) {
      keys[i] = keys[i - 1];
      --i;
    }
    keys[i] = k;
  }
  for (std::size_t i = 0; i < n; ++i) out.push_back(std::get<2>(keys[i]));
}

bool ElfPolicy::recalculates(const isa::analysis::ElfProgramPoints& elf, const isa::StepResult& step,
                             uint64_t next_pc) const {
  if (elf.is_point_load(*step.instr) || step.is_call || step.is_return) return true;
  if (!step.is_branch) return false;
  const bool bit = elf.recalc_at(step.pc);
  // An unconditional branch has one outcome; its bit (always set) means "recalculate".
  if (step.instr->guard == isa::kNone) return bit;
  // Taken: the warp continues somewhere other than the fall-through (for a divergent
  // branch, the path the SIMT stack runs first decides).
  const bool taken = next_pc != step.pc + isa::kInstrBytes;
  return bit ? taken == recalc_when_taken_ : taken != recalc_when_taken_;
}

void ElfPolicy::issued_at(uint32_t slot, const isa::StepResult& step, uint64_t next_pc) {
  Entry& e = wpt_[slot];
  if (stats_) ++stats_->naive_recalcs;
  if (e.priority > 0) --e.priority;
  if (next_pc == 0) return;  // the warp finished
  const isa::analysis::ElfProgramPoints& elf = *table_[slot].elf;
  if (!recalculates(elf, step, next_pc)) return;
  e.priority = elf.priority(next_pc);
  if (stats_) ++stats_->prio_recalcs;
}

bool ElfPolicy::priority(uint32_t slot, uint32_t& value) const {
  if (slot >= wpt_.size() || !wpt_[slot].valid) return false;
  value = wpt_[slot].priority;
  return true;
}

}  // namespace gputlm::sm
