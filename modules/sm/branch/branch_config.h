// The branch predictor of an SM (sm.branch): which BranchPredictorIF the issue stage asks
// about conditional branches, and how long a warp waits when it has to wait for one
// (branch_unit.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/params.h"

namespace gputlm::sm {

// Names accepted by BranchConfig::predictor (the registry's keys, in order).
const std::vector<std::string>& branch_predictor_names();

// 004 §4.3 says only "1K bits, shared per SM"; digest §Z43's reading: 512 2-bit counters
// indexed by (pc / 8) XOR a 9-bit global history.
struct GshareConfig {
  uint32_t table_entries = 512;
  uint32_t counter_bits = 2;
  uint32_t history_bits = 9;

  template <class V>
  void visit(V& v) {
    v.param("table_entries", table_entries,
            "saturating counters in the pattern table (one table per SM, shared by every warp); index = "
            "((pc / 8) XOR history) mod table_entries",
            config::power_of_two(1));
    v.param("counter_bits", counter_bits, "bits of each saturating counter (predict taken in the upper half)",
            config::in_range(1, 8));
    v.param("history_bits", history_bits, "outcomes of the SM's global branch history XORed into the index",
            config::in_range(0, 32));
  }
};

struct BranchConfig {
  std::string predictor = "none";
  GshareConfig gshare;
  uint32_t redirect_penalty = 0;

  template <class V>
  void visit(V& v) {
    v.param("predictor", predictor,
            "none: no control hazard (the issue stage knows every outcome; a taken branch only refetches); "
            "stall: no prediction, a warp waits after each conditional branch until it resolves; "
            "static_btfn: backward taken, forward not taken; gshare: a table of counters indexed by pc XOR "
            "global history; perfect: always right. With a predictor a warp waits only after a mispredicted "
            "non-divergent conditional branch (divergent ones are immune, 004 section 4.3); a branch "
            "resolves at its writeback (sm.exec.latency_branch) plus redirect_penalty",
            config::one_of(branch_predictor_names()));
    v.group("gshare", gshare, "gshare's pattern table and history (predictor = gshare)");
    v.param("redirect_penalty", redirect_penalty,
            "cycles after a waited-for branch's writeback before its warp may issue again (fetch redirect); "
            "ignored with predictor = none",
            config::at_least(0));
  }
};

}  // namespace gputlm::sm
