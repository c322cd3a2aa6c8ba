// GlobalMemoryLog::replay: applies deferred global loads, stores and atomics exactly as the
// memory handlers (handlers_memory.cpp) apply them at issue without a log.
#include "isa/exec/global_memory_log.h"

#include <cstring>

#include "isa/exec/convert_semantics.h"
#include "isa/exec/functional_executor.h"
#include "isa/exec/warp_collectives.h"
#include "isa/exec/warp_context.h"

namespace gputlm::isa {

namespace {

// Lanes of `mask` in lane order (as the handlers' for_each_lane).
template <class F>
inline void each_lane(uint32_t mask, F&& f) {
  while (mask) {
    uint32_t l = static_cast<uint32_t>(__builtin_ctz(mask));
    mask &= mask - 1;
    f(l);
  }
}

// Register rows the op writes, or false if it writes none: no destination, only sinks, or
// the frame is gone (returned, or the CTA context restarted), so the registers are dead.
bool dest_rows(const GlobalMemoryLog::Op& op, uint64_t* rows[8]) {
  const GlobalMemoryLog::Dest& d = op.dest;
  if (!d.warp || d.frame >= d.warp->depth) return false;
  CallFrame& f = d.warp->frames[d.frame];
  if (f.activation != d.activation) return false;
  bool any = false;
  for (uint32_t i = 0; i < op.elements && i < 8; ++i) {
    rows[i] = d.regs[i] == kNone ? nullptr : &f.regs[size_t{d.regs[i]} * 32];
    any = any || rows[i];
  }
  return any;
}

void replay_load(const GlobalMemoryLog::Op& op, const uint64_t* addrs, BackingStore& store) {
  uint64_t* rows[8] = {};
  if (!dest_rows(op, rows)) return;  // a load has no other effect
  const uint32_t eb = op.element_bytes, n = op.elements, bytes = eb * n;
  auto put_elems = [&](uint32_t l, const uint8_t* p) {
    for (uint32_t i = 0; i < n; ++i) {
      if (!rows[i] || (op.overwritten[i] >> l & 1u)) continue;
      uint64_t v = 0;
      std::memcpy(&v, p + i * eb, eb);
      rows[i][l] = op.sign_extend ? sem::extend_to_64(v, op.type) : v;
    }
  };
  uint32_t k = 0;
  if (op.span_hi) {
    uint8_t span[GlobalMemoryLog::kSpanBytes];
    store.read(op.span_lo, span, op.span_hi - op.span_lo);
    each_lane(op.lane_mask, [&](uint32_t l) { put_elems(l, span + (addrs[k++] - op.span_lo)); });
    return;
  }
  each_lane(op.lane_mask, [&](uint32_t l) {
    uint8_t buf[64];
    store.read(addrs[k++], buf, bytes);
    put_elems(l, buf);
  });
}

void replay_store(const GlobalMemoryLog::Op& op, const uint64_t* addrs, const uint64_t* values, BackingStore& store) {
  const uint32_t eb = op.element_bytes, n = op.elements;
  // Element by element, as the handler writes without a log: the same calls reach the
  // backing store (whose pages may be a host's memory behind TLM).
  uint32_t k = 0;
  each_lane(op.lane_mask, [&](uint32_t) {
    uint64_t a = addrs[k];
    for (uint32_t i = 0; i < n; ++i) store.write(a + uint64_t{i} * eb, &values[size_t{k} * n + i], eb);
    ++k;
  });
}

void replay_atomic(const GlobalMemoryLog::Op& op, const uint64_t* addrs, const uint64_t* values,
                   BackingStore& store) {
  uint64_t* rows[8] = {};
  uint64_t* d = dest_rows(op, rows) ? rows[0] : nullptr;
  const uint32_t eb = op.element_bytes;
  const uint64_t wm = eb >= 8 ? ~uint64_t{0} : ((uint64_t{1} << (8 * eb)) - 1);
  uint32_t k = 0;
  each_lane(op.lane_mask, [&](uint32_t l) {
    uint64_t old = 0;
    store.read(addrs[k], &old, eb);
    uint64_t nv = sem::atomic_update(op.atom, op.type, old, values[2 * k], values[2 * k + 1]) & wm;
    store.write(addrs[k], &nv, eb);
    if (d && !(op.overwritten[0] >> l & 1u)) d[l] = op.sign_extend ? sem::extend_to_64(old, op.type) : old;
    ++k;
  });
}

}  // namespace

void GlobalMemoryLog::replay(DeviceMemory& mem) {
  BackingStore& store = mem.store;
  for (const Op& op : ops_) {
    const uint64_t* addrs = addrs_.data() + op.addr_first;
    const uint64_t* values = values_.data() + op.value_first;
    switch (op.kind) {
      case Kind::Load: replay_load(op, addrs, store); break;
      case Kind::Store: replay_store(op, addrs, values, store); break;
      case Kind::Atomic: replay_atomic(op, addrs, values, store); break;
    }
  }
  for (const GridCounts& g : counts_) g.grid->add_counters(g.counts);
  clear();
}

void GlobalMemoryLog::add_op(const Op& op) {
  ops_.push_back(op);
  if (op.dest.warp) {
    op.dest.warp->deferred_log = this;
    op.dest.warp->deferred_epoch = epoch_;
  }
}

void GlobalMemoryLog::note_write(const WarpContext& w, size_t before, uint32_t reg, uint32_t lanes) {
  if (w.deferred_log != this || w.deferred_epoch != epoch_ || w.depth == 0) return;
  const uint32_t frame = w.depth - 1;
  const uint64_t activation = w.frames[frame].activation;
  for (size_t i = 0; i < before && i < ops_.size(); ++i) {
    Op& op = ops_[i];
    if (op.dest.warp != &w || op.dest.frame != frame || op.dest.activation != activation) continue;
    for (uint32_t e = 0; e < 8; ++e)
      if (op.dest.regs[e] == reg) op.overwritten[e] |= lanes;
  }
}

void GlobalMemoryLog::clear() {
  ++epoch_;
  ops_.clear();
  addrs_.clear();
  values_.clear();
  counts_.clear();
}

}  // namespace gputlm::isa
