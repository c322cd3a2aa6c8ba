// Counts of executed work of one grid (GridExecution::counters, run_grid_functional).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "isa/ir.h"

namespace gputlm::isa {

struct ExecCounters {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;  // sum of exec-mask popcounts
  uint64_t ctas = 0;
  std::array<uint64_t, static_cast<size_t>(OpClass::Nop) + 1> per_class{};  // warp instructions

  void add(const ExecCounters& o) {
    warp_instructions += o.warp_instructions;
    thread_instructions += o.thread_instructions;
    ctas += o.ctas;
    for (size_t i = 0; i < per_class.size(); ++i) per_class[i] += o.per_class[i];
  }
};

}  // namespace gputlm::isa
