// Exact-cycle behaviour of the cache: hit latency, miss latency (miss_latency +
// downstream latency + 1 edge + fill_latency), one response per cycle per port,
// END_REQ withheld beyond the port width, and an idle cache costing no activations.
#include "bench_run.h"

using namespace gputlm;
using namespace gputlm::mem;
using namespace gputlm::mem::tb;

TEST_CASE("cache hit and miss latencies are exact and an idle cache costs no activations", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.hit_latency = 3;
  cfg.miss_latency = 2;
  cfg.fill_latency = 1;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 20;
  uint64_t act_before = 99, act_after_traffic = 0, act_after_idle = 0;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    b.wait_cycle(9);
    act_before = b.cache.process().activations();
    send_at(b, 10, 0x1000, AccessKind::Load, 0);  // primary miss
    send_at(b, 11, 0x1004, AccessKind::Load, 1);  // same line, reserved: merged
    send_at(b, 50, 0x1008, AccessKind::Load, 2);  // hit
    b.wait_cycle(100);
    act_after_traffic = b.cache.process().activations();
    b.wait_cycle(10100);
    act_after_idle = b.cache.process().activations();
  });
  const auto& r = run->driver.records();
  REQUIRE(r.size() == 3);
  REQUIRE(run->memory.arrivals().size() == 1);
  CHECK(run->memory.arrivals()[0].cycle == 12);                   // 10 + miss_latency
  CHECK(r[0].response == 10 + 2 + 20 + 1 + 1);                    // fill seen at 33, +fill_latency
  CHECK(r[1].response == r[0].response + 1);                      // one response per cycle
  CHECK(r[2].response == 50 + 3);                                 // hit_latency
  CHECK(run.at(0x1004)[0].outcome == AccessOutcome::HitReserved);
  CHECK(run.at(0x1008)[0].outcome == AccessOutcome::Hit);
  CHECK(act_before == 0);
  CHECK(act_after_idle == act_after_traffic);
  CHECK(act_after_traffic < 40);  // it slept through the 20-cycle memory latency
  CHECK(run->cache.idle());
}

TEST_CASE("cache withholds END_REQ beyond its port width and evaluates the access at the next edge", "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.hit_latency = 2;
  auto run = run_bench(cfg, {}, [&](CacheBench& b) {
    send_at(b, 5, 0x0, AccessKind::Load, 0);
    b.wait_cycle(40);
    b.driver.send(0x0, AccessKind::Load, 0);  // hit, uses the port of cycle 40
    b.driver.send(0x4, AccessKind::Load, 1);  // same cycle: deferred
    REQUIRE_FALSE(b.driver.can_send());
  });
  const auto& r = run->driver.records();
  CHECK(r[1].ret == tlm::TLM_UPDATED);
  CHECK(r[2].ret == tlm::TLM_ACCEPTED);
  CHECK(r[1].response == 42);
  CHECK(run.at(0x4)[0].cycle == 41);  // evaluated at the next edge
  CHECK(r[2].response == 43);
}

TEST_CASE("cache write-evict store is written through evicts the line and is acknowledged by the next level",
          "[cache]") {
  CacheConfig cfg = small_l1();
  cfg.miss_latency = 1;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 10;
  bool present_before = false, present_after = true;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, 0x2000, AccessKind::Load, 0);
    b.wait_cycle(30);
    present_before = b.cache.probe(0x2000);
    send_at(b, 30, 0x2010, AccessKind::Store, 0);
    b.wait_cycle(31);
    present_after = b.cache.probe(0x2000);
    send_at(b, 60, 0x2000, AccessKind::Load, 0);
  });
  const auto& r = run->driver.records();
  CHECK(present_before);
  CHECK_FALSE(present_after);
  REQUIRE(run->memory.arrivals().size() == 3);
  CHECK(run->memory.arrivals()[1].write);
  CHECK(run->memory.arrivals()[1].cycle == 31);
  CHECK(run->memory.arrivals()[1].address == 0x2010);  // the store itself, not a line
  CHECK(r[1].response == 31 + 10 + 1);                 // acknowledged when the write completes
  CHECK(run.at(0x2010)[0].outcome == AccessOutcome::Hit);
  CHECK(run.at(0x2000)[1].outcome == AccessOutcome::PrimaryMiss);  // evicted by the store
  CHECK(run->stat("l1.write_evictions") == 1);
}

TEST_CASE("cache hit and miss latencies are pipelined: a long latency does not hold queue slots", "[cache][l2]") {
  // An L2-bank-like cache (stall mode) with latencies far longer than its response and miss
  // queues: hits and misses still go through at one per cycle, each after its latency.
  // (When the latency was counted in the queue slots, the 5th hit waited for the 1st to be
  // answered and the 3rd miss was refused until the 1st left: 4 hits and 2 misses per latency.)
  CacheConfig cfg = small_l1();
  cfg.fail_mode = "stall";
  cfg.write_policy = "write_back";
  cfg.level = 1;
  cfg.hit_latency = 30;
  cfg.miss_latency = 20;
  cfg.response_queue = 4;
  cfg.miss_queue = 2;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 10;
  const std::vector<uint64_t> misses = {0x2080, 0x2100, 0x2180, 0x2280, 0x2300, 0x2380};  // sets 1-3, 2 each
  const std::size_t hits = 12;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    send_at(b, 1, 0x1000, AccessKind::Load, 0);  // set 0: the line the hits use
    for (std::size_t k = 0; k < hits; ++k) send_at(b, 100 + k, 0x1000, AccessKind::Load, 0);
    for (std::size_t k = 0; k < misses.size(); ++k) send_at(b, 200 + k, misses[k], AccessKind::Load, 0);
  });
  const auto& r = run->driver.records();
  REQUIRE(r.size() == 1 + hits + misses.size());
  for (std::size_t k = 0; k < hits; ++k) {
    INFO("hit " << k);
    CHECK(r[1 + k].sent == 100 + k);
    CHECK(r[1 + k].response == 100 + k + 1 + cfg.hit_latency);  // evaluated at the next edge
  }
  const auto& arr = run->memory.arrivals();
  REQUIRE(arr.size() == 1 + misses.size());
  for (std::size_t k = 0; k < misses.size(); ++k) {
    INFO("miss " << k);
    CHECK(arr[1 + k].address == misses[k]);
    CHECK(arr[1 + k].cycle == 200 + k + 1 + cfg.miss_latency);
  }
  CHECK(run->stat("l1.fail_causes") == 0);  // no miss_queue_full refusals
  CHECK(run->stat("l1.response_queue_stalls") == 0);
  CHECK(run->stat("l1.load_hits") == hits);
}

TEST_CASE("cache counts the cycles a stall-mode access waits for response queue room", "[cache][l2]") {
  // The upstream takes each response only after up to 12 cycles (END_RESP withheld), so the
  // 4-entry response queue fills and queued hits wait: visible as response_queue_stalls.
  CacheConfig cfg = small_l1();
  cfg.fail_mode = "stall";
  cfg.write_policy = "write_back";
  cfg.level = 1;
  cfg.response_queue = 4;
  const std::size_t hits = 12;
  auto run = run_bench(
      cfg, {},
      [&](CacheBench& b) {
        send_at(b, 1, 0x1000, AccessKind::Load, 0);
        b.wait_cycle(100);
        for (std::size_t k = 0; k < hits; ++k) {
          while (!b.driver.can_send()) b.wait_cycle(b.now() + 1);
          b.driver.send(0x1000, AccessKind::Load, 0);
        }
      },
      12, 100);
  const auto& r = run->driver.records();
  REQUIRE(r.size() == 1 + hits);
  for (const auto& rec : r) CHECK(rec.responded);
  CHECK(run->stat("l1.load_hits") == hits);
  CHECK(run->stat("l1.response_queue_stalls") > 0);
}
