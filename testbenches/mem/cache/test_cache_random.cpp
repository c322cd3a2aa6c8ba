// Random traffic against the golden cache model, with random back-pressure on both
// sides (END_RESP withheld by the driver; END_REQ withheld and random, out-of-order
// latencies at the memory), protocol checkers on both sockets. Every evaluated access
// must match the golden prediction; every request must finally be answered; the final
// tag array must equal the golden one; the cache must end idle.
#include "bench_run.h"
#include "cache_golden.h"

#include <deque>
#include <sstream>

using namespace gputlm;
using namespace gputlm::mem;
using namespace gputlm::mem::tb;

namespace {

struct Traffic {
  uint32_t requests = 3000;
  uint32_t blocks = 40;          // distinct lines touched
  uint32_t store_percent = 15;
  uint32_t atomic_percent = 0;
  uint32_t warps = 8;
  bool owner_toggling = false;   // Mascar: owner warp set / cleared every 150 cycles
  uint32_t memory_refuse_percent = 0;  // the next level refuses requests (they are resent)
  bool sized_stores = false;     // stores of 4 .. sector-size bytes within a sector (lazy writes)
  bool retry_interface = false;  // refused requests are sent again through L1RetryIF (the LSU's way)
  uint64_t seed = 1;
};

void run_random(const CacheConfig& cfg, const Traffic& tr) {
  ResponderOptions mem;
  mem.min_latency = 4;
  mem.max_latency = 60;
  mem.end_req_delay_max = 6;
  mem.end_req_percent = 30;
  mem.seed = tr.seed + 100;
  mem.refuse_percent = tr.memory_refuse_percent;
  auto bench = std::make_unique<CacheBench>("bench", cfg, mem, tr.seed, 5, 30, !tr.retry_interface);
  CacheBench& b = *bench;
  if (tr.retry_interface) b.driver.set_retry(&b.cache);
  GoldenCache gold(cfg);
  std::vector<std::string> mismatches;
  uint64_t evaluated = 0;
  b.cache.set_access_hook([&](const AccessRecord& a) {
    ++evaluated;
    const Prediction p = gold.access(a.kind, a.address, a.bytes, a.warp, b.cache.owner_warp(), a.cycle);
    if (p.outcome != a.outcome || p.cause != a.cause || p.locality != a.locality) {
      std::ostringstream s;
      s << "cycle " << a.cycle << " " << to_string(a.kind) << " " << hex_address(a.address) << " warp " << a.warp
        << ": cache " << to_string(a.outcome) << "/" << to_string(a.cause) << "/" << to_string(a.locality)
        << ", golden " << to_string(p.outcome) << "/" << to_string(p.cause) << "/" << to_string(p.locality);
      if (mismatches.size() < 10) mismatches.push_back(s.str());
    }
  });
  b.cache.set_fill_hook([&](uint64_t, uint64_t block, int32_t) { gold.fill(block); });
  b.memory.on_arrival = [&](const tlm::tlm_generic_payload&) { gold.request_left_miss_queue(b.now()); };

  struct Req {
    uint64_t address;
    AccessKind kind;
    int32_t warp;
    uint64_t not_before;
    uint32_t bytes;
  };
  XorShift rng{tr.seed * 7919 + 3};
  std::deque<Req> retry;
  uint32_t issued = 0, completed = 0, refused = 0;
  b.driver.on_finished = [&](std::size_t i) {
    const DriverRecord& r = b.driver.records()[i];
    if (r.status == MemStatus::Ok) {
      ++completed;
    } else {
      ++refused;
      retry.push_back({r.address, r.kind, r.warp, b.now() + 1 + rng.below(8), r.bytes});
    }
  };
  bool timed_out = false;
  sc_core::sc_spawn(
      [&] {
        for (uint64_t cycle = 1; completed < tr.requests; ++cycle) {
          b.wait_cycle(cycle);
          if (cycle > 400000) {
            timed_out = true;
            break;
          }
          if (tr.owner_toggling && cycle % 150 == 0)
            b.cache.set_owner_warp(b.cache.owner_warp() < 0 ? static_cast<int32_t>(rng.below(tr.warps)) : -1);
          if (!b.driver.can_send() || rng.below(100) >= 60) continue;
          Req q{};
          bool again = false;
          if (!retry.empty() && retry.front().not_before <= cycle) {
            q = retry.front();
            retry.pop_front();
            again = true;
          } else if (issued < tr.requests) {
            ++issued;
            const uint32_t k = rng.below(100);
            q.kind = k < tr.store_percent ? AccessKind::Store
                     : k < tr.store_percent + tr.atomic_percent ? AccessKind::Atomic
                                                                : AccessKind::Load;
            // Blocks spread over few sets so that sets fill, conflict and lock.
            const uint64_t block = rng.below(tr.blocks) * 3;
            q.address = block * cfg.line_size + 4 * rng.below(cfg.line_size / 4);
            q.warp = static_cast<int32_t>(rng.below(tr.warps));
            q.bytes = 4;
            if (tr.sized_stores && q.kind == AccessKind::Store) {
              const uint32_t unit = cfg.line_size / cfg.sectors;
              q.bytes = rng.below(3) == 0 ? unit : 4 * (1 + rng.below(unit / 4));
              q.address = q.address / unit * unit + 4 * rng.below((unit - q.bytes) / 4 + 1);
            }
          } else {
            continue;
          }
          b.driver.send(q.address, q.kind, q.warp, q.bytes, again);
        }
        b.cache.set_owner_warp(-1);
      },
      "traffic", &big_stack());
  sc_core::sc_start();

  INFO("first mismatches:\n" << [&] {
    std::string s;
    for (const auto& m : mismatches) s += m + "\n";
    return s;
  }());
  CHECK(mismatches.empty());
  REQUIRE_FALSE(timed_out);
  CHECK(completed == tr.requests);
  CHECK(b.driver.in_flight() == 0);
  if (b.up_check) b.up_check->check_quiescent();
  b.down_check.check_quiescent();
  if (b.up_check) CHECK(b.up_check->violations().empty());
  CHECK(b.down_check.violations().empty());
  CHECK(b.cache.idle());
  CHECK(gold.outstanding_blocks() == 0);
  // Final tag array equals the golden one, line by line.
  uint32_t differing = 0;
  for (uint32_t s = 0; s < cfg.sets; ++s)
    for (uint32_t w = 0; w < cfg.ways; ++w) {
      const CacheLine& d = b.cache.tags().line(s, w);
      const GoldenCache::Line& g = gold.line_at(s, static_cast<int32_t>(w));
      const bool same = d.state == g.state && (d.state == LineState::Invalid ||
                                               (d.block == g.block && d.dirty == g.dirty && d.wid == g.wid &&
                                                d.valid_sectors == g.valid && d.pending_sectors == g.pending &&
                                                d.partial_sectors == g.partial &&
                                                d.dirty_sectors == g.dirty_sectors));
      differing += same ? 0 : 1;
    }
  CHECK(differing == 0);
  // The walk must have exercised the interesting paths.
  CHECK(evaluated > tr.requests);
  // Refusals reach the driver in reject mode; in stall mode they are retried inside.
  if (cfg.fail_mode == "reject") CHECK(refused > 0);
  CHECK(b.stat("l1.fail_causes") > 0);
  // The interface decided retries both ways (refused again, and accepted).
  if (tr.retry_interface) CHECK(b.driver.retries_decided() > 100);
  CHECK(b.stat("l1.downstream_retries") == b.memory.refusals());
  if (tr.memory_refuse_percent > 0) CHECK(b.memory.refusals() > 0);
  CHECK(b.stat_at("l1.read_outcomes", static_cast<std::size_t>(AccessOutcome::Hit)) > 0);
  CHECK(b.stat_at("l1.read_outcomes", static_cast<std::size_t>(AccessOutcome::PrimaryMiss)) > 0);
  if (cfg.write_allocate == "lazy_fetch_on_read") {
    CHECK(b.stat_at("l1.write_outcomes", static_cast<std::size_t>(AccessOutcome::LazyWrite)) > 0);
    CHECK(b.stat_at("l1.write_outcomes", static_cast<std::size_t>(AccessOutcome::Hit)) > 0);
    if (cfg.allocation == "on_miss")
      CHECK(b.stat_at("l1.write_outcomes", static_cast<std::size_t>(AccessOutcome::HitReserved)) > 0);
    CHECK(b.stat("l1.writebacks") > 0);
  }
  CHECK(b.stat_at("l1.read_outcomes", static_cast<std::size_t>(AccessOutcome::HitReserved)) +
            b.stat_at("l1.read_outcomes", static_cast<std::size_t>(AccessOutcome::SecondaryMiss)) >
        0);
}

CacheConfig l1(const std::string& org, const std::string& alloc) {
  CacheConfig c;
  c.sets = 8;
  c.ways = 2;
  c.line_size = 64;
  c.allocation = alloc;
  c.miss_queue = 4;
  c.response_queue = 8;
  c.hit_latency = 2;
  c.mshr.organisation = org;
  c.mshr.entries = 6;
  c.mshr.fields = 3;
  c.mshr.ways = 3;
  c.mshr.small_entries = 2;
  c.mshr.almost_full_margin = 1;
  return c;
}

}  // namespace

TEST_CASE("cache random traffic: conventional MSHR on-miss LRU write-evict", "[cache][random]") {
  run_random(l1("conventional", "on_miss"), Traffic{});
}

TEST_CASE("cache random traffic: conventional MSHR on-fill FIFO xor index", "[cache][random]") {
  CacheConfig c = l1("conventional", "on_fill");
  c.replacement = "fifo";
  c.set_index = "xor";
  Traffic t;
  t.seed = 2;
  run_random(c, t);
}

TEST_CASE("cache random traffic: set_assoc MSHR on-fill", "[cache][random][set_assoc]") {
  Traffic t;
  t.seed = 3;
  run_random(l1("set_assoc", "on_fill"), t);
}

TEST_CASE("cache random traffic: tsma MSHR", "[cache][random][tsma]") {
  Traffic t;
  t.seed = 4;
  run_random(l1("tsma", "on_miss"), t);
}

TEST_CASE("cache random traffic: htsma MSHR 4 ways", "[cache][random][htsma]") {
  CacheConfig c = l1("htsma", "on_fill");
  c.ways = 4;
  c.sets = 4;
  Traffic t;
  t.seed = 5;
  run_random(c, t);
}

TEST_CASE("cache random traffic: Mascar owner warp NACKs and a refusing next level", "[cache][random]") {
  Traffic t;
  t.seed = 6;
  t.owner_toggling = true;
  t.memory_refuse_percent = 20;
  run_random(l1("conventional", "on_miss"), t);
}

// The same walks with every retry through L1RetryIF: each of its decisions must still
// match the golden model (it shares the access path with BEGIN_REQ).
TEST_CASE("cache random traffic: retries through the retry interface with owner NACKs", "[cache][random][retry]") {
  Traffic t;
  t.seed = 6;
  t.owner_toggling = true;
  t.memory_refuse_percent = 20;
  t.retry_interface = true;
  run_random(l1("conventional", "on_miss"), t);
}

TEST_CASE("cache random traffic: retries through the retry interface set_assoc MSHR on-fill", "[cache][random][retry]") {
  Traffic t;
  t.seed = 3;
  t.retry_interface = true;
  run_random(l1("set_assoc", "on_fill"), t);
}

TEST_CASE("cache random traffic: retries through the retry interface lazy fetch-on-read", "[cache][random][retry]") {
  CacheConfig c = l1("conventional", "on_fill");
  c.write_policy = "write_back";
  c.write_allocate = "lazy_fetch_on_read";
  Traffic t;
  t.seed = 9;
  t.sized_stores = true;
  t.store_percent = 40;
  t.retry_interface = true;
  run_random(c, t);
}

TEST_CASE("cache random traffic: L2 bank write-back stall mode port width 2", "[cache][random][l2]") {
  CacheConfig c = l1("conventional", "on_miss");
  c.write_policy = "write_back";
  c.fail_mode = "stall";
  c.level = 1;
  c.port_width = 2;
  c.input_queue = 4;
  Traffic t;
  t.seed = 7;
  t.store_percent = 25;
  t.atomic_percent = 10;
  run_random(c, t);
}

TEST_CASE("cache random traffic: sectored on-miss 4 sectors", "[cache][random]") {
  CacheConfig c = l1("conventional", "on_miss");
  c.sectors = 4;
  Traffic t;
  t.seed = 9;
  run_random(c, t);
}

TEST_CASE("cache random traffic: sectored on-fill set_assoc write-back stall mode", "[cache][random][l2]") {
  CacheConfig c = l1("set_assoc", "on_fill");
  c.sectors = 2;
  c.write_policy = "write_back";
  c.fail_mode = "stall";
  c.level = 1;
  Traffic t;
  t.seed = 10;
  t.store_percent = 25;
  run_random(c, t);
}

TEST_CASE("cache random traffic: L2 bank write-back on-fill htsma", "[cache][random][l2][htsma]") {
  CacheConfig c = l1("htsma", "on_fill");
  c.write_policy = "write_back";
  c.fail_mode = "stall";
  c.level = 1;
  c.ways = 4;
  c.sets = 4;
  Traffic t;
  t.seed = 8;
  t.store_percent = 30;
  run_random(c, t);
}

TEST_CASE("cache random traffic: L2 bank sectored lazy fetch-on-read write-back", "[cache][random][l2][lazy]") {
  CacheConfig c = l1("conventional", "on_miss");
  c.sectors = 4;
  c.line_size = 128;
  c.write_policy = "write_back";
  c.write_allocate = "lazy_fetch_on_read";
  c.fail_mode = "stall";
  c.level = 1;
  c.port_width = 2;
  c.input_queue = 4;
  Traffic t;
  t.seed = 11;
  t.store_percent = 40;
  t.atomic_percent = 10;
  t.sized_stores = true;
  run_random(c, t);
}

TEST_CASE("cache random traffic: lazy fetch-on-read unsectored on-fill", "[cache][random][l2][lazy]") {
  CacheConfig c = l1("conventional", "on_fill");
  c.write_policy = "write_back";
  c.write_allocate = "lazy_fetch_on_read";
  c.fail_mode = "stall";
  c.level = 1;
  Traffic t;
  t.seed = 12;
  t.store_percent = 35;
  t.sized_stores = true;
  run_random(c, t);
}
