#include "sm/scoreboard/barrel_scoreboard.h"

#include <algorithm>
#include <cstdio>

namespace gputlm::sm {

BarrelScoreboard::BarrelScoreboard(sc_core::sc_module_name name, uint32_t max_warps)
    : ScoreboardModule(name, max_warps), warps_(max_warps), forwarded_(max_warps) {}

Hazard BarrelScoreboard::check(uint32_t warp, const isa::Instruction&) const {
  check_warp(warp);
  const InFlight& f = warps_[warp];
  if (!f.busy) return Hazard::None;
  return f.memory ? Hazard::Memory : Hazard::Other;
}

bool BarrelScoreboard::depends_on_long_latency_load(uint32_t warp, const isa::Instruction& in) const {
  check_warp(warp);
  const InFlight& f = warps_[warp];
  if (!f.busy || !f.long_latency) return false;
  for (uint8_t i = 0; i < in.n_src_regs; ++i)
    for (uint8_t j = 0; j < f.n_writes; ++j)
      if (f.writes[j] == in.src_regs[i]) return true;
  return false;
}

void BarrelScoreboard::reserve(const WarpInstruction& wi) {
  check_warp(wi.warp);
  InFlight& f = warps_[wi.warp];
  if (f.busy) {
    char pcs[64];
    std::snprintf(pcs, sizeof pcs, "0x%llx while 0x%llx", static_cast<unsigned long long>(wi.pc),
                  static_cast<unsigned long long>(f.pc));
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " issued pc " + pcs +
                        " was in flight (a barrel scoreboard allows one instruction per warp)");
  }
  f.busy = true;
  f.memory = wi.is_memory;
  f.long_latency = wi.long_latency_load;
  f.pc = wi.pc;
  f.seq = wi.seq;
  f.n_writes = 0;
  for (uint8_t i = 0; i < wi.n_writes; ++i) {
    bool dup = false;  // "d|p" forms may name a register twice
    for (uint8_t j = 0; j < f.n_writes; ++j) dup = dup || f.writes[j] == wi.writes[i];
    if (!dup) f.writes[f.n_writes++] = wi.writes[i];
  }
}

void BarrelScoreboard::forward(const WarpInstruction& wi) {
  check_warp(wi.warp);
  InFlight& f = warps_[wi.warp];
  if (!f.busy || f.seq != wi.seq || f.pc != wi.pc || f.memory)
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " forwarded " +
                        (f.busy && f.seq == wi.seq && f.memory ? "a memory instruction"
                                                               : "an instruction that was not the one in flight"));
  forwarded_[wi.warp].push_back(Forwarded{f.seq, f.n_writes});
  f = InFlight{};
}

void BarrelScoreboard::release(const WarpInstruction& wi) {
  check_warp(wi.warp);
  if (wi.forwarded) {
    auto& fw = forwarded_[wi.warp];
    auto it = std::find_if(fw.begin(), fw.end(), [&](const Forwarded& x) { return x.seq == wi.seq; });
    if (it == fw.end())
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) +
                          " wrote back a forwarded instruction that was not awaiting writeback");
    fw.erase(it);
    return;
  }
  InFlight& f = warps_[wi.warp];
  if (!f.busy || f.pc != wi.pc || f.seq != wi.seq)
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) +
                        " wrote back an instruction that was not the one in flight");
  f = InFlight{};
}

uint32_t BarrelScoreboard::pending_writes(uint32_t warp) const {
  check_warp(warp);
  uint32_t n = warps_[warp].busy ? warps_[warp].n_writes : 0;
  for (const Forwarded& x : forwarded_[warp]) n += x.n_writes;
  return n;
}

std::string BarrelScoreboard::describe(uint32_t warp) const {
  check_warp(warp);
  const InFlight& f = warps_[warp];
  const std::string fw =
      forwarded_[warp].empty() ? "" : std::to_string(forwarded_[warp].size()) + " forwarded awaiting writeback";
  if (!f.busy) return fw;
  char pc[32];
  std::snprintf(pc, sizeof pc, "0x%llx", static_cast<unsigned long long>(f.pc));
  std::string s = (fw.empty() ? "" : fw + "; ") + std::string("in flight: pc ") + pc;
  for (uint8_t j = 0; j < f.n_writes; ++j) {
    const uint32_t key = f.writes[j];
    s += " " + register_key_name(key);
  }
  if (f.long_latency) s += " (ld)";
  else if (f.memory) s += " (mem)";
  return s;
}

}  // namespace gputlm::sm
