#include "sm/scheduler/stall_classification.h"

namespace gputlm::sm {

const char* const kWarpBlockNames[kWarpBlocks] = {"not_eligible",     "ibuffer_empty", "scoreboard_other",
                                                   "scoreboard_memory", "unit_other",    "unit_memory"};
const char* const kElfStallNames[kElfStalls] = {"mem_conflict", "mem_dep", "fetch", "other"};
const char* const kKawsStallNames[kKawsStalls] = {"idle", "scoreboard", "pipeline"};

const char* to_string(WarpBlock b) { return kWarpBlockNames[static_cast<int>(b)]; }
const char* to_string(ElfStall s) { return kElfStallNames[static_cast<int>(s)]; }
const char* to_string(KawsStall s) { return kKawsStallNames[static_cast<int>(s)]; }

ElfStall classify_elf(const StallObservation& o) {
  if (o.has(WarpBlock::UnitMemory)) return ElfStall::MemConflict;
  if (o.has(WarpBlock::UnitOther)) return ElfStall::Other;
  if (o.has(WarpBlock::ScoreboardMemory)) return ElfStall::MemDependency;
  if (o.has(WarpBlock::ScoreboardOther)) return ElfStall::Other;
  if (o.has(WarpBlock::IBufferEmpty)) return ElfStall::Fetch;
  return ElfStall::Other;
}

KawsStall classify_kaws(const StallObservation& o) {
  if (o.has(WarpBlock::UnitMemory) || o.has(WarpBlock::UnitOther)) return KawsStall::Pipeline;
  if (o.has(WarpBlock::ScoreboardMemory) || o.has(WarpBlock::ScoreboardOther)) return KawsStall::Scoreboard;
  return KawsStall::Idle;
}

}  // namespace gputlm::sm
