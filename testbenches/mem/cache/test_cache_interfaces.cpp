// The cache's side interfaces: MSHR occupancy and the Mascar saturation flag, the
// presence probe, kernel-boundary invalidation, and clear errors for bad requests.
#include "bench_run.h"

using namespace gputlm;
using namespace gputlm::mem;
using namespace gputlm::mem::tb;

TEST_CASE("cache reports MSHR occupancy and raises the saturation flag before the MSHRs are full", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.mshr.entries = 4;
  cfg.mshr.almost_full_margin = 1;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 40;
  std::vector<uint32_t> occ;
  std::vector<bool> sat;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    auto& s = b.cache.status_export;  // what an SM reads through its sc_port
    for (uint64_t i = 0; i < 5; ++i) {
      send_at(b, 1 + i, i * 128, AccessKind::Load, 0);  // 4 sets: all distinct lines
      occ.push_back(s->mshr_occupied());
      sat.push_back(s->saturated());
    }
    b.wait_cycle(100);
    occ.push_back(s->mshr_occupied());
    sat.push_back(s->saturated());
  });
  CHECK(occ == std::vector<uint32_t>{1, 2, 3, 4, 4, 0});
  CHECK(sat == std::vector<bool>{false, false, true, true, true, false});  // 1 free entry = almost full
  CHECK(run.at(4 * 128)[0].cause == ReservationFail::MshrEntriesFull);
  CHECK(run->cache.mshr_capacity() == 4);
}

TEST_CASE("cache invalidate_all drops valid lines at the next edge and keeps pending ones", "[cache]") {
  CacheConfig cfg = small_l1();
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  bool valid_before = false, valid_same_cycle = false, valid_after = true;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, 0x000, AccessKind::Load, 0);
    b.wait_cycle(40);
    send_at(b, 40, 0x080, AccessKind::Load, 0);  // pending across the invalidation
    valid_before = b.cache.probe(0x000);
    b.cache.invalidate_all();
    valid_same_cycle = b.cache.probe(0x000);
    b.wait_cycle(42);
    valid_after = b.cache.probe(0x000);
    send_at(b, 100, 0x080, AccessKind::Load, 0);  // filled after the invalidation: a hit
  });
  CHECK(valid_before);
  CHECK(valid_same_cycle);
  CHECK_FALSE(valid_after);
  CHECK(run.at(0x080)[1].outcome == AccessOutcome::Hit);
  CHECK(run->stat("l1.invalidations") == 1);
}

TEST_CASE("cache contents version changes exactly when a presence probe may change", "[cache]") {
  // A miss (reserving a line), its fill and an invalidation change what probe() sees; hits
  // and refused accesses do not.
  CacheConfig cfg = small_l1();
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  std::vector<uint64_t> v;
  std::vector<bool> present;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    auto& s = b.cache.status_export;
    v.push_back(s->contents_version());
    send_at(b, 1, 0x000, AccessKind::Load, 0);  // primary miss: a line reserved
    v.push_back(s->contents_version());
    b.wait_cycle(40);                             // filled
    v.push_back(s->contents_version());
    present.push_back(s->probe(0x000));
    send_at(b, 41, 0x000, AccessKind::Load, 0);  // a hit
    b.wait_cycle(42);
    v.push_back(s->contents_version());
    b.cache.invalidate_all();
    b.wait_cycle(44);
    v.push_back(s->contents_version());
    present.push_back(s->probe(0x000));
  });
  REQUIRE(v.size() == 5);
  CHECK(v[1] != v[0]);
  CHECK(v[2] != v[1]);
  CHECK(v[3] == v[2]);
  CHECK(v[4] != v[3]);
  CHECK(present == std::vector<bool>{true, false});
}

TEST_CASE("cache rejects an access crossing a line with an error naming the address", "[cache]") {
  CacheBench b("bench", small_l1());
  sc_core::sc_spawn([&] {
    b.wait_cycle(2);
    b.driver.send(0x1070, AccessKind::Load, 0, 32);  // 0x70 + 32 > 128
  }, "body", &big_stack());
  CHECK_THROWS_WITH(sc_core::sc_start(), Catch::Contains("0x1070") && Catch::Contains("crosses"));
}

TEST_CASE("cache read_only rejects a store with an error naming the cache", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.write_policy = "read_only";
  CacheBench b("bench", cfg);
  sc_core::sc_spawn([&] {
    b.wait_cycle(2);
    b.driver.send(0x40, AccessKind::Store, 3);
  }, "body", &big_stack());
  CHECK_THROWS_WITH(sc_core::sc_start(), Catch::Contains("bench.l1") && Catch::Contains("read-only"));
}

TEST_CASE("cache reports an error response from the next level naming the address", "[cache]") {
  ResponderOptions mem;
  mem.address_errors = true;
  CacheBench b("bench", small_l1(), mem);
  sc_core::sc_spawn([&] {
    b.wait_cycle(2);
    b.driver.send(0x4000, AccessKind::Load, 0);
  }, "body", &big_stack());
  CHECK_THROWS_WITH(sc_core::sc_start(), Catch::Contains("0x4000") && Catch::Contains("ADDRESS_ERROR"));
}

TEST_CASE("cache eviction hook reports replaced valid lines with the allocating warp", "[cache]") {
  // small_l1: 4 sets x 2 ways, LRU, allocation on miss; 0x000, 0x200, 0x400 share set 0.
  CacheConfig cfg = small_l1();
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 20;
  struct Eviction {
    uint64_t block;
    int32_t wid;
  };
  std::vector<Eviction> ev;
  run_bench(cfg, mem, [&](CacheBench& b) {
    b.cache.set_eviction_hook([&](uint64_t, uint64_t block, int32_t wid) { ev.push_back({block, wid}); });
    send_at(b, 1, 0x000, AccessKind::Load, 1);
    send_at(b, 2, 0x200, AccessKind::Load, 2);
    b.wait_cycle(60);
    send_at(b, 60, 0x080, AccessKind::Store, 5);  // write-evict miss: not allocated, nothing replaced
    send_at(b, 61, 0x200, AccessKind::Load, 3);   // hit: 0x000 is now the LRU line
    send_at(b, 62, 0x400, AccessKind::Load, 4);   // replaces 0x000 (warp 1's)
    b.wait_cycle(120);
    send_at(b, 120, 0x400, AccessKind::Store, 6);  // write-evict hit: invalidated, not reported
    send_at(b, 121, 0x600, AccessKind::Load, 7);   // takes the invalid way: nothing replaced
    b.wait_cycle(200);
  });
  REQUIRE(ev.size() == 1);
  CHECK(ev[0].block == 0);
  CHECK(ev[0].wid == 1);
}

TEST_CASE("cache retry interface decides a refused request from its key and leaves the payload untouched",
          "[cache][retry]") {
  CacheConfig cfg = small_l1();
  cfg.mshr.entries = 1;
  cfg.mshr.almost_full_margin = 0;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  RetryResult first, same_cycle;
  uint64_t address_after = 0;
  uint32_t length_after = 1;
  MemStatus status_after = MemStatus::Ok;
  ReservationFail cause_after = ReservationFail::None;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, 0x000, AccessKind::Load, 0);  // takes the only MSHR entry
    send_at(b, 2, 0x080, AccessKind::Load, 1);  // refused by BEGIN_REQ: no entry
    b.wait_cycle(3);
    // A payload the cache must not read: a zero length would be an error, the address and
    // the extension say something else than the key.
    tlm::tlm_generic_payload p;
    p.set_address(0xBAD0);
    p.set_data_length(0);
    auto* ext = new MemExtension;
    ext->status = MemStatus::Nack;
    ext->fail_cause = ReservationFail::SetLocked;
    ext->warp = 77;
    ext->kind = AccessKind::Store;
    p.set_extension(ext);
    const AccessKey key{0x080, 4, AccessKind::Load, 0, 1};
    first = b.cache.retry(p, key);
    same_cycle = b.cache.retry(p, key);  // the port took one access this cycle
    address_after = p.get_address();
    length_after = p.get_data_length();
    status_after = ext->status;
    cause_after = ext->fail_cause;
    send_at(b, 40, 0x080, AccessKind::Load, 1);  // the entry is free again
  });
  CHECK(first.outcome == RetryResult::Outcome::Refused);
  CHECK(first.status == MemStatus::ReservationFail);
  CHECK(first.cause == ReservationFail::MshrEntriesFull);
  CHECK(same_cycle.outcome == RetryResult::Outcome::NotTried);
  CHECK(address_after == 0xBAD0);
  CHECK(length_after == 0);
  CHECK(status_after == MemStatus::Nack);
  CHECK(cause_after == ReservationFail::SetLocked);
  // Counted as the BEGIN_REQ refusal was: the access, its outcome and cause, the hook
  // (with the key's warp and the retry's cycle) and the MSHR array's failed search.
  const auto a = run.at(0x080);
  REQUIRE(a.size() == 3);
  CHECK(a[0].outcome == AccessOutcome::ReservationFail);
  CHECK(a[1].outcome == AccessOutcome::ReservationFail);
  CHECK(a[1].cause == ReservationFail::MshrEntriesFull);
  CHECK(a[1].warp == 1);
  CHECK(a[1].cycle == 3);
  CHECK(a[2].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run->stat("l1.accesses") == 4);
  CHECK(run->stat_at("l1.read_outcomes", static_cast<std::size_t>(AccessOutcome::ReservationFail)) == 2);
  CHECK(run->stat("l1.fail_causes") == 2);
  CHECK(run->stat("l1.mshr.fails") == 2);
}

TEST_CASE("cache probe_any after a none looks at the lines filled since and agrees with probing every address",
          "[cache]") {
  // Mascar's stranded-hit probe: with a stamp from a "none", only blocks that gained valid
  // sectors since (the tag array's gain log) can make the answer "some".
  CacheConfig cfg = small_l1();
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  const uint64_t lines[3] = {0x000, 0x080, 0x100};
  const uint64_t others[2] = {0x200, 0x280};
  std::vector<bool> stamped, full;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    auto& s = b.cache.status_export;
    CacheStatusIF::ProbeStamp st, other;
    auto both = [&](const uint64_t* a, uint32_t n, CacheStatusIF::ProbeStamp& stamp) {
      stamped.push_back(s->probe_any(a, n, &stamp));
      full.push_back(s->probe_any(a, n, nullptr));
    };
    both(lines, 3, st);   // empty cache: none
    both(others, 2, other);
    send_at(b, 1, 0x080, AccessKind::Load, 0);
    send_at(b, 2, 0x300, AccessKind::Load, 0);  // another line filled meanwhile
    b.wait_cycle(40);                            // both filled
    both(lines, 3, st);                          // 0x080 arrived since the none: some
    both(others, 2, other);                      // 0x300 is not one of them: none
    both(lines, 3, st);                          // after a some, every line again: some
    send_at(b, 41, 0x280, AccessKind::Load, 0);
    b.wait_cycle(80);
    both(others, 2, other);  // 0x280 arrived since the second none: some
  });
  CHECK(stamped == std::vector<bool>{false, false, true, false, true, true});
  CHECK(stamped == full);
}
