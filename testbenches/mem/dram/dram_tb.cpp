// Testbench of the DRAM controller: scripted driver -> protocol checker -> DRAM channel,
// with the DRAM timing checker on in every test. Exact-cycle assertions come from the
// timing parameters (DramReference documents the formulas).
#include <catch2/catch.hpp>

#include <memory>
#include <systemc>

#include "allocation_counter.h"
#include "core/config/config_source.h"
#include "core/random/splitmix64.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "documented_parameters.h"
#include "dram_reference.h"
#include "mem/dram/dram_controller.h"
#include "scripted_initiator.h"

using namespace gputlm;

namespace {

struct DramBench {
  ClockDomain clk = ClockDomain::from_mhz("dram", 924.0);  // GTX480 DRAM command clock
  stats::Group root{"tb"};
  std::unique_ptr<tb::ScriptedInitiator> driver;
  std::unique_ptr<ProtocolChecker> checker;
  std::unique_ptr<DramController> dram;

  DramBench(DramConfig cfg, std::vector<tb::ScriptedRequest> script, tb::InitiatorOptions opt = {}) {
    cfg.timing_checker = true;
    driver = std::make_unique<tb::ScriptedInitiator>("driver", clk, std::move(script), opt);
    checker = std::make_unique<ProtocolChecker>("checker");
    dram = std::make_unique<DramController>("dram", cfg, clk, root);
    dram->record_commands(true);
    driver->out.bind(checker->in);
    checker->out.bind(dram->in);
  }
  void run(uint64_t max_cycles = 2'000'000) {
    while (!driver->done() && clk.now() < max_cycles) sc_core::sc_start(clk.period() * 1000);
    sc_core::sc_start(clk.period() * 100);  // let the last END_RESPs settle
    REQUIRE(driver->done());
    checker->check_quiescent();
    REQUIRE(checker->violations().empty());
    dram->update_stats();
  }
  uint64_t cycle(const sc_core::sc_time& t) const { return clk.cycle_at(t); }
  // The DRAM sees a request sent at driver cycle s at its next edge (same clock): s + 1.
  uint64_t arrival(std::size_t i) const { return cycle(driver->records()[i].sent) + 1; }
  uint64_t response(std::size_t i) const { return cycle(driver->records()[i].responded); }
};

// A line-aligned channel address of (bank, row, line within the row): the k-th 128 B
// line, in address order, whose coordinates are (bank, row), whatever the mapping.
uint64_t addr(const DramConfig& cfg, uint32_t bank, uint64_t row, uint64_t line = 0) {
  const DramAddressMapping m(cfg.address_mapping, "dram.address_mapping");
  uint64_t a = m.encode(DramCoordinates{bank, row, 0}) & ~uint64_t{127};
  for (uint64_t seen = 0;; a += 128) {
    const DramCoordinates c = m.decode(a);
    if (c.bank == bank && c.row == row && seen++ == line) return a;
  }
}

uint64_t splitmix(uint64_t& s) { return SplitMix64::step(s); }

}  // namespace

TEST_CASE("dram: row miss, row hit and row conflict read latencies follow the timing parameters", "[dram]") {
  DramConfig cfg;  // GTX480: tRCD=12 tRP=12 tCL=12 tCCD=2, 64 B atoms (2 per 128 B line), burst 2 cycles
  const DramTimingConfig& t = cfg.timing;
  const uint64_t burst = cfg.burst_cycles();
  const uint64_t atoms = 128 / cfg.atom_bytes();
  // Formulas (cycles from the request's arrival edge to BEGIN_RESP):
  const uint64_t hit = (atoms - 1) * t.tCCD + t.tCL + burst;  // RD at arrival
  const uint64_t miss = t.tRCD + hit;                          // ACT at arrival, RD tRCD later
  const uint64_t conflict = t.tRP + miss;                      // PRE at arrival, ACT tRP later
  REQUIRE(hit == 16);
  REQUIRE(miss == 28);
  REQUIRE(conflict == 40);
  // miss (bank idle), hit (same row), conflict (other row, tRAS long satisfied), one at a time.
  DramBench b(cfg, {{addr(cfg, 3, 7, 0), false, 128, 0},
                    {addr(cfg, 3, 7, 1), false, 128, 0},
                    {addr(cfg, 3, 9, 0), false, 128, 0}});
  b.run();
  REQUIRE(b.response(0) - b.arrival(0) == miss);
  REQUIRE(b.response(1) - b.arrival(1) == hit);
  REQUIRE(b.response(2) - b.arrival(2) == conflict);
  // END_REQ at the arrival edge (the queue had room).
  REQUIRE(b.cycle(b.driver->records()[0].accepted) == b.arrival(0));
  REQUIRE(b.dram->row_misses() == 1);
  REQUIRE(b.dram->row_hits() == 1);
  REQUIRE(b.dram->row_conflicts() == 1);
  // Command trace: ACT, RD, RD | RD, RD | PRE, ACT, RD, RD at the formula's cycles.
  const auto& c = b.dram->commands();
  REQUIRE(c.size() == 9);
  REQUIRE(c[0].command == DramCommand::Activate);
  REQUIRE(c[0].cycle == b.arrival(0));
  REQUIRE(c[1].cycle == b.arrival(0) + t.tRCD);
  REQUIRE(c[2].cycle == b.arrival(0) + t.tRCD + t.tCCD);
  REQUIRE(c[5].command == DramCommand::Precharge);
  REQUIRE(c[6].command == DramCommand::Activate);
  REQUIRE(c[6].cycle == c[5].cycle + t.tRP);
  REQUIRE(b.dram->checker()->commands_checked() == 9);
}

TEST_CASE("dram: a row conflict right after an activate waits for tRAS", "[dram]") {
  DramConfig cfg;
  const DramTimingConfig& t = cfg.timing;
  // Two requests to different rows of one bank, back to back: the PRE must wait for
  // ACT + tRAS, the next ACT for ACT + tRC.
  DramBench b(cfg, {{addr(cfg, 0, 1), false, 64, 0}, {addr(cfg, 0, 2), false, 64, 0}}, {2, 0, 0.0, 1, 128});
  b.run();
  const auto& c = b.dram->commands();
  REQUIRE(c.size() == 5);  // ACT RD PRE ACT RD
  REQUIRE(c[2].command == DramCommand::Precharge);
  REQUIRE(c[2].cycle == c[0].cycle + t.tRAS);
  REQUIRE(c[3].cycle == std::max<uint64_t>(c[2].cycle + t.tRP, c[0].cycle + t.tRC));
  REQUIRE(c[4].cycle == c[3].cycle + t.tRCD);
}

TEST_CASE("dram: frfcfs serves a younger row hit before an older row miss", "[dram]") {
  DramConfig cfg;
  cfg.scheduler = "frfcfs";
  // A opens row 1; B (row 2) and C (row 1) queue while A is served: C hits the open row.
  DramBench b(cfg, {{addr(cfg, 0, 1, 0), false, 128, 0}, {addr(cfg, 0, 2, 0), false, 128, 0},
                    {addr(cfg, 0, 1, 1), false, 128, 0}},
              {3, 0, 0.0, 1, 128});
  b.run();
  REQUIRE(b.driver->response_sequence() == std::vector<std::size_t>{0, 2, 1});
  REQUIRE(b.dram->row_hits() == 1);
  REQUIRE(b.dram->row_misses() == 1);
  REQUIRE(b.dram->row_conflicts() == 1);
}

TEST_CASE("dram: fifo serves requests in arrival order (no row-hit reordering)", "[dram]") {
  DramConfig cfg;
  cfg.scheduler = "fifo";
  DramBench b(cfg, {{addr(cfg, 0, 1, 0), false, 128, 0}, {addr(cfg, 0, 2, 0), false, 128, 0},
                    {addr(cfg, 0, 1, 1), false, 128, 0}},
              {3, 0, 0.0, 1, 128});
  b.run();
  REQUIRE(b.driver->response_sequence() == std::vector<std::size_t>{0, 1, 2});
  REQUIRE(b.dram->row_hits() == 0);
  REQUIRE(b.dram->row_conflicts() == 2);
}

TEST_CASE("dram: a full request queue withholds END_REQ until a bank takes a request", "[dram]") {
  DramConfig cfg;
  cfg.queue_size = 2;
  const DramTimingConfig& t = cfg.timing;
  // All to bank 0, row 0: A goes to the bank at once, B and C fill the queue, D waits.
  std::vector<tb::ScriptedRequest> s;
  for (uint64_t i = 0; i < 4; ++i) s.push_back({addr(cfg, 0, 0, i), false, 128, 0});
  DramBench b(cfg, s, {4, 0, 0.0, 1, 128});
  b.run();
  const auto& r = b.driver->records();
  const uint64_t a0 = b.arrival(0);
  // A: ACT at a0, RDs at a0+tRCD and a0+tRCD+tCCD; the bank is free after its last RD,
  // so B leaves the queue at the next cycle and D is accepted one cycle later (a tick
  // accepts before it assigns banks).
  const uint64_t b_assigned = a0 + t.tRCD + t.tCCD + 1;
  REQUIRE(b.cycle(r[3].accepted) == b_assigned + 1);
  REQUIRE(b.cycle(r[2].accepted) < b_assigned);
  REQUIRE(b.root.find("dram.queue_full")->scalar(stats::View::Total) == 1);
  REQUIRE(b.driver->response_sequence() == std::vector<std::size_t>{0, 1, 2, 3});
}

TEST_CASE("dram: row hits stream at one column command per tCCD (peak bandwidth 32 B per cycle)", "[dram]") {
  DramConfig cfg;
  const DramTimingConfig& t = cfg.timing;
  std::vector<tb::ScriptedRequest> s;
  for (uint64_t k = 0; k < 64; ++k) s.push_back({addr(cfg, 0, 0, k % 16), false, 128, 0});  // one open row
  DramBench b(cfg, s, {64, 0, 0.0, 1, 128});
  b.run();
  std::vector<uint64_t> rd;
  for (const auto& c : b.dram->commands())
    if (c.command == DramCommand::Read) rd.push_back(c.cycle);
  REQUIRE(rd.size() == 128);
  REQUIRE(b.dram->commands().size() == 129);  // one ACT
  // The driver delivers a request every 2 cycles, each needs 2 RDs: the queue stays
  // non-empty and the data bus is busy every cycle from the first burst to the last.
  for (std::size_t i = 1; i < rd.size(); ++i) REQUIRE(rd[i] - rd[i - 1] == t.tCCD);
  const uint64_t busy = b.root.find("dram.data_bus_busy_cycles")->scalar(stats::View::Total);
  REQUIRE(busy == rd.size() * cfg.burst_cycles());
  REQUIRE(busy == rd.back() + t.tCCD - rd.front());  // 100% utilisation over the stream
  // 64 B per 2 command cycles at 924 MHz = 29.6 GB/s per channel; x6 = 177 GB/s (GTX480).
  REQUIRE(cfg.atom_bytes() / cfg.burst_cycles() == 32);
  REQUIRE(b.dram->row_hits() == 63);
}

TEST_CASE("dram: the minimum-latency knob delays responses to arrival + min_latency", "[dram]") {
  DramConfig cfg;
  cfg.min_latency = 200;  // 001 ch.5 default (expressed here in DRAM cycles)
  DramBench b(cfg, {{addr(cfg, 5, 3), false, 128, 0}, {addr(cfg, 5, 3, 1), false, 128, 0}});
  b.run();
  REQUIRE(b.response(0) - b.arrival(0) == 200);
  REQUIRE(b.response(1) - b.arrival(1) == 200);
}

TEST_CASE("dram: with a latency queue min_latency comes before the access (GPGPU-Sim's dram_latency)", "[dram]") {
  DramConfig cfg;
  cfg.min_latency = 132;
  cfg.latency_queue = 4;  // at most 4 requests wait out the latency: the fifth waits for END_REQ
  const DramTimingConfig& t = cfg.timing;
  const uint64_t hit = (128 / cfg.atom_bytes() - 1) * t.tCCD + t.tCL + cfg.burst_cycles();
  const uint64_t miss = t.tRCD + hit;
  std::vector<tb::ScriptedRequest> s;
  for (uint64_t k = 0; k < 6; ++k) s.push_back({addr(cfg, 5, 3, k), false, 128, 0});
  tb::InitiatorOptions o;
  o.max_outstanding = 6;
  DramBench b(cfg, s, o);
  b.run();
  // The first request enters the scheduler min_latency after its arrival, then its row miss
  // follows whole: min_latency + access, not max(min_latency, access).
  CHECK(b.response(0) - b.arrival(0) == cfg.min_latency + miss);
  // The next three waited alongside it; row hits stream one per 2 atoms x tCCD after it.
  for (std::size_t k = 1; k < 4; ++k) CHECK(b.response(k) - b.response(k - 1) == 2 * t.tCCD);
  // The fifth found the FIFO full: END_REQ when the first left it, min_latency later.
  const auto& rec = b.driver->records();
  CHECK(b.cycle(rec[4].accepted) == b.arrival(0) + cfg.min_latency);
  CHECK(b.dram->row_misses() == 1);
}

TEST_CASE("dram: serialized random reads and writes complete exactly when the reference model says", "[dram]") {
  DramConfig cfg;
  uint64_t seed = 42;
  std::vector<tb::ScriptedRequest> s;
  for (int i = 0; i < 300; ++i) {
    const uint32_t bank = static_cast<uint32_t>(splitmix(seed) % 4);
    const uint64_t row = splitmix(seed) % 3;
    const bool write = splitmix(seed) % 3 == 0;
    const uint32_t bytes = splitmix(seed) % 2 ? 128 : 32;
    s.push_back({addr(cfg, bank, row, splitmix(seed) % 8), write, bytes, 0});
  }
  DramBench b(cfg, s);
  b.run();
  tb::DramReference ref(cfg);
  DramAddressMapping m(cfg.address_mapping, "m");
  for (std::size_t i = 0; i < s.size(); ++i) {
    const DramCoordinates c = m.decode(s[i].address);
    INFO("request " << i);
    REQUIRE(b.response(i) == ref.serve(b.arrival(i), c.bank, c.row, s[i].write, s[i].bytes));
  }
}

TEST_CASE("dram: random concurrent traffic with random back-pressure keeps the timing checker clean", "[dram]") {
  for (const char* policy : {"frfcfs"}) {
    DramConfig cfg;
    cfg.scheduler = policy;
    cfg.return_queue_size = 4;
    uint64_t seed = 7;
    std::vector<tb::ScriptedRequest> s;
    for (int i = 0; i < 3000; ++i)
      s.push_back({addr(cfg, static_cast<uint32_t>(splitmix(seed) % 16), splitmix(seed) % 4, splitmix(seed) % 16),
                   splitmix(seed) % 4 == 0, 128, static_cast<uint64_t>(i) * 3});
    DramBench b(cfg, s, {24, 20, 0.3, 9, 128});
    b.run();
    const auto* st = &b.root;
    const double reads = st->find("dram.reads")->scalar(stats::View::Total);
    const double writes = st->find("dram.writes")->scalar(stats::View::Total);
    REQUIRE(reads + writes == 3000);
    REQUIRE(b.dram->row_hits() + b.dram->row_misses() + b.dram->row_conflicts() == 3000);
    REQUIRE(b.dram->row_hits() > 0);
    REQUIRE(b.dram->checker()->commands_checked() == b.dram->commands().size());
    REQUIRE(b.dram->bandwidth_utilization() > 0.0);
    REQUIRE(b.dram->bandwidth_utilization() <= 1.0);
    REQUIRE(b.dram->requests_held() == 0);
  }
}

TEST_CASE("dram: fifo under random traffic keeps the timing checker clean and answers in order", "[dram]") {
  DramConfig cfg;
  cfg.scheduler = "fifo";
  uint64_t seed = 11;
  std::vector<tb::ScriptedRequest> s;
  for (int i = 0; i < 1500; ++i)
    s.push_back({addr(cfg, static_cast<uint32_t>(splitmix(seed) % 16), splitmix(seed) % 4, splitmix(seed) % 16),
                 splitmix(seed) % 4 == 0, 128, 0});
  DramBench b(cfg, s, {16, 10, 0.2, 3, 128});
  b.run();
  // One bank at a time from the queue head; per bank the order is the arrival order.
  const auto& seq = b.driver->response_sequence();
  DramAddressMapping m(cfg.address_mapping, "m");
  std::vector<int64_t> last(16, -1);
  for (std::size_t k : seq) {
    const uint32_t bank = m.decode(s[k].address).bank;
    REQUIRE(static_cast<int64_t>(k) > last[bank]);
    last[bank] = static_cast<int64_t>(k);
  }
}

TEST_CASE("dram: the timing checker catches a deliberately broken command sequence", "[dram]") {
  DramConfig cfg;
  const DramTimingConfig& t = cfg.timing;
  auto expect = [&](std::vector<DramCommandRecord> seq, const std::string& constraint) {
    DramTimingChecker chk(cfg, "chk");
    for (std::size_t i = 0; i + 1 < seq.size(); ++i) chk.observe(seq[i].command, seq[i].bank, seq[i].row, seq[i].cycle);
    const auto& last = seq.back();
    try {
      chk.observe(last.command, last.bank, last.row, last.cycle);
      FAIL("no violation reported for " << constraint);
    } catch (const DramTimingViolation& e) {
      INFO(e.what());
      REQUIRE(std::string(e.what()).find("(" + constraint) != std::string::npos);
    }
  };
  using C = DramCommand;
  expect({{C::Activate, 0, 1, 0}, {C::Read, 0, 1, t.tRCD - 1}}, "tRCD");
  expect({{C::Activate, 0, 1, 0}, {C::Precharge, 0, 0, t.tRAS - 1}}, "tRAS");
  expect({{C::Activate, 0, 1, 0}, {C::Precharge, 0, 0, t.tRAS}, {C::Activate, 0, 2, t.tRAS + t.tRP - 1}}, "tRP");
  expect({{C::Activate, 0, 1, 0}, {C::Activate, 1, 1, t.tRRD - 1}}, "tRRD");
  expect({{C::Activate, 0, 1, 0}, {C::Activate, 1, 1, 20}, {C::Read, 0, 1, 40}, {C::Read, 1, 1, 40 + t.tCCD - 1}},
         "tCCD");
  expect({{C::Activate, 0, 1, 0}, {C::Write, 0, 1, 20}, {C::Precharge, 0, 0, 20 + t.tWL + 2 + t.tWR - 1}}, "tWR");
  expect({{C::Activate, 0, 1, 0}, {C::Write, 0, 1, 20}, {C::Read, 0, 1, 20 + t.tWL + 2 + t.tCDLR - 1}}, "tWTR");
  expect({{C::Activate, 0, 1, 0}, {C::Read, 0, 2, 30}}, "bank state");
  expect({{C::Read, 0, 1, 30}}, "bank state");
  expect({{C::Activate, 0, 1, 0}, {C::Activate, 0, 1, 100}}, "bank state");
  expect({{C::Activate, 0, 1, 10}, {C::Activate, 1, 1, 10}}, "command bus");
  {
    // tRC binds only when tRAS + tRP < tRC.
    DramConfig longrc = cfg;
    longrc.timing.tRC = t.tRAS + t.tRP + 5;
    DramTimingChecker chk(longrc, "chk");
    chk.observe(C::Activate, 0, 1, 0);
    chk.observe(C::Precharge, 0, 0, t.tRAS);
    REQUIRE_THROWS_WITH(chk.observe(C::Activate, 0, 2, t.tRAS + t.tRP), Catch::Contains("(tRC)"));
  }
  // A data-bus overlap with a deliberately short tCCD.
  DramConfig shortccd = cfg;
  shortccd.timing.tCCD = 1;
  DramTimingChecker chk(shortccd, "chk");
  chk.observe(C::Activate, 0, 1, 0);
  chk.observe(C::Read, 0, 1, 20);
  REQUIRE_THROWS_WITH(chk.observe(C::Read, 0, 1, 21), Catch::Contains("data bus"));
}

TEST_CASE("dram: an idle channel costs no activations", "[dram]") {
  DramConfig cfg;
  DramBench b(cfg, {{addr(cfg, 1, 1), false, 128, 0}});
  sc_core::sc_start(b.clk.period() * 5000);
  REQUIRE(b.driver->done());
  const uint64_t busy = b.dram->process().activations();
  REQUIRE(busy > 0);
  REQUIRE(busy < 16);  // a sleeping controller wakes only when a command can issue
  sc_core::sc_start(b.clk.period() * 100000);
  REQUIRE(b.dram->process().activations() == busy);
}

TEST_CASE("dram: bad configurations are rejected naming the key", "[dram]") {
  DramConfig cfg;
  cfg.address_mapping = "RRRR.BBXB.CCCCSSSS";
  REQUIRE_THROWS_WITH(cfg.validate("gpu.dram"), Catch::Contains("gpu.dram.address_mapping") && Catch::Contains("'X'"));
  DramConfig c2;
  c2.banks = 8;
  REQUIRE_THROWS_WITH(c2.validate("gpu.dram"), Catch::Contains("gpu.dram.address_mapping") && Catch::Contains("banks = 8"));
  DramConfig c3;
  c3.burst_length = 6;
  REQUIRE_THROWS_AS(c3.validate("gpu.dram"), config::ConfigError);
  auto src = config::ConfigSource::from_json(nlohmann::json{{"dram", {{"timing", {{"tRCD", 0}}}}}}, "t.json");
  DramConfig c4;
  REQUIRE_THROWS_WITH(config::read(src, c4, "dram"), Catch::Contains("dram.timing.tRCD"));
  auto src2 = config::ConfigSource::from_json(nlohmann::json{{"dram", {{"scheduler", "lifo"}}}}, "t.json");
  REQUIRE_THROWS_WITH(config::read(src2, c4, "dram"), Catch::Contains("dram.scheduler"));
  REQUIRE(config::list(DramConfig{}).size() > 15);
}

TEST_CASE("dram: every parameter is listed with a type, a default and a description", "[dram]") {
  tb::require_documented_parameters(DramConfig{});
}

TEST_CASE("dram: results do not depend on the order SystemC runs processes in", "[dram]") {
  // Two identical channels with identical traffic in one simulation; the second is
  // created before its driver, so their processes run in the opposite order.
  ClockDomain clk = ClockDomain::from_mhz("dram", 924.0);
  ClockDomain drv_clk = ClockDomain::from_mhz("l2", 700.0);  // the requester's own clock
  stats::Group root("tb");
  DramConfig cfg;
  cfg.timing_checker = true;
  cfg.queue_size = 6;
  cfg.return_queue_size = 3;
  uint64_t seed = 23;
  std::vector<tb::ScriptedRequest> s;
  for (int i = 0; i < 1500; ++i)
    s.push_back({addr(cfg, static_cast<uint32_t>(splitmix(seed) % 8), splitmix(seed) % 3, splitmix(seed) % 16),
                 splitmix(seed) % 4 == 0, 128, static_cast<uint64_t>(i)});
  tb::InitiatorOptions o{12, 6, 0.4, 5, 128};
  tb::ScriptedInitiator drv_a("drv_a", drv_clk, s, o);
  DramController dram_a("dram_a", cfg, clk, root);
  DramController dram_b("dram_b", cfg, clk, root);
  tb::ScriptedInitiator drv_b("drv_b", drv_clk, s, o);
  drv_a.out.bind(dram_a.in);
  drv_b.out.bind(dram_b.in);
  while (!(drv_a.done() && drv_b.done()) && clk.now() < 2'000'000) sc_core::sc_start(clk.period() * 1000);
  REQUIRE(drv_a.done());
  REQUIRE(drv_b.done());
  for (std::size_t k = 0; k < s.size(); ++k) {
    INFO("request " << k);
    REQUIRE(drv_a.records()[k].accepted == drv_b.records()[k].accepted);
    REQUIRE(drv_a.records()[k].responded == drv_b.records()[k].responded);
  }
}

namespace {

// A VCML-style testbench: the testbench is a module whose run_test() thread drives the
// DRAM's socket directly and checks exact simulated times as it goes.
class DramVcmlTestbench : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<> out;
  SC_HAS_PROCESS(DramVcmlTestbench);
  DramVcmlTestbench(sc_core::sc_module_name name, const ClockDomain& clk, const DramConfig& cfg)
      : sc_core::sc_module(name), out("out"), clk_(clk), cfg_(cfg), pool_(128) {
    out.bind(*this);
    SC_THREAD(run_test);
  }
  bool finished = false;

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) override {
    if (phase == tlm::END_REQ) end_req_.notify(sc_core::SC_ZERO_TIME);
    if (phase == tlm::BEGIN_RESP) {
      response_.notify(sc_core::SC_ZERO_TIME);
      return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  // Sends one read at the current time; returns the time of its response.
  sc_core::sc_time read(uint64_t address) {
    tlm::tlm_generic_payload* gp = pool_.allocate();
    gp->acquire();
    gp->set_address(address);
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    CHECK(out->nb_transport_fw(*gp, ph, t) == tlm::TLM_ACCEPTED);
    sc_core::wait(response_);
    gp->release();
    return sc_core::sc_time_stamp();
  }
  void run_test() {
    const DramTimingConfig& t = cfg_.timing;
    const sc_core::sc_time T = clk_.period();
    const uint64_t burst = cfg_.burst_cycles(), atoms = 128 / cfg_.atom_bytes();
    const uint64_t hit = (atoms - 1) * t.tCCD + t.tCL + burst, miss = t.tRCD + hit, conflict = t.tRP + miss;
    sc_core::wait(clk_.time_of(10));  // send exactly on edge 10: the DRAM sees it at edge 11
    CHECK(read(addr(cfg_, 2, 5, 0)) == clk_.time_of(11 + miss));
    // The response event fires a delta later at the same time; send the next at edge 100.
    sc_core::wait(clk_.time_of(100) - sc_core::sc_time_stamp());
    CHECK(read(addr(cfg_, 2, 5, 1)) == clk_.time_of(101 + hit));
    sc_core::wait(clk_.time_of(200) - sc_core::sc_time_stamp());
    CHECK(read(addr(cfg_, 2, 6, 0)) == clk_.time_of(201 + conflict));
    // Halfway between two edges: still the next edge.
    sc_core::wait(clk_.time_of(300) + T / 2 - sc_core::sc_time_stamp());
    CHECK(read(addr(cfg_, 2, 6, 1)) == clk_.time_of(301 + hit));
    finished = true;
  }

  const ClockDomain& clk_;
  DramConfig cfg_;
  PayloadPool pool_;
  sc_core::sc_event end_req_, response_;
};

}  // namespace

TEST_CASE("dram: VCML-style run_test thread sees row miss, hit and conflict at the exact times", "[dram]") {
  ClockDomain clk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root("tb");
  DramConfig cfg;
  cfg.timing_checker = true;
  DramVcmlTestbench tb("tb", clk, cfg);
  ProtocolChecker checker("checker");
  DramController dram("dram", cfg, clk, root);
  tb.out.bind(checker.in);
  checker.out.bind(dram.in);
  sc_core::sc_start(clk.period() * 1000);
  REQUIRE(tb.finished);
  checker.check_quiescent();
  REQUIRE(checker.violations().empty());
}

TEST_CASE("dram: steady-state traffic allocates no memory", "[dram]") {
  DramConfig cfg;  // timing checker off: this measures the controller as used in runs
  uint64_t seed = 77;
  std::vector<tb::ScriptedRequest> s;
  for (int i = 0; i < 4000; ++i)
    s.push_back({addr(cfg, static_cast<uint32_t>(splitmix(seed) % 16), splitmix(seed) % 4, splitmix(seed) % 16),
                 splitmix(seed) % 4 == 0, 128, static_cast<uint64_t>(i) * 4});
  ClockDomain clk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root("tb");
  tb::ScriptedInitiator drv("drv", clk, s, {16, 4, 0.3, 2, 128});
  DramController dram("dram", cfg, clk, root);
  drv.out.bind(dram.in);
  sc_core::sc_start(clk.period() * 2000);  // warm-up: pools and queues reach their size
  const std::size_t before = tb::allocations();
  const std::size_t done_before = drv.responses();
  sc_core::sc_start(clk.period() * 8000);
  const std::size_t after = tb::allocations();
  REQUIRE(drv.responses() - done_before > 1000);
  REQUIRE(after - before == 0);
}

// decode() gathers each field by runs of contiguous pattern bits; the golden model tests
// every address bit, most significant pattern character first.
TEST_CASE("dram: address decoding gathers each field's bits in pattern order", "[dram]") {
  uint64_t seed = 0xadd7e55;
  for (int pattern_no = 0; pattern_no < 200; ++pattern_no) {
    const uint32_t width = 8 + static_cast<uint32_t>(splitmix(seed) % 56);  // 8..63 bits
    std::string pattern;
    uint32_t bank_bits = 0;
    for (uint32_t i = 0; i < width; ++i) {
      const char* kinds = bank_bits < 16 ? "RBCS0" : "RCS0";
      char ch = kinds[splitmix(seed) % (bank_bits < 16 ? 5 : 4)];
      if (splitmix(seed) % 3 == 0 && !pattern.empty()) ch = pattern.back();  // runs of one field
      if (ch == 'B' && bank_bits == 16) ch = 'R';
      bank_bits += ch == 'B' ? 1 : 0;
      pattern.push_back(ch);
    }
    const DramAddressMapping m(pattern, "m");
    for (int k = 0; k < 50; ++k) {
      const uint64_t a = splitmix(seed);
      uint64_t bank = 0, row = 0, col = 0;
      for (uint32_t i = 0; i < width; ++i) {
        const uint64_t bit = (a >> (width - 1 - i)) & 1;
        if (pattern[i] == 'B') bank = bank << 1 | bit;
        if (pattern[i] == 'R') row = row << 1 | bit;
        if (pattern[i] == 'C') col = col << 1 | bit;
      }
      uint32_t row_bits = 0;
      for (char ch : pattern) row_bits += ch == 'R' ? 1 : 0;
      row |= (a >> width) << row_bits;  // bits above the pattern extend the row
      const DramCoordinates c = m.decode(a);
      INFO("pattern " << pattern << " address " << a);
      REQUIRE(c.bank == bank);
      REQUIRE(c.row == row);
      REQUIRE(c.column == col);
    }
  }
}

// The controller asks a per_bank() policy again only for banks whose requests or state
// changed, which is exact only if the policy's pick for a bank ignores other banks'
// requests: checked on random queues against the queue of that bank's requests alone.
TEST_CASE("dram: a per-bank scheduler's pick depends only on the bank's own requests", "[dram]") {
  uint64_t seed = 0xba4c;
  int per_bank_policies = 0;
  for (const std::string& name : dram_scheduler_names()) {
    const auto policy = make_dram_scheduler(name, "s");
    if (!policy->per_bank()) continue;
    ++per_bank_policies;
    for (int trial = 0; trial < 3000; ++trial) {
      std::vector<DramQueuedRequest> queue;
      const std::size_t n = splitmix(seed) % 65;
      for (std::size_t i = 0; i < n; ++i)
        queue.push_back(DramQueuedRequest{static_cast<uint32_t>(i), static_cast<uint32_t>(splitmix(seed) % 4),
                                          splitmix(seed) % 3, splitmix(seed) % 4 == 0, i});
      const DramBankView bank{static_cast<uint32_t>(splitmix(seed) % 4), splitmix(seed) % 2 == 0, splitmix(seed) % 3};
      std::vector<DramQueuedRequest> own;
      for (const DramQueuedRequest& r : queue)
        if (r.bank == bank.bank) own.push_back(r);
      const std::size_t full = policy->pick(queue, bank), alone = policy->pick(own, bank);
      INFO(name << " trial " << trial);
      REQUIRE((full == DramSchedulerIF::kNone) == (alone == DramSchedulerIF::kNone));
      if (full != DramSchedulerIF::kNone) REQUIRE(queue[full].slot == own[alone].slot);
    }
  }
  REQUIRE(per_bank_policies >= 1);  // frfcfs
}
