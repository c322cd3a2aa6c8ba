// Determinism: two identical cache benches with identical random traffic in one
// simulation; the second creates its driver and memory before the cache (and its traffic
// thread first), so SystemC evaluates their processes in a different order within each
// time step. Every request record, memory arrival and statistic must be identical.
// Status reads (the Mascar saturation flag, MSHR occupancy, probe: what an SM reads every
// cycle) neither change the results nor depend on the process order, also while the
// cache sleeps in a quiet window.
#include "bench_run.h"

#include <deque>

using namespace gputlm;
using namespace gputlm::mem;
using namespace gputlm::mem::tb;

namespace {

// Random traffic from a method process (not a thread: SystemC runs methods before
// threads, so only methods interleave differently with the cache's own process).
struct OrderTraffic {
  XorShift rng{99};
  std::deque<DriverRecord> retry;
  uint32_t issued = 0, done = 0, requests = 1500, line = 64;
  uint64_t cycle = 0;
};

// What a status reader saw in one cycle.
struct StatusRead {
  uint64_t cycle;
  bool saturated, present;
  uint32_t occupied;
  uint64_t owners;
  bool operator==(const StatusRead& o) const {
    return cycle == o.cycle && saturated == o.saturated && present == o.present && occupied == o.occupied &&
           owners == o.owners;
  }
};

struct OrderBench : sc_core::sc_module {
  ClockDomain domain;
  stats::Group root;
  OrderTraffic tr;
  std::unique_ptr<CacheDriver> driver;
  std::unique_ptr<MemoryResponder> memory;
  std::unique_ptr<Cache> cache;
  std::unique_ptr<ProtocolChecker> up, down;

  // reader: 0 none, 1 a status reader created before the cache, 2 after it, 3 none but
  // traffic at mid-cycle as with a reader.
  OrderBench(sc_core::sc_module_name name, const CacheConfig& cfg, const ResponderOptions& mem, bool reversed,
             int reader = 0)
      : sc_core::sc_module(name), domain("core", sc_core::sc_time(1, sc_core::SC_NS)), root(std::string(name)) {
    tr.line = cfg.line_size;
    auto make_cache = [&] {
      cache = std::make_unique<Cache>("l1", cfg, domain, root);
      up = std::make_unique<ProtocolChecker>("up");
      down = std::make_unique<ProtocolChecker>("down");
    };
    auto make_ends = [&] {
      driver = std::make_unique<CacheDriver>("driver", domain, cfg.line_size, 5, 4, 40);
      memory = std::make_unique<MemoryResponder>("memory", domain, mem);
      sc_core::sc_spawn_options o;
      o.spawn_method();
      sc_core::sc_spawn([this] { step(); }, "traffic", &o);
    };
    auto make_reader = [&] {  // reads every edge
      sc_core::sc_spawn_options o;
      o.spawn_method();
      sc_core::sc_spawn([this] { read_status(); }, "reader", &o);
    };
    reader_ = reader != 0;
    if (reader == 1) make_reader();
    if (reversed) {
      make_ends();
      make_cache();
    } else {
      make_cache();
      make_ends();
    }
    if (reader == 2) make_reader();  // (3: traffic as with a reader, nothing reads)
    driver->out.bind(up->in);
    up->out.bind(cache->upstream);
    cache->downstream.bind(down->in);
    down->out.bind(memory->in);
    driver->on_finished = [this](std::size_t i) {
      const DriverRecord& r = driver->records()[i];
      if (r.status == MemStatus::Ok) ++tr.done;
      else tr.retry.push_back(r);
    };
  }

  bool reader_ = false;
  std::vector<StatusRead> reads;
  uint64_t reads_asleep = 0;
  void read_status() {
    const uint64_t cycle = domain.now();
    if (cycle >= 12000) return;  // a fixed span (the traffic takes longer): no next trigger
    sc_core::next_trigger(domain.period());
    if (cycle == 0) return;
    if (cache->process().sleeping()) ++reads_asleep;
    const mem::CacheStatusIF& s = *cache;
    reads.push_back({cycle, s.saturated(), s.probe(3 * tr.line * (cycle % 48)), s.mshr_occupied(),
                     cache->mshr_owner_mask()});
  }

  void step() {
    const uint64_t cycle = tr.cycle++;
    if (tr.done >= tr.requests || cycle > 200000) return;  // no next trigger: the method ends
    // With a status reader the traffic moves to mid-cycle, so that only the cache's own
    // process shares the edge with the reads.
    sc_core::next_trigger(cycle == 0 && reader_ ? domain.period() / 2 : domain.period());
    if (cycle == 0) return;
    if (cycle % 97 == 0) cache->set_owner_warp(cache->owner_warp() < 0 ? static_cast<int32_t>(cycle % 4) : -1);
    if (cycle % 1500 == 0) cache->invalidate_all();
    if (!driver->can_send() || tr.rng.below(100) >= 70) return;
    if (!tr.retry.empty() && tr.retry.front().finished < cycle) {  // refusals seen next cycle
      const DriverRecord r = tr.retry.front();
      tr.retry.pop_front();
      driver->send(r.address, r.kind, r.warp);
    } else if (tr.issued < tr.requests) {
      ++tr.issued;
      const AccessKind kind = tr.rng.below(100) < 20 ? AccessKind::Store : AccessKind::Load;
      driver->send(tr.rng.below(48) * 3 * tr.line + 4 * tr.rng.below(tr.line / 4), kind,
                   static_cast<int32_t>(tr.rng.below(4)));
    }
  }
};

// A small L1 with few MSHRs and a short miss queue, and a memory that delays END_REQ and
// refuses some requests: every path of the cache is taken.
CacheConfig order_cache() {
  CacheConfig cfg;
  cfg.sets = 8;
  cfg.ways = 2;
  cfg.line_size = 64;
  cfg.miss_queue = 3;
  cfg.response_queue = 8;
  cfg.port_width = 2;
  cfg.mshr.entries = 6;
  cfg.mshr.fields = 3;
  cfg.mshr.almost_full_margin = 1;
  return cfg;
}

ResponderOptions order_memory(uint32_t min_latency, uint32_t max_latency) {
  ResponderOptions mem;
  mem.min_latency = min_latency;
  mem.max_latency = max_latency;
  mem.end_req_delay_max = 4;
  mem.end_req_percent = 40;
  mem.refuse_percent = 10;
  return mem;
}

}  // namespace

TEST_CASE("cache results do not depend on the order SystemC runs processes in", "[cache]") {
  const CacheConfig cfg = order_cache();
  const ResponderOptions mem = order_memory(3, 40);
  OrderBench a("a", cfg, mem, false);
  OrderBench b("b", cfg, mem, true);
  sc_core::sc_start();
  const auto& ra = a.driver->records();
  const auto& rb = b.driver->records();
  REQUIRE(ra.size() == rb.size());
  REQUIRE(ra.size() > 1500);
  REQUIRE(a.tr.done == 1500);
  for (std::size_t i = 0; i < ra.size(); ++i) {
    INFO("request " << i);
    REQUIRE(ra[i].address == rb[i].address);
    REQUIRE(ra[i].sent == rb[i].sent);
    REQUIRE(ra[i].ret == rb[i].ret);
    REQUIRE(ra[i].status == rb[i].status);
    REQUIRE(ra[i].response == rb[i].response);
  }
  const auto& ma = a.memory->arrivals();
  const auto& mb = b.memory->arrivals();
  REQUIRE(ma.size() == mb.size());
  for (std::size_t i = 0; i < ma.size(); ++i) {
    INFO("memory arrival " << i);
    REQUIRE(ma[i].cycle == mb[i].cycle);
    REQUIRE(ma[i].address == mb[i].address);
  }
  CHECK(a.root.to_json()["l1"] == b.root.to_json()["l1"]);
  CHECK(a.cache->idle());
  CHECK(a.up->violations().empty());
  CHECK(b.down->violations().empty());
}

TEST_CASE("cache status reads every cycle change no result and do not depend on the process order", "[cache]") {
  const CacheConfig cfg = order_cache();
  const ResponderOptions mem = order_memory(20, 90);  // long enough for the cache to sleep between fills
  OrderBench a("a", cfg, mem, false, 3);
  OrderBench b("b", cfg, mem, false, 1);  // reads before the cache's process each cycle
  OrderBench c("c", cfg, mem, true, 2);   // and after it
  sc_core::sc_start();
  REQUIRE(a.tr.done == 1500);
  for (OrderBench* x : {&b, &c}) {
    const auto& ra = a.driver->records();
    const auto& rx = x->driver->records();
    REQUIRE(ra.size() == rx.size());
    for (std::size_t i = 0; i < ra.size(); ++i) {
      INFO("request " << i);
      REQUIRE(ra[i].sent == rx[i].sent);
      REQUIRE(ra[i].ret == rx[i].ret);
      REQUIRE(ra[i].status == rx[i].status);
    }
    CHECK(a.root.to_json()["l1"] == x->root.to_json()["l1"]);
  }
  REQUIRE(b.reads.size() == c.reads.size());
  REQUIRE(b.reads.size() == 11999);
  REQUIRE(a.driver->records().back().finished > 12000);
  for (std::size_t i = 0; i < b.reads.size(); ++i) {
    INFO("cycle " << b.reads[i].cycle);
    REQUIRE(b.reads[i] == c.reads[i]);
    // One free MSHR entry left raises the flag (the miss queue may raise it too).
    if (b.reads[i].occupied + cfg.mshr.almost_full_margin >= cfg.mshr.entries) REQUIRE(b.reads[i].saturated);
  }
  // The reads met the cache asleep (a quiet window) often, and saw the flag both ways.
  CHECK(b.reads_asleep > 100);
  CHECK(c.reads_asleep > 100);
  std::size_t raised = 0;
  for (const StatusRead& r : b.reads) raised += r.saturated;
  CHECK(raised > 0);
  CHECK(raised < b.reads.size());
}
