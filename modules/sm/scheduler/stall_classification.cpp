#include "sm/scheduler/stall_classification.h"

namespace gputlm::sm {

const char* to_string(WarpBlock b) {
  switch (b) {
    case WarpBlock::NotEligible: return "not_eligible";
    case WarpBlock::IBufferEmpty: return "ibuffer_empty";
    case WarpBlock::ScoreboardOther: return "scoreboard_other";
    case WarpBlock::ScoreboardMemory: return "scoreboard_memory";
    case WarpBlock::UnitOther: return "unit_other";
    case WarpBlock::UnitMemory: return "unit_memory";
  }
  return "?";
}

const char* to_string(ElfStall s) {
  switch (s) {
    case ElfStall::MemConflict: return "mem_conflict";
    case ElfStall::MemDependency: return "mem_dep";
    case ElfStall::Fetch: return "fetch";
    case ElfStall::Other: return "other";
  }
  return "?";
}

const char* to_string(KawsStall s) {
  switch (s) {
    case KawsStall::Idle: return "idle";
    case KawsStall::Scoreboard: return "scoreboard";
    case KawsStall::Pipeline: return "pipeline";
  }
  return "?";
}

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
