// Mascar's per-SM scheduling state (002 §III-A/B, digest §B5): the mode (EP / MP) from the
// L1 saturation flag, the Warp Status Table (per warp: is_mem, stall) and the Warp
// Readiness Checker's owner warp. One object per SM, shared by its schedulers (IssueShared)
// and told about the memory side through MascarMemoryIF (the Sm, or a test bench).
//
// WST: is_mem[w] = the instruction at the head of w's I-buffer is a memory instruction (read
// from the I-buffers where needed: the policy's order, the hand-over, stall_bits()).
// Each SM cycle, before the schedulers (begin_cycle):
//  * mode: flag raised -> MP; flag cleared -> EP, and the owner and every stall bit clear;
//  * owner release: the owner's next instruction reads a register a long-latency load of
//    its own will write (the OR of the scoreboard's long-latency bits over its sources), or
//    the owner waits at a barrier or has exited — once every memory instruction it issued
//    has had all its requests accepted by the L1s (sent(); in our pipeline a load reaches
//    the L1 a few cycles after issue, and refused requests wait in the LSU or the
//    re-execution queue: released earlier, the owner's own misses would be NACKed); on
//    release every stall bit clears;
//  * hand-over: while MP mode has no owner and no warp is memory-ready (next instruction a
//    memory one with its operands ready and no request queued for re-execution), the warp
//    of the re-execution queue's head entry becomes the owner (002 §III-D);
//  * stall[w] = MP, an owner, is_mem[w] and w != owner (stall_bits(); the scoreboard's part
//    of the stall bit is the scheduler's own hazard check).
// The schedulers then order warps by mode (policies/mascar.cpp) and ask may_issue_memory()
// about memory instructions; in MP mode without an owner, the first warp that issues a
// memory instruction becomes the owner (issued()). The owner goes to the L1D, which NACKs
// other warps' misses (set_owner_warp takes effect from the next cycle).
// After the schedulers (end_cycle): the statistics of the cycle (LSU stall, stranded hits).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/stats/stats.h"
#include "mem/cache/cache_types.h"
#include "sm/scoreboard/scoreboard_if.h"
#include "sm/sm_config.h"
#include "sm/warp_table.h"

namespace gputlm::sm {

// What Mascar reads from and drives in the SM's memory side.
class MascarMemoryIF {
 public:
  virtual ~MascarMemoryIF() = default;
  // The saturation flag: some L1 (data, constant, texture) almost full, through the LSU.
  virtual bool memory_saturated() const = 0;
  // The warp of the re-execution queue's head entry (-1: none), and whether `warp` has a
  // request queued there.
  virtual int32_t reexec_head_warp() const = 0;
  virtual bool reexec_has_queued(uint32_t warp) const = 0;
  // A value that changes whenever reexec_has_queued() changes for some warp.
  virtual uint64_t reexec_queued_version() const = 0;
  // The owner warp for the L1D (-1: none).
  virtual void set_owner_warp(int32_t warp) = 0;
  // The LSU is stalled by saturation in `cycle` (after its tick).
  virtual bool lsu_saturation_stalled(uint64_t cycle) const = 0;
  // A valid L1D line holds one of `lines` (mem::CacheStatusIF::probe_any: with a stamp,
  // only lines that gained sectors since the stamp's "none" are looked at); the L1D's
  // contents version (the answers may have changed when it changed).
  virtual bool l1d_holds_any(const uint64_t* lines, uint32_t n, mem::CacheStatusIF::ProbeStamp* since) const = 0;
  virtual uint64_t l1d_contents_version() const = 0;
};

// Mascar's memory instructions with memory_instructions = l1: the accesses the LSU sends to
// the L1 data, constant or texture cache (global, local, generic, constant, texture,
// atomics). Parameter loads are not: every warp reads the kernel's parameters once at its
// start, from lines that stay in the constant cache; held in MP mode they would keep
// warps from reaching their first real access.
// CAR's one-instruction-per-warp rule holds the same instructions at issue.
inline constexpr uint32_t kL1MemoryClasses =
    1u << unsigned(isa::OpClass::MemGlobal) | 1u << unsigned(isa::OpClass::MemLocal) |
    1u << unsigned(isa::OpClass::MemConst) | 1u << unsigned(isa::OpClass::MemTexture) |
    1u << unsigned(isa::OpClass::MemGeneric) | 1u << unsigned(isa::OpClass::Atomic);
// The instructions the LSU sends to any configuration (memory classes, membar).
inline constexpr uint32_t kLsuClasses = kL1MemoryClasses | 1u << unsigned(isa::OpClass::MemShared) |
                                        1u << unsigned(isa::OpClass::Membar) |
                                        1u << unsigned(isa::OpClass::MemParam);
static_assert(unsigned(isa::OpClass::Nop) < 32, "OpClass masks hold 32 classes");

// The counts MascarState bumps every cycle, kept beside its mode (the statistics read them).
struct MascarCounts {
  uint64_t cycles = 0, mp_cycles = 0, ep_cycles = 0, lsu_stall_cycles = 0;
};

// The counters of group sm<i>.mascar.
struct MascarStats {
  MascarStats(stats::Group& sm_group, const MascarCounts& counts);
  stats::Group group;
  stats::CounterRef cycles, mp_cycles, ep_cycles;
  stats::Ratio mp_fraction;
  stats::Counter ep_to_mp, owner_acquisitions, owner_handovers, owner_changes, releases_own_load,
      releases_other;
  stats::CounterRef lsu_stall_cycles;
  stats::Counter stranded_hit_cycles;
  stats::Ratio lsu_stall_fraction;
};

class MascarState {
 public:
  enum class Mode : uint8_t { EP, MP };

  // Throws config::ConfigError naming key_prefix.mascar.<key> for a bad parameter.
  // `line_size`: the L1D line (stranded-hit probes once per line). Statistics under
  // sm_group (none when null).
  MascarState(const MascarSchedulerConfig& cfg, uint32_t warp_slots, uint32_t line_size,
              const std::string& key_prefix, stats::Group* sm_group);
  ~MascarState();
  MascarState(const MascarState&) = delete;  // its statistics read counts_ in place
  MascarState& operator=(const MascarState&) = delete;

  // The memory side; without one the flag is never raised (EP mode throughout).
  void set_memory(MascarMemoryIF* m) { mem_ = m; }

  void begin_cycle(uint64_t cycle, const WarpTable& table, const ScoreboardIF& sb);
  void end_cycle(uint64_t cycle, bool issued, const WarpTable& table);
  // The SM slept `cycles` cycles (nothing could change): they count in the current mode.
  void account_skipped(uint64_t cycles);

  // Scheduler side.
  bool is_memory(const isa::Instruction& in) const { return is_memory_class(static_cast<uint8_t>(in.cls)); }
  // An op class (or WarpTable::kNoHead: no) of Mascar's memory instructions.
  bool is_memory_class(uint8_t cls) const { return cls < 32 && ((memory_classes_ >> cls) & 1u); }
  // The op classes of Mascar's memory instructions (bit c = OpClass c).
  uint32_t memory_classes() const { return memory_classes_; }
  // The warps whose next instruction is a memory one (live or not: see is_mem).
  uint64_t memory_heads(const WarpTable& table) const { return table.heads_of(memory_classes_); }
  // The WST's is_mem bit: `slot`'s next instruction (its I-buffer head) is a memory one.
  bool is_mem(uint32_t slot, const WarpTable& table) const {
    return table.live(slot) && is_memory_class(table.head_class(slot));
  }
  // A memory instruction of `slot` may issue: EP, or no owner, or `slot` is the owner.
  bool may_issue_memory(uint32_t slot) const { return mode_ == Mode::EP || owner_ < 0 || slot == uint32_t(owner_); }
  // `slot` issued `in` (owner acquisition in MP mode).
  void issued(uint32_t slot, const isa::Instruction& in);
  // The L1s accepted every request of `slot`'s memory instruction `in` (the LSU's sent observer).
  void sent(uint32_t slot, const isa::Instruction& in);
  // Memory instructions of `slot` issued and not yet wholly accepted by the L1s.
  uint32_t unsent(uint32_t slot) const { return slot < unsent_.size() ? unsent_[slot] : 0; }
  void warp_removed(uint32_t slot);

  // Changes whenever the mode or the owner changes (besides the I-buffers, which the
  // schedulers track themselves, their order and veto depend on nothing else).
  uint64_t version() const { return version_; }
  Mode mode() const { return mode_; }
  int32_t owner() const { return owner_; }
  // The WST's stall bits now: MP mode with an owner, is_mem and not the owner (the
  // scoreboard's part is the schedulers' own hazard check).
  uint64_t stall_bits(const WarpTable& table) const;
  const MascarSchedulerConfig& config() const { return cfg_; }
  MascarStats* stats() { return stats_.get(); }

 private:
  void set_owner(int32_t w);
  void release();
  bool memory_ready(uint32_t w, const WarpTable& table, const ScoreboardIF& sb) const;
  bool stranded_hit(const WarpTable& table);
  bool probe_stranded(const WarpTable& table, uint64_t contents);

  struct PeekedLines {  // the lines of a warp's next global load, per (slot, issue count)
    // What every probe reads first, in the first host cache line; the lines last.
    bool valid = false;
    bool is_load = false;              // the next instruction is ld or ldu (else no lines)
    bool holds = false;                // some line is in the L1D
    uint32_t n = 0;
    uint64_t age = 0, issued = 0;
    uint64_t contents = ~uint64_t{0};  // L1D contents version `holds` was probed at
    mem::CacheStatusIF::ProbeStamp stamp;  // when `holds` was found false
    uint64_t line[32];
  };

  MascarSchedulerConfig cfg_;
  uint32_t memory_classes_;  // OpClass bits of Mascar's memory instructions
  uint32_t line_size_;
  MascarMemoryIF* mem_ = nullptr;
  Mode mode_ = Mode::EP;
  int32_t owner_ = -1;
  uint64_t version_ = 0;
  MascarCounts counts_;
  std::vector<PeekedLines> peeked_;
  struct ReadyAnswer {  // the hand-over's "some warp is memory-ready" and what it was derived from
    bool valid = false;
    uint64_t table = 0, queue = 0;
    bool any = false;
  } ready_;
  struct StrandedAnswer {  // stranded_hit()'s last answer and what it was derived from
    bool valid = false;
    uint64_t contents = 0, heads = 0, residency = 0;
    bool answer = false;
  } stranded_;
  std::vector<uint32_t> unsent_;  // per warp slot
  std::unique_ptr<MascarStats> stats_;
};

}  // namespace gputlm::sm
