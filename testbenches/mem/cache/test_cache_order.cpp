// Determinism: two identical cache benches with identical random traffic in one
// simulation; the second creates its driver and memory before the cache (and its traffic
// thread first), so SystemC evaluates their processes in a different order within each
// time step. Every request record, memory arrival and statistic must be identical.
#include "bench_run.h"

#include <deque>

using namespace gputlm;
using namespace gputlm::mem;
using namespace gputlm::mem::tb;

namespace {

// Random traffic from a method process (not a thread: SystemC runs methods before
// threads, so only methods interleave differently with the cache's own process).
struct Traffic {
  XorShift rng{99};
  std::deque<DriverRecord> retry;
  uint32_t issued = 0, done = 0, requests = 1500, line = 64;
  uint64_t cycle = 0;
};

struct OrderBench : sc_core::sc_module {
  ClockDomain domain;
  stats::Group root;
  Traffic tr;
  std::unique_ptr<CacheDriver> driver;
  std::unique_ptr<MemoryResponder> memory;
  std::unique_ptr<Cache> cache;
  std::unique_ptr<ProtocolChecker> up, down;

  OrderBench(sc_core::sc_module_name name, const CacheConfig& cfg, const ResponderOptions& mem, bool reversed)
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
    if (reversed) {
      make_ends();
      make_cache();
    } else {
      make_cache();
      make_ends();
    }
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

  void step() {
    const uint64_t cycle = tr.cycle++;
    if (tr.done >= tr.requests || cycle > 200000) return;  // no next trigger: the method ends
    sc_core::next_trigger(domain.period());
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

}  // namespace

TEST_CASE("cache results do not depend on the order SystemC runs processes in", "[cache]") {
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
  ResponderOptions mem;
  mem.min_latency = 3;
  mem.max_latency = 40;
  mem.end_req_delay_max = 4;
  mem.end_req_percent = 40;
  mem.refuse_percent = 10;
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
