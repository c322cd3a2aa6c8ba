#include <catch2/catch.hpp>
#include <algorithm>
#include <memory>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clock_ticker.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/clock/input_buffer.h"

using namespace gputlm;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_PS;

TEST_CASE("clock_domain converts cycles and time", "[clock]") {
  ClockDomain core = ClockDomain::from_mhz("core", 700.0);
  // 1e6/700 ps = 1428.57 ps, rounded to the 1 ps resolution.
  CHECK(core.period() == sc_time(1429, SC_PS));
  CHECK(core.cycle_at(sc_time(1429 * 10, SC_PS)) == 10);
  CHECK(core.cycle_at(sc_time(1429 * 10 - 1, SC_PS)) == 9);
  CHECK(core.time_of(3) == sc_time(4287, SC_PS));
  CHECK(core.edge_after(sc_time(1429, SC_PS)) == sc_time(2858, SC_PS));
  CHECK(core.edge_after(sc_time(1430, SC_PS)) == sc_time(2858, SC_PS));
  ClockDomain dram = ClockDomain::from_mhz("dram", 924.0);
  CHECK(dram.period() == sc_time(1082, SC_PS));
  CHECK(dram.mhz() == Approx(924.2).epsilon(0.001));
  CHECK_THROWS_WITH(ClockDomain::from_mhz("bad", 0.0), Catch::Contains("frequency must be positive"));
  CHECK_THROWS_WITH(ClockDomain("zero", sc_core::SC_ZERO_TIME), Catch::Contains("period must be"));
}

namespace {
// A block that is busy for `busy_cycles` after each wake-up, recording the cycles it ticks.
struct Blinker : sc_core::sc_module {
  ClockDomain domain;
  std::vector<uint64_t> ticks;
  uint64_t busy_left = 0;
  ClockedProcess proc;
  explicit Blinker(sc_core::sc_module_name n, double mhz)
      : sc_module(n), domain(ClockDomain::from_mhz("d", mhz)),
        proc("tick", domain, [this](uint64_t c) {
          ticks.push_back(c);
          if (busy_left > 0) --busy_left;
          return busy_left > 0;
        }) {}
};

struct WakeDriver : sc_core::sc_module {
  Blinker& b;
  SC_HAS_PROCESS(WakeDriver);
  WakeDriver(sc_core::sc_module_name n, Blinker& blinker) : sc_module(n), b(blinker) { SC_THREAD(run); }
  void run() {
    const auto p = b.domain.period();
    wait(p * 10);  // exactly at edge 10: the tick comes at the next edge, 11
    b.busy_left = 3;
    b.proc.wake();
    wait(p * 20 + p / 2);  // mid-cycle 30.5: next edge is 31
    b.busy_left = 1;
    b.proc.wake();
    b.proc.wake_at(50);  // a timer while asleep
    wait(p * 100);
    b.proc.wake_at(200);  // a timer far ahead, and an earlier wake that must not lose it
    b.proc.wake();
  }
};
}  // namespace

TEST_CASE("clocked_process ticks while busy, sleeps when idle, wakes on the next edge", "[clock]") {
  Blinker b("b", 1000.0);  // 1 ns period
  WakeDriver d("d", b);
  sc_core::sc_start(sc_time(1, sc_core::SC_US));
  const std::vector<uint64_t> expected = {11, 12, 13, 31, 50, 131, 200};
  CHECK(b.ticks == expected);
  CHECK(b.proc.activations() == expected.size());
  CHECK(b.proc.sleeping());
}

TEST_CASE("clocked_process idle block costs no activations", "[clock]") {
  Blinker b("idle", 700.0);
  sc_core::sc_start(sc_time(1, sc_core::SC_MS));  // 700,000 cycles
  CHECK(b.proc.activations() == 0);
  CHECK(b.ticks.empty());
}

TEST_CASE("clocked_process started awake ticks from cycle 0", "[clock]") {
  struct Busy : sc_core::sc_module {
    ClockDomain domain = ClockDomain::from_mhz("d", 500.0);
    int n = 0;
    ClockedProcess proc{"tick", domain, [this](uint64_t) { return ++n < 5; }, true};
    explicit Busy(sc_core::sc_module_name nm) : sc_module(nm) {}
  } busy("busy");
  sc_core::sc_start(sc_time(1, sc_core::SC_US));
  CHECK(busy.n == 5);
  CHECK(busy.proc.activations() == 5);
}

namespace {
// Blocks of one domain that record (cycle, id) at each tick and stay busy for their own
// number of cycles after every wake-up; more than 64 of them use several words of the
// ticker's due mask.
struct Crowd : sc_core::sc_module {
  ClockDomain domain = ClockDomain::from_mhz("d", 1000.0);
  std::vector<std::pair<uint64_t, int>> ticks;
  std::vector<int> busy_left;
  std::vector<std::unique_ptr<ClockedProcess>> procs;
  explicit Crowd(sc_core::sc_module_name n, int count) : sc_module(n), busy_left(count, 0) {
    for (int i = 0; i < count; ++i)
      procs.push_back(std::make_unique<ClockedProcess>("tick", domain, [this, i](uint64_t c) {
        ticks.emplace_back(c, i);
        return --busy_left[i] > 0;
      }));
  }
};
struct CrowdDriver : sc_core::sc_module {
  Crowd& crowd;
  SC_HAS_PROCESS(CrowdDriver);
  CrowdDriver(sc_core::sc_module_name n, Crowd& c) : sc_module(n), crowd(c) { SC_THREAD(run); }
  void run() {
    wait(crowd.domain.period() * 5);
    for (int i = static_cast<int>(crowd.procs.size()) - 1; i >= 0; --i) {  // woken in reverse order
      crowd.busy_left[i] = 1 + i % 4;
      crowd.procs[i]->wake();
      if (i % 3 == 0) crowd.procs[i]->wake_at(20 + i % 5);  // some timers, several per edge
    }
  }
};
std::vector<std::pair<uint64_t, int>> run_crowd(const char* name, uint64_t seed) {
  ClockTicker::set_order_seed(seed);
  Crowd crowd(name, 70);
  CrowdDriver driver((std::string(name) + "_driver").c_str(), crowd);
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  sc_core::sc_start(sc_time(100, SC_NS));
  ClockTicker::set_order_seed(0);
  const uint64_t base = start.value() / crowd.domain.period().value();
  for (auto& t : crowd.ticks) t.first -= base;
  return crowd.ticks;
}
}  // namespace

// Woken at edge 5 (in reverse order): all 70 tick at 6, each stays busy 1 + i % 4 edges,
// and every third also ticks at its timer 20 + i % 5; in creation order within an edge.
std::vector<std::pair<uint64_t, int>> crowd_expected() {
  std::vector<std::pair<uint64_t, int>> expected;
  for (uint64_t c = 6; c < 10; ++c)
    for (int i = 0; i < 70; ++i)
      if (c < 6 + static_cast<uint64_t>(1 + i % 4)) expected.emplace_back(c, i);
  for (uint64_t c = 20; c < 25; ++c)
    for (int i = 0; i < 70; i += 3)
      if (static_cast<uint64_t>(20 + i % 5) == c) expected.emplace_back(c, i);
  return expected;
}

// One simulation per test case (one sc_start per process).
TEST_CASE("clock_ticker ticks a domain's due blocks once per edge in creation order", "[clock]") {
  CHECK(run_crowd("ordered", 0) == crowd_expected());
}

TEST_CASE("clock_ticker with an order seed shuffles each edge and ticks the same blocks", "[clock]") {
  auto shuffled = run_crowd("shuffled", 12345);
  const auto expected = crowd_expected();
  REQUIRE(shuffled.size() == expected.size());
  CHECK(shuffled != expected);  // the order within an edge differs...
  std::stable_sort(shuffled.begin(), shuffled.end());
  CHECK(shuffled == expected);  // ...the (edge, block) ticks do not (expected is sorted)
}

namespace {
// Blocks whose only wake-ups are timers at given distances: within the ticker's wheel,
// at its edge (64 edges ahead), beyond it (the heap), across its wrap, and a timer that
// an earlier wake() leaves stale for a while.
struct Timers : sc_core::sc_module {
  ClockDomain domain = ClockDomain::from_mhz("d", 1000.0);
  std::vector<std::vector<uint64_t>> plan;  // per block: its timer edges, ascending
  std::vector<std::size_t> next;
  std::vector<std::pair<uint64_t, int>> ticks;
  std::vector<std::unique_ptr<ClockedProcess>> procs;
  explicit Timers(sc_core::sc_module_name n, std::vector<std::vector<uint64_t>> p)
      : sc_module(n), plan(std::move(p)), next(plan.size(), 0) {
    for (std::size_t i = 0; i < plan.size(); ++i)
      procs.push_back(std::make_unique<ClockedProcess>("tick", domain, [this, i](uint64_t c) {
        ticks.emplace_back(c, static_cast<int>(i));
        while (next[i] < plan[i].size() && plan[i][next[i]] <= c) ++next[i];
        if (next[i] < plan[i].size()) procs[i]->wake_at(plan[i][next[i]]);
        return false;
      }));
  }
};
struct TimersDriver : sc_core::sc_module {
  Timers& t;
  SC_HAS_PROCESS(TimersDriver);
  TimersDriver(sc_core::sc_module_name n, Timers& timers) : sc_module(n), t(timers) { SC_THREAD(run); }
  void run() {
    wait(t.domain.period() * 5);
    for (std::size_t i = 0; i < t.procs.size(); ++i) t.procs[i]->wake_at(t.plan[i][0]);
    t.procs[0]->wake();  // ticks at 6, an edge earlier than its timer, which stays at 300
  }
};
}  // namespace

TEST_CASE("clock_ticker keeps timers within its wheel beyond it and across its wrap", "[clock]") {
  const std::vector<std::vector<uint64_t>> plan = {
      {300, 301, 365},         // also woken at 6, leaving 300 stale until it re-arms it
      {7, 70, 71, 135, 136},   // 63, 1, 64, 1 ahead
      {68, 69, 1000, 1063},    // 63 ahead of the start, then 931 and 63
      {133, 134, 197, 198},    // 128 ahead (heap), then wheel distances that wrap it twice
      {69, 69 + 64, 69 + 128}  // one slot, three edges
  };
  Timers timers("timers", plan);
  TimersDriver driver("timers_driver", timers);
  sc_core::sc_start(sc_time(2, sc_core::SC_US));
  std::vector<std::pair<uint64_t, int>> expected;
  for (std::size_t i = 0; i < plan.size(); ++i)
    for (uint64_t c : plan[i]) expected.emplace_back(c, static_cast<int>(i));
  expected.emplace_back(6, 0);
  std::sort(expected.begin(), expected.end());
  CHECK(timers.ticks == expected);  // each edge once per block, in creation order
}

TEST_CASE("cycle_queue is bounded and releases entries at their cycle", "[clock]") {
  CycleQueue<int> q(2);
  q.push(1, 5);
  q.push(2, 7);
  CHECK(q.full());
  CHECK_THROWS_WITH(q.push(3, 8), Catch::Contains("full queue"));
  CHECK_FALSE(q.ready(4));
  CHECK(q.ready(5));
  CHECK(q.front() == 1);
  q.pop();
  CHECK_FALSE(q.ready(6));
  CHECK(q.ready(7));
  q.erase(0);
  CHECK(q.empty());
  CHECK_THROWS(q.pop());
}

TEST_CASE("input_buffer decisions do not depend on evaluation order within a cycle", "[clock]") {
  // Owner pops at cycle 10 before or after a sender pushes at cycle 10: either way the
  // sender sees the buffer as full at cycle 10 and as free at cycle 11.
  InputBuffer<int> a(1), b(1);
  a.push(1, 9);
  b.push(1, 9);
  REQUIRE(a.ready(10));
  a.pop(10);                      // order A: owner first
  CHECK_FALSE(a.can_accept(10));  // the freed slot is not usable in the same cycle
  CHECK_FALSE(b.can_accept(10));  // order B: sender first
  CHECK(a.can_accept(11));
  b.pop(10);
  CHECK(b.can_accept(11));
  a.push(5, 11);
  CHECK_FALSE(a.ready(11));  // visible to the owner one cycle later
  CHECK(a.ready(12));
}

namespace {
// Calls wake() on a block from another method at exactly the edge where the block's
// last busy tick is scheduled, in either evaluation order.
struct EdgeSender : sc_core::sc_module {
  ClockedProcess* target = nullptr;
  sc_core::sc_event ev;
  SC_HAS_PROCESS(EdgeSender);
  EdgeSender(sc_core::sc_module_name n, sc_time at) : sc_module(n) {
    SC_METHOD(fire);
    sensitive << ev;
    dont_initialize();
    ev.notify(at);
  }
  void fire() { target->wake(); }
};
struct BusyUntil : sc_core::sc_module {
  ClockDomain domain = ClockDomain::from_mhz("d", 1000.0);
  std::vector<uint64_t> ticks;
  ClockedProcess proc{"tick", domain, [this](uint64_t c) {
                        ticks.push_back(c);
                        return c < 10;  // busy through cycle 9, the tick at 10 goes to sleep
                      },
                      true};
  explicit BusyUntil(sc_core::sc_module_name n) : sc_module(n) {}
};
}  // namespace

TEST_CASE("clocked_process keeps a wake-up that arrives at an edge where its tick is due", "[clock]") {
  // Two pairs created in opposite orders, so that one of them has the sender evaluated
  // before the block's scheduled tick at edge 10.
  EdgeSender s1("s1", sc_time(10, SC_NS));
  BusyUntil b1("b1");
  BusyUntil b2("b2");
  EdgeSender s2("s2", sc_time(10, SC_NS));
  s1.target = &b1.proc;
  s2.target = &b2.proc;
  sc_core::sc_start(sc_time(100, SC_NS));
  std::vector<uint64_t> expected;
  for (uint64_t c = 0; c <= 11; ++c) expected.push_back(c);
  CHECK(b1.ticks == expected);
  CHECK(b2.ticks == expected);
}
