// Testbench of the sector splitter (issue 10 item 2): which sector requests a request
// becomes (GPGPU-Sim's breakdown_request_to_sector_requests), their exact timing, the
// reply in parts, and random traffic with back-pressure on both sides behind protocol
// checkers, against a golden split; then a memory system with sectored, lazy
// fetch-on-read L2 banks under random reads and writes.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <systemc>

#include "backpressure_target.h"
#include "core/random/splitmix64.h"
#include "core/stats/stats.h"
#include "core/tlm/mem_extension.h"
#include "core/tlm/protocol_checker.h"
#include "mem/l2/memory_system.h"
#include "mem/l2/sector_splitter.h"
#include "scripted_initiator.h"

using namespace gputlm;

namespace {

// Golden split: a whole line is every sector; otherwise the sectors the request overlaps
// (no sector mask is set by the scripted initiator); inside one sector: unchanged.
uint32_t golden_mask(uint64_t address, uint32_t bytes) {
  const uint64_t off = address % 128;
  if (address % 32 + bytes <= 32) return 0;
  uint32_t m = 0;
  for (uint64_t s = off / 32; s <= (off + bytes - 1) / 32; ++s) m |= 1u << s;
  return m;
}

struct SplitBench {
  ClockDomain clk = ClockDomain::from_mhz("l2", 700.0);
  stats::Group root{"l2"};
  tb::ScriptedInitiator init;
  ProtocolChecker up, down;
  SectorSplitter split;
  tb::BackpressureTarget target;

  SplitBench(std::vector<tb::ScriptedRequest> script, tb::InitiatorOptions io, tb::TargetOptions to,
             uint32_t max_split)
      : init("init", clk, std::move(script), io),
        up("up"),
        down("down"),
        split("split", 128, 4, max_split, clk, root),
        target("target", clk, to) {
    init.out.bind(up.in);
    up.out.bind(split.in);
    split.out.bind(down.in);
    down.out.bind(target.in);
  }
  void run() {
    while (!init.done() && clk.now() < 200000) sc_core::sc_start(clk.period() * 1000);
    sc_core::sc_start(clk.period() * 100);
    REQUIRE(init.done());
    REQUIRE(split.held() == 0);
    for (ProtocolChecker* c : {&up, &down}) {
      c->check_quiescent();
      REQUIRE(c->violations().empty());
    }
  }
  double stat(const std::string& path) const {
    const stats::Stat* s = root.find(path);
    REQUIRE(s != nullptr);
    return s->scalar(stats::View::Total);
  }
};

}  // namespace

TEST_CASE("sector splitter: a request becomes the sectors GPGPU-Sim splits it into", "[l2][sector]") {
  stats::Group root{"r"};
  ClockDomain clk = ClockDomain::from_mhz("c", 700.0);
  SectorSplitter s("s", 128, 4, 4, clk, root);
  tlm::tlm_generic_payload gp;
  MemExtension ext;
  gp.set_extension(&ext);
  auto mask = [&](uint64_t a, uint32_t len, uint32_t sectors) {
    gp.set_address(a);
    gp.set_data_length(len);
    ext.sector_mask = sectors;
    return s.split_mask(gp);
  };
  CHECK(mask(0x1000, 128, 0b0001) == 0b1111);  // a whole line: every sector, whatever the mask
  CHECK(mask(0x1000, 64, 0) == 0b0011);        // no mask: the sectors it overlaps
  CHECK(mask(0x1040, 64, 0b1000) == 0b1000);   // the sectors of its mask
  CHECK(mask(0x1020, 32, 0b0010) == 0);        // one sector: unchanged
  CHECK(mask(0x1024, 8, 0b0010) == 0);
  CHECK(mask(0x101c, 8, 0) == 0b0011);         // crosses a sector boundary
  gp.clear_extension(&ext);
}

TEST_CASE("sector splitter: sector requests go one per cycle, the reply follows the last sector's and comes in parts",
          "[l2][sector]") {
  tb::InitiatorOptions io;
  io.max_outstanding = 2;
  tb::TargetOptions to;
  to.latency = 10;
  // A 128-byte read at cycle 1, a 32-byte write (unchanged) at cycle 40.
  SplitBench b({{0x2000, false, 128, 1}, {0x3020, true, 32, 40}}, io, to, 4);
  b.run();
  const auto& arr = b.target.arrivals();
  REQUIRE(arr.size() == 5);
  for (int k = 0; k < 4; ++k) CHECK(arr[k].address == 0x2000 + 32u * k);
  // The target takes a request at its first edge after arrival (END_REQ); the splitter sends
  // the next sector request at the edge after that END_REQ: one every 2 cycles here.
  const uint64_t first = b.clk.cycle_at(arr[0].time);
  for (int k = 1; k < 4; ++k) CHECK(b.clk.cycle_at(arr[k].time) == first + 2u * k);
  CHECK(arr[4].address == 0x3020);
  const auto& rec = b.init.records();
  // END_REQ upstream with the last sector's END_REQ; the reply with the last sector's reply.
  CHECK(b.init.cycle_of(rec[0].accepted) == first + 2 * 3 + 1);
  CHECK(b.init.cycle_of(rec[0].responded) >= first + 2 * 3 + to.latency);
  CHECK(b.stat("split.split_requests") == 1);
  CHECK(b.stat("split.sector_requests") == 4);
}

TEST_CASE("sector splitter: random requests under back-pressure on both sides split as the golden model says",
          "[l2][sector]") {
  std::vector<tb::ScriptedRequest> script;
  uint64_t seed = 5;
  uint32_t expected_sectors = 0, expected_split = 0;
  std::map<uint64_t, uint32_t> expect;  // line -> sector requests expected (0: passes unchanged)
  for (uint64_t i = 0; i < 400; ++i) {
    const uint32_t r = static_cast<uint32_t>(SplitMix64::step(seed) % 4);
    const uint32_t bytes = r == 0 ? 128 : r == 1 ? 64 : r == 2 ? 32 : 4 * (1 + SplitMix64::step(seed) % 8);
    const uint64_t off = bytes == 128 ? 0 : (SplitMix64::step(seed) % ((128 - bytes) / 4 + 1)) * 4;
    const uint64_t a = i * 128 + off;  // one line per request: arrivals map back by line
    script.push_back({a, SplitMix64::step(seed) % 3 == 0, bytes, i / 2});
    const uint32_t m = golden_mask(a, bytes);
    expect[i] = m ? static_cast<uint32_t>(__builtin_popcount(m)) : 0;
    expected_sectors += expect[i];
    expected_split += m ? 1 : 0;
  }
  tb::InitiatorOptions io;
  io.max_outstanding = 16;
  io.end_resp_delay_max = 5;
  io.end_resp_delay_probability = 0.3;
  tb::TargetOptions to;
  to.latency = 7;
  to.end_req_delay_max = 4;
  to.end_req_delay_probability = 0.4;
  to.pipeline = 6;
  SplitBench b(script, io, to, 1);  // one split at a time: split requests wait for it
  b.run();
  std::map<uint64_t, uint32_t> seen;
  std::map<uint64_t, bool> unchanged;
  for (const auto& a : b.target.arrivals()) {
    ++seen[a.address / 128];
    unchanged[a.address / 128] = a.address == script[a.address / 128].address;
  }
  for (const auto& [line, n] : expect) {
    INFO("line " << line);
    if (n == 0) {
      CHECK(seen[line] == 1);
      CHECK(unchanged[line]);
    } else {
      CHECK(seen[line] == n);
    }
  }
  CHECK(b.stat("split.sector_requests") == expected_sectors);
  CHECK(b.stat("split.split_requests") == expected_split);
  CHECK(b.stat("split.full_waits") > 0);
  CHECK(b.init.responses() == script.size());
}

TEST_CASE("l2: sectored lazy fetch-on-read banks behind the splitter serve random reads and writes", "[l2][sector]") {
  ClockDomain core = ClockDomain::from_mhz("core", 700.0);
  ClockDomain dramclk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root{"gpu"};
  MemorySystemConfig mc;
  mc.icnt.sm_ports = 2;
  mc.icnt.mem_ports = 6;
  mc.l2.sub_partitions = 2;
  mc.l2.bank.sets = 4;
  mc.l2.bank.ways = 2;
  mc.l2.bank.sectors = 4;
  mc.l2.bank.write_allocate = "lazy_fetch_on_read";
  mc.l2.rop_latency = 5;
  mc.l2.split_requests = 4;
  mc.l2.protocol_checkers = true;
  mc.l2.dram.timing_checker = true;
  MemorySystem ms("memory", mc, core, core, dramclk, root);
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> sms;
  std::vector<std::unique_ptr<ProtocolChecker>> chk;
  uint64_t seed = 33;
  uint64_t line_requests = 0;
  for (int i = 0; i < 2; ++i) {
    std::vector<tb::ScriptedRequest> s;
    for (int k = 0; k < 500; ++k) {
      const bool whole = SplitMix64::step(seed) % 2 == 0;
      const uint64_t line = SplitMix64::step(seed) % 512;
      const uint64_t off = whole ? 0 : (SplitMix64::step(seed) % 4) * 32;
      s.push_back({line * 128 + off, SplitMix64::step(seed) % 3 == 0, whole ? 128u : 32u, 0});
      line_requests += whole ? 1 : 0;
    }
    tb::InitiatorOptions o;
    o.max_outstanding = 12;
    o.sm = i;
    o.end_resp_delay_max = 3;
    o.end_resp_delay_probability = 0.2;
    o.seed = 3 + i;
    sms.push_back(std::make_unique<tb::ScriptedInitiator>(("sm" + std::to_string(i)).c_str(), core, s, o));
    chk.push_back(std::make_unique<ProtocolChecker>(("chk" + std::to_string(i)).c_str()));
    sms.back()->out.bind(chk.back()->in);
    chk.back()->out.bind(ms.sm_side());
  }
  auto done = [&] { return sms[0]->done() && sms[1]->done(); };
  while (!done() && core.now() < 2'000'000) sc_core::sc_start(core.period() * 1000);
  sc_core::sc_start(core.period() * 300);
  REQUIRE(done());
  REQUIRE(ms.idle());
  ms.update_stats();
  for (auto& c : chk) {
    c->check_quiescent();
    REQUIRE(c->violations().empty());
  }
  double split = 0, sector_requests = 0, bank_accesses = 0, lazy = 0, fills = 0, dram_reads = 0;
  for (uint32_t p = 0; p < ms.partitions(); ++p) {
    for (ProtocolChecker* c : ms.partition(p).checkers()) {
      c->check_quiescent();
      REQUIRE(c->violations().empty());
    }
    const std::string ch = "memory.l2p" + std::to_string(p);
    dram_reads += root.find(ch + ".dram.reads")->scalar(stats::View::Total);
    for (uint32_t k = 0; k < 2; ++k) {
      const std::string sub = ch + ".sub" + std::to_string(k);
      split += root.find(sub + ".split.split_requests")->scalar(stats::View::Total);
      sector_requests += root.find(sub + ".split.sector_requests")->scalar(stats::View::Total);
      bank_accesses += root.find(sub + ".bank.accesses")->scalar(stats::View::Total);
      lazy += root.find(sub + ".bank.write_outcomes")->scalar(stats::View::Total);
      fills += root.find(sub + ".bank.fills")->scalar(stats::View::Total);
    }
  }
  CHECK(split == line_requests);              // every 128-byte request, and only those, was split
  CHECK(sector_requests == 4 * line_requests);
  CHECK(bank_accesses >= sector_requests + (1000 - line_requests));
  CHECK(lazy > 0);
  CHECK(dram_reads == fills);                 // one 32-byte DRAM read per sector fetched
}
