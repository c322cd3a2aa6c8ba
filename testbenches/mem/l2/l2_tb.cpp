// Testbench of the L2 partition (L2 bank + L2<->DRAM queues + DRAM channel), alone and
// behind the crossbar. Protocol checkers sit on every socket (the partition's internal
// ones by its protocol_checkers parameter) and the DRAM timing checker is on.
#include <catch2/catch.hpp>

#include <list>
#include <memory>
#include <systemc>

#include "allocation_counter.h"
#include "core/config/config_source.h"
#include "core/random/splitmix64.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "documented_parameters.h"
#include "mem/interconnect/interconnect.h"
#include "mem/l2/l2_partition.h"
#include "mem/l2/memory_system.h"
#include "scripted_initiator.h"

using namespace gputlm;

namespace {

L2PartitionConfig checked_config() {
  L2PartitionConfig c;
  c.protocol_checkers = true;
  c.dram.timing_checker = true;
  return c;
}

// Golden model: a write-back, write-allocate, LRU set-associative cache with a linear
// set index, one access at a time. Counts the blocks fetched from and written to DRAM.
struct WriteBackLruModel {
  uint32_t sets, ways, line;
  std::vector<std::list<std::pair<uint64_t, bool>>> lru;  // front = most recent; (block, dirty)
  uint64_t fetches = 0, writebacks = 0, hits = 0;
  WriteBackLruModel(uint32_t s, uint32_t w, uint32_t l) : sets(s), ways(w), line(l), lru(s) {}
  void access(uint64_t address, bool write) {
    const uint64_t block = address / line;
    auto& set = lru[block % sets];
    for (auto it = set.begin(); it != set.end(); ++it) {
      if (it->first != block) continue;
      auto entry = *it;
      entry.second = entry.second || write;
      set.erase(it);
      set.push_front(entry);
      ++hits;
      return;
    }
    ++fetches;  // read miss or fetch-on-write
    if (set.size() == ways) {
      if (set.back().second) ++writebacks;
      set.pop_back();
    }
    set.push_front({block, write});
  }
};

struct PartitionBench {
  ClockDomain l2clk = ClockDomain::from_mhz("l2", 700.0);
  ClockDomain dramclk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root{"tb"};
  std::unique_ptr<tb::ScriptedInitiator> driver;
  std::unique_ptr<ProtocolChecker> checker;
  std::unique_ptr<L2Partition> part;

  PartitionBench(const L2PartitionConfig& cfg, std::vector<tb::ScriptedRequest> s, tb::InitiatorOptions o = {}) {
    o.sm = 0;
    driver = std::make_unique<tb::ScriptedInitiator>("driver", l2clk, std::move(s), o);
    checker = std::make_unique<ProtocolChecker>("checker");
    part = std::make_unique<L2Partition>("l2p", cfg, l2clk, dramclk, root);
    driver->out.bind(checker->in);
    checker->out.bind(part->in());
  }
  void run() {
    while (!driver->done() && l2clk.now() < 5'000'000) sc_core::sc_start(l2clk.period() * 1000);
    sc_core::sc_start(l2clk.period() * 200);
    REQUIRE(driver->done());
    checker->check_quiescent();
    REQUIRE(checker->violations().empty());
    for (ProtocolChecker* c : part->checkers()) {
      c->check_quiescent();
      REQUIRE(c->violations().empty());
      REQUIRE(c->checked_calls() > 0);
    }
    REQUIRE(part->idle());
  }
  double stat(const std::string& p) const { return root.find(p)->scalar(stats::View::Total); }
  uint64_t cycle(const sc_core::sc_time& t) const { return l2clk.cycle_at(t); }
};

}  // namespace

TEST_CASE("l2: a hit is answered hit_latency cycles after the bank evaluates it", "[l2]") {
  L2PartitionConfig cfg = checked_config();
  cfg.bank.hit_latency = 4;
  PartitionBench b(cfg, {{0x4000, false, 128, 0}, {0x4000, false, 128, 0}});
  b.run();
  const auto& r = b.driver->records()[1];
  // Sent at s, evaluated at the bank's next edge s+1, BEGIN_RESP hit_latency later.
  REQUIRE(b.cycle(r.responded) - b.cycle(r.sent) == 1 + cfg.bank.hit_latency);
  REQUIRE(b.stat("l2p.dram.reads") == 1);
  // The miss took at least the DRAM's row-miss latency (in DRAM cycles, converted).
  const auto& m = b.driver->records()[0];
  const sc_core::sc_time miss_time = m.responded - m.sent;
  const DramTimingConfig& t = cfg.dram.timing;
  REQUIRE(miss_time >= b.dramclk.period() * (t.tRCD + t.tCCD + t.tCL + cfg.dram.burst_cycles()));
}

TEST_CASE("l2: serialized random reads and writes match a golden write-back LRU model", "[l2]") {
  L2PartitionConfig cfg = checked_config();
  cfg.bank.sets = 4;
  cfg.bank.ways = 2;
  uint64_t seed = 99;
  std::vector<tb::ScriptedRequest> s;
  WriteBackLruModel model(cfg.bank.sets, cfg.bank.ways, cfg.bank.line_size);
  for (int i = 0; i < 600; ++i) {
    const uint64_t addr = (SplitMix64::step(seed) % 24) * 128;  // 24 blocks over 4 sets x 2 ways: many evictions
    const bool write = SplitMix64::step(seed) % 3 == 0;
    s.push_back({addr, write, 128, 0});
    model.access(addr, write);
  }
  PartitionBench b(cfg, s);
  b.run();
  REQUIRE(model.writebacks > 0);
  REQUIRE(b.stat("l2p.dram.reads") == model.fetches);
  REQUIRE(b.stat("l2p.dram.writes") == model.writebacks);
  REQUIRE(b.stat("l2p.sub0.bank.writebacks") == model.writebacks);
  REQUIRE(b.driver->responses() == s.size());
}

TEST_CASE("l2: a full MSHR array back-pressures through the crossbar to the SMs", "[l2]") {
  ClockDomain clk = ClockDomain::from_mhz("core", 700.0);
  ClockDomain dramclk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root("tb");
  InterconnectConfig ic;
  ic.sm_ports = 2;
  ic.mem_ports = 1;
  L2PartitionConfig pc = checked_config();
  pc.bank.mshr.entries = 2;
  pc.bank.mshr.almost_full_margin = 0;
  pc.bank.input_queue = 4;
  pc.dram.min_latency = 3000;  // keeps the two outstanding misses in flight for a long time
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> sms;
  std::vector<std::unique_ptr<ProtocolChecker>> chk;
  Interconnect icnt("icnt", ic, clk, root);
  L2Partition part("l2p", pc, clk, dramclk, root);
  for (int i = 0; i < 2; ++i) {
    std::vector<tb::ScriptedRequest> s;
    for (uint64_t k = 0; k < 30; ++k) s.push_back({(uint64_t(i) * 1000 + k) * 128, false, 128, 0});
    tb::InitiatorOptions o;
    o.max_outstanding = 30;
    o.sm = i;
    sms.push_back(std::make_unique<tb::ScriptedInitiator>(("sm" + std::to_string(i)).c_str(), clk, s, o));
    chk.push_back(std::make_unique<ProtocolChecker>(("sm_chk" + std::to_string(i)).c_str()));
    sms[i]->out.bind(chk[i]->in);
    chk[i]->out.bind(icnt.sm_side);
  }
  uint64_t first_fill = ~uint64_t{0};
  part.bank().set_fill_hook([&](uint64_t cycle, uint64_t, int32_t) { first_fill = std::min(first_fill, cycle); });
  ProtocolChecker mem_chk("mem_chk");
  icnt.mem_side.bind(mem_chk.in);
  mem_chk.out.bind(part.in());
  while (!(sms[0]->done() && sms[1]->done()) && clk.now() < 1'000'000) sc_core::sc_start(clk.period() * 1000);
  sc_core::sc_start(clk.period() * 200);
  REQUIRE(sms[0]->done());
  REQUIRE(sms[1]->done());
  // Before the first fill from DRAM nothing leaves the MSHRs, so the SMs can have placed
  // only what every buffer on the way holds: 2 MSHR entries, the bank's input queue, the
  // request the crossbar holds while the bank withholds END_REQ, the crossbar's output
  // queue and both input buffers.
  REQUIRE(first_fill != ~uint64_t{0});
  const sc_core::sc_time fill_time = clk.time_of(first_fill);
  REQUIRE(fill_time > clk.period() * 1000);  // the stall lasted (min_latency 3000 DRAM cycles)
  std::size_t accepted = 0;
  for (auto& sm : sms)
    for (const auto& r : sm->records()) accepted += r.accepted < fill_time;
  const std::size_t capacity =
      pc.bank.mshr.entries + pc.bank.input_queue + 1 + ic.output_buffer + ic.sm_ports * ic.input_buffer;
  REQUIRE(accepted == capacity);
  REQUIRE(root.find("icnt.request_input_full")->scalar(stats::View::Total) > 0);
  REQUIRE(root.find("l2p.sub0.bank.load_stall_cycles")->scalar(stats::View::Total) > 0);
  for (auto& c : chk) {
    c->check_quiescent();
    REQUIRE(c->violations().empty());
  }
  mem_chk.check_quiescent();
  REQUIRE(mem_chk.violations().empty());
  REQUIRE(part.idle());
}

TEST_CASE("l2: random traffic from three SMs through the crossbar to two partitions keeps every checker clean",
          "[l2]") {
  ClockDomain core = ClockDomain::from_mhz("icnt", 700.0);
  ClockDomain dramclk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root("tb");
  InterconnectConfig ic;
  ic.sm_ports = 3;
  ic.mem_ports = 2;
  Interconnect icnt("icnt", ic, core, root);
  L2PartitionConfig pc = checked_config();
  pc.bank.sets = 16;  // small, so evictions and write-backs happen
  pc.bank.mshr.entries = 8;
  pc.rop_latency = 20;  // with a small ROP queue: its back-pressure is exercised too
  pc.rop_queue = 4;
  std::vector<std::unique_ptr<L2Partition>> parts;
  std::vector<std::unique_ptr<ProtocolChecker>> mem_chk, sm_chk;
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> sms;
  for (uint32_t p = 0; p < 2; ++p) {
    parts.push_back(std::make_unique<L2Partition>(("l2p" + std::to_string(p)).c_str(), pc, core, dramclk, root,
                                                  &icnt.partition_map()));
    mem_chk.push_back(std::make_unique<ProtocolChecker>(("mem_chk" + std::to_string(p)).c_str()));
    icnt.mem_side.bind(mem_chk[p]->in);
    mem_chk[p]->out.bind(parts[p]->in());
  }
  uint64_t seed = 5;
  const std::size_t per_sm = 800;
  for (uint32_t i = 0; i < 3; ++i) {
    std::vector<tb::ScriptedRequest> s;
    for (std::size_t k = 0; k < per_sm; ++k)
      s.push_back({(SplitMix64::step(seed) % 2048) * 128, SplitMix64::step(seed) % 4 == 0, 128, k * 2});
    tb::InitiatorOptions o;
    o.max_outstanding = 16;
    o.end_resp_delay_max = 8;
    o.end_resp_delay_probability = 0.3;
    o.seed = 10 + i;
    o.sm = static_cast<int32_t>(i);
    sms.push_back(std::make_unique<tb::ScriptedInitiator>(("sm" + std::to_string(i)).c_str(), core, s, o));
    sm_chk.push_back(std::make_unique<ProtocolChecker>(("sm_chk" + std::to_string(i)).c_str()));
    sms[i]->out.bind(sm_chk[i]->in);
    sm_chk[i]->out.bind(icnt.sm_side);
  }
  auto all_done = [&] {
    for (auto& s : sms)
      if (!s->done()) return false;
    return true;
  };
  while (!all_done() && core.now() < 5'000'000) sc_core::sc_start(core.period() * 1000);
  sc_core::sc_start(core.period() * 300);
  REQUIRE(all_done());
  double accesses = 0;
  for (uint32_t p = 0; p < 2; ++p) {
    REQUIRE(parts[p]->idle());
    for (ProtocolChecker* c : parts[p]->checkers()) {
      c->check_quiescent();
      REQUIRE(c->violations().empty());
    }
    REQUIRE(parts[p]->dram().checker()->commands_checked() > 0);
    accesses += root.find("l2p" + std::to_string(p) + ".sub0.bank.accesses")->scalar(stats::View::Total);
    REQUIRE(root.find("l2p" + std::to_string(p) + ".dram.writes")->scalar(stats::View::Total) > 0);
  }
  REQUIRE(accesses >= 3 * per_sm);
  for (auto* v : {&mem_chk, &sm_chk})
    for (auto& c : *v) {
      c->check_quiescent();
      REQUIRE(c->violations().empty());
    }
  REQUIRE(icnt.in_flight() == 0);
  // Idle afterwards: nothing ticks any more.
  const uint64_t a0 = icnt.process().activations(), a1 = parts[0]->dram().process().activations(),
                 a2 = parts[1]->bank().process().activations();
  sc_core::sc_start(core.period() * 20000);
  REQUIRE(icnt.process().activations() == a0);
  REQUIRE(parts[0]->dram().process().activations() == a1);
  REQUIRE(parts[1]->bank().process().activations() == a2);
}

TEST_CASE("l2: bad partition configurations are rejected naming the key", "[l2]") {
  L2PartitionConfig c;
  c.bank.fail_mode = "reject";
  REQUIRE_THROWS_WITH(c.validate("gpu.l2"), Catch::Contains("gpu.l2.bank.fail_mode"));
  L2PartitionConfig c2;
  c2.dram.timing.tRC = 10;
  REQUIRE_THROWS_WITH(c2.validate("gpu.l2"), Catch::Contains("gpu.l2.dram.timing.tRC"));
  auto src = config::ConfigSource::from_json(nlohmann::json{{"l2", {{"dram_queue", 2}}}}, "gpu.json");
  L2PartitionConfig c3;
  REQUIRE_THROWS_WITH(config::read(src, c3, "l2"), Catch::Contains("l2.dram_queue"));
  REQUIRE(config::list(L2PartitionConfig{}).size() > 40);
}

TEST_CASE("l2: the memory system composite serves SMs through the crossbar and its partitions", "[l2]") {
  ClockDomain core = ClockDomain::from_mhz("core", 700.0);
  ClockDomain dramclk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root("gpu");
  MemorySystemConfig mc;
  mc.icnt.sm_ports = 2;
  mc.icnt.mem_ports = 2;
  mc.l2.dram.timing_checker = true;
  mc.l2.protocol_checkers = true;
  MemorySystem ms("memory", mc, core, core, dramclk, root);
  for (uint32_t p = 0; p < ms.partitions(); ++p) ms.partition(p).dram().record_commands(true);
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> sms;
  std::vector<std::unique_ptr<ProtocolChecker>> chk;
  uint64_t seed = 3;
  for (int i = 0; i < 2; ++i) {
    std::vector<tb::ScriptedRequest> s;
    for (int k = 0; k < 300; ++k) s.push_back({(SplitMix64::step(seed) % 4096) * 128, SplitMix64::step(seed) % 5 == 0, 128, 0});
    tb::InitiatorOptions o;
    o.max_outstanding = 8;
    o.sm = i;
    sms.push_back(std::make_unique<tb::ScriptedInitiator>(("sm" + std::to_string(i)).c_str(), core, s, o));
    chk.push_back(std::make_unique<ProtocolChecker>(("chk" + std::to_string(i)).c_str()));
    sms[i]->out.bind(chk[i]->in);
    chk[i]->out.bind(ms.sm_side());
  }
  while (!(sms[0]->done() && sms[1]->done()) && core.now() < 1'000'000) sc_core::sc_start(core.period() * 1000);
  sc_core::sc_start(core.period() * 200);
  REQUIRE(sms[0]->done());
  REQUIRE(sms[1]->done());
  REQUIRE(ms.idle());
  ms.update_stats();
  for (uint32_t p = 0; p < ms.partitions(); ++p) {
    // Channel-local addresses: with 2 partitions and 256 B chunks, 512 KB of addresses
    // use rows 0..3 of each channel (64 KB per row group of the default mapping).
    const auto& dram = ms.partition(p).dram();
    REQUIRE(dram.checker()->commands_checked() > 0);
    uint64_t max_row = 0;
    for (const auto& c : dram.commands()) max_row = std::max(max_row, c.row);
    REQUIRE(max_row == 3);  // without removing the channel bits it would reach 7
    REQUIRE(root.find("memory.l2p" + std::to_string(p) + ".dram.cycles")->scalar(stats::View::Total) > 0);
  }
  for (auto& c : chk) {
    c->check_quiescent();
    REQUIRE(c->violations().empty());
  }
  REQUIRE(config::list(MemorySystemConfig{}).size() > 50);
}

TEST_CASE("l2: results do not depend on the order SystemC runs processes in", "[l2]") {
  // Two identical memory systems with identical traffic in one simulation; the second
  // creates its SM drivers before the memory system, so SystemC evaluates their
  // processes in the opposite order within each delta cycle. Every response time must
  // match exactly.
  ClockDomain core = ClockDomain::from_mhz("core", 700.0);
  ClockDomain dramclk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root("gpu");
  MemorySystemConfig mc;
  mc.icnt.sm_ports = 3;
  mc.icnt.mem_ports = 2;
  mc.l2.bank.sets = 16;
  mc.l2.bank.mshr.entries = 4;
  mc.l2.rop_latency = 10;
  mc.l2.dram.timing_checker = true;
  std::vector<std::vector<tb::ScriptedRequest>> scripts(3);
  uint64_t seed = 17;
  for (auto& s : scripts)
    for (int k = 0; k < 400; ++k)
      s.push_back({(SplitMix64::step(seed) % 1024) * 128, SplitMix64::step(seed) % 4 == 0, 128, static_cast<uint64_t>(k) * 3});
  auto make_sms = [&](const std::string& prefix) {
    std::vector<std::unique_ptr<tb::ScriptedInitiator>> v;
    for (int i = 0; i < 3; ++i) {
      tb::InitiatorOptions o;
      o.max_outstanding = 12;
      o.end_resp_delay_max = 5;
      o.end_resp_delay_probability = 0.3;
      o.seed = 40 + i;
      o.sm = i;
      v.push_back(std::make_unique<tb::ScriptedInitiator>((prefix + std::to_string(i)).c_str(), core, scripts[i], o));
    }
    return v;
  };
  MemorySystem ms_a("memory_a", mc, core, core, dramclk, root);
  auto sms_a = make_sms("a_sm");
  auto sms_b = make_sms("b_sm");
  MemorySystem ms_b("memory_b", mc, core, core, dramclk, root);
  for (int i = 0; i < 3; ++i) {
    sms_a[i]->out.bind(ms_a.sm_side());
    sms_b[i]->out.bind(ms_b.sm_side());
  }
  auto done = [&] {
    for (auto* v : {&sms_a, &sms_b})
      for (auto& s : *v)
        if (!s->done()) return false;
    return true;
  };
  while (!done() && core.now() < 2'000'000) sc_core::sc_start(core.period() * 1000);
  REQUIRE(done());
  for (int i = 0; i < 3; ++i) {
    const auto& ra = sms_a[i]->records();
    const auto& rb = sms_b[i]->records();
    for (std::size_t k = 0; k < ra.size(); ++k) {
      INFO("sm " << i << " request " << k);
      REQUIRE(ra[k].accepted == rb[k].accepted);
      REQUIRE(ra[k].responded == rb[k].responded);
    }
  }
  REQUIRE(root.find("memory_a.l2p0.dram.row_hits")->scalar(stats::View::Total) ==
          root.find("memory_b.l2p0.dram.row_hits")->scalar(stats::View::Total));
}

TEST_CASE("l2: every parameter is listed with a type, a default and a description", "[l2]") {
  tb::require_documented_parameters(MemorySystemConfig{});
}

TEST_CASE("l2: the ROP stage delays every request by rop_latency cycles before the bank", "[l2]") {
  L2PartitionConfig cfg = checked_config();
  cfg.rop_latency = 85;  // GPGPU-Sim's -rop_latency default
  cfg.bank.hit_latency = 4;
  PartitionBench b(cfg, {{0x4000, false, 128, 0}, {0x4000, false, 128, 0}, {0x4080, true, 128, 0}});
  b.run();
  const auto& r = b.driver->records()[1];
  // Sent at s; the ROP stage takes it at once and hands it to the bank at s+1+85; the bank
  // evaluates it at its next edge and answers hit_latency later; the response passes through.
  REQUIRE(b.cycle(r.responded) - b.cycle(r.sent) == 1 + cfg.rop_latency + 1 + cfg.bank.hit_latency);
  REQUIRE(b.cycle(r.accepted) == b.cycle(r.sent));  // END_REQ in the BEGIN_REQ call: the queue had room
  REQUIRE(b.part->checkers().size() == 3);
  REQUIRE(b.stat("l2p.dram.reads") == 2);
}

namespace {

// One block fetched by a first read, then `hits` reads of it sent back to back from
// cycle 2000 (the fill has long arrived), at most `hits` outstanding.
std::vector<tb::ScriptedRequest> warm_then_hits(std::size_t hits, uint32_t bytes = 128) {
  std::vector<tb::ScriptedRequest> s{{0x4000, false, 128, 0}};
  for (std::size_t k = 0; k < hits; ++k) s.push_back({0x4000, false, bytes, 2000});
  return s;
}

// Every hit after the first was sent, accepted and answered one cycle after the previous,
// `latency` cycles after it was sent.
void require_one_hit_per_cycle(const PartitionBench& b, std::size_t hits, uint64_t latency) {
  const auto& rec = b.driver->records();
  REQUIRE(rec.size() == hits + 1);
  for (std::size_t k = 1; k <= hits; ++k) {
    INFO("hit " << k);
    REQUIRE(b.cycle(rec[k].accepted) == b.cycle(rec[k].sent));
    REQUIRE(b.cycle(rec[k].responded) - b.cycle(rec[k].sent) == latency);
    if (k > 1) REQUIRE(b.cycle(rec[k].sent) == b.cycle(rec[k - 1].sent) + 1);
  }
}

}  // namespace

TEST_CASE("l2: the ROP stage is a pipeline that takes a request every cycle", "[l2]") {
  // The stage returns END_REQ in the BEGIN_REQ call while its queue has room, so a request
  // per cycle enters (with END_REQ one edge later, only every second cycle could).
  L2PartitionConfig cfg = checked_config();
  cfg.rop_latency = 20;
  cfg.rop_queue = 32;
  cfg.bank.hit_latency = 1;
  const std::size_t hits = 24;
  tb::InitiatorOptions o;
  o.max_outstanding = hits;
  PartitionBench b(cfg, warm_then_hits(hits), o);
  b.run();
  // Sent at s: at the bank at s+1+20, evaluated at its next edge, answered hit_latency later.
  require_one_hit_per_cycle(b, hits, 1 + cfg.rop_latency + 1 + cfg.bank.hit_latency);
  REQUIRE(b.stat("l2p.sub0.bank.load_hits") == hits);
}

TEST_CASE("l2: a full ROP queue withholds END_REQ and takes the request from the cycle after a slot frees",
          "[l2]") {
  L2PartitionConfig cfg = checked_config();
  cfg.rop_latency = 20;
  cfg.rop_queue = 4;  // fewer than rop_latency + 1: the queue limits throughput to 4 per 22 cycles
  cfg.bank.hit_latency = 1;
  const std::size_t hits = 9;
  tb::InitiatorOptions o;
  o.max_outstanding = hits;
  PartitionBench b(cfg, warm_then_hits(hits), o);
  b.run();
  const auto& rec = b.driver->records();
  const uint64_t s1 = b.cycle(rec[1].sent);
  // Hits 1-4 enter at s1..s1+3 and leave for the bank at s1+21..s1+24; hit 5 (sent at s1+4)
  // waits; the slot hit 1 frees at s1+21 counts from s1+22: END_REQ then, bank at s1+22+1+20.
  for (std::size_t k = 1; k <= 4; ++k) REQUIRE(b.cycle(rec[k].accepted) == s1 + k - 1);
  REQUIRE(b.cycle(rec[5].sent) == s1 + 4);
  REQUIRE(b.cycle(rec[5].accepted) == s1 + 1 + cfg.rop_latency + 1);
  REQUIRE(b.cycle(rec[5].responded) == b.cycle(rec[5].accepted) + 1 + cfg.rop_latency + 1 + cfg.bank.hit_latency);
}

L2PartitionConfig shipped_slice() {
  auto src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  L2PartitionConfig cfg;
  config::read(src, cfg, "l2");
  REQUIRE(cfg.sub_partitions == 2);
  cfg.sub_partitions = 1;
  cfg.protocol_checkers = true;
  cfg.dram.timing_checker = true;
  return cfg;
}

TEST_CASE("l2: the shipped Fermi partition answers back-to-back sector hits at one per cycle", "[l2]") {
  // configs/fermi_gtx480.json: GPGPU-Sim's -gpgpu_l2_rop_latency 120 is the ROP stage, a
  // pipeline in front of the bank, and the bank answers a hit the cycle after its lookup,
  // so its response queue (-gpgpu_dram_partition_queues ...:64) only buffers responses
  // waiting for the interconnect. (With the 120 cycles as the bank's hit latency each hit
  // held a response-queue slot for 120 cycles: 8 hits per 121 cycles with 8 entries.)
  // One slice of the shipped partition (its slices are alike; this bench drives one port).
  // The bank is sectored: 32-byte requests pass the sector splitter unchanged.
  L2PartitionConfig cfg = shipped_slice();
  const std::size_t hits = 64;
  tb::InitiatorOptions o;
  o.max_outstanding = hits;
  PartitionBench b(cfg, warm_then_hits(hits, 32), o);
  b.run();
  const uint64_t rop = cfg.rop_latency > 0 ? 1 + cfg.rop_latency : 0;
  require_one_hit_per_cycle(b, hits, rop + 1 + cfg.bank.hit_latency);
  // GPGPU-Sim's unloaded L2 hit: 120 ROP cycles before the lookup.
  REQUIRE(rop + 1 + cfg.bank.hit_latency == 123);
  REQUIRE(b.cycle(b.driver->records()[hits].responded) - b.cycle(b.driver->records()[1].responded) == hits - 1);
  REQUIRE(b.stat("l2p.sub0.bank.response_queue_stalls") == 0);
}

TEST_CASE("l2: the shipped Fermi partition answers 128-byte hits one per 4 cycles, as 4 sector hits", "[l2][sector]") {
  // GPGPU-Sim splits a 128-byte request to its sectored L2 into 4 sector requests that
  // enter the bank one per cycle; the reply goes with the last sector's.
  L2PartitionConfig cfg = shipped_slice();
  REQUIRE(cfg.bank.sectors == 4);
  const std::size_t hits = 16;
  tb::InitiatorOptions o;
  o.max_outstanding = hits;
  PartitionBench b(cfg, warm_then_hits(hits), o);
  b.run();
  const auto& rec = b.driver->records();
  const uint64_t first = 1 + cfg.rop_latency + 1 + cfg.bank.hit_latency + (cfg.bank.sectors - 1);
  REQUIRE(b.cycle(rec[1].responded) - b.cycle(rec[1].sent) == first);
  for (std::size_t k = 2; k <= hits; ++k) {
    INFO("hit " << k);
    REQUIRE(b.cycle(rec[k].responded) - b.cycle(rec[k - 1].responded) == cfg.bank.sectors);
  }
  REQUIRE(b.stat("l2p.sub0.bank.load_hits") == hits * cfg.bank.sectors);
  REQUIRE(b.stat("l2p.sub0.split.sector_requests") == (hits + 1) * cfg.bank.sectors);
}

TEST_CASE("l2: the L2 to DRAM queue takes a miss every cycle", "[l2]") {
  // Misses to 8 different lines, sent back to back, leave the bank's miss queue one per
  // cycle; the queue towards DRAM must take each at once (END_REQ in the call). With a
  // 1-entry input buffer (a slot freed in cycle c offered from c + 1) it took one every
  // second cycle and withheld END_REQ from the others.
  L2PartitionConfig cfg = checked_config();
  cfg.bank.miss_latency = 1;
  std::vector<tb::ScriptedRequest> s;
  for (uint64_t k = 0; k < 8; ++k) s.push_back({0x10000 + k * 128, false, 128, 0});
  tb::InitiatorOptions o;
  o.max_outstanding = 8;
  PartitionBench b(cfg, s, o);
  b.run();
  const auto& rec = b.driver->records();
  for (std::size_t k = 1; k < rec.size(); ++k) REQUIRE(b.cycle(rec[k].sent) == b.cycle(rec[k - 1].sent) + 1);
  REQUIRE(b.stat("l2p.sub0.bank.load_primary_misses") == 8);
  REQUIRE(b.stat("l2p.dram_queues.requests") == 8);
  REQUIRE(b.stat("l2p.dram_queues.request_input_full") == 0);
}

TEST_CASE("l2: steady-state traffic through the crossbar, ROP, bank, queues and DRAM allocates only to grow its pools",
          "[l2]") {
  // No protocol or DRAM timing checkers here: they keep maps per transaction (test-only
  // cost). The payload pools grow to the most transactions ever in flight (write-backs in
  // flight downstream have no local bound), so allocations may happen at a new peak but
  // never per transaction: over two equal windows they are a small fraction of the
  // transactions and do not grow.
  ClockDomain core = ClockDomain::from_mhz("icnt", 700.0);
  ClockDomain dramclk = ClockDomain::from_mhz("dram", 924.0);
  stats::Group root("tb");
  InterconnectConfig ic;
  ic.sm_ports = 3;
  ic.mem_ports = 2;
  Interconnect icnt("icnt", ic, core, root);
  L2PartitionConfig pc;
  pc.bank.sets = 16;  // small: misses, evictions and write-backs all keep happening
  pc.rop_latency = 20;
  pc.rop_queue = 32;
  std::vector<std::unique_ptr<L2Partition>> parts;
  for (uint32_t p = 0; p < 2; ++p) {
    parts.push_back(std::make_unique<L2Partition>(("l2p" + std::to_string(p)).c_str(), pc, core, dramclk, root,
                                                  &icnt.partition_map()));
    icnt.mem_side.bind(parts[p]->in());
  }
  uint64_t seed = 21;
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> sms;
  for (uint32_t i = 0; i < 3; ++i) {
    std::vector<tb::ScriptedRequest> s;
    for (std::size_t k = 0; k < 24000; ++k)
      s.push_back({(SplitMix64::step(seed) % 2048) * 128, SplitMix64::step(seed) % 4 == 0, 128, k * 2});
    tb::InitiatorOptions o;
    o.max_outstanding = 16;
    o.seed = 30 + i;
    o.sm = static_cast<int32_t>(i);
    sms.push_back(std::make_unique<tb::ScriptedInitiator>(("sm" + std::to_string(i)).c_str(), core, s, o));
    sms[i]->out.bind(icnt.sm_side);
  }
  auto responses = [&] {
    std::size_t n = 0;
    for (const auto& s : sms) n += s->responses();
    return n;
  };
  sc_core::sc_start(core.period() * 8000);  // warm-up
  const std::size_t a0 = tb::allocations(), r0 = responses();
  sc_core::sc_start(core.period() * 8000);
  const std::size_t a1 = tb::allocations(), r1 = responses();
  sc_core::sc_start(core.period() * 8000);
  const std::size_t a2 = tb::allocations(), r2 = responses();
  REQUIRE_FALSE(sms[0]->done());  // still in steady state
  REQUIRE(r1 - r0 > 2000);
  REQUIRE(r2 - r1 > 2000);
  INFO("allocations " << (a1 - a0) << " then " << (a2 - a1) << " for " << (r1 - r0) << " then " << (r2 - r1)
                      << " transactions");
  CHECK((a1 - a0) * 50 < r1 - r0);
  CHECK(a2 - a1 <= a1 - a0);
}
