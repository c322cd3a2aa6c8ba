// The LSU's address generation: per-lane pieces by space (local memory mapped, const and
// param placed in their timing windows), shared bank cycles, coalesced line requests
// with their payloads; see lsu.h.
#include <algorithm>
#include <bitset>

#include "sm/lsu/lsu.h"
#include "sm/lsu/lsu_link.h"

namespace gputlm::sm {

namespace {
AccessKind kind_of(isa::AccessKind k) {
  switch (k) {
    case isa::AccessKind::Store: return AccessKind::Store;
    case isa::AccessKind::Atomic:
    case isa::AccessKind::Reduction: return AccessKind::Atomic;
    default: return AccessKind::Load;
  }
}
}  // namespace

void Lsu::prepare(uint64_t cycle) {
  WarpInstruction& wi = *latch_;
  uint32_t slot = 0;
  while (slots_[slot].wi) ++slot;  // can_accept() guaranteed a free one
  --free_slots_;
  if (slot >= slots_used_) slots_used_ = slot + 1;
  Slot& s = slots_[slot];
  s = Slot{};
  s.wi = &wi;
  s.in_latch = true;
  latch_slot_ = slot;
  latch_prepared_ = true;
  to_send_.clear();
  next_send_ = 0;
  ++instructions_;
  build_requests(wi, slot, cycle);
  if (slots_[slot].unsent == 0 && sent_observer_) sent_observer_(wi);  // nothing for an L1
}

// GPGPU-Sim's rule (ldst_unit::memory_cycle): .cg (CACHE_GLOBAL) always skips the L1D; with
// -gpgpu_gmem_skip_L1D every global access does, except .nc (CACHE_L1). `all`: no L1D for
// global data at all (001 ch. 4's normalisation baseline, GPGPU-Sim 2.x without an L1D).
bool Lsu::global_bypasses_l1d(const isa::Instruction* in) const {
  if (in == nullptr) return false;
  if (bypass_all_but_nc_) return (in->flags & isa::kNc) == 0;
  if (bypass_all_) return true;
  return bypass_cg_ && in->cache == isa::CacheOp::Cg;
}

// The distinct 4-byte words const_pieces_ touch, counted in an open-addressing set of at
// least twice as many slots as words (a sort of up to a warp's words cost more).
uint32_t Lsu::distinct_const_words() {
  // Uniform accesses (every lane the same address: kernel parameters, loop-invariant
  // constants) are the common case and need no set.
  const LaneAccess& first = const_pieces_.front();
  bool uniform = true;
  for (const LaneAccess& a : const_pieces_) uniform = uniform && a.address == first.address && a.bytes == first.bytes;
  if (uniform) return static_cast<uint32_t>((first.address + first.bytes - 1) / 4 - first.address / 4 + 1);
  std::size_t words = 0;
  for (const LaneAccess& a : const_pieces_) words += (a.address + a.bytes - 1) / 4 - a.address / 4 + 1;
  std::size_t size = 64;
  while (size < 2 * words) size *= 2;
  if (word_set_.size() < size) word_set_.resize(size);
  std::fill_n(word_set_.begin(), size, kNoWord);
  uint32_t distinct = 0;
  for (const LaneAccess& a : const_pieces_)
    for (uint64_t w = a.address / 4; w <= (a.address + a.bytes - 1) / 4; ++w) {
      std::size_t i = static_cast<std::size_t>((w * 0x9E3779B97F4A7C15ull) >> 40) & (size - 1);
      while (word_set_[i] != kNoWord && word_set_[i] != w) i = (i + 1) & (size - 1);
      if (word_set_[i] == kNoWord) {
        word_set_[i] = w;
        ++distinct;
      }
    }
  return distinct;
}

void Lsu::build_requests(const WarpInstruction& wi, uint32_t slot, uint64_t cycle) {
  Slot& s = slots_[slot];
  global_pieces_.clear();
  shared_pieces_.clear();
  const_pieces_.clear();
  texture_pieces_.clear();
  uint32_t shared_cycles = 0, const_extra = 0;
  const isa::MemAccess& m = wi.result.mem;
  const bool has_access = wi.result.is_memory && m.lane_mask != 0;
  const AccessKind kind = kind_of(m.kind);
  if (has_access) {
    const uint32_t bytes = static_cast<uint32_t>(m.element_bytes) * std::max<uint32_t>(1, m.elements);
    if (bytes == 0)
      throw LsuError(std::string(name()) + ": memory access of warp " + std::to_string(wi.warp) + " at pc " +
                     std::to_string(wi.pc) + " has no element size");
    for (uint32_t lane = 0; lane < place_.warp_size; ++lane) {
      if (!(m.lane_mask & (1u << lane))) continue;
      const isa::StateSpace sp = m.mixed_spaces ? m.lane_space[lane] : m.space;
      const uint64_t a = m.addr[lane];
      const uint8_t l = static_cast<uint8_t>(lane);
      switch (sp) {
        case isa::StateSpace::Global: global_pieces_.push_back(LaneAccess{a, bytes, l}); break;
        case isa::StateSpace::Local: {
          LaneAccess buf[8];
          const uint32_t n =
              local_map_.translate(place_.sm, wi.warp * place_.warp_size + lane, l, a, bytes, buf, 8);
          global_pieces_.insert(global_pieces_.end(), buf, buf + n);
          break;
        }
        case isa::StateSpace::Shared: shared_pieces_.push_back(LaneAccess{a, bytes, l}); break;
        case isa::StateSpace::Const: const_pieces_.push_back(LaneAccess{cfg_.const_base + a, bytes, l}); break;
        case isa::StateSpace::Param: const_pieces_.push_back(LaneAccess{cfg_.param_base + a, bytes, l}); break;
        case isa::StateSpace::Texture: texture_pieces_.push_back(LaneAccess{a, bytes, l}); break;
        default:
          throw LsuError(std::string(name()) + ": lane " + std::to_string(lane) + " of warp " +
                         std::to_string(wi.warp) + " (seq " + std::to_string(wi.seq) + ") accesses space " +
                         isa::space_name(sp) + ", which the LSU cannot place");
      }
    }
  }
  s.needs_data = wi.instr && wi.instr->n_dst_regs > 0 && kind != AccessKind::Store;

  if (!shared_pieces_.empty()) {
    shared_cycles = shared_.cycles(shared_pieces_.data(), shared_pieces_.size(), place_.warp_size);
    ++shared_accesses_;
    shared_bank_cycles_.add(shared_cycles);
    shared_conflict_degree_.sample(shared_cycles);
    s.bank_ready = cycle + shared_cycles - 1 + cfg_.shared_memory.latency;
  }
  const bool line_traffic = !global_pieces_.empty() || !const_pieces_.empty() || !texture_pieces_.empty();
  if (!global_pieces_.empty()) {
    const MemSpace space = m.space == isa::StateSpace::Local ? MemSpace::Local : MemSpace::Global;
    if (kind == AccessKind::Atomic)
      global_coalescer_->coalesce_atomic(global_pieces_.data(), global_pieces_.size(), place_.warp_size, lines_);
    else
      global_coalescer_->coalesce(global_pieces_.data(), global_pieces_.size(), place_.warp_size, lines_);
    const bool past_l1d = kind == AccessKind::Atomic ? cfg_.atomics_bypass_l1d
                                                     : space == MemSpace::Global && global_bypasses_l1d(wi.instr);
    const std::size_t first_request = to_send_.size();
    add_requests(lines_, past_l1d ? L1Port::Bypass : L1Port::Data, cfg_.coalescer.line_size, space, kind, wi, slot);
    if (prefetcher_ && kind == AccessKind::Load && space == MemSpace::Global && !past_l1d)
      observe_load(wi, first_request);
  }
  if (!const_pieces_.empty()) {
    if (kind != AccessKind::Load)
      throw LsuError(std::string(name()) + ": " + to_string(kind) + " to constant/param space by warp " +
                     std::to_string(wi.warp) + " (seq " + std::to_string(wi.seq) + ")");
    const_coalescer_->coalesce(const_pieces_.data(), const_pieces_.size(), place_.warp_size, lines_);
    const uint32_t lines = static_cast<uint32_t>(lines_.size());
    add_requests(lines_, L1Port::Constant, cfg_.const_line_size,
                 m.space == isa::StateSpace::Param ? MemSpace::Param : MemSpace::Const, kind, wi, slot);
    // One address per cycle: distinct words beyond one per line serialise.
    const uint32_t distinct = distinct_const_words();
    const_extra = distinct > lines ? distinct - lines : 0;
    const_serialization_cycles_.add(const_extra);
  }
  if (!texture_pieces_.empty()) {
    if (kind != AccessKind::Load)
      throw LsuError(std::string(name()) + ": " + to_string(kind) + " to texture space by warp " +
                     std::to_string(wi.warp));
    texture_coalescer_->coalesce(texture_pieces_.data(), texture_pieces_.size(), place_.warp_size, lines_);
    add_requests(lines_, L1Port::Texture, cfg_.texture_line_size, MemSpace::Texture, kind, wi, slot);
  }
  if (line_traffic) requests_per_instruction_.sample(static_cast<double>(to_send_.size()));
  latch_send_from_ = cycle + shared_cycles;
  // The constant cache serves one distinct word per cycle: 1 + const_extra cycles.
  const uint32_t const_cycles = const_pieces_.empty() ? 0 : 1 + const_extra;
  latch_free_at_ = cycle + std::max<uint32_t>(1, shared_cycles + const_cycles) - 1;
}

void Lsu::add_requests(const std::vector<LineRequest>& lines, L1Port port, uint32_t line_size, MemSpace space,
                       AccessKind kind, const WarpInstruction& wi, uint32_t slot) {
  Slot& s = slots_[slot];
  const uint32_t sector = std::min(cfg_.coalescer.sector_size, line_size);
  for (const LineRequest& lr : lines) {
    tlm::tlm_generic_payload* gp = pool_.allocate();
    gp->acquire();
    Link* link = gp->get_extension<Link>();
    if (!link) {
      link = new Link;  // once per pooled payload (owned by it)
      gp->set_extension(link);
    }
    link->slot = slot;
    link->data = s.needs_data;
    link->port = port;
    gp->set_command(kind == AccessKind::Load ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    // A store carries only the segment it writes, an atomic its atomic segment (its
    // bytes lie in one); loads ask for the line.
    const Segment seg = kind == AccessKind::Store    ? covering_segment(lr, line_size, sector)
                        : kind == AccessKind::Atomic ? Segment{lr.segment_address, cfg_.coalescer.atomic_segment}
                                                     : Segment{lr.line_address, line_size};
    gp->set_address(seg.address);
    gp->set_data_length(seg.bytes);
    gp->set_streaming_width(seg.bytes);
    MemExtension& ext = mem_ext(*gp);
    ext.sm = static_cast<int32_t>(wi.sm);
    ext.warp = static_cast<int32_t>(wi.warp);
    ext.cta = wi.cta_global;
    ext.pc = wi.pc;
    ext.space = space;
    ext.kind = kind;
    ext.sector_mask = lr.sector_mask;
    ext.byte_mask = lr.byte_mask;
    ext.owner = wi.mascar_owner;
    ++s.unsent;
    useful_bytes_.add(lr.byte_mask.count());
    sector_bytes_.add(static_cast<uint64_t>(std::bitset<32>(lr.sector_mask).count()) * sector);
    LsuRequest r;
    r.gp = gp;
    r.seq = wi.seq;
    r.address = seg.address;
    r.bytes = seg.bytes;
    r.sm = ext.sm;
    r.warp = ext.warp;
    r.port = port;
    r.kind = kind;
    to_send_.push_back(r);
  }
}

void Lsu::observe_load(const WarpInstruction& wi, std::size_t first_request) {
  mem::LoadInfo load;
  load.pc = wi.pc;
  load.warp = static_cast<int32_t>(wi.warp);
  load.cta = wi.cta_global;
  const LaneAccess& first = global_pieces_.front();  // lanes ascending: the first active global lane
  load.first_address = first.address;
  load.thread0 = first.lane == 0 && cta_first_warp_(wi.warp);
  load.train_address = first.address;
  const int64_t stride = prefetcher_->on_load(load);
  if (stride == 0) return;
  // Line-granular targets: each of the load's own lines (or its first lane's address) plus
  // the stride, without repeats and without the load's own lines (those are demanded now).
  const uint64_t line = cfg_.coalescer.line_size;
  auto add_target = [&](uint64_t address) {
    const uint64_t t = (address + static_cast<uint64_t>(stride)) / line * line;
    for (std::size_t i = first_request; i < to_send_.size(); ++i)
      if (to_send_[i].address / line * line == t) return;
    for (uint64_t u : prefetch_targets_)
      if (u == t) return;
    prefetch_targets_.push_back(t);
  };
  prefetch_targets_.clear();
  if (prefetch_first_lane_) {
    add_target(first.address);
  } else {
    for (std::size_t i = first_request; i < to_send_.size(); ++i) add_target(to_send_[i].address);
  }
  prefetch_pending_ = !prefetch_targets_.empty();
  prefetch_warp_ = load.warp;
  prefetch_pc_ = wi.pc;
}

void Lsu::issue_prefetches() {
  prefetch_pending_ = false;
  for (uint64_t t : prefetch_targets_)
    l1d_prefetch_->prefetch(t, static_cast<int32_t>(place_.sm), prefetch_warp_, prefetch_pc_);
}

}  // namespace gputlm::sm
