// WarpTable's per-warp head class, the per-class warp masks (heads_of) and the watched
// class set that Mascar's WST reads: they follow every I-buffer push, pop, flush and clear,
// checked against the I-buffer heads themselves over a random sequence of operations; and
// the mirrored Ready status and the finishing set the issue stage and completion scan read.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "sm/warp_table.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
uint32_t bit(isa::OpClass c) { return 1u << static_cast<unsigned>(c); }
}  // namespace

TEST_CASE("warp table: head_class and heads_of follow push pop flush and clear", "[sm][warp_table]") {
  WarpTable t(4, 3);
  isa::Instruction ld, add, st;
  ld.cls = isa::OpClass::MemGlobal;
  add.cls = isa::OpClass::IntAlu;
  st.cls = isa::OpClass::MemShared;
  CHECK(t.head_class(0) == WarpTable::kNoHead);
  CHECK(t.heads_of(~0u) == 0);

  t.ibuf_push(1, IBufferEntry{&add, 0x10});
  t.ibuf_push(1, IBufferEntry{&ld, 0x18});  // not the head: no change
  CHECK(t.head_class(1) == static_cast<uint8_t>(isa::OpClass::IntAlu));
  CHECK(t.heads_of(bit(isa::OpClass::IntAlu)) == 0b0010);
  CHECK(t.heads_of(bit(isa::OpClass::MemGlobal)) == 0);
  t.ibuf_push(3, IBufferEntry{&st, 0x10});
  CHECK(t.heads_of(bit(isa::OpClass::MemGlobal) | bit(isa::OpClass::MemShared)) == 0b1000);

  t.ibuf_pop(1);  // ld is the head now
  CHECK(t.heads_of(bit(isa::OpClass::IntAlu)) == 0);
  CHECK(t.heads_of(bit(isa::OpClass::MemGlobal) | bit(isa::OpClass::MemShared)) == 0b1010);
  t.ibuf_pop(1);
  CHECK(t.head_class(1) == WarpTable::kNoHead);
  CHECK(t.heads_of(~0u) == 0b1000);
  t.ibuf_flush(3);
  CHECK(t.heads_of(~0u) == 0);
  t.ibuf_push(2, IBufferEntry{&ld, 0x10});
  t.clear(2);
  CHECK(t.heads_of(~0u) == 0);
  CHECK(t.head_class(2) == WarpTable::kNoHead);
}

TEST_CASE("warp table: heads_of equals the I-buffer heads over random operations", "[sm][warp_table]") {
  constexpr uint32_t kWarps = 64, kEntries = 2;
  WarpTable t(kWarps, kEntries);
  std::vector<isa::Instruction> instrs(static_cast<std::size_t>(isa::OpClass::Nop) + 1);
  for (std::size_t c = 0; c < instrs.size(); ++c) instrs[c].cls = static_cast<isa::OpClass>(c);
  std::mt19937 rng(7);
  const uint32_t watched = bit(isa::OpClass::MemGlobal) | bit(isa::OpClass::MemLocal) | bit(isa::OpClass::Atomic);
  for (int step = 0; step < 20000; ++step) {
    if (step == 5000) t.watch_head_classes(watched);  // watching starts with heads already present
    const uint32_t w = rng() % kWarps;
    switch (rng() % 5) {
      case 0:
      case 1:
        if (t.ibuf_free(w) > 0) t.ibuf_push(w, IBufferEntry{&instrs[rng() % instrs.size()], 0});
        break;
      case 2:
        if (!t.ibuf_empty(w)) t.ibuf_pop(w);
        break;
      case 3:
        if (rng() % 4 == 0) t.ibuf_flush(w);
        break;
      default:
        if (rng() % 8 == 0) t.clear(w);
        break;
    }
    const uint32_t mask = static_cast<uint32_t>(rng());
    uint64_t want = 0;
    for (uint32_t v = 0; v < kWarps; ++v) {
      const uint8_t c = t.ibuf_empty(v) ? WarpTable::kNoHead : static_cast<uint8_t>(t.ibuf_head(v).instr->cls);
      REQUIRE(t.head_class(v) == c);
      if (c != WarpTable::kNoHead && ((mask >> c) & 1u)) want |= uint64_t{1} << v;
    }
    REQUIRE(t.heads_of(mask) == want);
    if (step >= 5000) {
      uint64_t want_watched = 0;
      for (uint32_t v = 0; v < kWarps; ++v)
        if (t.head_class(v) != WarpTable::kNoHead && ((watched >> t.head_class(v)) & 1u))
          want_watched |= uint64_t{1} << v;
      REQUIRE(t.watched_heads() == want_watched);
      REQUIRE(t.heads_of(watched) == want_watched);
    }
  }
}

TEST_CASE("warp table: ready follows the status on sync and barrier release and finishing follows exits",
          "[sm][warp_table]") {
  WarpTable t(4, 2);
  std::vector<isa::WarpContext> ctx(4);
  for (uint32_t w = 0; w < 4; ++w) {
    t.place(w, w < 3 ? 0 : 1);  // warps 0-2 in CTA slot 0, warp 3 in CTA slot 1
    t[w].ctx = &ctx[w];
    CHECK_FALSE(t.ready(w));         // a cleared slot is not Ready until synced
    ctx[w].simt.push_back(isa::SimtEntry{0, 0, isa::kNone, 0xffu << w});
    t.sync_status(w);
    CHECK(t.ready(w));
    CHECK(t[w].active_mask == 0xffu << w);  // the SIMT stack's top, for check_masked
  }
  // Warps 0, 1 and 3 arrive at barriers; their steps sync them.
  for (uint32_t w : {0u, 1u, 3u}) {
    ctx[w].status = isa::WarpStatus::AtBarrier;
    t.sync_status(w);
    CHECK_FALSE(t.ready(w));
  }
  // CTA 0's barrier releases (the executor sets its warps Ready): only CTA 0's warps are
  // re-read and touched; warp 3 (another CTA) keeps its bit and its version.
  ctx[0].status = ctx[1].status = isa::WarpStatus::Ready;
  ctx[3].status = isa::WarpStatus::Ready;  // not released: must stay unread
  const uint64_t v0 = t.warp_version(0), v2 = t.warp_version(2), v3 = t.warp_version(3);
  t.barrier_released(0);
  CHECK(t.ready(0));
  CHECK(t.ready(1));
  CHECK(t.ready(2));
  CHECK_FALSE(t.ready(3));
  CHECK(t.warp_version(0) == v0 + 1);
  CHECK(t.warp_version(2) == v2 + 1);
  CHECK(t.warp_version(3) == v3);
  std::vector<uint32_t> seen;
  t.for_each_warp_of_cta(0, [&](uint32_t w) { seen.push_back(w); });
  CHECK(seen == std::vector<uint32_t>{0, 1, 2});

  CHECK(t.finishing() == 0);
  t.mark_issue_done(2);
  t.mark_issue_done(1);
  CHECK(t.finishing() == 0b0110);
  CHECK_FALSE(t.live(2));
  t.mark_done(2);
  CHECK(t[2].done);
  CHECK(t.finishing() == 0b0010);
  t.clear(1);  // a retired slot leaves the set too
  CHECK(t.finishing() == 0);
  CHECK_FALSE(t.ready(1));
}

TEST_CASE("warp table: the warps of a CTA are the slots placed in it until cleared", "[sm][warp_table]") {
  WarpTable t(64, 2);
  auto warps_of = [&](uint32_t c) {
    std::vector<uint32_t> v;
    t.for_each_warp_of_cta(c, [&](uint32_t w) { v.push_back(w); });
    return v;
  };
  for (uint32_t w : {63u, 2u, 40u}) t.place(w, 5);
  t.place(7, 0);
  CHECK(warps_of(5) == std::vector<uint32_t>{2, 40, 63});  // ascending, whatever the order placed
  CHECK(warps_of(0) == std::vector<uint32_t>{7});
  CHECK(warps_of(31).empty());  // never used
  CHECK(t[40].valid);
  CHECK(t[40].cta_slot == 5);
  t.clear(40);
  CHECK(warps_of(5) == std::vector<uint32_t>{2, 63});
  // A slot placed again moves to its new CTA; clearing every slot of a CTA while visiting it
  // (retirement) visits each once.
  t.place(63, 0);
  CHECK(warps_of(0) == std::vector<uint32_t>{7, 63});
  std::vector<uint32_t> visited;
  t.for_each_warp_of_cta(0, [&](uint32_t w) {
    visited.push_back(w);
    t.clear(w);
  });
  CHECK(visited == std::vector<uint32_t>{7, 63});
  CHECK(warps_of(0).empty());
  CHECK(warps_of(5) == std::vector<uint32_t>{2});
}
