// Stall classification of a scheduler-cycle in which the scheduler issued nothing, in the
// two taxonomies of the seeds (digest §S): ELF's (000 §2.4) memory conflict / memory
// dependency / fetch / other, and KAWS's (003 §4.2) idle / scoreboard / pipeline. Each
// resident warp of the scheduler reports how far it got towards issue this cycle
// (WarpBlock); the cycle's class is decided from the set of blocks by a fixed precedence
// (docs/blocks/scheduler.md): the warp that got furthest decides, and among equally far
// warps the memory-side reason wins.
#pragma once

#include <cstdint>

namespace gputlm::sm {

// Why a warp did not issue, ordered by how far it got (later = closer to issue).
enum class WarpBlock : uint8_t {
  NotEligible,      // no instruction to issue now: at a barrier, past its exit, throttled
                    // (issue mask / filter / policy warp limit)
  IBufferEmpty,     // live warp waiting for instruction fetch
  ScoreboardOther,  // I-buffer head has a RAW/WAW hazard on non-memory results only
  ScoreboardMemory, // I-buffer head waits on a result of a memory instruction
  UnitOther,        // operands ready; the collector/pipeline of a non-memory unit is full
  UnitMemory,       // operands ready; the LSU path cannot accept
};
inline constexpr int kWarpBlocks = 6;

enum class ElfStall : uint8_t { MemConflict, MemDependency, Fetch, Other };
inline constexpr int kElfStalls = 4;
enum class KawsStall : uint8_t { Idle, Scoreboard, Pipeline };
inline constexpr int kKawsStalls = 3;

// Names in enum order (statistics vectors, time series, traces).
extern const char* const kWarpBlockNames[kWarpBlocks];
extern const char* const kElfStallNames[kElfStalls];
extern const char* const kKawsStallNames[kKawsStalls];

const char* to_string(WarpBlock b);
const char* to_string(ElfStall s);
const char* to_string(KawsStall s);

// The set of WarpBlock values seen among a scheduler's warps in one cycle.
class StallObservation {
 public:
  void add(WarpBlock b) { seen_ |= static_cast<uint8_t>(1u << static_cast<unsigned>(b)); }
  bool has(WarpBlock b) const { return (seen_ >> static_cast<unsigned>(b)) & 1u; }
  void merge(const StallObservation& o) { seen_ |= o.seen_; }
  bool empty() const { return seen_ == 0; }
  void clear() { seen_ = 0; }

 private:
  uint8_t seen_ = 0;
};

// ELF: UnitMemory -> mem_conflict; else UnitOther -> other; else ScoreboardMemory ->
// mem_dep; else ScoreboardOther -> other; else IBufferEmpty -> fetch; else (barriers,
// exited or throttled warps, no warps) -> other.
ElfStall classify_elf(const StallObservation& o);
// KAWS: any Unit* -> pipeline; else any Scoreboard* -> scoreboard; else idle.
KawsStall classify_kaws(const StallObservation& o);

}  // namespace gputlm::sm
