// WarpTable's per-warp head class, the per-class warp masks (heads_of) and the watched
// class set that Mascar's WST reads: they follow every I-buffer push, pop, flush and clear,
// checked against the I-buffer heads themselves over a random sequence of operations.
#include <catch2/catch.hpp>

#include <random>

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
