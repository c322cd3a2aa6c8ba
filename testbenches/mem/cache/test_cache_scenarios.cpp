// Scenario tests of the allocation policies and MSHR organisations (seed-mechanisms §E),
// Mascar's owner-warp NACK (§B5), LAWS locality classes (§B3), write-back, replacement
// order and set-index functions.
#include "bench_run.h"

#include <set>

#include "core/config/config_source.h"

using namespace gputlm;
using namespace gputlm::mem;
using namespace gputlm::mem::tb;

namespace {
// Blocks 0, 4, 8 (addresses 0, 0x200, 0x400) all map to set 0 of a 4-set cache.
constexpr uint64_t kSet0[] = {0x000, 0x200, 0x400, 0x600};
}  // namespace

TEST_CASE("cache_on_miss_allocation_locks_set", "[cache]") {
  CacheConfig cfg = small_l1();  // 4 sets x 2 ways, conventional MSHR with 8 entries
  cfg.allocation = "on_miss";
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 50;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, kSet0[0], AccessKind::Load, 0);
    send_at(b, 2, kSet0[1], AccessKind::Load, 1);
    send_at(b, 3, kSet0[2], AccessKind::Load, 2);  // both ways reserved: the set is locked
    send_at(b, 4, 0x80, AccessKind::Load, 3);      // another set is still served
    send_at(b, 200, kSet0[2], AccessKind::Load, 2);
  });
  const auto& r = run->driver.records();
  CHECK(r[2].ret == tlm::TLM_COMPLETED);
  CHECK(r[2].status == MemStatus::ReservationFail);
  CHECK(r[2].cause == ReservationFail::SetLocked);
  CHECK(run.at(kSet0[2])[0].cause == ReservationFail::SetLocked);
  CHECK(run.at(0x80)[0].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run.at(kSet0[2])[1].outcome == AccessOutcome::PrimaryMiss);  // after the fills
  CHECK(run->stat_at("l1.fail_causes", 3) == 1);
  CHECK(run->stat("l1.load_stall_cycles") == 1);
}

TEST_CASE("cache_on_fill_does_not_lock_set", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.allocation = "on_fill";
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 50;
  bool first_still_present = false;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, kSet0[0], AccessKind::Load, 0);
    send_at(b, 2, kSet0[1], AccessKind::Load, 1);
    b.wait_cycle(100);  // both filled
    send_at(b, 100, kSet0[2], AccessKind::Load, 2);
    send_at(b, 101, kSet0[3], AccessKind::Load, 3);  // no way reserved: accepted too
    send_at(b, 102, kSet0[1], AccessKind::Load, 1);  // victims stay valid until the fill
    first_still_present = b.cache.probe(kSet0[0]);
  });
  CHECK(run.at(kSet0[2])[0].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run.at(kSet0[3])[0].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run.at(kSet0[1])[1].outcome == AccessOutcome::Hit);
  CHECK(first_still_present);
  CHECK(run->stat("l1.fail_causes") == 0);
  // Victims are chosen at the fills (LRU): block 8's fill replaces block 0 (older than
  // block 4, hit at 102); block 12's fill then replaces block 4 (older than block 8).
  CHECK_FALSE(run->cache.probe(kSet0[0]));
  CHECK_FALSE(run->cache.probe(kSet0[1]));
  CHECK(run->cache.probe(kSet0[2]));
  CHECK(run->cache.probe(kSet0[3]));
}

TEST_CASE("cache on-miss allocation evicts the victim at miss time", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.allocation = "on_miss";
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 50;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, kSet0[0], AccessKind::Load, 0);
    send_at(b, 2, kSet0[1], AccessKind::Load, 0);
    send_at(b, 100, kSet0[2], AccessKind::Load, 0);  // reserves the LRU way (block 0) now
    send_at(b, 101, kSet0[0], AccessKind::Load, 0);  // early eviction: a miss
  });
  CHECK(run.at(kSet0[0])[1].outcome == AccessOutcome::PrimaryMiss);
}

TEST_CASE("tsma_lockup_when_all_ways_shared", "[tsma][cache]") {
  // L2-bank style (stall mode, in-order): once every way of set 0 is shared by pending
  // misses, a third miss to set 0 blocks the whole cache, although 6 of 8 TSMA
  // entries are free; a request to another set behind it waits for a fill.
  CacheConfig cfg = small_l1();
  cfg.mshr.organisation = "tsma";
  cfg.fail_mode = "stall";
  cfg.level = 1;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 100;
  uint32_t occupied_during_lockup = 0;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, kSet0[0], AccessKind::Load, 0);
    send_at(b, 2, kSet0[1], AccessKind::Load, 1);
    send_at(b, 3, kSet0[2], AccessKind::Load, 2);
    send_at(b, 4, 0x80, AccessKind::Load, 3);  // set 1: nothing in its way but the lock-up
    b.wait_cycle(50);
    occupied_during_lockup = b.cache.mshr_occupied();
  });
  const auto& arr = run->memory.arrivals();
  REQUIRE(arr.size() == 4);
  // Fills of the first two misses return at 2+100 and 3+100; the locked miss proceeds at
  // the first edge after the first fill, the set-1 miss behind it one cycle later.
  CHECK(arr[2].address == kSet0[2]);
  CHECK(arr[2].cycle >= 103);
  CHECK(arr[3].address == 0x80);
  CHECK(arr[3].cycle > 103);
  CHECK(occupied_during_lockup == 2);
  CHECK(run->stat_at("l1.fail_causes", 3) > 50);  // retried every cycle while locked
  // Requests carry their TSMA index (level 1) to the lower level.
  CHECK(arr[0].mshr_index[1] == 0);
  CHECK(arr[1].mshr_index[1] == 1);
  CHECK(run->stat("l1.mshr.tag_compares") == 0);
}

TEST_CASE("htsma_reserved_way_avoids_lockup", "[htsma][cache]") {
  CacheConfig cfg = small_l1();
  cfg.mshr.organisation = "htsma";
  cfg.mshr.small_entries = 2;
  cfg.fail_mode = "stall";
  cfg.level = 1;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 100;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, kSet0[0], AccessKind::Load, 0);  // TSMA: shares a way (share_cnt 1 = A-1)
    send_at(b, 2, kSet0[1], AccessKind::Load, 1);  // reserved way: s-MSHR, no line reserved
    send_at(b, 3, kSet0[2], AccessKind::Load, 2);  // s-MSHR again
    send_at(b, 4, 0x80, AccessKind::Load, 3);      // set 1 is not blocked
  });
  const auto& arr = run->memory.arrivals();
  REQUIRE(arr.size() == 4);
  CHECK(arr[3].address == 0x80);
  CHECK(arr[3].cycle < 10);  // no lock-up
  CHECK(run->stat("l1.fail_causes") == 0);
  CHECK(run->stat("l1.mshr.smshr_access") == 2);
  CHECK(run->stat("l1.mshr.tsma_access") == 2);
  CHECK(arr[1].mshr_index[1] >= 8);  // s-MSHR ids follow the TSMA ids
}

TEST_CASE("set_assoc_mshr_rejects_full_set_with_free_entries", "[set_assoc][cache]") {
  CacheConfig cfg = small_l1();
  cfg.sets = 16;
  cfg.ways = 4;
  cfg.allocation = "on_fill";
  cfg.mshr.organisation = "set_assoc";
  cfg.mshr.entries = 8;
  cfg.mshr.ways = 2;  // 4 MSHR sets: block mod 4
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 50;
  uint32_t occupied = 0;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, 0 * 128, AccessKind::Load, 0);
    send_at(b, 2, 4 * 128, AccessKind::Load, 0);
    send_at(b, 3, 8 * 128, AccessKind::Load, 0);  // MSHR set 0 full
    occupied = b.cache.mshr_occupied();
    send_at(b, 4, 1 * 128, AccessKind::Load, 0);  // MSHR set 1 has room
  });
  CHECK(run.at(8 * 128)[0].outcome == AccessOutcome::ReservationFail);
  CHECK(run.at(8 * 128)[0].cause == ReservationFail::MshrEntriesFull);
  CHECK(occupied == 2);
  CHECK(run.at(1 * 128)[0].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run->stat("l1.mshr.tag_compares") == 4 * 2 + 3 * 2);  // 4 misses + 3 fills, 2 ways each
}

TEST_CASE("cache owner warp NACKs misses of other warps while their hits proceed", "[cache]") {
  CacheConfig cfg = small_l1();
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 20;
  // Distinct sets (0, 1, 2, 3), so no access evicts another's line.
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, 0x1000, AccessKind::Load, 2);  // fills the line before MP mode
    b.wait_cycle(40);
    b.cache.set_owner_warp(1);
    b.driver.send(0x2080, AccessKind::Load, 2);  // owner takes effect next cycle: accepted
    send_at(b, 41, 0x3100, AccessKind::Load, 2);  // non-owner miss: NACK
    send_at(b, 42, 0x3100, AccessKind::Load, 1);  // owner miss: goes down
    send_at(b, 43, 0x1000, AccessKind::Load, 2);  // non-owner hit: served
    send_at(b, 44, 0x3100, AccessKind::Load, 2);  // non-owner on the owner's pending line: NACK
    send_at(b, 45, 0x1000, AccessKind::Store, 2); // non-owner store: NACK
    b.wait_cycle(100);
    b.cache.set_owner_warp(-1);
    send_at(b, 101, 0x4180, AccessKind::Load, 2);
  });
  const auto& r = run->driver.records();
  CHECK(r[1].status == MemStatus::Ok);
  CHECK(r[2].status == MemStatus::Nack);
  CHECK(r[2].ret == tlm::TLM_COMPLETED);
  CHECK(r[3].status == MemStatus::Ok);
  CHECK(r[4].status == MemStatus::Ok);
  CHECK(run.at(0x1000)[1].outcome == AccessOutcome::Hit);
  CHECK(r[5].status == MemStatus::Nack);
  CHECK(r[6].status == MemStatus::Nack);
  CHECK(r[7].status == MemStatus::Ok);
  CHECK(run->stat_at("l1.read_outcomes", static_cast<std::size_t>(AccessOutcome::Nack)) == 2);
  CHECK(run->stat_at("l1.write_outcomes", static_cast<std::size_t>(AccessOutcome::Nack)) == 1);
}

TEST_CASE("cache LAWS locality classes follow the line WID and the first MSHR field", "[cache]") {
  CacheConfig cfg = small_l1();
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 20;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, 0x1000, AccessKind::Load, 5);   // MISS, line WID 5
    send_at(b, 2, 0x1004, AccessKind::Load, 6);   // INTER_M
    send_at(b, 3, 0x1008, AccessKind::Load, 5);   // INTRA_M
    send_at(b, 50, 0x1000, AccessKind::Load, 5);  // INTRA
    send_at(b, 51, 0x1000, AccessKind::Load, 7);  // INTER
  });
  const auto& a = *run.accesses;
  REQUIRE(a.size() == 5);
  CHECK(a[0].locality == LocalityClass::Miss);
  CHECK(a[1].locality == LocalityClass::InterMerge);
  CHECK(a[2].locality == LocalityClass::IntraMerge);
  CHECK(a[3].locality == LocalityClass::Intra);
  CHECK(a[4].locality == LocalityClass::Inter);
  CHECK((a[3].laws_hit() && a[3].laws_lt()));
  CHECK((a[4].laws_hit() && !a[4].laws_lt()));
  for (std::size_t i = 0; i < 5; ++i) CHECK(run->stat_at("l1.locality", i) == 1);
}

TEST_CASE("cache write-back L2 allocates on store misses and writes dirty victims back", "[cache][l2]") {
  CacheConfig cfg = small_l1();
  cfg.write_policy = "write_back";
  cfg.fail_mode = "stall";
  cfg.level = 1;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 20;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, kSet0[0], AccessKind::Store, 0);   // fetch-on-write, dirty at fill
    send_at(b, 40, kSet0[0], AccessKind::Store, 0);  // hit: dirty
    send_at(b, 41, kSet0[1], AccessKind::Load, 0);
    send_at(b, 80, kSet0[2], AccessKind::Load, 0);   // evicts the dirty LRU line
    send_at(b, 81, 0x80, AccessKind::Atomic, 1);
    b.wait_cycle(150);
    b.cache.invalidate_all();                        // flushes the dirty atomic line
  });
  const auto& arr = run->memory.arrivals();
  const auto& r = run->driver.records();
  REQUIRE(arr.size() == 6);
  CHECK_FALSE(arr[0].write);  // the store miss fetches the line
  CHECK(r[0].response == 1 + 1 + 1 + 20 + 1);  // stall mode: evaluated at 2, fill at 23+1
  CHECK(r[1].response == 41 + 1);              // write hit, hit_latency 1
  bool wrote_back_block0 = false, wrote_back_atomic = false;
  for (const auto& a : arr) {
    wrote_back_block0 = wrote_back_block0 || (a.write && a.address == kSet0[0]);
    wrote_back_atomic = wrote_back_atomic || (a.write && a.address == 0x80 && a.cycle > 150);
  }
  CHECK(wrote_back_block0);
  CHECK(wrote_back_atomic);
  CHECK(run->stat("l1.writebacks") == 2);
  CHECK_FALSE(run->cache.probe(0x80));
}

TEST_CASE("cache lazy fetch-on-read: stores allocate without a fetch, reads fetch partial sectors, write-backs carry "
          "dirty sectors", "[cache][l2][lazy]") {
  CacheConfig cfg = small_l1();  // 4 sets x 2 ways x 128 B
  cfg.sectors = 4;
  cfg.write_policy = "write_back";
  cfg.write_allocate = "lazy_fetch_on_read";
  cfg.fail_mode = "stall";
  cfg.level = 1;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 20;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    b.wait_cycle(1);
    b.driver.send(kSet0[0] + 0x00, AccessKind::Store, 0, 32);  // whole sector 0: readable
    b.wait_cycle(2);
    b.driver.send(kSet0[0] + 0x24, AccessKind::Store, 0, 4);   // part of sector 1: dirty, unreadable
    send_at(b, 10, kSet0[0] + 0x04, AccessKind::Load, 0);      // hit on the written sector
    send_at(b, 11, kSet0[0] + 0x20, AccessKind::Load, 0);      // sector 1 is fetched (a sector miss)
    send_at(b, 12, kSet0[0] + 0x28, AccessKind::Store, 0);     // pending sector: answered at once
    b.wait_cycle(60);
    b.driver.send(kSet0[1] + 0x60, AccessKind::Store, 0, 32);  // second way of set 0
    send_at(b, 61, kSet0[2], AccessKind::Load, 0);             // evicts block 0 (LRU): sectors 0, 1 written back
  });
  const auto& arr = run->memory.arrivals();
  const auto& r = run->driver.records();
  const auto a0 = run.at(kSet0[0]);
  REQUIRE(a0.size() == 1);
  CHECK(a0[0].outcome == AccessOutcome::LazyWrite);
  CHECK(run.at(kSet0[0] + 0x24)[0].outcome == AccessOutcome::LazyWrite);  // sector miss: no fetch either
  CHECK(run.at(kSet0[0] + 0x04)[0].outcome == AccessOutcome::Hit);
  CHECK(run.at(kSet0[0] + 0x20)[0].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run.at(kSet0[0] + 0x28)[0].outcome == AccessOutcome::HitReserved);
  CHECK(run.at(kSet0[1] + 0x60)[0].outcome == AccessOutcome::LazyWrite);
  // Stall mode: evaluated the edge after arrival, answered hit_latency (1) later.
  CHECK(r[0].response == 1 + 1 + 1);
  CHECK(r[1].response == 2 + 1 + 1);
  CHECK(r[4].response == 12 + 1 + 1);
  // Memory saw: the 32-byte fetch of sector 1, the write-back of block 0's dirty sectors
  // 0 and 1 (64 bytes), then the fetch of block 8's sector 0. No fetch for a store.
  REQUIRE(arr.size() == 3);
  CHECK_FALSE(arr[0].write);
  CHECK(arr[0].address == kSet0[0] + 0x20);
  CHECK(arr[0].bytes == 32);
  CHECK(arr[1].write);
  CHECK(arr[1].address == kSet0[0]);
  CHECK(arr[1].bytes == 64);
  CHECK_FALSE(arr[2].write);
  CHECK(arr[2].address == kSet0[2]);
  CHECK(run->stat("l1.writebacks") == 1);
  CHECK(run->cache.probe(kSet0[1] + 0x60));
}

TEST_CASE("cache lazy fetch-on-read needs a write-back cache of at most 128-byte lines", "[cache][config]") {
  CacheConfig c = small_l1();
  c.write_allocate = "lazy_fetch_on_read";
  CHECK_THROWS_WITH(c.validate("l2.bank"), Catch::Contains("l2.bank.write_allocate") && Catch::Contains("write_back"));
  c.write_policy = "write_back";
  c.fail_mode = "stall";
  c.line_size = 256;
  CHECK_THROWS_WITH(c.validate("l2.bank"), Catch::Contains("128"));
  c.line_size = 128;
  CHECK_NOTHROW(c.validate("l2.bank"));
  const auto src = config::ConfigSource::from_json(nlohmann::json{{"write_allocate", "lazy"}}, "l2.json");
  CacheConfig r;
  CHECK_THROWS_WITH(config::read(src, r), Catch::Contains("write_allocate"));
}

TEST_CASE("cache LRU evicts the least recently used line (the FIFO test below evicts the other one)", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.replacement = "lru";
  auto run = run_bench(cfg, {}, [&](CacheBench& b) {
    send_at(b, 1, kSet0[0], AccessKind::Load, 0);
    send_at(b, 2, kSet0[1], AccessKind::Load, 0);
    send_at(b, 30, kSet0[0], AccessKind::Load, 0);  // hit: block 0 becomes most recent
    send_at(b, 31, kSet0[2], AccessKind::Load, 0);
  });
  CHECK(run->cache.probe(kSet0[0]));  // LRU keeps the recently hit line
  CHECK_FALSE(run->cache.probe(kSet0[1]));
}

TEST_CASE("cache FIFO evicts the oldest insertion even if it was just hit", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.replacement = "fifo";
  auto run = run_bench(cfg, {}, [&](CacheBench& b) {
    send_at(b, 1, kSet0[0], AccessKind::Load, 0);
    send_at(b, 2, kSet0[1], AccessKind::Load, 0);
    send_at(b, 30, kSet0[0], AccessKind::Load, 0);
    send_at(b, 31, kSet0[2], AccessKind::Load, 0);
  });
  CHECK_FALSE(run->cache.probe(kSet0[0]));
  CHECK(run->cache.probe(kSet0[1]));
}

namespace {
// A stride of sets * line bytes: every block in set 0 under linear indexing.
uint32_t strided_second_pass_hits(const char* index) {
  CacheConfig cfg = small_l1();
  cfg.sets = 8;
  cfg.set_index = index;
  cfg.mshr.entries = 16;
  auto run = run_bench(cfg, {}, [&](CacheBench& b) {
    for (int pass = 0; pass < 2; ++pass)
      for (uint64_t i = 0; i < 8; ++i) send_at(b, 1 + pass * 400 + i * 30, i * 8 * 128, AccessKind::Load, 0);
  });
  return static_cast<uint32_t>(run->stat("l1.load_hits"));
}
}  // namespace

TEST_CASE("cache xor set index spreads a power-of-two stride that conflicts under linear indexing", "[cache]") {
  // 8 blocks at stride 8 lines: linear keeps 2 of them (2 ways), xor keeps all 8.
  CHECK(strided_second_pass_hits("xor") == 8);
}

TEST_CASE("cache linear set index thrashes on a power-of-two stride", "[cache]") {
  CHECK(strided_second_pass_hits("linear") == 0);
}

TEST_CASE("cache set index functions as policy objects", "[cache]") {
  auto lin = make_set_index("linear", 32, 128, "k");
  auto x = make_set_index("xor", 32, 128, "k");
  auto f = make_set_index("fermi_hash", 32, 128, "k");
  std::set<uint32_t> sl, sx, sf;
  for (uint64_t i = 0; i < 32; ++i) {
    sl.insert(lin->set_of(i * 32));
    sx.insert(x->set_of(i * 32));
    sf.insert(f->set_of(i * 64));  // 8 KB stride: bits 13.. feed the fermi hash
  }
  CHECK(sl.size() == 1);
  CHECK(sx.size() == 32);
  CHECK(sf.size() >= 16);  // bits 13-15, 17 vary (bit 16 is not hashed)
  CHECK(f->set_of(5) == 5);  // low block bits pass through when upper bits are 0
  CHECK_THROWS_WITH(make_set_index("fermi_hash", 128, 128, "l2.set_index"), Catch::Contains("l2.set_index"));
  CHECK_THROWS_WITH(make_set_index("xor", 48, 128, "l1.set_index"), Catch::Contains("power-of-two"));
}

TEST_CASE("cache config lists every parameter and rejects impossible values naming the key", "[cache]") {
  const auto params = config::list(CacheConfig{}, "l1d");
  bool has_mshr_org = false, has_alloc = false;
  for (const auto& p : params) {
    has_mshr_org = has_mshr_org || p.path == "l1d.mshr.organisation";
    has_alloc = has_alloc || p.path == "l1d.allocation";
    CHECK_FALSE(p.description.empty());
  }
  CHECK(has_mshr_org);
  CHECK(has_alloc);
  CacheConfig c;
  c.sets = 48;
  c.set_index = "xor";
  CHECK_THROWS_WITH(c.validate("sm.l1d"), Catch::Contains("sm.l1d.set_index"));
  c = CacheConfig{};
  c.saturation_margin = 8;
  CHECK_THROWS_WITH(c.validate("sm.l1d"), Catch::Contains("sm.l1d.saturation_margin"));
  c = CacheConfig{};
  c.sectors = 4;
  c.mshr.organisation = "tsma";
  CHECK_THROWS_WITH(c.validate("sm.l1d"), Catch::Contains("sm.l1d.sectors"));
  c.mshr.organisation = "conventional";
  c.line_size = 8;
  CHECK_THROWS_WITH(c.validate("sm.l1d"), Catch::Contains("sm.l1d.sectors"));
  const auto src = config::ConfigSource::from_json(nlohmann::json{{"allocation", "on_hit"}}, "l1.json");
  CacheConfig r;
  CHECK_THROWS_WITH(config::read(src, r), Catch::Contains("allocation"));
}

TEST_CASE("cache sectored lines fetch and track each sector on its own", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.sectors = 4;  // 4 x 32 B sectors of a 128 B line
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 20;
  bool sector1_before = true, sector0_after = false;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, 0x1000, AccessKind::Load, 0);   // sector 0: primary miss, line allocated
    send_at(b, 2, 0x1004, AccessKind::Load, 1);   // sector 0 pending: merged
    send_at(b, 3, 0x1020, AccessKind::Load, 2);   // sector 1 of the reserved line: its own miss
    b.wait_cycle(40);
    sector1_before = b.cache.probe(0x1040);       // sector 2 never fetched
    sector0_after = b.cache.probe(0x1010);
    send_at(b, 40, 0x1030, AccessKind::Load, 0);  // sector 1: hit
    send_at(b, 41, 0x1060, AccessKind::Load, 0);  // sector 3 of the valid line: sector miss
  });
  const auto& arr = run->memory.arrivals();
  REQUIRE(arr.size() == 3);
  CHECK(arr[0].address == 0x1000);
  CHECK(arr[1].address == 0x1020);
  CHECK(arr[2].address == 0x1060);
  CHECK(run.at(0x1004)[0].outcome == AccessOutcome::HitReserved);
  CHECK(run.at(0x1020)[0].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run.at(0x1030)[0].outcome == AccessOutcome::Hit);
  CHECK(run.at(0x1060)[0].outcome == AccessOutcome::PrimaryMiss);
  CHECK_FALSE(sector1_before);
  CHECK(sector0_after);
  CHECK(run->cache.tags().line(0, 0).valid_sectors == 0b1011);
  CHECK(run->stat("l1.mshr.allocations") == 3);
}

TEST_CASE("cache sectored access crossing a sector is an error", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.sectors = 4;
  CacheBench b("bench", cfg);
  sc_core::sc_spawn([&] {
    b.wait_cycle(1);
    b.driver.send(0x1018, AccessKind::Load, 0, 16);  // bytes 24..39: sectors 0 and 1
  }, "body", &big_stack());
  CHECK_THROWS_WITH(sc_core::sc_start(), Catch::Contains("32-byte sector"));
}
