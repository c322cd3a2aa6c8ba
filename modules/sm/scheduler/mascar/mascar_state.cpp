#include "sm/scheduler/mascar/mascar_state.h"

#include "core/config/config_source.h"

namespace gputlm::sm {

MascarStats::MascarStats(stats::Group& sm_group, const MascarCounts& counts)
    : group(sm_group, "mascar"),
      cycles(group, "cycles", "SM cycles with resident CTAs (mp_cycles + ep_cycles)", counts.cycles),
      mp_cycles(group, "mp_cycles", "cycles in memory-access-priority mode (saturation flag raised; 002 Fig. 12)",
                counts.mp_cycles),
      ep_cycles(group, "ep_cycles", "cycles in equal-priority mode", counts.ep_cycles),
      mp_fraction(group, "mp_fraction", "mp_cycles / cycles", mp_cycles, cycles),
      ep_to_mp(group, "ep_to_mp", "switches from EP to MP mode"),
      owner_acquisitions(group, "owner_acquisitions",
                         "MP mode without an owner: the warp that issued a memory instruction became the owner"),
      owner_handovers(group, "owner_handovers",
                      "MP mode without an owner and no memory-ready warp: the re-execution queue's head warp "
                      "became the owner (002 §III-D)"),
      owner_changes(group, "owner_changes", "owners set (owner_acquisitions + owner_handovers)"),
      releases_own_load(group, "releases_own_load",
                        "owners released because their next instruction depends on their own long-latency load"),
      releases_other(group, "releases_other", "owners released because they wait at a barrier or exited"),
      lsu_stall_cycles(group, "lsu_stall_cycles",
                       "cycles the LSU was stalled by saturation: an L1 refused its head request and it stayed, or "
                       "a full re-execution queue kept new instructions out (002 Figs 2, 11)",
                       counts.lsu_stall_cycles),
      stranded_hit_cycles(group, "stranded_hit_cycles",
                          "cycles without issue while the LSU was stalled by saturation and some warp's next global "
                          "load had a line in the L1D (002 Fig. 5; counted with stranded_hits = true)"),
      lsu_stall_fraction(group, "lsu_stall_fraction", "lsu_stall_cycles / cycles", lsu_stall_cycles, cycles) {}

MascarState::MascarState(const MascarSchedulerConfig& cfg, uint32_t warp_slots, uint32_t line_size,
                         const std::string& key_prefix, stats::Group* sm_group)
    : cfg_(cfg),
      memory_classes_(cfg.memory_instructions == "lsu" ? kLsuClasses : kL1MemoryClasses),
      line_size_(line_size) {
  const std::string p = (key_prefix.empty() ? "" : key_prefix + ".") + "mascar.";
  if (cfg.memory_instructions != "l1" && cfg.memory_instructions != "lsu")
    throw config::ConfigError("key '" + p + "memory_instructions': unknown class \"" + cfg.memory_instructions +
                              "\" (l1 or lsu)");
  if (warp_slots == 0 || warp_slots > 64)
    throw config::ConfigError("key 'sm.max_warps': the mascar policy supports 1..64 warp slots per SM (got " +
                              std::to_string(warp_slots) + ")");
  if (line_size == 0 || (line_size & (line_size - 1)) != 0)
    throw config::ConfigError("key 'sm.l1d.line_size': mascar needs a power-of-two line (got " +
                              std::to_string(line_size) + ")");
  peeked_.resize(warp_slots);
  unsent_.assign(warp_slots, 0);
  if (sm_group) stats_ = std::make_unique<MascarStats>(*sm_group, counts_);
}

MascarState::~MascarState() = default;

void MascarState::set_owner(int32_t w) {
  if (w == owner_) return;
  owner_ = w;
  ++version_;
  if (mem_) mem_->set_owner_warp(w);
}

// 002 §III-A: with no owner, no warp's stall bit is set (the other warps' bits are reset).
void MascarState::release() { set_owner(-1); }

uint64_t MascarState::stall_bits(const WarpTable& table) const {
  if (mode_ != Mode::MP || owner_ < 0) return 0;
  uint64_t m = 0;
  for (uint64_t h = memory_heads(table) & ~(uint64_t{1} << owner_); h != 0; h &= h - 1) {
    const uint32_t w = static_cast<uint32_t>(__builtin_ctzll(h));
    if (table.live(w)) m |= uint64_t{1} << w;
  }
  return m;
}

bool MascarState::memory_ready(uint32_t w, const WarpTable& table, const ScoreboardIF& sb) const {
  if (!is_mem(w, table) || !table.ready(w)) return false;
  if (sb.check(w, *table.ibuf_head(w).instr) != Hazard::None) return false;
  return !(mem_ && mem_->reexec_has_queued(w));  // held at issue by the one-instruction rule
}

void MascarState::begin_cycle(uint64_t, const WarpTable& table, const ScoreboardIF& sb) {
  const bool saturated = mem_ && mem_->memory_saturated();
  if (saturated && mode_ == Mode::EP) {
    mode_ = Mode::MP;
    ++version_;
    if (stats_) ++stats_->ep_to_mp;
  } else if (!saturated && mode_ == Mode::MP) {
    mode_ = Mode::EP;
    ++version_;
    release();  // MP -> EP: no owner, every stall bit clears
  }
  ++counts_.cycles;
  ++(mode_ == Mode::MP ? counts_.mp_cycles : counts_.ep_cycles);

  if (mode_ == Mode::MP) {
    if (owner_ >= 0 && unsent_[static_cast<uint32_t>(owner_)] == 0) {
      const uint32_t o = static_cast<uint32_t>(owner_);
      if (!table.live(o) || !table.ready(o)) {
        release();
        if (stats_) ++stats_->releases_other;
      } else if (!table.ibuf_empty(o) && sb.depends_on_long_latency_load(o, *table.ibuf_head(o).instr)) {
        release();
        if (stats_) ++stats_->releases_own_load;
      }
    }
    if (owner_ < 0 && mem_) {
      const int32_t head = mem_->reexec_head_warp();
      if (head >= 0) {
        // memory_ready() reads the warp table (I-buffers, status; the SM core bumps its
        // version for the scoreboard too) and the queue: redo it only when one changed.
        const uint64_t tv = table.version(), qv = mem_->reexec_queued_version();
        if (!ready_.valid || ready_.table != tv || ready_.queue != qv) {
          bool any = false;
          for (uint64_t h = memory_heads(table); h != 0 && !any; h &= h - 1)
            any = memory_ready(static_cast<uint32_t>(__builtin_ctzll(h)), table, sb);
          ready_ = {true, tv, qv, any};
        }
        if (!ready_.any) {
          set_owner(head);
          if (stats_) {
            ++stats_->owner_handovers;
            ++stats_->owner_changes;
          }
        }
      }
    }
  }
}

void MascarState::issued(uint32_t slot, const isa::Instruction& in) {
  if (!is_memory(in)) return;
  if (slot < unsent_.size()) ++unsent_[slot];
  if (mode_ != Mode::MP || owner_ >= 0) return;
  set_owner(static_cast<int32_t>(slot));
  if (stats_) {
    ++stats_->owner_acquisitions;
    ++stats_->owner_changes;
  }
}

void MascarState::sent(uint32_t slot, const isa::Instruction& in) {
  if (slot < unsent_.size() && unsent_[slot] > 0 && is_memory(in)) --unsent_[slot];
}

void MascarState::warp_removed(uint32_t slot) {
  if (slot < peeked_.size()) peeked_[slot].valid = false;
  stranded_.valid = false;
  if (slot < unsent_.size()) unsent_[slot] = 0;
  if (owner_ >= 0 && slot == static_cast<uint32_t>(owner_)) {
    release();
    if (stats_) ++stats_->releases_other;
  }
}

void MascarState::account_skipped(uint64_t cycles) {
  counts_.cycles += cycles;
  (mode_ == Mode::MP ? counts_.mp_cycles : counts_.ep_cycles) += cycles;
}

bool MascarState::stranded_hit(const WarpTable& table) {
  const uint64_t contents = mem_->l1d_contents_version();
  // The answer is a function of the live warps, their next instructions, their registers
  // (which change only when they issue, popping their I-buffers) and the L1D's lines.
  if (stranded_.valid && stranded_.contents == contents && stranded_.heads == table.head_changes() &&
      stranded_.residency == table.residency_version())
    return stranded_.answer;
  stranded_ = {true, contents, table.head_changes(), table.residency_version(), probe_stranded(table, contents)};
  return stranded_.answer;
}

bool MascarState::probe_stranded(const WarpTable& table, uint64_t contents) {
  // Global loads are of class MemGlobal or MemGeneric: only those warps are looked at.
  constexpr uint32_t kLoadClasses =
      1u << unsigned(isa::OpClass::MemGlobal) | 1u << unsigned(isa::OpClass::MemGeneric);
  for (uint64_t h = table.heads_of(kLoadClasses); h != 0; h &= h - 1) {
    const uint32_t w = static_cast<uint32_t>(__builtin_ctzll(h));
    if (!table.live(w)) continue;
    const WarpSlot& s = table[w];
    PeekedLines& p = peeked_[w];
    if (!p.valid || p.age != s.age || p.issued != s.issued) {
      // The warp's next instruction and its registers change only when it issues: whether
      // it is a load, and its lines, hold until then.
      const isa::Instruction& in = *table.ibuf_head(w).instr;
      p.valid = true;
      p.is_load = in.op == isa::Opcode::Ld || in.op == isa::Opcode::Ldu;
      p.age = s.age;
      p.issued = s.issued;
      p.n = 0;
      p.contents = ~uint64_t{0};
      p.stamp = {};
      uint64_t addr[32];
      uint32_t mask = 0;
      if (p.is_load && s.grid->peek_global_load(*s.ctx, addr, mask)) {
        for (uint32_t l = 0; l < 32; ++l) {
          if (!(mask & (1u << l))) continue;
          const uint64_t line = addr[l] & ~uint64_t{line_size_ - 1};
          bool seen = false;
          for (uint32_t i = 0; i < p.n && !seen; ++i) seen = p.line[i] == line;
          if (!seen) p.line[p.n++] = line;
        }
      }
    }
    if (!p.is_load) continue;
    if (p.contents != contents) {  // probe again only when the L1D's lines changed
      p.contents = contents;
      // After a "none", only lines filled since can be present (the stamp); after a "some",
      // a line may have left: probe_any left the stamp empty, so every line again.
      p.holds = mem_->l1d_holds_any(p.line, p.n, &p.stamp);
    }
    if (p.holds) return true;
  }
  return false;
}

void MascarState::end_cycle(uint64_t cycle, bool issued, const WarpTable& table) {
  if (!stats_ || !mem_ || !mem_->lsu_saturation_stalled(cycle)) return;
  ++counts_.lsu_stall_cycles;
  if (!issued && cfg_.stranded_hits && stranded_hit(table)) ++stats_->stranded_hit_cycles;
}

}  // namespace gputlm::sm
