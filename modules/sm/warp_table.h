// The SM's warp status table: per warp slot, the functional warp it runs, its age key,
// its I-buffer of decoded instructions, its outstanding fetch and its in-flight count.
// Fetch/decode fill the I-buffer, the schedulers read and pop it, writeback counts
// instructions complete. (A hardware table read by several stages within a cycle, like
// GPGPU-Sim's shd_warp_t; stages reach it through this class's methods only.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/exec/functional_executor.h"
#include "sm/warp_instruction.h"

namespace gputlm::isa::analysis {
class ElfProgramPoints;
}

namespace gputlm::sm {

struct IBufferEntry {
  const isa::Instruction* instr = nullptr;
  uint64_t pc = 0;
  UnitType unit = UnitType::Sp;
  uint64_t fetch_cycle = 0;
  uint64_t decode_cycle = 0;
};

// Aligned, with what every issue decision reads (residency, status, I-buffer ring, context)
// in its first host cache line: a scheduler evaluates warps of many slots each cycle, and
// on a GPU of many SMs the slots are cold.
struct alignas(64) WarpSlot {
  bool valid = false;               // holds a warp of a resident CTA
  bool issue_done = false;          // the warp executed its last exit (nothing more to issue)
  bool done = false;                // issue_done and every issued instruction written back
  bool ready = false;               // ctx->status == Ready, kept by WarpTable::sync_status: every
                                    // issue decision reads it, and the context is a cold line
  uint32_t active_mask = 0;         // lanes the next instruction runs on (the SIMT stack's top),
                                    // kept by sync_status for scoreboards that ask for it
  // I-buffer: a ring of `entries` decoded instructions, head = next to issue.
  uint32_t ibuf_head = 0, ibuf_count = 0;
  std::vector<IBufferEntry> ibuf;
  isa::GridExecution* grid = nullptr;
  isa::WarpContext* ctx = nullptr;  // functional state (owned by the grid)
  uint32_t in_flight = 0;           // issued, not yet written back
  uint64_t age = 0;                 // warp_age(CTA sequence, warp in CTA)

  uint64_t issued = 0;              // instructions issued
  uint32_t cta_slot = 0;
  uint32_t kernel_id = 0;
  int32_t cta_global = -1;
  const isa::analysis::ElfProgramPoints* elf = nullptr;  // its kernel's (KernelInstance::elf)

  // Outstanding instruction fetch.
  bool fetch_pending = false;
  bool fetch_stale = false;         // the I-buffer was flushed after the fetch was sent
  uint64_t fetch_pc = 0;
  uint32_t fetch_count = 0;
  uint64_t fetch_cycle = 0;
};

class WarpTable {
 public:
  WarpTable(uint32_t max_warps, uint32_t ibuffer_entries);

  uint32_t size() const { return static_cast<uint32_t>(slots_.size()); }
  WarpSlot& operator[](uint32_t w) { return slots_[w]; }
  const WarpSlot& operator[](uint32_t w) const { return slots_[w]; }

  // I-buffer
  bool ibuf_empty(uint32_t w) const { return slots_[w].ibuf_count == 0; }
  uint32_t ibuf_free(uint32_t w) const { return entries_ - slots_[w].ibuf_count; }
  const IBufferEntry& ibuf_head(uint32_t w) const { return ibuf_at(w, 0); }
  const IBufferEntry& ibuf_at(uint32_t w, uint32_t i) const {  // i-th from the head
    const WarpSlot& s = slots_[w];
    if (i >= s.ibuf_count) throw_ibuf_range(w, i);
    return s.ibuf[(s.ibuf_head + i) % entries_];
  }
  // The op class of w's next instruction, kNoHead when its I-buffer is empty. Kept beside
  // the ring so stages that classify every warp by it (Mascar's WST) read a byte per warp
  // instead of following instruction pointers.
  static constexpr uint8_t kNoHead = 0xff;
  uint8_t head_class(uint32_t w) const { return head_class_[w]; }
  // Changes whenever some warp's I-buffer head entry changes (push into an empty buffer,
  // pop, flush, clear): whatever was derived from the heads alone still holds while it stays.
  uint64_t head_changes() const { return head_changes_; }
  // One class set may be watched: its warps are kept as a mask (Mascar's WST reads it every
  // cycle; heads_of() serves any other set).
  void watch_head_classes(uint32_t class_mask);
  uint64_t watched_heads() const { return watched_heads_; }
  // The warps whose next instruction is of a class in `class_mask` (bit c = OpClass c).
  uint64_t heads_of(uint32_t class_mask) const {
    if (class_mask == watched_classes_ && class_mask != 0) return watched_heads_;
    uint64_t m = 0;
    for (; class_mask != 0; class_mask &= class_mask - 1) m |= class_heads_[__builtin_ctz(class_mask)];
    return m;
  }
  void ibuf_push(uint32_t w, const IBufferEntry& e);
  void ibuf_pop(uint32_t w);
  // Empties the I-buffer; an outstanding fetch becomes stale (discarded on arrival).
  void ibuf_flush(uint32_t w);
  // The PC the warp's next fetch starts at: after the I-buffer's last entry, or the
  // functional next PC when the I-buffer is empty.
  uint64_t next_fetch_pc(uint32_t w) const;

  // A warp that may still issue (resident and not past its last exit).
  bool live(uint32_t w) const { return slots_[w].valid && !slots_[w].issue_done; }
  // Its functional status is Ready (not at a barrier, not finished). The status changes only
  // in a step of a warp of its CTA; the issue stage calls sync_status after each step and
  // barrier_released when a step releases the CTA's barrier.
  bool ready(uint32_t w) const { return slots_[w].ready; }
  void sync_status(uint32_t w) {
    WarpSlot& s = slots_[w];
    s.ready = s.ctx->status == isa::WarpStatus::Ready;
    s.active_mask = isa::GridExecution::peek_active_mask(*s.ctx);  // the context is hot here
  }
  // Makes slot w (cleared) hold a warp of CTA slot cta_slot; the other fields are the
  // caller's to fill.
  void place(uint32_t w, uint32_t cta_slot);
  // Calls f(w) for every warp slot holding a warp of CTA slot cta_slot, ascending (from a
  // per-CTA mask: a scan of every slot would read a host cache line per slot). f may
  // clear the slot it is given.
  template <class F>
  void for_each_warp_of_cta(uint32_t cta_slot, F f) {
    if (cta_slot >= cta_warps_.size()) return;
    for (uint64_t m = cta_warps_[cta_slot]; m != 0; m &= m - 1) f(static_cast<uint32_t>(__builtin_ctzll(m)));
  }

  void clear(uint32_t w);

  // Control hazard (sm.branch, BranchUnit): the warp waits for a branch to resolve and may
  // not issue meanwhile. A mask beside the slots: only the branch unit sets it, and with
  // sm.branch.predictor = none it stays 0.
  bool control_pending(uint32_t w) const { return (control_pending_ >> w) & 1u; }
  void set_control_pending(uint32_t w, bool pending) {
    if (pending) control_pending_ |= uint64_t{1} << w;
    else control_pending_ &= ~(uint64_t{1} << w);
    touch(w);
  }

  // The warp executed its last exit: it issues no more, and completes once its issued
  // instructions are written back and no fetch is outstanding.
  void mark_issue_done(uint32_t w) {
    slots_[w].issue_done = true;
    finishing_ |= uint64_t{1} << w;
  }
  // The warps past their last exit not yet marked done (bit w = slot w): the completion
  // scan looks at these only.
  uint64_t finishing() const { return finishing_; }
  void mark_done(uint32_t w) {
    slots_[w].done = true;
    finishing_ &= ~(uint64_t{1} << w);
  }

  // Version of the state the issue and fetch stages decide from: I-buffers, residency,
  // warp status, pending fetches and (bumped by the SM core) the scoreboard. The table's
  // own mutators bump it; code that changes a slot through operator[] calls touch(w), or
  // barrier_released(c) when a barrier of CTA c releases its warps (on several schedulers),
  // touch_all() when it reaches every warp (a new CTA). A stage that found nothing to do at
  // version v finds nothing again while it stays v, so it may repeat its last result instead
  // of re-deciding (the completion scan uses version(), each WarpScheduler group_version(g),
  // which changes only with warps w where w mod groups == g; the fetch stage re-derives just
  // the warps touched).
  void set_version_groups(uint32_t groups) { group_versions_.assign(groups == 0 ? 1 : groups, 0); }
  uint64_t version() const { return version_; }
  uint64_t group_version(uint32_t g) const { return group_versions_[g]; }
  void touch(uint32_t w) {
    ++version_;
    ++group_versions_[w % group_versions_.size()];
    ++warp_touches_[w];
    changed_warps_ |= uint64_t{1} << w;
  }
  // A barrier release: only the warps of that CTA change (bar.sync is CTA-scoped), and
  // their status may be Ready again.
  void barrier_released(uint32_t cta_slot) {
    for_each_warp_of_cta(cta_slot, [this](uint32_t w) {
      sync_status(w);
      touch(w);
    });
  }
  void touch_all() {
    ++version_;
    for (uint64_t& v : group_versions_) ++v;
    ++all_touches_;
    changed_warps_ = all_warps_;
  }
  // Changes whenever warp w is touched (alone or with all): a scheduler may keep what it
  // found about w while this stays the same.
  uint64_t warp_version(uint32_t w) const { return warp_touches_[w] + all_touches_; }
  // The warps touched since the last call (bit w = warp slot w), for the one stage that
  // keeps per-warp results (the fetch stage).
  uint64_t take_changed_warps() {
    const uint64_t m = changed_warps_;
    changed_warps_ = 0;
    return m;
  }
  // Changes when the set of live warps changes (a CTA placed or retired, a warp past its
  // last exit): the schedulers' policy orders depend on it.
  uint64_t residency_version() const { return residency_version_; }
  void note_residency_change() { ++residency_version_; }
  // Changes when some warp arrives at or is released from a CTA barrier (throttles that
  // must not hold back the warps a barrier waits for read it).
  uint64_t barrier_version() const { return barrier_version_; }
  void note_barrier_change() { ++barrier_version_; }

 private:
  [[noreturn]] void throw_ibuf_range(uint32_t w, uint32_t i) const;

  uint32_t entries_;
  uint64_t version_ = 0;
  uint64_t residency_version_ = 0;
  uint64_t barrier_version_ = 0;
  uint64_t all_warps_ = 0, changed_warps_ = 0;
  uint64_t finishing_ = 0;  // mark_issue_done, not yet mark_done
  uint64_t control_pending_ = 0;
  std::vector<uint64_t> group_versions_ = std::vector<uint64_t>(1, 0);
  std::vector<uint64_t> warp_touches_;  // per slot: touch(w) calls
  uint64_t all_touches_ = 0;            // touch_all() calls
  std::vector<uint64_t> cta_warps_;     // per CTA slot: the warp slots place() gave it
  std::vector<WarpSlot> slots_;
  void set_head_class(uint32_t w, uint8_t c);
  uint64_t head_changes_ = 0;
  std::vector<uint8_t> head_class_;  // per slot: op class of the I-buffer head, or kNoHead
  uint64_t class_heads_[32] = {};    // per op class: the warps whose head is of that class
  uint32_t watched_classes_ = 0;
  uint64_t watched_heads_ = 0;       // the warps whose head is of a watched class
};

}  // namespace gputlm::sm
