// Many-thread-aware scoreboard with in-order commit (004 §4.2, digest §F3): one small table
// of entries shared by every warp of the SM, holding the results of instructions issued
// and not yet committed. A warp waits on use (a source matching an incomplete entry of its
// own), forwards from complete entries, commits its entries in issue order one per cycle,
// and a full table blocks the warps that already hold entries (one with none may issue a
// single "solo" instruction without an entry). Stores wait until the warp holds no entry;
// while a store is uncommitted the warp's loads wait. See docs/blocks/sm.md.
//
// Model choices (docs/platforms/ilp.md): an entry holds one instruction's destinations (all
// of them, as the issue stage reserves them together); an instruction with no destination
// that is not a store takes none; the WAW rule needs the new instruction's active mask to
// cover the older definition's, else the warp waits for that definition to commit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sm/scoreboard/ilp_commit_config.h"
#include "core/stats/stats.h"
#include "sm/scoreboard/scoreboard_module.h"

namespace gputlm::sm {

class IlpCommitScoreboard : public ScoreboardModule {
 public:
  IlpCommitScoreboard(sc_core::sc_module_name name, uint32_t max_warps, const IlpCommitConfig& cfg,
                      stats::Group* parent = nullptr);

  Hazard check(uint32_t warp, const isa::Instruction& in) const override;
  Hazard check_masked(uint32_t warp, const isa::Instruction& in, uint32_t active_mask) const override;
  bool wants_active_mask() const override { return true; }
  bool depends_on_long_latency_load(uint32_t warp, const isa::Instruction& in) const override;
  void reserve(const WarpInstruction& wi) override;
  // The bypass point: the entry's result is readable by the warp's later instructions (as
  // if complete) but it still completes, and commits, after its writeback.
  void forward(const WarpInstruction& wi) override;
  void release(const WarpInstruction& wi) override;
  bool commits() const override { return true; }
  CommitResult commit(uint64_t cycle) override;
  bool quiet(uint32_t warp) const override;
  void set_shared_change_hook(std::function<void()> f) override { shared_change_ = std::move(f); }
  uint32_t pending_writes(uint32_t warp) const override;
  std::string describe(uint32_t warp) const override;

  uint32_t free_entries() const { return free_; }

 private:
  static constexpr int32_t kNone = -1;
  struct Entry {
    bool used = false;
    bool complete = false;  // written back
    bool forwarded = false; // past the bypass point (sm.exec.forwarding): readable
    bool fresh = false;     // completed in this cycle (commits from the next one)
    bool store = false;
    bool memory = false, long_latency = false;
    uint32_t warp = 0;
    uint32_t active_mask = 0;
    uint64_t seq = 0, pc = 0;
    uint8_t n_keys = 0;
    uint32_t keys[kMaxWriteKeys] = {};
    // NM per register: bit i set while keys[i] is the warp's newest definition of it (a
    // newer instruction writing the same register clears it; a store's entry has none).
    uint32_t match = 0;
    int32_t next = kNone;
  };
  struct WarpState {
    int32_t head = kNone, tail = kNone;  // its entries, oldest first
    uint32_t stores = 0;                 // uncommitted stores (in_store: stores > 0; with
                                         // store_waits_for = completed there may be several)
    bool solo = false;                   // an instruction without entry in flight
    bool solo_memory = false, solo_forwarded = false;
    uint64_t solo_seq = 0;
  };
  const Entry* newest_match(uint32_t warp, uint32_t key) const;
  static_assert(kMaxWriteKeys <= 32, "Entry::match holds a bit per key");
  // Index of `key` in e.keys, or -1.
  static int key_index(const Entry& e, uint32_t key);
  void free_entry(int32_t i);
  // A refusal that only a commit can lift: the warp is remembered until one reports it.
  Hazard wait_for_commit(uint32_t warp, Hazard h) const {
    commit_waiters_ |= uint64_t{1} << warp;
    return h;
  }

  IlpCommitConfig cfg_;
  bool store_after_completion_;  // store_waits_for = completed
  std::vector<Entry> entries_;
  std::vector<WarpState> warps_;
  uint32_t free_;
  bool any_fresh_ = false;
  // Warps whose oldest entry is complete and not fresh (commit serves them), and the number
  // of complete entries not yet committed (commit's `busy`): kept so that a cycle without
  // a commit reads neither array.
  uint64_t head_ready_ = 0;
  uint32_t complete_ = 0;
  // Warps a check refused for a reason only a commit changes (WAW with a partial mask, the
  // store/load order, a full table) since a commit last reported them. A commit changes no
  // other answer of check(): the committed entry was complete, so it forwarded already, and
  // it was the warp's oldest, so no older definition becomes visible.
  mutable uint64_t commit_waiters_ = 0;
  std::function<void()> shared_change_;
  std::unique_ptr<stats::Group> stats_;
  std::unique_ptr<stats::Counter> commits_, solo_issues_, stores_;
};

}  // namespace gputlm::sm
