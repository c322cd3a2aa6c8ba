// Stall classification of scheduler-cycles without issue (docs/blocks/scheduler.md): the
// ELF and KAWS classes for constructed sets of per-warp blocks, including the precedence
// when warps stall for different reasons in the same cycle.
#include <catch2/catch.hpp>

#include "sm/scheduler/stall_classification.h"

using namespace gputlm::sm;

namespace {
StallObservation obs(std::initializer_list<WarpBlock> blocks) {
  StallObservation o;
  for (WarpBlock b : blocks) o.add(b);
  return o;
}
}  // namespace

TEST_CASE("scheduler stall classification: single causes", "[sm][scheduler]") {
  CHECK(classify_elf(obs({WarpBlock::UnitMemory})) == ElfStall::MemConflict);
  CHECK(classify_kaws(obs({WarpBlock::UnitMemory})) == KawsStall::Pipeline);
  CHECK(classify_elf(obs({WarpBlock::UnitOther})) == ElfStall::Other);
  CHECK(classify_kaws(obs({WarpBlock::UnitOther})) == KawsStall::Pipeline);
  CHECK(classify_elf(obs({WarpBlock::ScoreboardMemory})) == ElfStall::MemDependency);
  CHECK(classify_kaws(obs({WarpBlock::ScoreboardMemory})) == KawsStall::Scoreboard);
  CHECK(classify_elf(obs({WarpBlock::ScoreboardOther})) == ElfStall::Other);
  CHECK(classify_kaws(obs({WarpBlock::ScoreboardOther})) == KawsStall::Scoreboard);
  CHECK(classify_elf(obs({WarpBlock::IBufferEmpty})) == ElfStall::Fetch);
  CHECK(classify_kaws(obs({WarpBlock::IBufferEmpty})) == KawsStall::Idle);
  CHECK(classify_elf(obs({WarpBlock::NotEligible})) == ElfStall::Other);
  CHECK(classify_kaws(obs({WarpBlock::NotEligible})) == KawsStall::Idle);
  CHECK(classify_elf(obs({})) == ElfStall::Other);   // no resident warp
  CHECK(classify_kaws(obs({})) == KawsStall::Idle);
}

TEST_CASE("scheduler stall classification: precedence among mixed causes", "[sm][scheduler]") {
  // The warp that got furthest decides: a pipeline block beats a scoreboard block beats fetch.
  CHECK(classify_elf(obs({WarpBlock::ScoreboardMemory, WarpBlock::UnitOther})) == ElfStall::Other);
  CHECK(classify_kaws(obs({WarpBlock::ScoreboardMemory, WarpBlock::UnitOther})) == KawsStall::Pipeline);
  CHECK(classify_elf(obs({WarpBlock::UnitOther, WarpBlock::UnitMemory})) == ElfStall::MemConflict);
  CHECK(classify_elf(obs({WarpBlock::IBufferEmpty, WarpBlock::ScoreboardOther})) == ElfStall::Other);
  CHECK(classify_elf(obs({WarpBlock::IBufferEmpty, WarpBlock::ScoreboardMemory, WarpBlock::ScoreboardOther})) ==
        ElfStall::MemDependency);
  CHECK(classify_kaws(obs({WarpBlock::IBufferEmpty, WarpBlock::ScoreboardOther})) == KawsStall::Scoreboard);
  CHECK(classify_elf(obs({WarpBlock::NotEligible, WarpBlock::IBufferEmpty})) == ElfStall::Fetch);
  CHECK(classify_kaws(obs({WarpBlock::NotEligible, WarpBlock::IBufferEmpty})) == KawsStall::Idle);
}
