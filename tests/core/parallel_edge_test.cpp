// Parallel clock edges (parallel_edge.h): the worker pool, and a domain whose groups tick on
// three threads giving exactly the ticks and effects of the same blocks ticked serially.
#include <catch2/catch.hpp>
#include <atomic>
#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clock_ticker.h"
#include "core/clock/clocked_process.h"
#include "core/clock/parallel_edge.h"

using namespace gputlm;
using sc_core::sc_time;
using sc_core::SC_NS;

TEST_CASE("edge_workers run every item of every job exactly once", "[clock]") {
  EdgeWorkers workers(3);
  CHECK(workers.threads() == 3);
  std::vector<std::atomic<int>> hits(64);
  uint64_t expected_total = 0;
  std::atomic<uint64_t> total{0};
  struct Ctx {
    std::vector<std::atomic<int>>* hits;
    std::atomic<uint64_t>* total;
  } ctx{&hits, &total};
  for (int job = 0; job < 2000; ++job) {
    const std::size_t n = static_cast<std::size_t>(job % 41);
    for (auto& h : hits) h.store(0);
    std::vector<uint32_t> owner(n);
    for (std::size_t i = 0; i < n; ++i) owner[i] = static_cast<uint32_t>((i * 7 + job) % 5);
    workers.run(
        n, owner.data(),
        [](void* c, std::size_t i) {
          auto* x = static_cast<Ctx*>(c);
          (*x->hits)[i].fetch_add(1);
          x->total->fetch_add(i + 1);
        },
        &ctx);
    for (std::size_t i = 0; i < hits.size(); ++i) REQUIRE(hits[i].load() == (i < n ? 1 : 0));
    expected_total += n * (n + 1) / 2;
  }
  CHECK(total.load() == expected_total);
}

namespace {
// kGroups groups of kPerGroup blocks and one ungrouped block in one domain. Each block logs
// its own ticks, appends to a shared log through parallel_edge::run_or_defer (the way shared
// state is touched from a group's tick), stays busy a few edges, and the last block of each
// group wakes the first block of the next group and the ungrouped block.
constexpr int kGroups = 6, kPerGroup = 3;
struct World : sc_core::sc_module {
  ClockDomain domain;
  std::vector<std::vector<uint64_t>> own;         // per block: the edges it ticked
  std::vector<std::pair<uint64_t, int>> shared;  // (edge, block) in effect order
  std::vector<int> busy;
  std::vector<std::unique_ptr<ClockedProcess>> procs;
  std::unique_ptr<ClockedProcess> tail;
  std::vector<uint64_t> tail_ticks;

  World(sc_core::sc_module_name n, double mhz, unsigned threads)
      : sc_module(n), domain(ClockDomain::from_mhz(std::string(n), mhz)), own(kGroups * kPerGroup),
        busy(kGroups * kPerGroup, 0) {
    for (int g = 0; g < kGroups; ++g) {
      ClockTicker::GroupScope scope(g);
      for (int k = 0; k < kPerGroup; ++k) {
        const int id = g * kPerGroup + k;
        procs.push_back(std::make_unique<ClockedProcess>("tick", domain, [this, id](uint64_t c) { return tick(id, c); }));
      }
    }
    tail = std::make_unique<ClockedProcess>("tail", domain, [this](uint64_t c) {
      tail_ticks.push_back(c);
      return false;
    });
    domain.ticker()->set_threads(threads);
  }
  bool tick(int id, uint64_t c) {
    own[id].push_back(c);
    struct Arg {
      World* w;
      int id;
    };
    // The shared log records (edge, block): deferred to the edge's end in a parallel edge.
    parallel_edge::run_or_defer(
        [](void* w, void*, uint64_t v) {
          static_cast<World*>(w)->shared.emplace_back(v >> 8, static_cast<int>(v & 0xFF));
        },
        this, nullptr, (c << 8) | static_cast<uint64_t>(id));
    const int g = id / kPerGroup, k = id % kPerGroup;
    if (k == kPerGroup - 1 && own[id].size() % 2 == 1) {
      if (g + 1 < kGroups) procs[(g + 1) * kPerGroup]->wake();  // another group's block
      tail->wake_at(c + 3);
    }
    return --busy[id] > 0;
  }
};
struct Start : sc_core::sc_module {
  World& w;
  SC_HAS_PROCESS(Start);
  Start(sc_core::sc_module_name n, World& world) : sc_module(n), w(world) { SC_THREAD(run); }
  void run() {
    wait(w.domain.period() * 3);
    for (std::size_t i = 0; i < w.procs.size(); ++i) {
      w.busy[i] = 1 + static_cast<int>(i % 5);
      w.procs[i]->wake();
    }
  }
};
}  // namespace

TEST_CASE("clock_ticker ticks groups on threads with their effects in group order", "[clock]") {
  // Two copies of one world in two domains of equal frequency: serial and three threads.
  World serial("serial", 1000.0, 1), threaded("threaded", 1000.0, 3);
  Start s1("start_serial", serial), s2("start_threaded", threaded);
  sc_core::sc_start(sc_time(200, SC_NS));
  CHECK(serial.domain.ticker()->parallel_edges() == 0);
  CHECK(threaded.domain.ticker()->parallel_edges() > 0);
  REQUIRE(!serial.shared.empty());
  CHECK(threaded.own == serial.own);
  CHECK(threaded.shared == serial.shared);
  CHECK(threaded.tail_ticks == serial.tail_ticks);
  CHECK(!serial.tail_ticks.empty());
}
