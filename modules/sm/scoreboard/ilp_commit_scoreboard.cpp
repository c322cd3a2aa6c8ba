#include "sm/scoreboard/ilp_commit_scoreboard.h"

#include "core/log/hex.h"

#include <cstdio>

namespace gputlm::sm {

namespace {
bool needs_entry(const isa::Instruction& in) { return in.is_store || in.n_dst_regs + in.n_dst_preds > 0; }
}  // namespace

IlpCommitScoreboard::IlpCommitScoreboard(sc_core::sc_module_name name, uint32_t max_warps,
                                         const IlpCommitConfig& cfg, stats::Group* parent)
    : ScoreboardModule(name, max_warps),
      cfg_(cfg),
      store_after_completion_(cfg.store_waits_for == "completed"),
      entries_(cfg.entries),
      warps_(max_warps),
      free_(cfg.entries) {
  if (cfg.entries == 0)
    throw config::ConfigError("key 'sm.scoreboard.ilp_commit.entries': must be at least 1");
  if (parent) {
    stats_ = std::make_unique<stats::Group>(*parent, "scoreboard");
    commits_ = std::make_unique<stats::Counter>(*stats_, "commits", "entries committed to the register file");
    solo_issues_ = std::make_unique<stats::Counter>(
        *stats_, "solo_issues", "instructions issued without an entry (table full, the warp held none; 004 §4.2)");
    stores_ = std::make_unique<stats::Counter>(*stats_, "stores", "stores that took an entry (in_store set)");
  }
}

int IlpCommitScoreboard::key_index(const Entry& e, uint32_t key) {
  for (uint8_t i = 0; i < e.n_keys; ++i)
    if (e.keys[i] == key) return i;
  return -1;
}

// The warp's definition of `key` readers see: the one entry whose match bit for it is still
// set (reserve clears the older ones').
const IlpCommitScoreboard::Entry* IlpCommitScoreboard::newest_match(uint32_t warp, uint32_t key) const {
  for (int32_t i = warps_[warp].head; i != kNone; i = entries_[i].next) {
    const int k = key_index(entries_[i], key);
    if (k >= 0 && ((entries_[i].match >> k) & 1u)) return &entries_[i];
  }
  return nullptr;
}

Hazard IlpCommitScoreboard::check(uint32_t warp, const isa::Instruction& in) const {
  return check_masked(warp, in, ~0u);
}

Hazard IlpCommitScoreboard::check_masked(uint32_t warp, const isa::Instruction& in, uint32_t active_mask) const {
  check_warp(warp);
  const WarpState& w = warps_[warp];
  // A solo instruction is the warp's only one in flight until its writeback.
  if (w.solo) return w.solo_memory ? Hazard::Memory : Hazard::Other;
  if (w.head == kNone) {
    // Nothing of the warp is in the table: no dependence; a full table still lets it issue
    // one instruction (solo).
    return Hazard::None;
  }
  // Stall on use: a source whose newest definition is not readable yet (complete entries
  // forward from the table, forwarded ones from the bypass).
  bool any = false, memory = false;
  auto use = [&](uint32_t key) {
    if (const Entry* e = newest_match(warp, key); e && !e->complete && !e->forwarded) {
      any = true;
      memory = memory || e->memory;
    }
  };
  for (uint8_t i = 0; i < in.n_src_regs; ++i) use(in.src_regs[i]);
  for (uint8_t i = 0; i < in.n_src_preds; ++i) use(kPredicateKeyBase + in.src_preds[i]);
  if (any) return memory ? Hazard::Memory : Hazard::Other;
  // WAW: the new definition replaces the older one only if its active mask covers the older
  // one's lanes; otherwise the warp waits until the older one commits.
  auto redefine = [&](uint32_t key) {
    if (const Entry* e = newest_match(warp, key); e && (e->active_mask & ~active_mask) != 0) {
      any = true;
      memory = memory || (e->memory && !e->complete);
    }
  };
  for (uint8_t i = 0; i < in.n_dst_regs; ++i) redefine(in.dst_regs[i]);
  for (uint8_t i = 0; i < in.n_dst_preds; ++i) redefine(kPredicateKeyBase + in.dst_preds[i]);
  // From here on every refusal ends with a commit (of the warp's own entries, or any entry
  // for a full table): commit() reports the warp so its scheduler checks it again.
  if (any) return wait_for_commit(warp, memory ? Hazard::Memory : Hazard::Other);
  // A store waits until it is the warp's oldest (nothing of the warp left in the table); a
  // load waits while a store of the warp is uncommitted.
  if (in.is_store || (in.is_load && w.stores > 0)) {
    bool waits = !in.is_store || !store_after_completion_;  // a load behind a store waits for its commit
    bool memory_entry = false;
    for (int32_t i = w.head; i != kNone; i = entries_[i].next) {
      waits = waits || !entries_[i].complete;
      memory_entry = memory_entry || entries_[i].memory;
    }
    if (waits) return wait_for_commit(warp, memory_entry ? Hazard::Memory : Hazard::Other);
  }
  // A full table blocks a warp that holds entries.
  if (free_ == 0 && needs_entry(in)) return wait_for_commit(warp, Hazard::Other);
  return Hazard::None;
}

bool IlpCommitScoreboard::depends_on_long_latency_load(uint32_t warp, const isa::Instruction& in) const {
  check_warp(warp);
  for (uint8_t i = 0; i < in.n_src_regs; ++i)
    if (const Entry* e = newest_match(warp, in.src_regs[i]); e && !e->complete && e->long_latency) return true;
  return false;
}

void IlpCommitScoreboard::reserve(const WarpInstruction& wi) {
  check_warp(wi.warp);
  WarpState& w = warps_[wi.warp];
  if (w.solo)
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " issued pc " + hex(wi.pc) +
                        " while its solo instruction was in flight");
  const bool store = wi.instr && wi.instr->is_store;
  if (!store && wi.n_writes == 0) return;  // no destination: no entry (branch, bar, membar)
  if (free_ == 0) {
    if (w.head != kNone)
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " issued pc " + hex(wi.pc) +
                          " with the table full and entries of its own (check() should have refused it)");
    w.solo = true;
    w.solo_seq = wi.seq;
    w.solo_memory = wi.is_memory;
    if (solo_issues_) ++*solo_issues_;
    return;
  }
  int32_t idx = 0;
  while (entries_[idx].used) ++idx;  // lowest free entry (deterministic)
  Entry& e = entries_[idx];
  e = Entry{};
  e.used = true;
  e.store = store;
  e.memory = wi.is_memory;
  e.long_latency = wi.long_latency_load;
  e.warp = wi.warp;
  e.active_mask = wi.active_mask;
  e.seq = wi.seq;
  e.pc = wi.pc;
  for (uint8_t i = 0; i < wi.n_writes; ++i) {  // (a store writes no register: its entry only orders commits)
    const uint32_t key = wi.writes[i];
    if (key_index(e, key) >= 0) continue;  // "d|p" forms may name a register twice
    e.match |= 1u << e.n_keys;
    e.keys[e.n_keys++] = key;
    // WAW (check() allowed it): readers now see only this definition.
    for (int32_t j = w.head; j != kNone; j = entries_[j].next)
      if (const int k = key_index(entries_[j], key); k >= 0) entries_[j].match &= ~(1u << k);
  }
  if (w.head == kNone) w.head = idx;
  else entries_[w.tail].next = idx;
  w.tail = idx;
  if (store) {
    ++w.stores;
    if (stores_) ++*stores_;
  }
  // The last free entry taken: warps holding entries may no longer issue what needs one.
  if (--free_ == 0 && shared_change_) shared_change_();
}

void IlpCommitScoreboard::forward(const WarpInstruction& wi) {
  check_warp(wi.warp);
  WarpState& w = warps_[wi.warp];
  const std::string what = std::string(name()) + ": warp " + std::to_string(wi.warp) + " pc " + hex(wi.pc);
  if (w.solo && w.solo_seq == wi.seq) {  // the solo instruction's warp stays waiting for its writeback
    if (w.solo_forwarded) throw PipelineError(what + " forwarded twice");
    w.solo_forwarded = true;
    return;
  }
  for (int32_t i = w.head; i != kNone; i = entries_[i].next) {
    Entry& e = entries_[i];
    if (e.seq != wi.seq) continue;
    if (e.forwarded || e.complete || e.memory)
      throw PipelineError(what + (e.memory ? " forwarded a memory instruction's result" : " forwarded twice or after its writeback"));
    e.forwarded = true;
    return;
  }
  throw PipelineError(what + " forwarded an instruction that holds no entry");
}

void IlpCommitScoreboard::release(const WarpInstruction& wi) {
  check_warp(wi.warp);
  WarpState& w = warps_[wi.warp];
  for (int32_t i = w.head; i != kNone; i = entries_[i].next) {
    Entry& e = entries_[i];
    if (e.seq != wi.seq) continue;
    if (e.complete)
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " pc " + hex(wi.pc) +
                          " written back twice");
    if (e.forwarded != wi.forwarded)
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " pc " + hex(wi.pc) +
                          (wi.forwarded ? " released as forwarded, but it was not" : " was forwarded, released as not"));
    e.complete = true;
    e.fresh = true;  // commits from the next cycle (004 §4.2 rule 5)
    any_fresh_ = true;
    ++complete_;
    return;
  }
  if (w.solo && w.solo_seq == wi.seq) {
    if (w.solo_forwarded != wi.forwarded)
      throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " pc " + hex(wi.pc) +
                          " solo instruction's forwarded state differs at writeback");
    w.solo = false;
    w.solo_forwarded = false;
    return;
  }
  const bool store = wi.instr && wi.instr->is_store;
  if (store || wi.n_writes > 0)
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " wrote back pc " + hex(wi.pc) +
                        " (seq " + std::to_string(wi.seq) + "), which holds no entry");
}

void IlpCommitScoreboard::free_entry(int32_t i) {
  entries_[i] = Entry{};
  ++free_;
}

ScoreboardIF::CommitResult IlpCommitScoreboard::commit(uint64_t) {
  CommitResult r;
  if (head_ready_ == 0 && !any_fresh_) {  // nothing commits this cycle (the common case)
    r.busy = complete_ > 0;
    return r;
  }
  const bool was_full = free_ == 0;
  uint32_t budget = cfg_.commits_per_cycle == 0 ? ~0u : cfg_.commits_per_cycle;
  // Each warp writes its oldest entry to the register file when it is complete (in order
  // per warp; with a budget, lower warp slots first).
  for (uint64_t m = head_ready_; m != 0 && budget > 0; m &= m - 1, --budget) {
    const uint32_t w = static_cast<uint32_t>(__builtin_ctzll(m));
    WarpState& s = warps_[w];
    const int32_t i = s.head;
    Entry& e = entries_[i];
    s.head = e.next;
    if (s.head == kNone) s.tail = kNone;
    if (e.store) --s.stores;
    free_entry(i);
    --complete_;
    if (commits_) ++*commits_;
    const uint64_t bit = uint64_t{1} << w;
    if (s.head == kNone || !entries_[s.head].complete || entries_[s.head].fresh) head_ready_ &= ~bit;
    if (commit_waiters_ & bit) r.warps |= bit;
    if (s.head == kNone) r.emptied |= bit;
  }
  commit_waiters_ &= ~r.warps;
  if (any_fresh_) {  // completed in the last cycle: they may commit from the next one
    for (uint32_t i = 0; i < entries_.size(); ++i) {
      Entry& e = entries_[i];
      if (!e.fresh) continue;
      e.fresh = false;
      if (warps_[e.warp].head == static_cast<int32_t>(i)) head_ready_ |= uint64_t{1} << e.warp;
    }
    any_fresh_ = false;
  }
  r.busy = complete_ > 0;
  r.all = was_full && free_ > 0;  // warps blocked on the full table may issue again
  if (r.all) commit_waiters_ = 0;
  return r;
}

bool IlpCommitScoreboard::quiet(uint32_t warp) const {
  check_warp(warp);
  return warps_[warp].head == kNone && !warps_[warp].solo;
}

uint32_t IlpCommitScoreboard::pending_writes(uint32_t warp) const {
  check_warp(warp);
  uint32_t n = warps_[warp].solo ? 1 : 0;
  for (int32_t i = warps_[warp].head; i != kNone; i = entries_[i].next)
    if (!entries_[i].complete) n += entries_[i].n_keys;
  return n;
}

std::string IlpCommitScoreboard::describe(uint32_t warp) const {
  check_warp(warp);
  const WarpState& w = warps_[warp];
  std::string s;
  if (w.solo) s += "solo seq " + std::to_string(w.solo_seq) + " in flight;";
  for (int32_t i = w.head; i != kNone; i = entries_[i].next) {
    const Entry& e = entries_[i];
    s += " [entry " + std::to_string(i) + " pc " + hex(e.pc) + (e.store ? " store" : "");
    for (uint8_t k = 0; k < e.n_keys; ++k) s += " " + register_key_name(e.keys[k]);
    s += e.complete ? " complete]" : "]";
  }
  if (w.stores > 0) s += " (store uncommitted)";
  if (!s.empty()) s += " (" + std::to_string(free_) + " of " + std::to_string(cfg_.entries) + " entries free)";
  return s;
}

}  // namespace gputlm::sm
