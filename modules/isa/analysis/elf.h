// ELF (Earliest Load First) program points and scores: the compiler pass of the ELF paper
// (000 Alg. 1 and 2, digest seed-mechanisms.md §B1) over one kernel's instructions, and
// the hardware priority calculator the warp scheduler queries. Readings of the
// ambiguous points are documented in docs/isa.md ("ELF").
#pragma once

#include <cstdint>
#include <vector>

#include "isa/ir.h"

namespace gputlm::isa::analysis {

struct ElfConfig {
  uint32_t max_pp = 32;     // program-point table slots (MAX_PP)
  uint32_t score_bits = 8;  // score width; MAX_SCORE = 2^score_bits - 1
  // Which loads are program points besides ld.global / ldu.global (score 0). Shared,
  // constant and parameter loads never are.
  bool local_loads = true;    // ld.local (off-chip, like global)
  bool generic_loads = true;  // ld without a state space (may address global memory)
};

// Whether `ins` is a load program point under `c` (Alg. 1 step 1; also the loads after
// which the scheduler's priority calculator runs).
bool is_program_point_load(const Instruction& ins, const ElfConfig& c);

struct ProgramPoint {
  uint32_t index = 0;  // instruction index in the function
  uint64_t pc = 0;
  bool is_branch = false;
  uint32_t score = 0;  // branch: distance to the nearest load; load: merged distance (0 = unmerged)
};

class ElfProgramPoints {
 public:
  // Runs Alg. 1 (with Alg. 2 merging) on `f`. Throws std::invalid_argument for a bad
  // config (max_pp == 0, score_bits outside 1..31).
  ElfProgramPoints(const Function& f, const ElfConfig& config = {});

  // The PP table, sorted by PC (what the hardware table holds after launch).
  const std::vector<ProgramPoint>& table() const { return table_; }
  uint32_t max_score() const { return max_score_; }
  // Number of PPs after steps 1-3 and before merging (ELF paper Table 2).
  uint32_t points_before_merge() const { return before_merge_; }

  // Priority calculator: priority of a warp whose next PC is `pc` (lower = issue first).
  // PCs outside the analysed function (e.g. inside a callee) get MAX_SCORE.
  uint32_t priority(uint64_t pc) const;
  uint32_t priority_at(uint32_t index) const { return priority(pc_base_ + uint64_t{kInstrBytes} * index); }

  // Whether `pc` lies in the analysed function (a warp inside a callee does not).
  bool covers(uint64_t pc) const { return pc >= pc_base_ && pc < pc_end_; }
  // Whether an issued instruction is a load after which the calculator runs.
  bool is_point_load(const Instruction& ins) const { return is_program_point_load(ins, config_); }
  // recalc() of the instruction at `pc` (false outside the analysed function).
  bool recalc_at(uint64_t pc) const {
    return covers(pc) && recalc(static_cast<uint32_t>((pc - pc_base_) / kInstrBytes));
  }

  // Recalc bit of the branch at instruction `index` (false for non-branches): set when
  // the taken path reaches the next PP in fewer instructions than the fall-through path.
  bool recalc(uint32_t index) const { return index < recalc_.size() && recalc_[index]; }
  // Copies the recalc bits into Instruction::flags (kElfRecalc) of `f`.
  void apply_recalc_bits(Function& f) const;

 private:
  ElfConfig config_;
  std::vector<ProgramPoint> table_;
  std::vector<bool> recalc_;
  uint64_t pc_base_ = 0;
  uint64_t pc_end_ = 0;
  uint32_t max_score_ = 255;
  uint32_t before_merge_ = 0;
};

// Convenience for the scheduler: priority of `pc` under `elf`.
inline uint32_t elf_priority(const ElfProgramPoints& elf, uint64_t pc) { return elf.priority(pc); }

}  // namespace gputlm::isa::analysis
