// Coalescer, shared-memory bank and local-memory map checks against the golden models
// (coalescer_golden.h) on constructed and random address patterns.
#include <catch2/catch.hpp>

#include <random>

#include "coalescer_golden.h"
#include "core/config/config_source.h"
#include "sm/lsu/coalescer.h"
#include "sm/lsu/local_memory_map.h"
#include "sm/lsu/shared_memory_banks.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
std::vector<LineRequest> run(const std::vector<LaneAccess>& p, CoalescerConfig cfg = {}) {
  Coalescer c(cfg);
  std::vector<LineRequest> out;
  c.coalesce(p.data(), p.size(), 32, out);
  CHECK(golden::to_golden(out) == golden::coalesce(p, cfg.line_size, cfg.sector_size, cfg.warp_parts));
  return out;
}
std::vector<LineRequest> run_atomic(const std::vector<LaneAccess>& p, CoalescerConfig cfg = {}) {
  Coalescer c(cfg);
  std::vector<LineRequest> out;
  c.coalesce_atomic(p.data(), p.size(), 32, out);
  CHECK(golden::to_golden(out) == golden::coalesce_atomic(p, cfg.line_size, cfg.sector_size, cfg.atomic_warp_parts,
                                                                     cfg.atomic_segment));
  return out;
}
}  // namespace

TEST_CASE("coalescer fully coalesced 32-bit warp access is one line with all sectors", "[coalescer]") {
  const auto r = run(golden::strided(0x1000, 4, 4));
  REQUIRE(r.size() == 1);
  CHECK(r[0].line_address == 0x1000);
  CHECK(r[0].sector_mask == 0xF);
  CHECK(r[0].lane_mask == 0xffffffffu);
  CHECK(r[0].byte_mask.count() == 128);
}

TEST_CASE("coalescer strided 2, 4 and 32 words give 2, 4 and 32 lines", "[coalescer]") {
  const auto s2 = run(golden::strided(0x2000, 8, 4));
  REQUIRE(s2.size() == 2);
  CHECK(s2[0].sector_mask == 0xF);
  CHECK(s2[0].byte_mask.count() == 64);
  CHECK(s2[1].lane_mask == 0xffff0000u);
  const auto s4 = run(golden::strided(0x2000, 16, 4));
  REQUIRE(s4.size() == 4);
  CHECK(s4[3].line_address == 0x2000 + 3 * 128);
  const auto s32 = run(golden::strided(0x2000, 128, 4));
  REQUIRE(s32.size() == 32);
  for (const auto& l : s32) {
    CHECK(l.sector_mask == 0x1);
    CHECK(l.byte_mask.count() == 4);
  }
}

TEST_CASE("coalescer misaligned warp access spans two lines with partial sectors", "[coalescer]") {
  const auto r = run(golden::strided(0x1004, 4, 4));
  REQUIRE(r.size() == 2);
  CHECK(r[0].line_address == 0x1000);
  CHECK(r[0].sector_mask == 0xF);
  CHECK(r[0].lane_mask == 0x7fffffffu);
  CHECK(r[0].byte_mask.count() == 124);
  CHECK(r[1].line_address == 0x1080);
  CHECK(r[1].sector_mask == 0x1);
  CHECK(r[1].lane_mask == 0x80000000u);
  // One 8-byte piece across a line boundary is split.
  const auto x = run({LaneAccess{0x107C, 8, 3}});
  REQUIRE(x.size() == 2);
  CHECK(x[0].sector_mask == 0x8);
  CHECK(x[1].sector_mask == 0x1);
}

TEST_CASE("coalescer 64-bit and 128-bit vector accesses give 2 and 4 lines", "[coalescer]") {
  const auto r64 = run(golden::strided(0x4000, 8, 8));
  REQUIRE(r64.size() == 2);
  CHECK(r64[0].byte_mask.count() == 128);
  const auto r128 = run(golden::strided(0x4000, 16, 16));
  REQUIRE(r128.size() == 4);
  for (const auto& l : r128) CHECK(l.lane_mask == (0xffu << (8 * ((l.line_address - 0x4000) / 128))));
}

TEST_CASE("coalescer partial lane masks touch only their sectors", "[coalescer]") {
  const auto r = run(golden::strided(0x8000, 4, 4, 0x000000ffu));
  REQUIRE(r.size() == 1);
  CHECK(r[0].sector_mask == 0x1);
  const auto odd = run(golden::strided(0x8000, 4, 4, 0xff0000ffu));
  REQUIRE(odd.size() == 1);
  CHECK(odd[0].sector_mask == 0x9);
  CHECK(run(golden::strided(0x8000, 4, 4, 0)).empty());
}

TEST_CASE("coalescer half-warp parts and 64-byte lines", "[coalescer]") {
  CoalescerConfig halves;
  halves.warp_parts = 2;
  CHECK(run(golden::strided(0x1000, 4, 4), halves).size() == 2);
  CoalescerConfig small;
  small.line_size = 64;
  small.sector_size = 32;
  CHECK(run(golden::strided(0x1000, 4, 4), small).size() == 2);
}

TEST_CASE("coalescer atomics to one word serialise per half warp (GPGPU-Sim 3.x rule)", "[coalescer]") {
  CoalescerConfig v3;
  v3.atomic_warp_parts = 2;
  v3.atomic_segment = 128;
  const auto same = run_atomic(golden::strided(0x100, 0, 4), v3);
  CHECK(same.size() == 32);
  const auto distinct = run_atomic(golden::strided(0x100, 4, 4), v3);
  REQUIRE(distinct.size() == 2);
  CHECK(distinct[0].lane_mask == 0x0000ffffu);
  CHECK(distinct[1].lane_mask == 0xffff0000u);
  // Two lanes per word: two requests per half warp.
  std::vector<LaneAccess> pairs;
  for (uint8_t l = 0; l < 32; ++l) pairs.push_back(LaneAccess{0x200 + (l / 2) * 4ull, 4, l});
  CHECK(run_atomic(pairs, v3).size() == 4);
}

TEST_CASE("coalescer atomics group per whole warp and 32-byte segment (GPGPU-Sim 4.x Fermi rule)", "[coalescer]") {
  // memory_coalescing_arch_atomic with mem_warp_parts 1 and sector segments: 32 lanes on
  // one word are 32 requests, 32 consecutive words 4 requests of 8 lanes, in segment order.
  const auto same = run_atomic(golden::strided(0x100, 0, 4));
  CHECK(same.size() == 32);
  const auto distinct = run_atomic(golden::strided(0x100, 4, 4));
  REQUIRE(distinct.size() == 4);
  for (uint32_t k = 0; k < 4; ++k) {
    CHECK(distinct[k].line_address == 0x100);
    CHECK(distinct[k].segment_address == 0x100 + 32 * k);
    CHECK(distinct[k].lane_mask == 0xffu << (8 * k));
    CHECK(distinct[k].sector_mask == 1u << k);
  }
  // Two lanes per word: 16 words in 2 segments, two requests each.
  std::vector<LaneAccess> pairs;
  for (uint8_t l = 0; l < 32; ++l) pairs.push_back(LaneAccess{0x200 + (l / 2) * 4ull, 4, l});
  CHECK(run_atomic(pairs).size() == 4);
  std::vector<LaneAccess> spread;  // lanes 0..31 on words 0, 8, 16, ...: one 32 B segment each
  for (uint8_t l = 0; l < 32; ++l) spread.push_back(LaneAccess{0x1000 + l * 32ull, 4, l});
  CHECK(run_atomic(spread).size() == 32);
}

TEST_CASE("coalescer scattered random patterns match the golden model", "[coalescer]") {
  std::mt19937_64 rng(12345);
  for (int iter = 0; iter < 500; ++iter) {
    std::vector<LaneAccess> p;
    const uint32_t bytes = 1u << (rng() % 5);  // 1..16
    for (uint8_t l = 0; l < 32; ++l) {
      if (rng() % 4 == 0) continue;
      const uint64_t a = (0x10000 + rng() % 4096) & ~static_cast<uint64_t>(bytes - 1);
      p.push_back(LaneAccess{a, bytes, l});
    }
    CoalescerConfig cfg;
    cfg.warp_parts = 1u << (rng() % 2);
    cfg.atomic_warp_parts = 1u << (rng() % 3);
    cfg.atomic_segment = 32u << (rng() % 3);  // 32, 64, 128
    run(p, cfg);
    run_atomic(p, cfg);
  }
}

TEST_CASE("coalescer store segments are the smallest aligned 32, 64 or 128 bytes holding the touched bytes",
          "[coalescer]") {
  auto seg = [](uint32_t first, uint32_t last, uint32_t min_bytes = 32) {
    LineRequest lr;
    lr.line_address = 0x2000;
    for (uint32_t b = first; b <= last; ++b) lr.byte_mask.set(b);
    return covering_segment(lr, 128, min_bytes);
  };
  auto is = [](const Segment& s, uint64_t address, uint32_t bytes) { return s.address == address && s.bytes == bytes; };
  CHECK(is(seg(0, 127), 0x2000, 128));   // a whole warp of 32-bit words
  CHECK(is(seg(0, 31), 0x2000, 32));     // 8 lanes
  CHECK(is(seg(32, 63), 0x2020, 32));    // the second quarter
  CHECK(is(seg(100, 103), 0x2060, 32));  // one word in the last quarter
  CHECK(is(seg(0, 63), 0x2000, 64));     // the first half
  CHECK(is(seg(16, 47), 0x2000, 64));    // crosses a quarter boundary inside the first half
  CHECK(is(seg(96, 127), 0x2060, 32));
  CHECK(is(seg(60, 67), 0x2000, 128));   // crosses the half boundary
  CHECK(is(seg(0, 3, 64), 0x2000, 64));  // never below min_bytes
  // Bytes from the coalescer itself: lanes 8..15 of a 32-bit access are the second quarter.
  std::vector<LaneAccess> p;
  for (uint8_t l = 8; l < 16; ++l) p.push_back(LaneAccess{0x3000 + 4u * l, 4, l});
  const auto r = run(p);
  REQUIRE(r.size() == 1);
  CHECK(is(covering_segment(r[0], 128, 32), 0x3020, 32));
}

TEST_CASE("coalescer config errors name the key", "[coalescer]") {
  CoalescerConfig bad;
  bad.line_size = 256;
  CHECK_THROWS_WITH(Coalescer(bad, "sm.lsu.coalescer"), Catch::Contains("sm.lsu.coalescer.line_size"));
  CoalescerConfig sec;
  sec.sector_size = 256;
  CHECK_THROWS_WITH(Coalescer(sec, "x"), Catch::Contains("x.sector_size"));
}

TEST_CASE("shared_memory bank conflicts: stride, broadcast and 64-bit accesses", "[shared_memory]") {
  SharedMemoryBanks banks(SharedMemoryConfig{});
  auto cyc = [&](const std::vector<LaneAccess>& p) {
    const uint32_t c = banks.cycles(p.data(), p.size(), 32);
    CHECK(c == golden::shared_cycles(p, 32, 4, 1));
    return c;
  };
  CHECK(cyc(golden::strided(0, 4, 4)) == 1);
  CHECK(cyc(golden::strided(0, 8, 4)) == 2);
  CHECK(cyc(golden::strided(0, 16, 4)) == 4);
  CHECK(cyc(golden::strided(0, 128, 4)) == 32);
  CHECK(cyc(golden::strided(0, 0, 4)) == 1);     // broadcast
  CHECK(cyc(golden::strided(0, 8, 8)) == 2);     // 64-bit: two words per lane
  CHECK(cyc(golden::strided(0, 4 * 33, 4)) == 1);  // stride 33 words: conflict-free
  CHECK(cyc({}) == 0);
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 300; ++iter) {
    std::vector<LaneAccess> p;
    for (uint8_t l = 0; l < 32; ++l)
      if (rng() % 3) p.push_back(LaneAccess{(rng() % 1024) * 4, 4, l});
    cyc(p);
  }
  SharedMemoryConfig halves;
  halves.warp_parts = 2;
  SharedMemoryBanks hb(halves);
  const auto p = golden::strided(0, 128, 4);
  CHECK(hb.cycles(p.data(), p.size(), 32) == golden::shared_cycles(p, 32, 4, 2));
}

TEST_CASE("coalescer local memory map interleaves threads so a warp's word is one line", "[coalescer]") {
  LocalMemoryMap map{0x200000000000ull, 15, 1536};
  std::vector<LaneAccess> pieces;
  LaneAccess buf[8];
  for (uint8_t l = 0; l < 32; ++l) {
    const uint32_t n = map.translate(3, 5 * 32 + l, l, 16, 4, buf, 8);
    REQUIRE(n == 1);
    CHECK(buf[0].address == 0x200000000000ull + 4 * map.stride() + 4ull * (1536 * 3 + 5 * 32 + l));
    pieces.push_back(buf[0]);
  }
  CHECK(run(pieces).size() == 1);
  // 8-byte accesses: two words, a stride apart; the warp needs two lines.
  pieces.clear();
  for (uint8_t l = 0; l < 32; ++l) {
    const uint32_t n = map.translate(0, l, l, 0, 8, buf, 8);
    REQUIRE(n == 2);
    CHECK(buf[1].address - buf[0].address == map.stride());
    pieces.insert(pieces.end(), buf, buf + n);
  }
  CHECK(run(pieces).size() == 2);
  CHECK_THROWS_WITH(map.translate(15, 0, 0, 0, 4, buf, 8), Catch::Contains("SM 15"));
  CHECK_THROWS_WITH(map.translate(0, 0, 0, 0, 64, buf, 8), Catch::Contains("more than 8 words"));
}

// One coalescer reused across accesses (its segment table is stamped per warp part, not
// cleared), with up to 16 misaligned pieces per lane (local-memory translation gives up to
// 8), so a part can exceed the table's 256 segments and fall back to searching.
TEST_CASE("coalescer reused across many divergent accesses matches the golden model", "[coalescer]") {
  std::mt19937_64 rng(777);
  CoalescerConfig cfg;
  cfg.warp_parts = 2;
  Coalescer c(cfg);
  std::vector<LineRequest> out;
  std::size_t most = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::vector<LaneAccess> p;
    const uint32_t per_lane = 1 + static_cast<uint32_t>(rng() % 16);
    const uint64_t span = iter % 3 == 0 ? 512 : (1u << 20);  // few lines (merging) or many
    for (uint8_t l = 0; l < 32; ++l)
      for (uint32_t k = 0; k < per_lane; ++k)
        p.push_back(LaneAccess{0x100000 + rng() % span, 1 + static_cast<uint32_t>(rng() % 16), l});
    c.coalesce(p.data(), p.size(), 32, out);
    INFO("iteration " << iter);
    REQUIRE(golden::to_golden(out) == golden::coalesce(p, cfg.line_size, cfg.sector_size, cfg.warp_parts));
    most = std::max(most, out.size());
  }
  REQUIRE(most > 2 * 256);  // some parts went past the table
}
