#include "sm/scoreboard/scoreboard.h"

#include <algorithm>

#include "sm/pipeline_protocol.h"

namespace gputlm::sm {

const char* to_string(Hazard h) {
  switch (h) {
    case Hazard::None: return "none";
    case Hazard::Memory: return "memory";
    case Hazard::Other: return "other";
  }
  return "?";
}

Scoreboard::Scoreboard(sc_core::sc_module_name name, uint32_t max_warps)
    : ScoreboardModule(name, max_warps), pending_(max_warps) {
  for (auto& p : pending_) p.reserve(16);
}

const Scoreboard::Entry* Scoreboard::find(uint32_t warp, uint32_t key) const {
  for (const Entry& e : pending_[warp])
    if (e.key == key) return &e;
  return nullptr;
}

Hazard Scoreboard::check(uint32_t warp, const isa::Instruction& in) const {
  check_warp(warp);
  if (pending_[warp].empty()) return Hazard::None;
  bool any = false, memory = false;
  auto look = [&](uint32_t key, bool read) {
    if (const Entry* e = find(warp, key); e && !(read && e->forwarded)) {  // a bypassed result is readable
      any = true;
      memory = memory || e->memory;
    }
  };
  for (uint8_t i = 0; i < in.n_src_regs; ++i) look(in.src_regs[i], true);
  for (uint8_t i = 0; i < in.n_src_preds; ++i) look(kPredicateKeyBase + in.src_preds[i], true);
  for (uint8_t i = 0; i < in.n_dst_regs; ++i) look(in.dst_regs[i], false);
  for (uint8_t i = 0; i < in.n_dst_preds; ++i) look(kPredicateKeyBase + in.dst_preds[i], false);
  if (!any) return Hazard::None;
  return memory ? Hazard::Memory : Hazard::Other;
}

bool Scoreboard::depends_on_long_latency_load(uint32_t warp, const isa::Instruction& in) const {
  check_warp(warp);
  for (uint8_t i = 0; i < in.n_src_regs; ++i)
    if (const Entry* e = find(warp, in.src_regs[i]); e && e->long_latency) return true;
  return false;
}

void Scoreboard::reserve(const WarpInstruction& wi) {
  check_warp(wi.warp);
  auto& p = pending_[wi.warp];
  for (uint8_t i = 0; i < wi.n_writes; ++i) {
    const uint32_t key = wi.writes[i];
    // An instruction may name a register twice (e.g. "d|p" forms): reserve it once.
    bool dup = false;
    for (uint8_t j = 0; j < i; ++j) dup = dup || wi.writes[j] == key;
    if (dup) continue;
    if (find(wi.warp, key))
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " issued pc " +
                          std::to_string(wi.pc) + " with a WAW hazard on register key " + std::to_string(key));
    p.push_back(Entry{key, wi.is_memory, wi.long_latency_load});
  }
}

void Scoreboard::forward(const WarpInstruction& wi) {
  check_warp(wi.warp);
  auto& p = pending_[wi.warp];
  for (uint8_t i = 0; i < wi.n_writes; ++i) {
    const uint32_t key = wi.writes[i];
    auto it = std::find_if(p.begin(), p.end(), [&](const Entry& e) { return e.key == key; });
    if (it == p.end() || it->memory)
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " forwarded register key " +
                          std::to_string(key) + (it == p.end() ? " that was not pending" : " of a memory instruction"));
    it->forwarded = true;  // (twice for a "d|p" form's repeated key: harmless)
  }
}

void Scoreboard::release(const WarpInstruction& wi) {
  check_warp(wi.warp);
  auto& p = pending_[wi.warp];
  for (uint8_t i = 0; i < wi.n_writes; ++i) {
    const uint32_t key = wi.writes[i];
    bool dup = false;
    for (uint8_t j = 0; j < i; ++j) dup = dup || wi.writes[j] == key;
    if (dup) continue;
    auto it = std::find_if(p.begin(), p.end(), [&](const Entry& e) { return e.key == key; });
    if (it == p.end())
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) +
                          " released register key " + std::to_string(key) + " that was not pending");
    if (it->forwarded != wi.forwarded)
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " released register key " +
                          std::to_string(key) + (wi.forwarded ? " as forwarded, but it was not forwarded"
                                                              : " that was forwarded, as not forwarded"));
    p.erase(it);
  }
}

uint32_t Scoreboard::pending_writes(uint32_t warp) const {
  check_warp(warp);
  return static_cast<uint32_t>(pending_[warp].size());
}

std::string Scoreboard::describe(uint32_t warp) const {
  check_warp(warp);
  std::string s;
  for (const Entry& e : pending_[warp]) {
    if (!s.empty()) s += ' ';
    s += register_key_name(e.key);
    if (e.long_latency) s += "(ld)";
    else if (e.memory) s += "(mem)";
    else if (e.forwarded) s += "(fwd)";
  }
  return s;
}

}  // namespace gputlm::sm
