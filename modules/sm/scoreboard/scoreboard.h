// Conventional scoreboard (GPGPU-Sim's): per warp, the set of registers with a write in
// flight; an instruction may issue when none of the registers it reads or writes is in
// the set. With data bypassing (sm.exec.forwarding = alu) a forwarded register no longer
// blocks readers, but still blocks writers (WAW) until its writeback. See docs/blocks/sm.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sm/scoreboard/scoreboard_module.h"

namespace gputlm::sm {

class Scoreboard : public ScoreboardModule {
 public:
  Scoreboard(sc_core::sc_module_name name, uint32_t max_warps);

  Hazard check(uint32_t warp, const isa::Instruction& in) const override;
  bool depends_on_long_latency_load(uint32_t warp, const isa::Instruction& in) const override;
  void reserve(const WarpInstruction& wi) override;
  void forward(const WarpInstruction& wi) override;
  void release(const WarpInstruction& wi) override;
  uint32_t pending_writes(uint32_t warp) const override;
  std::string describe(uint32_t warp) const override;

 private:
  struct Entry {
    uint32_t key = 0;
    bool memory = false;
    bool long_latency = false;
    bool forwarded = false;  // readable (bypassed), written back later
  };
  const Entry* find(uint32_t warp, uint32_t key) const;
  std::vector<std::vector<Entry>> pending_;  // per warp; small, searched linearly
};

}  // namespace gputlm::sm
