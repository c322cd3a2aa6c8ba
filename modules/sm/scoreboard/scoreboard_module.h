// What every scoreboard module shares: it is an sc_module implementing ScoreboardIF,
// exports itself for the schedulers' ports, and checks warp slot numbers.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>

#include "sm/pipeline_protocol.h"
#include "sm/scoreboard/scoreboard_if.h"

namespace gputlm::sm {

class ScoreboardModule : public sc_core::sc_module, public ScoreboardIF {
 public:
  sc_core::sc_export<ScoreboardIF> status_export;

 protected:
  ScoreboardModule(sc_core::sc_module_name name, uint32_t max_warps)
      : sc_core::sc_module(name), status_export("status_export"), slots_(max_warps) {
    status_export.bind(*this);
  }
  // Throws PipelineError naming this module when `warp` is not one of its slots.
  void check_warp(uint32_t warp) const {
    if (warp >= slots_)
      throw PipelineError(std::string(name()) + ": warp slot " + std::to_string(warp) + " out of range (" +
                          std::to_string(slots_) + " slots)");
  }

 private:
  uint32_t slots_;
};

}  // namespace gputlm::sm
