// Runs one cache bench: a test body on its own thread (VCML style: it drives the
// sockets at exact cycles), then checks both protocol checkers and quiescence.
#pragma once

#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <vector>

#include "cache_tb.h"

namespace gputlm::mem::tb {

struct BenchRun {
  std::unique_ptr<CacheBench> bench;
  std::shared_ptr<std::vector<AccessRecord>> accesses = std::make_shared<std::vector<AccessRecord>>();
  CacheBench& operator*() { return *bench; }
  CacheBench* operator->() { return bench.get(); }
  // Outcome of the access hook records for `address`, in evaluation order.
  std::vector<AccessRecord> at(uint64_t address) const {
    std::vector<AccessRecord> out;
    for (const auto& a : *accesses)
      if (a.address == address) out.push_back(a);
    return out;
  }
};

// Test threads run deep call chains (driver -> checker -> cache -> checker -> driver);
// SystemC's default coroutine stack is small, and overflowing it corrupts the heap.
inline const sc_core::sc_spawn_options& big_stack() {
  static sc_core::sc_spawn_options opts;
  opts.set_stack_size(4 << 20);
  return opts;
}

inline BenchRun run_bench(const CacheConfig& cfg, ResponderOptions mem, const std::function<void(CacheBench&)>& body,
                          uint32_t end_resp_delay_max = 0, uint32_t end_resp_percent = 0) {
  BenchRun r;
  r.bench = std::make_unique<CacheBench>("bench", cfg, mem, 3, end_resp_delay_max, end_resp_percent);
  CacheBench* b = r.bench.get();
  auto acc = r.accesses;
  b->cache.set_access_hook([acc](const AccessRecord& a) { acc->push_back(a); });
  sc_core::sc_spawn([b, body] { body(*b); }, "test_body", &big_stack());
  sc_core::sc_start();
  b->up_check->check_quiescent();
  b->down_check.check_quiescent();
  REQUIRE(b->up_check->violations().empty());
  REQUIRE(b->down_check.violations().empty());
  return r;
}

// Sends at edge `cycle` (waiting for it first).
inline std::size_t send_at(CacheBench& b, uint64_t cycle, uint64_t address, AccessKind kind, int32_t warp) {
  b.wait_cycle(cycle);
  return b.driver.send(address, kind, warp);
}

inline CacheConfig small_l1() {
  CacheConfig c;
  c.sets = 4;
  c.ways = 2;
  c.line_size = 128;
  c.mshr.entries = 8;
  c.mshr.fields = 4;
  c.mshr.almost_full_margin = 1;
  return c;
}

}  // namespace gputlm::mem::tb
