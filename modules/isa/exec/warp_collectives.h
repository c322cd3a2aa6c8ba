// Warp-level collective semantics (shfl.sync, vote.sync, match.sync) and atomic update
// rules, independent of the executor's data layout so they can be tested alone.
//
// Participating lanes of a .sync collective are the lanes that are both active (executing
// the instruction) and in `membermask`. PTX leaves the result undefined when the active
// set and membermask disagree; we define it deterministically:
//  * shfl: the source lane's register value is read whether or not the source lane
//    participates (its register holds a well-defined value in this simulator).
//  * vote/match: evaluated over the participating lanes only.
#pragma once

#include <cstdint>

#include "isa/ir.h"

namespace gputlm::isa::sem {

inline constexpr uint32_t kWarpSize = 32;

struct ShflSource {
  uint32_t lane;  // lane to read from (own lane when out of range)
  bool valid;     // the optional predicate destination: source lane was in range
};

// PTX shfl.sync source-lane computation: b = lane/offset operand, c = packed clamp value
// (bits 4..0) and segment mask (bits 12..8).
inline ShflSource shfl_source(ShflMode mode, uint32_t lane, uint32_t b, uint32_t c) {
  uint32_t bval = b & 0x1F, cval = c & 0x1F, segmask = (c >> 8) & 0x1F;
  int32_t max_lane = int32_t((lane & segmask) | (cval & ~segmask));
  int32_t min_lane = int32_t(lane & segmask);
  int32_t j = int32_t(lane);
  bool pval = false;
  switch (mode) {
    case ShflMode::Up: j = int32_t(lane) - int32_t(bval); pval = j >= max_lane; break;
    case ShflMode::Down: j = int32_t(lane) + int32_t(bval); pval = j <= max_lane; break;
    case ShflMode::Bfly: j = int32_t(lane ^ bval); pval = j <= max_lane; break;
    case ShflMode::Idx: j = min_lane | int32_t(bval & ~segmask); pval = j <= max_lane; break;
    case ShflMode::None: break;
  }
  if (!pval) j = int32_t(lane);
  return ShflSource{uint32_t(j), pval};
}

// Whole-warp shuffle on 32-bit values: lanes not in `active` keep out[] untouched.
void shfl_warp(ShflMode mode, const uint32_t values[kWarpSize], const uint32_t b[kWarpSize],
               const uint32_t c[kWarpSize], uint32_t active, uint32_t out[kWarpSize],
               bool pred_out[kWarpSize]);

// vote over participating lanes; `pred_mask` bit i = lane i's predicate.
bool vote_all(uint32_t pred_mask, uint32_t participating);
bool vote_any(uint32_t pred_mask, uint32_t participating);
bool vote_uni(uint32_t pred_mask, uint32_t participating);
uint32_t vote_ballot(uint32_t pred_mask, uint32_t participating);

// match.any: for each participating lane, the mask of participating lanes holding the
// same value. match.all: the participating mask if all values are equal, else 0 (and the
// predicate says which).
void match_any(const uint64_t values[kWarpSize], uint32_t participating, uint32_t out[kWarpSize]);
uint32_t match_all(const uint64_t values[kWarpSize], uint32_t participating, bool* all_equal);

// New memory value of atom/red `op` on a location holding `old` (raw bits of type t);
// c is only used by cas. f32 add flushes subnormal inputs and results (PTX atom.add.f32);
// inc/dec wrap as PTX: inc: old >= b ? 0 : old+1; dec: (old == 0 || old > b) ? b : old-1.
// Precondition (checked at decode): op/type combination is one PTX defines.
uint64_t atomic_update(AtomOp op, ScalarType t, uint64_t old, uint64_t b, uint64_t c);

}  // namespace gputlm::isa::sem
