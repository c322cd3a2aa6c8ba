// The L1D's prefetch path (001 §4.3, §4.4.2; digest §D4 "Prefetch-path details"): a
// prefetch goes through the MSHRs and fills the cache; merging in both directions; useful,
// late and useless prefetches; demand fills kept out with allocate_demand false.
#include "bench_run.h"

#include "core/config/config_source.h"

using namespace gputlm;
using namespace gputlm::mem;
using namespace gputlm::mem::tb;

namespace {
struct CountingFeedback : PrefetchFeedbackIF {
  uint64_t useful = 0, useless = 0;
  void on_useful() override { ++useful; }
  void on_useless() override { ++useless; }
};
uint64_t dropped(const BenchRun& r, PrefetchOutcome o) {
  return r.bench->stat_at("l1.prefetch.dropped", static_cast<std::size_t>(o) - 1);
}
std::vector<MemoryArrival> arrivals_of(const BenchRun& r, AccessKind kind) {
  std::vector<MemoryArrival> out;
  for (const MemoryArrival& a : r.bench->memory.arrivals())
    if (a.kind == kind) out.push_back(a);
  return out;
}
}  // namespace

TEST_CASE("cache drops a prefetch to a line with a demand miss in flight or present (on_miss)", "[cache][prefetch]") {
  CacheConfig cfg = small_l1();
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  std::vector<PrefetchOutcome> o;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    b.cache.enable_prefetch(0);
    send_at(b, 1, 0x000, AccessKind::Load, 0);  // demand primary miss
    b.wait_cycle(2);
    o.push_back(b.cache.prefetch(0x000, 0, 1, 8));  // its line is pending
    b.wait_cycle(50);                                // filled
    o.push_back(b.cache.prefetch(0x000, 0, 1, 8));  // present
    o.push_back(b.cache.prefetch(0x080, 0, 1, 8));  // absent: issued
  });
  CHECK(o == std::vector<PrefetchOutcome>{PrefetchOutcome::InFlight, PrefetchOutcome::Present,
                                          PrefetchOutcome::Issued});
  CHECK(run->stat("l1.prefetch.issued") == 1);
  CHECK(dropped(run, PrefetchOutcome::InFlight) == 1);
  CHECK(dropped(run, PrefetchOutcome::Present) == 1);
  const auto pf = arrivals_of(run, AccessKind::Prefetch);
  REQUIRE(pf.size() == 1);
  CHECK(pf[0].address == 0x080);
  CHECK(run->memory.arrivals().size() == 2);  // the demand's fetch and the prefetch
  CHECK(run->cache.probe(0x080));             // the prefetch filled the cache
}

TEST_CASE("cache drops a prefetch to a block whose demand miss is pending in the MSHR only (on_fill)",
          "[cache][prefetch]") {
  CacheConfig cfg = small_l1();
  cfg.allocation = "on_fill";
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  PrefetchOutcome o = PrefetchOutcome::Issued;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    b.cache.enable_prefetch(0);
    send_at(b, 1, 0x100, AccessKind::Load, 0);
    b.wait_cycle(3);
    o = b.cache.prefetch(0x100, 0, 1, 8);
  });
  CHECK(o == PrefetchOutcome::InFlight);
  CHECK(run->memory.arrivals().size() == 1);
  CHECK(run->stat("l1.prefetch.issued") == 0);
}

TEST_CASE("cache merges a demand load into an in-flight prefetch as a useful late prefetch", "[cache][prefetch]") {
  CacheConfig cfg = small_l1();
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  CountingFeedback fb;
  PrefetchOutcome o = PrefetchOutcome::Present;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    b.cache.enable_prefetch(0);
    b.cache.set_prefetch_feedback(&fb);
    b.wait_cycle(1);
    o = b.cache.prefetch(0x100, 0, 1, 8);
    send_at(b, 3, 0x100, AccessKind::Load, 2);   // joins the prefetch's MSHR entry
    send_at(b, 4, 0x104, AccessKind::Load, 3);   // a second demand: counted once
    send_at(b, 60, 0x100, AccessKind::Load, 2);  // a hit, no longer a prefetched line
  });
  CHECK(o == PrefetchOutcome::Issued);
  CHECK(run.at(0x100)[0].outcome == AccessOutcome::HitReserved);
  CHECK(run.at(0x104)[0].outcome == AccessOutcome::HitReserved);
  CHECK(run.at(0x100)[1].outcome == AccessOutcome::Hit);
  CHECK(run->memory.arrivals().size() == 1);  // only the prefetch went down
  const auto& recs = run->driver.records();
  REQUIRE(recs.size() == 3);
  CHECK((recs[0].responded && recs[1].responded && recs[2].responded));
  const uint64_t fill_arrival = run->memory.arrivals()[0].cycle;
  CHECK((recs[0].response > fill_arrival + 30 && recs[1].response > fill_arrival + 30));  // at the fill
  CHECK(run->stat("l1.prefetch.useful") == 1);
  CHECK(run->stat("l1.prefetch.late") == 1);
  CHECK(run->stat("l1.prefetch.useless") == 0);
  CHECK(run->stat("l1.prefetch.demand_misses") == 0);
  CHECK((fb.useful == 1 && fb.useless == 0));
}

TEST_CASE("cache counts a prefetched line useful at its first demand hit and useless when replaced unused",
          "[cache][prefetch]") {
  CacheConfig cfg = small_l1();  // 4 sets x 2 ways, LRU: blocks 0, 4, 8, 12 share set 0
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  CountingFeedback fb;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    b.cache.enable_prefetch(0);
    b.cache.set_prefetch_feedback(&fb);
    b.wait_cycle(1);
    b.cache.prefetch(0x000, 0, 1, 8);
    send_at(b, 50, 0x000, AccessKind::Load, 0);  // first use: useful, timely
    send_at(b, 51, 0x004, AccessKind::Load, 0);  // not counted again
    b.wait_cycle(52);
    b.cache.prefetch(0x200, 0, 1, 8);            // block 4, set 0
    send_at(b, 100, 0x400, AccessKind::Load, 0);  // replaces block 0 (LRU)
    send_at(b, 101, 0x600, AccessKind::Load, 0);  // replaces block 4: never used
  });
  CHECK(run.at(0x000)[0].outcome == AccessOutcome::Hit);
  CHECK(run->stat("l1.prefetch.issued") == 2);
  CHECK(run->stat("l1.prefetch.useful") == 1);
  CHECK(run->stat("l1.prefetch.late") == 0);
  CHECK(run->stat("l1.prefetch.useless") == 1);
  CHECK(run->stat("l1.prefetch.demand_misses") == 2);
  const auto* coverage = run->root.find("l1.prefetch.coverage");
  const auto* accuracy = run->root.find("l1.prefetch.accuracy");
  REQUIRE((coverage && accuracy));
  CHECK(coverage->scalar(stats::View::Epoch) == Approx(1.0 / 3));
  CHECK(accuracy->scalar(stats::View::Epoch) == Approx(0.5));
  CHECK((fb.useful == 1 && fb.useless == 1));
}

TEST_CASE("cache with allocate_demand false keeps demand fills out and prefetch fills in", "[cache][prefetch]") {
  CacheConfig cfg = small_l1();
  cfg.allocate_demand = false;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    b.cache.enable_prefetch(0);
    send_at(b, 1, 0x000, AccessKind::Load, 0);
    send_at(b, 2, 0x004, AccessKind::Load, 1);  // merges into the pending demand miss
    send_at(b, 50, 0x000, AccessKind::Load, 0);  // not kept: a miss again
    b.wait_cycle(51);
    b.cache.prefetch(0x080, 0, 1, 8);
    send_at(b, 100, 0x080, AccessKind::Load, 0);  // the prefetched line is kept: a hit
  });
  CHECK(run.at(0x000)[0].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run.at(0x004)[0].outcome == AccessOutcome::SecondaryMiss);
  CHECK(run.at(0x000)[1].outcome == AccessOutcome::PrimaryMiss);
  CHECK(run.at(0x080)[0].outcome == AccessOutcome::Hit);
  CHECK(run->stat("l1.fill_bypasses") == 2);
  CHECK(run->stat("l1.prefetch.useful") == 1);
}

TEST_CASE("cache sends a prefetch only while more than keep_free MSHR entries are free", "[cache][prefetch]") {
  CacheConfig cfg = small_l1();
  cfg.mshr.entries = 2;
  ResponderOptions mem;
  mem.min_latency = mem.max_latency = 30;
  std::vector<PrefetchOutcome> o;
  auto run = run_bench(cfg, mem, [&](CacheBench& b) {
    b.cache.enable_prefetch(1);
    send_at(b, 1, 0x000, AccessKind::Load, 0);
    b.wait_cycle(2);
    o.push_back(b.cache.prefetch(0x080, 0, 1, 8));  // 1 free entry: kept for demands
    b.wait_cycle(50);
    o.push_back(b.cache.prefetch(0x080, 0, 1, 8));  // 2 free
  });
  CHECK(o == std::vector<PrefetchOutcome>{PrefetchOutcome::NoMshr, PrefetchOutcome::Issued});
  CHECK(dropped(run, PrefetchOutcome::NoMshr) == 1);
}

TEST_CASE("cache config allocate_demand false with a TSMA MSHR is an error naming the key", "[cache][prefetch]") {
  CacheConfig cfg = small_l1();
  cfg.allocate_demand = false;
  cfg.mshr.organisation = "tsma";
  CHECK_THROWS_WITH(cfg.validate("sm.l1d"), Catch::Contains("sm.l1d.allocate_demand"));
}
