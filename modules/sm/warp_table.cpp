#include "sm/warp_table.h"

#include "sm/pipeline_protocol.h"

namespace gputlm::sm {

WarpTable::WarpTable(uint32_t max_warps, uint32_t ibuffer_entries)
    : entries_(ibuffer_entries), warp_touches_(max_warps, 0), slots_(max_warps), head_class_(max_warps, kNoHead) {
  if (max_warps == 0 || max_warps > 64)
    throw PipelineError("warp table: " + std::to_string(max_warps) + " warp slots (1 to 64 supported)");
  all_warps_ = max_warps == 64 ? ~uint64_t{0} : (uint64_t{1} << max_warps) - 1;
  for (auto& s : slots_) s.ibuf.resize(entries_);
}

void WarpTable::throw_ibuf_range(uint32_t w, uint32_t i) const {
  throw PipelineError("I-buffer of warp " + std::to_string(w) + ": entry " + std::to_string(i) + " of " +
                      std::to_string(slots_[w].ibuf_count));
}

void WarpTable::set_head_class(uint32_t w, uint8_t c) {
  static_assert(static_cast<unsigned>(isa::OpClass::Nop) < 32, "class_heads_ holds 32 op classes");
  ++head_changes_;  // every caller changes the head entry, whatever its class
  const uint8_t old = head_class_[w];
  if (old == c) return;
  const uint64_t bit = uint64_t{1} << w;
  if (old != kNoHead) {
    class_heads_[old] &= ~bit;
    if ((watched_classes_ >> old) & 1u) watched_heads_ &= ~bit;
  }
  if (c != kNoHead) {
    class_heads_[c] |= bit;
    if ((watched_classes_ >> c) & 1u) watched_heads_ |= bit;
  }
  head_class_[w] = c;
}

void WarpTable::watch_head_classes(uint32_t class_mask) {
  watched_classes_ = class_mask;
  watched_heads_ = 0;
  for (uint32_t c = 0; c < 32; ++c)
    if ((class_mask >> c) & 1u) watched_heads_ |= class_heads_[c];
}

void WarpTable::ibuf_push(uint32_t w, const IBufferEntry& e) {
  WarpSlot& s = slots_[w];
  if (s.ibuf_count == entries_) throw PipelineError("I-buffer of warp " + std::to_string(w) + " overflow");
  s.ibuf[(s.ibuf_head + s.ibuf_count) % entries_] = e;
  if (s.ibuf_count++ == 0) set_head_class(w, static_cast<uint8_t>(e.instr->cls));
  touch(w);
}

void WarpTable::ibuf_pop(uint32_t w) {
  WarpSlot& s = slots_[w];
  if (s.ibuf_count == 0) throw PipelineError("I-buffer of warp " + std::to_string(w) + " underflow");
  s.ibuf_head = (s.ibuf_head + 1) % entries_;
  --s.ibuf_count;
  set_head_class(w, s.ibuf_count == 0 ? kNoHead : static_cast<uint8_t>(s.ibuf[s.ibuf_head].instr->cls));
  touch(w);
}

void WarpTable::ibuf_flush(uint32_t w) {
  WarpSlot& s = slots_[w];
  s.ibuf_head = s.ibuf_count = 0;
  set_head_class(w, kNoHead);
  if (s.fetch_pending) s.fetch_stale = true;
  touch(w);
}

uint64_t WarpTable::next_fetch_pc(uint32_t w) const {
  const WarpSlot& s = slots_[w];
  if (s.ibuf_count > 0) return ibuf_at(w, s.ibuf_count - 1).pc + isa::kInstrBytes;
  return s.grid->peek_pc(*s.ctx);
}

void WarpTable::place(uint32_t w, uint32_t cta_slot) {
  clear(w);
  slots_[w].valid = true;
  slots_[w].cta_slot = cta_slot;
  if (cta_slot >= cta_warps_.size()) cta_warps_.resize(cta_slot + 1, 0);
  cta_warps_[cta_slot] |= uint64_t{1} << w;
}

void WarpTable::clear(uint32_t w) {
  WarpSlot& s = slots_[w];
  if (s.valid && s.cta_slot < cta_warps_.size()) cta_warps_[s.cta_slot] &= ~(uint64_t{1} << w);
  std::vector<IBufferEntry> keep = std::move(s.ibuf);
  s = WarpSlot{};
  s.ibuf = std::move(keep);
  finishing_ &= ~(uint64_t{1} << w);
  control_pending_ &= ~(uint64_t{1} << w);
  set_head_class(w, kNoHead);
  touch(w);
  ++residency_version_;
}

}  // namespace gputlm::sm
