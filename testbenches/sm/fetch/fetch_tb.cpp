// The fetch unit driven alone (its own clock process ticks decode then fetch), with a real
// L1I behind protocol checkers and a fixed-latency memory. The test plays the issue stage:
// it pops I-buffer entries after stepping the functional warp.
//
// Golden timing (L1I hit_latency 1, miss_latency 1, fill_latency 0; memory latency M):
//   hit:  fetch in F -> L1I BEGIN_RESP F+1 -> decode F+2
//   miss: fetch in F -> miss request F+1 -> the memory takes it at its next edge F+2 and
//         responds at F+2+M -> fill processed F+3+M -> BEGIN_RESP F+3+M -> decode F+4+M
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "core/clock/clocked_process.h"
#include "core/tlm/protocol_checker.h"
#include "core/traffic/simple_memory.h"
#include "isa/ptx_parser.h"
#include "mem/cache/cache.h"
#include "sm/fetch/fetch_unit.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
constexpr uint32_t kMemLatency = 30;

class UnitMap : public sc_core::sc_module, public IssueStatusIF {
 public:
  sc_core::sc_export<IssueStatusIF> exp{"exp"};
  explicit UnitMap(sc_core::sc_module_name n) : sc_core::sc_module(n) { exp.bind(*this); }
  bool can_accept(uint32_t, UnitType) const override { return true; }
  UnitType unit_for(const isa::Instruction& in) const override { return default_unit_for(in, false, false, true); }
  uint64_t availability_version(uint64_t) const override { return 0; }  // always accepts
};

class FixedOrders : public SchedulerOrderIF {
 public:
  std::vector<std::vector<uint32_t>> lists;
  uint32_t scheduler_count() const override { return static_cast<uint32_t>(lists.size()); }
  const std::vector<uint32_t>& priority_order(uint32_t s) const override { return lists[s]; }
};

struct FetchBench : sc_core::sc_module {
  FetchBench(sc_core::sc_module_name n, const SmConfig& c)
      : sc_core::sc_module(n),
        cfg(c),
        clock(ClockDomain::from_mhz("core", 1000)),
        root("tb"),
        table(cfg.max_warps, cfg.fetch.ibuffer_entries),
        fetch("fetch", cfg, 0, clock, table, root),
        l1i("l1i", cfg.l1i, clock, root),
        up("up"),
        down("down"),
        memory("memory", SimpleMemoryConfig{kMemLatency, 16}, clock, root),
        units("units"),
        lm(isa::parse_ptx_file("tests/sm/cu/pipeline.ptx"), dev),
        grid(lm, isa::make_launch(lm, "alu_chain", {1, 1, 1}, {128, 1, 1})) {
    fetch.l1i.bind(up.in);
    up.out.bind(l1i.upstream);
    l1i.downstream.bind(down.in);
    down.out.bind(memory.in);
    fetch.issue_status.bind(units.exp);
    process = std::make_unique<ClockedProcess>("tick", clock, [this](uint64_t cy) {
      const bool d = fetch.tick_decode(cy);
      return fetch.tick_fetch(cy) || d;
    });
    fetch.set_waker([this] { process->wake(); });
    isa::CtaContext& cta = grid.start_cta(0);
    for (uint32_t w = 0; w < cta.warps.size(); ++w) {
      table[w].valid = true;
      table[w].grid = &grid;
      table[w].ctx = &cta.warps[w];
    }
    table.touch_all();  // slots set through operator[] (WarpTable's contract)
  }
  void run_until(const std::function<bool()>& done, uint64_t limit = 1000) {
    for (uint64_t i = 0; i < limit && !done(); ++i) sc_core::sc_start(clock.period());
    REQUIRE(done());
  }
  // Wakes fetch and runs until the four warps' I-buffers are full.
  void fill_all_ibuffers() {
    process->wake();
    run_until([&] {
      for (uint32_t w = 0; w < 4; ++w)
        if (table[w].ibuf_count != 2) return false;
      return true;
    });
  }
  // The issue stage's part: execute and pop the head of warp w.
  void issue(uint32_t w) {
    REQUIRE_FALSE(table.ibuf_empty(w));
    CHECK(table.ibuf_head(w).pc == grid.peek_pc(*table[w].ctx));
    grid.step(*table[w].ctx);
    table.ibuf_pop(w);
    process->wake();
  }

  SmConfig cfg;
  ClockDomain clock;
  stats::Group root;
  WarpTable table;
  FetchUnit fetch;
  mem::Cache l1i;
  ProtocolChecker up, down;
  SimpleMemory memory;
  UnitMap units;
  isa::DeviceMemory dev;
  isa::LoadedModule lm;
  isa::GridExecution grid;
  std::unique_ptr<ClockedProcess> process;
};
}  // namespace

TEST_CASE("fetch: a miss and a hit reach the I-buffer after the golden latencies", "[sm][fetch]") {
  SmConfig cfg;
  FetchBench tb("tb", cfg);
  for (uint32_t w = 1; w < 4; ++w) tb.table[w].valid = false;  // one warp
  tb.table.touch_all();
  tb.process->wake();
  tb.run_until([&] { return tb.table[0].ibuf_count == 2; });
  const IBufferEntry e0 = tb.table.ibuf_at(0, 0), e1 = tb.table.ibuf_at(0, 1);
  CHECK(e0.pc == tb.grid.kernel().pc_of(0));
  CHECK(e1.pc == tb.grid.kernel().pc_of(1));
  CHECK(e0.instr == &tb.grid.kernel().code[0]);
  CHECK(e0.decode_cycle == e0.fetch_cycle + 4 + kMemLatency);  // cold miss
  tb.issue(0);
  tb.issue(0);
  tb.run_until([&] { return tb.table[0].ibuf_count == 2; });
  const IBufferEntry h = tb.table.ibuf_at(0, 0);
  CHECK(h.pc == tb.grid.kernel().pc_of(2));
  CHECK(h.decode_cycle == h.fetch_cycle + 2);  // same line: hit
  tb.up.check_quiescent();
  CHECK(tb.up.violations().empty());
  CHECK(tb.down.violations().empty());
}

TEST_CASE("fetch: round robin serves one warp per cycle in slot order", "[sm][fetch]") {
  SmConfig cfg;
  FetchBench tb("tb", cfg);
  tb.fill_all_ibuffers();
  // Warp 0 missed; warps 1..3 merged into the same MSHR entry one cycle apart.
  const uint64_t f0 = tb.table.ibuf_head(0).fetch_cycle;
  for (uint32_t w = 1; w < 4; ++w) CHECK(tb.table.ibuf_head(w).fetch_cycle == f0 + w);
  CHECK(tb.root.find("fetch.fetches")->scalar(stats::View::Epoch) == 4);
}

TEST_CASE("fetch: scheduler_priority follows the interleaved scheduler orders", "[sm][fetch]") {
  SmConfig cfg;
  cfg.fetch.policy = "scheduler_priority";
  FetchBench tb("tb", cfg);
  FixedOrders orders;
  orders.lists = {{2, 0}, {3, 1}};  // fetch order: 2, 3, 0, 1
  tb.fetch.set_scheduler_orders(orders);
  tb.fill_all_ibuffers();
  const uint64_t f = tb.table.ibuf_head(2).fetch_cycle;
  CHECK(tb.table.ibuf_head(3).fetch_cycle == f + 1);
  CHECK(tb.table.ibuf_head(0).fetch_cycle == f + 2);
  CHECK(tb.table.ibuf_head(1).fetch_cycle == f + 3);
}

TEST_CASE("fetch: per_cycle 2 serves two warps per cycle through a two-port L1I", "[sm][fetch]") {
  SmConfig cfg;
  cfg.fetch.per_cycle = 2;  // GPGPU-Sim -gpgpu_inst_fetch_throughput
  cfg.l1i.port_width = 2;
  FetchBench tb("tb", cfg);
  tb.fill_all_ibuffers();
  const uint64_t f0 = tb.table.ibuf_head(0).fetch_cycle;
  CHECK(tb.table.ibuf_head(1).fetch_cycle == f0);
  CHECK(tb.table.ibuf_head(2).fetch_cycle == f0 + 1);
  CHECK(tb.table.ibuf_head(3).fetch_cycle == f0 + 1);
  CHECK(tb.root.find("fetch.fetches")->scalar(stats::View::Epoch) == 4);
  tb.up.check_quiescent();
  CHECK(tb.up.violations().empty());
  CHECK(tb.down.violations().empty());
}

TEST_CASE("fetch: per_cycle above the L1I's port width sends several reads; the single port answers one per cycle",
          "[sm][fetch]") {
  SmConfig cfg;
  cfg.fetch.per_cycle = 4;  // the L1I keeps its default single port (reject mode)
  FetchBench tb("tb", cfg);
  tb.fill_all_ibuffers();
  // Two reads leave in the first cycle; what the L1I cannot take it refuses, and fetch
  // retries. However many wait, its one port answers one read per cycle.
  CHECK(tb.table.ibuf_head(1).fetch_cycle == tb.table.ibuf_head(0).fetch_cycle);
  std::vector<uint64_t> decoded;
  for (uint32_t w = 0; w < 4; ++w) decoded.push_back(tb.table.ibuf_head(w).decode_cycle);
  std::sort(decoded.begin(), decoded.end());
  for (std::size_t i = 1; i < decoded.size(); ++i) CHECK(decoded[i] > decoded[i - 1]);
  CHECK(tb.root.find("fetch.fetches")->scalar(stats::View::Epoch) == 4);
  tb.up.check_quiescent();
  CHECK(tb.up.violations().empty());
}
