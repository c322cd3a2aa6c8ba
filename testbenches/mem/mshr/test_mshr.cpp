// MSHR arrays against the golden decision model: random miss/fill sequences per
// organisation over a synthetic tag array (reserved lines with their stored index),
// plus directed checks of each organisation's distinguishing rule.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "core/config/config_source.h"
#include "mem/mshr/htsma/htsma_mshr.h"
#include "mem/mshr/mshr_if.h"
#include "mem/mshr/mshr_storage.h"
#include "mem/mshr/mshr_table.h"
#include "mshr_golden.h"

using namespace gputlm;
using namespace gputlm::mem;

namespace {

uint64_t counter(stats::Group& g, const std::string& path) {
  const auto* s = g.find(path);
  REQUIRE(s != nullptr);
  return static_cast<uint64_t>(s->scalar(stats::View::Epoch));
}

struct Rng {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

// A synthetic cache view: `ways` lines per set, `sets` sets; reserved lines hold the
// MSHR index of their pending block; `allocate_on_miss` for conventional organisations.
void run_random(const MshrConfig& cfg, bool allocate_on_miss, uint64_t seed) {
  stats::Group root("root");
  auto dut = make_mshr(cfg, root);
  tb::GoldenMshr gold(cfg);
  const uint32_t sets = 4, ways = 4;
  std::map<uint64_t, int32_t> reserved;          // block -> stored MSHR index
  std::map<uint64_t, int32_t> entry_of;           // block -> DUT entry (for fills)
  Rng rng{seed};
  uint64_t expected_compares = 0, allocs = 0, merges = 0, fails = 0;
  for (int step = 0; step < 20000; ++step) {
    if (rng.below(100) < 55) {
      MissQuery q;
      q.block = rng.below(48);
      q.set = static_cast<uint32_t>(q.block % sets);
      q.ways = ways;
      q.allocate_on_miss = allocate_on_miss;
      for (const auto& [b, idx] : reserved) q.set_reserved += b % sets == q.set ? 1 : 0;
      auto r = reserved.find(q.block);
      if (r != reserved.end()) {
        q.matched_way = 0;
        q.matched_index = r->second;
      } else {
        q.victim_way = q.set_reserved < ways ? 1 : -1;
        q.victim_hit = rng.below(2) == 1;
      }
      const tb::GoldenDecision g = gold.decide(q);
      const MshrPlan p = dut->plan(q);
      expected_compares += g.compares;
      INFO("step " << step << " block " << q.block << " org " << cfg.organisation);
      REQUIRE(static_cast<int>(p.action) == static_cast<int>(g.action));
      REQUIRE(static_cast<int>(p.cause) == static_cast<int>(g.cause));
      if (p.action == MshrAction::Fail) {
        ++fails;
        continue;
      }
      REQUIRE(static_cast<int>(p.structure) == static_cast<int>(g.structure));
      const int32_t warp = static_cast<int32_t>(rng.below(8));
      dut->commit(p, q.block, MshrField{nullptr, warp, false});
      gold.apply(g, q.block, warp, false);
      if (p.action == MshrAction::Allocate) {
        ++allocs;
        REQUIRE(p.reserve_line == g.reserve_line);
        entry_of[q.block] = p.entry;
        if (p.reserve_line) reserved[q.block] = p.entry;
      } else {
        ++merges;
        REQUIRE(p.entry == entry_of.at(q.block));
      }
    } else if (gold.occupied() > 0) {
      // Fill a pending block chosen at random (responses return out of order).
      auto it = gold.entries().begin();
      std::advance(it, rng.below(gold.occupied()));
      const uint64_t block = it->first;
      const int32_t e = dut->find_for_fill(block, entry_of.at(block));
      REQUIRE(e == entry_of.at(block));
      const tb::GoldenMshr::Entry ge = gold.take(block);
      REQUIRE(dut->field_count(e) == ge.warps.size());
      for (uint32_t i = 0; i < ge.warps.size(); ++i) REQUIRE(dut->field(e, i).warp == ge.warps[i]);
      REQUIRE(dut->line_reserved(e) == ge.reserve_line);
      REQUIRE(dut->block_of(e) == block);
      dut->release(e);
      reserved.erase(block);
      entry_of.erase(block);
      // A fill search: conventional CAM over all entries, set_assoc the set, s-MSHR its entries.
      if (cfg.organisation == "conventional") expected_compares += cfg.entries;
      if (cfg.organisation == "set_assoc") expected_compares += cfg.ways;
      if (cfg.organisation == "htsma" && ge.small) expected_compares += cfg.small_entries;
    }
    REQUIRE(dut->occupied() == gold.occupied());
    REQUIRE(dut->almost_full() == (gold.capacity() - gold.occupied() <= cfg.almost_full_margin));
  }
  REQUIRE(counter(root, "mshr.tag_compares") == expected_compares);
  REQUIRE(counter(root, "mshr.allocations") == allocs);
  REQUIRE(counter(root, "mshr.merges") == merges);
  REQUIRE(counter(root, "mshr.fails") == fails);
  // The random walk must have exercised every kind of decision.
  REQUIRE(allocs > 100);
  REQUIRE(merges > 100);
  REQUIRE(fails > 10);
}

MshrConfig make_cfg(const std::string& org, uint32_t entries, uint32_t fields) {
  MshrConfig c;
  c.organisation = org;
  c.entries = entries;
  c.fields = fields;
  c.ways = 4;
  c.small_entries = 4;
  c.almost_full_margin = 2;
  return c;
}

}  // namespace

TEST_CASE("mshr conventional on-miss matches the golden model under random misses and fills", "[mshr]") {
  run_random(make_cfg("conventional", 12, 3), true, 11);
}
TEST_CASE("mshr conventional on-fill matches the golden model under random misses and fills", "[mshr]") {
  run_random(make_cfg("conventional", 12, 3), false, 12);
}
TEST_CASE("set_assoc mshr matches the golden model under random misses and fills", "[mshr][set_assoc]") {
  run_random(make_cfg("set_assoc", 16, 3), false, 13);
}
TEST_CASE("tsma mshr matches the golden model under random misses and fills", "[mshr][tsma]") {
  run_random(make_cfg("tsma", 10, 3), true, 14);
}
TEST_CASE("htsma mshr matches the golden model under random misses and fills", "[mshr][htsma]") {
  run_random(make_cfg("htsma", 8, 3), true, 15);
}

TEST_CASE("set_assoc_mshr_rejects_full_set_with_free_entries (MSHR level)", "[mshr][set_assoc]") {
  stats::Group root("root");
  MshrConfig cfg = make_cfg("set_assoc", 8, 2);
  cfg.ways = 2;  // 4 MSHR sets of 2 ways; block mod 4 selects the set
  auto m = make_mshr(cfg, root);
  MissQuery q;
  q.allocate_on_miss = false;
  for (uint64_t b : {0u, 4u}) {
    q.block = b;
    const MshrPlan p = m->plan(q);
    REQUIRE(p.action == MshrAction::Allocate);
    m->commit(p, b, MshrField{nullptr, 0, false});
  }
  q.block = 8;  // set 0 again: full, while 6 entries are free
  const MshrPlan p = m->plan(q);
  CHECK(p.action == MshrAction::Fail);
  CHECK(p.cause == ReservationFail::MshrEntriesFull);
  CHECK(m->occupied() == 2);
  CHECK(m->capacity() == 8);
  // The failed search is charged: three searches of one 2-way set.
  CHECK(counter(root, "mshr.tag_compares") == 6);
  q.block = 1;  // another set still allocates
  CHECK(m->plan(q).action == MshrAction::Allocate);
}

TEST_CASE("mshr conventional search compares every entry tsma none", "[mshr][tsma]") {
  stats::Group root("root");
  auto conv = make_mshr(make_cfg("conventional", 12, 3), root);
  MissQuery q;
  q.allocate_on_miss = false;
  q.block = 5;
  conv->commit(conv->plan(q), 5, MshrField{nullptr, 1, false});
  CHECK(counter(root, "mshr.tag_compares") == 12);
  stats::Group root2("root2");
  auto tsma = make_mshr(make_cfg("tsma", 12, 3), root2);
  q.victim_way = 0;
  const MshrPlan p = tsma->plan(q);
  REQUIRE(p.action == MshrAction::Allocate);
  CHECK(p.reserve_line);
  CHECK(p.entry == 0);  // index generator: lowest free entry
  tsma->commit(p, 5, MshrField{nullptr, 1, false});
  CHECK(tsma->plan(q).entry == 1);
  CHECK(counter(root2, "mshr.tag_compares") == 0);
  // A response carrying a wrong index is a clear error, not a silent mismatch.
  CHECK_THROWS_WITH(tsma->find_for_fill(5, 3), Catch::Contains("MSHR index 3"));
}

TEST_CASE("htsma mshr routes misses per Listing 5.1 and counts s-MSHR vs TSMA accesses", "[mshr][htsma]") {
  stats::Group root("root");
  MshrConfig cfg = make_cfg("htsma", 8, 2);
  cfg.small_entries = 2;
  auto m = make_mshr(cfg, root);
  MissQuery q;
  q.ways = 4;
  q.victim_way = 0;
  // Empty s-MSHR, victim not recently hit: TSMA primary, no s-MSHR search.
  q.block = 1;
  MshrPlan p = m->plan(q);
  CHECK(p.structure == MshrStructure::Main);
  CHECK(p.reserve_line);
  m->commit(p, 1, MshrField{nullptr, 0, false});
  CHECK(counter(root, "mshr.smshr_searches_skipped") == 1);
  // Victim with its hit bit set: the s-MSHR takes it (no early eviction of the hit line).
  q.block = 2;
  q.victim_hit = true;
  p = m->plan(q);
  CHECK(p.structure == MshrStructure::Small);
  CHECK_FALSE(p.reserve_line);
  m->commit(p, 2, MshrField{nullptr, 0, false});
  // share_cnt == ways - 1: the reserved way forces the s-MSHR even for a cold victim.
  q.block = 3;
  q.victim_hit = false;
  q.set_reserved = 3;
  p = m->plan(q);
  CHECK(p.structure == MshrStructure::Small);
  m->commit(p, 3, MshrField{nullptr, 0, false});
  // s-MSHR full in the reserved-way branch: the miss fails (the cache retries).
  q.block = 4;
  p = m->plan(q);
  CHECK(p.action == MshrAction::Fail);
  CHECK(p.cause == ReservationFail::MshrEntriesFull);
  // s-MSHR full, hit victim, set not nearly shared: falls back to TSMA.
  q.set_reserved = 0;
  q.victim_hit = true;
  p = m->plan(q);
  CHECK(p.structure == MshrStructure::Main);
  // A block held by the s-MSHR merges there, never duplicated into TSMA (§Z 26).
  q.block = 2;
  p = m->plan(q);
  CHECK(p.action == MshrAction::Merge);
  CHECK(p.structure == MshrStructure::Small);
  CHECK(counter(root, "mshr.smshr_access") == 2);
  CHECK(counter(root, "mshr.tsma_access") == 1);
  CHECK(m->occupied() == 3);
  CHECK(m->capacity() == 10);
}

TEST_CASE("mshr config rejects impossible combinations naming the key", "[mshr][set_assoc]") {
  MshrConfig c = make_cfg("set_assoc", 10, 2);
  c.ways = 4;
  CHECK_THROWS_WITH(c.validate("l1d.mshr"), Catch::Contains("l1d.mshr.ways"));
  c = make_cfg("conventional", 4, 2);
  c.almost_full_margin = 4;
  CHECK_THROWS_WITH(c.validate("l1d.mshr"), Catch::Contains("l1d.mshr.almost_full_margin"));
  c = make_cfg("nonesuch", 4, 2);
  CHECK_THROWS_AS(c.validate("l1d.mshr"), config::ConfigError);
  const auto src = config::ConfigSource::from_json(nlohmann::json{{"organisation", "tsmaa"}}, "test.json");
  MshrConfig r;
  CHECK_THROWS_WITH(config::read(src, r), Catch::Contains("organisation"));
}

// --- storage cost (mshr_storage.h) ------------------------------------------------------
// The expected figures are worked by hand from 001's widths (§1.2 field, §5.1 TSMA, §5.2
// HTSMA) for Table 5.1's L1D: 32 KB, 8-way, 128 B blocks = 32 sets x 8 ways, 32-bit addresses.

namespace {
MshrStorageGeometry table5_1_l1d() {
  MshrStorageGeometry g;
  g.cache_sets = 32;
  g.cache_ways = 8;
  g.line_size = 128;
  return g;
}
MshrConfig organisation(const std::string& name, uint32_t entries, uint32_t small_entries = 4, uint32_t ways = 8) {
  MshrConfig c;
  c.organisation = name;
  c.entries = entries;
  c.fields = 8;
  c.small_entries = small_entries;
  c.ways = ways;
  return c;
}
}  // namespace

TEST_CASE("mshr storage: a field is 56 bits and an 8-field entry 56 bytes at 128 B blocks", "[mshr][storage]") {
  // 001 §1.2: 1 + 5 + 5 + 32 + 6 + 7 (the text's sum says 55: digest §Z15); §5.5: "an MSHR
  // entry with 8 MSHR fields as a 56-byte cache block".
  CHECK(MshrFieldWidths{}.bits(128) == 56);
  CHECK(8 * MshrFieldWidths{}.bits(128) == 56 * 8);
  CHECK(MshrFieldWidths{}.bits(64) == 55);  // the offset follows the block size
  CHECK(index_bits(1) == 0);
  CHECK(index_bits(48) == 6);
  CHECK(index_bits(64) == 6);
  CHECK(index_bits(65) == 7);
}

TEST_CASE("mshr storage: conventional entries hold valid + 25-bit tag + 8 fields", "[mshr][storage]") {
  // (1 + (32 - 7) + 8 x 56) = 474 bits per entry.
  CHECK(conventional_storage_bits(organisation("conventional", 32), table5_1_l1d()) == 32u * 474u);
  CHECK(conventional_storage_bits(organisation("conventional", 48), table5_1_l1d()) == 48u * 474u);
  MshrStorageGeometry line64 = table5_1_l1d();
  line64.line_size = 64;  // tag 26, field 55: 1 + 26 + 440
  CHECK(conventional_storage_bits(organisation("conventional", 32), line64) == 32u * 467u);
}

TEST_CASE("mshr storage: set_assoc drops the set-index bits from each tag", "[mshr][storage]") {
  // 64 entries / 8 ways = 8 sets: tag 25 - 3 = 22, entry 471.
  CHECK(set_assoc_storage_bits(organisation("set_assoc", 64, 4, 8), table5_1_l1d()) == 64u * 471u);
  // Fully associative (one set) is the conventional MSHR.
  CHECK(set_assoc_storage_bits(organisation("set_assoc", 64, 4, 64), table5_1_l1d()) ==
        conventional_storage_bits(organisation("conventional", 64), table5_1_l1d()));
  // 6 sets (not a power of two, block mod 6): the whole tag is kept.
  CHECK(set_assoc_storage_bits(organisation("set_assoc", 48, 4, 8), table5_1_l1d()) == 48u * 474u);
}

TEST_CASE("mshr storage: tsma has no tags but a share bit and IDX per cache block", "[mshr][storage]") {
  // 48 x (1 + 448) entries + 48-bit availability vector + 6-bit IDX register
  // + 256 blocks x (share 1 + IDX 6).
  CHECK(tsma_storage_bits(organisation("tsma", 48), table5_1_l1d()) == 48u * 449u + 48u + 6u + 256u * 7u);
}

TEST_CASE("mshr storage: htsma adds hit bits share counters and a conventional s-MSHR", "[mshr][storage]") {
  // Table 5.3's 32K L1D: TSMA 48 with a 4-entry s-MSHR. + 256 hit bits + 32 sets x
  // log2(8 + 1) = 4-bit share_cnt + 4 x 474 (s-MSHR) + 1 (empty flag).
  const uint64_t tsma = 48u * 449u + 48u + 6u + 256u * 7u;
  CHECK(htsma_storage_bits(organisation("htsma", 48, 4), table5_1_l1d()) == tsma + 256u + 32u * 4u + 4u * 474u + 1u);
  // A larger s-MSHR (Table 5.3: 12 for the 16K L1D) costs 474 bits per entry more.
  CHECK(htsma_storage_bits(organisation("htsma", 48, 12), table5_1_l1d()) -
            htsma_storage_bits(organisation("htsma", 48, 4), table5_1_l1d()) ==
        8u * 474u);
}

TEST_CASE("mshr storage: the registry picks each organisation's function and make_mshr exposes it",
          "[mshr][storage]") {
  for (const std::string& name : mshr_organisations()) {
    const MshrConfig cfg = organisation(name, 64);
    stats::Group root("root");
    const MshrStorageGeometry g = table5_1_l1d();
    auto dut = make_mshr(cfg, root, &g);
    const auto* s = root.find("mshr.storage_bits");
    REQUIRE(s != nullptr);
    CHECK(static_cast<uint64_t>(s->scalar(stats::View::Total)) == mshr_storage_bits(cfg, g));
    root.end_epoch();
    root.reset();  // a constant: the same after an epoch and a reset
    CHECK(static_cast<uint64_t>(s->scalar(stats::View::Epoch)) == mshr_storage_bits(cfg, g));
  }
  CHECK(mshr_storage_bits(organisation("conventional", 64), table5_1_l1d()) == 64u * 474u);
  CHECK(mshr_storage_bits(organisation("tsma", 64), table5_1_l1d()) ==
        tsma_storage_bits(organisation("tsma", 64), table5_1_l1d()));
  stats::Group root("root");
  auto plain = make_mshr(organisation("conventional", 8), root);  // no geometry: no statistic
  CHECK(root.find("mshr.storage_bits") == nullptr);
  CHECK_THROWS_AS(mshr_storage_bits(organisation("bogus", 8), table5_1_l1d()), config::ConfigError);
}

// MshrTable's block index (a simulator shortcut for search(), tables of 16 entries and
// more) against a scan of the same entries: random allocations, merges and releases over
// a few blocks (probe chains collide and wrap), searches over the whole table and over
// sub-ranges as set_assoc asks, for table sizes on both sides of the index threshold.
TEST_CASE("mshr table search through the block index equals a scan of the entries", "[mshr]") {
  for (const uint32_t entries : {8u, 16u, 64u, 256u, 300u}) {
    MshrTable t(entries, 2);
    std::map<uint32_t, uint64_t> valid;  // entry -> block (the reference)
    Rng rng{0x5eedull + entries};
    auto scan = [&](uint64_t block, uint32_t first, uint32_t n) {
      for (const auto& [e, b] : valid)
        if (e >= first && e < first + n && b == block) return static_cast<int32_t>(e);
      return int32_t{-1};
    };
    uint64_t found = 0;
    for (int step = 0; step < 40000; ++step) {
      const uint64_t block = rng.below(entries + entries / 2) * 0x1000 + (step % 3 == 0 ? rng.below(3) : 0);
      const uint32_t op = rng.below(100);
      if (op < 45) {
        if (scan(block, 0, entries) >= 0) continue;  // a block is in at most one entry
        const int32_t e = t.next_free();
        if (e < 0) continue;
        t.allocate(static_cast<uint32_t>(e), block, false, MshrField{nullptr, 0, false});
        valid[static_cast<uint32_t>(e)] = block;
      } else if (op < 55) {
        const int32_t e = scan(block, 0, entries);
        if (e >= 0 && t.has_free_field(static_cast<uint32_t>(e))) t.merge(static_cast<uint32_t>(e), MshrField{});
      } else if (op < 85 && !valid.empty()) {
        auto it = valid.begin();
        std::advance(it, rng.below(static_cast<uint32_t>(valid.size())));
        t.release(it->first);
        valid.erase(it);
      }
      const uint32_t first = rng.below(entries), n = 1 + rng.below(entries - first);
      INFO("entries " << entries << " step " << step << " block " << block);
      REQUIRE(t.search(block, 0, entries) == scan(block, 0, entries));
      REQUIRE(t.search(block, first, n) == scan(block, first, n));
      found += t.search(block, 0, entries) >= 0 ? 1 : 0;
      REQUIRE(t.occupied() == valid.size());
    }
    REQUIRE(found > 1000);  // the walk did find blocks, not only miss them
  }
}

TEST_CASE("mshr table with a block in two entries searches by scan and finds the lowest", "[mshr]") {
  MshrTable t(32, 1);
  t.allocate(5, 0x40, false, MshrField{});
  t.allocate(9, 0x80, false, MshrField{});
  REQUIRE(t.search(0x40, 0, 32) == 5);
  t.allocate(3, 0x40, false, MshrField{});  // no organisation does this; the table stays exact
  REQUIRE(t.search(0x40, 0, 32) == 3);
  REQUIRE(t.search(0x40, 4, 28) == 5);
  t.release(3);
  REQUIRE(t.search(0x40, 0, 32) == 5);
  REQUIRE(t.search(0x80, 0, 32) == 9);
  REQUIRE(t.search(0xc0, 0, 32) == -1);
}
