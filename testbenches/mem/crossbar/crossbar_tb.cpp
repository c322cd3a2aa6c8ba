// Testbench of the interconnect (crossbar and fixed-latency topologies): scripted SM
// drivers -> protocol checkers -> interconnect -> protocol checkers -> memory targets
// with random back-pressure. The golden model is the partition map plus per-flow FIFO
// order: every request reaches exactly the partition its address maps to, requests of
// one SM to one partition arrive in the order they were sent, and every reply returns
// to the SM that sent the request.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <memory>
#include <systemc>

#include "allocation_counter.h"
#include "backpressure_target.h"
#include "core/config/config_source.h"
#include "core/random/splitmix64.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "documented_parameters.h"
#include "mem/interconnect/interconnect.h"
#include "scripted_initiator.h"

using namespace gputlm;

namespace {

struct CrossbarBench {
  ClockDomain clk = ClockDomain::from_mhz("icnt", 700.0);  // GTX480 interconnect clock
  stats::Group root{"tb"};
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> sms;
  std::vector<std::unique_ptr<ProtocolChecker>> sm_checkers, mem_checkers;
  std::vector<std::unique_ptr<tb::BackpressureTarget>> mems;
  std::unique_ptr<Interconnect> icnt;

  CrossbarBench(const InterconnectConfig& cfg, std::vector<std::vector<tb::ScriptedRequest>> scripts,
                tb::InitiatorOptions sm_opt, tb::TargetOptions mem_opt) {
    icnt = std::make_unique<Interconnect>("icnt", cfg, clk, root);
    for (uint32_t i = 0; i < cfg.sm_ports; ++i) {
      tb::InitiatorOptions o = sm_opt;
      o.sm = static_cast<int32_t>(i);
      o.seed = sm_opt.seed + i;
      sms.push_back(std::make_unique<tb::ScriptedInitiator>(("sm" + std::to_string(i)).c_str(), clk,
                                                            std::move(scripts[i]), o));
      sm_checkers.push_back(std::make_unique<ProtocolChecker>(("sm_chk" + std::to_string(i)).c_str()));
      sms[i]->out.bind(sm_checkers[i]->in);
      sm_checkers[i]->out.bind(icnt->sm_side);
    }
    for (uint32_t p = 0; p < cfg.mem_ports; ++p) {
      tb::TargetOptions o = mem_opt;
      o.seed = mem_opt.seed + 100 + p;
      mems.push_back(std::make_unique<tb::BackpressureTarget>(("mem" + std::to_string(p)).c_str(), clk, o));
      mem_checkers.push_back(std::make_unique<ProtocolChecker>(("mem_chk" + std::to_string(p)).c_str()));
      icnt->mem_side.bind(mem_checkers[p]->in);
      mem_checkers[p]->out.bind(mems[p]->in);
    }
  }
  bool done() const {
    for (const auto& s : sms)
      if (!s->done()) return false;
    return true;
  }
  void run(uint64_t max_cycles = 5'000'000) {
    while (!done() && clk.now() < max_cycles) sc_core::sc_start(clk.period() * 1000);
    sc_core::sc_start(clk.period() * 200);
    REQUIRE(done());
    for (auto& c : sm_checkers) {
      c->check_quiescent();
      REQUIRE(c->violations().empty());
    }
    for (auto& c : mem_checkers) {
      c->check_quiescent();
      REQUIRE(c->violations().empty());
    }
    REQUIRE(icnt->in_flight() == 0);
  }
  uint64_t cycle(const sc_core::sc_time& t) const { return clk.cycle_at(t); }
  double stat(const std::string& path) const { return root.find(path)->scalar(stats::View::Total); }
};

InterconnectConfig small_config(uint32_t sms, uint32_t mems) {
  InterconnectConfig c;
  c.sm_ports = sms;
  c.mem_ports = mems;
  return c;
}

uint64_t splitmix(uint64_t& s) { return SplitMix64::step(s); }

}  // namespace

TEST_CASE("crossbar: unloaded latency is 1 + latency cycles each way, plus flits - 1 for a multi-flit packet",
          "[crossbar]") {
  InterconnectConfig cfg = small_config(1, 1);
  cfg.latency = 3;
  tb::TargetOptions t;
  t.latency = 10;
  CrossbarBench b(cfg, {{{0x1000, false, 128, 0}}}, {}, t);
  b.run();
  const auto& rec = b.sms[0]->records()[0];
  const uint64_t sent = b.cycle(rec.sent);
  // The request enters the input buffer at `sent` (END_REQ at once), crosses the switch
  // at the next edge and reaches the head of the output queue `latency` cycles later.
  REQUIRE(b.cycle(rec.accepted) == sent);
  const uint64_t at_mem = b.cycle(b.mems[0]->arrivals()[0].time);
  REQUIRE(at_mem - sent == 1 + cfg.latency);
  // Target: END_REQ at its next edge, BEGIN_RESP `latency` later; the reply crosses the
  // same way, and its 136 B (5 flits of 32 B) reach the SM with the last flit, 4 cycles
  // after the head: the read request (8 B, 1 flit) has no serialization term.
  const uint64_t mem_resp = at_mem + 1 + t.latency;
  const uint64_t reply_serialization = b.icnt->flits(8 + 128) - 1;
  REQUIRE(reply_serialization == 4);
  REQUIRE(b.cycle(rec.responded) - mem_resp == 1 + cfg.latency + reply_serialization);
  REQUIRE(b.stat("icnt.requests") == 1);
  REQUIRE(b.stat("icnt.request_flits") == 1);  // 8 B header
  REQUIRE(b.stat("icnt.reply_flits") == 5);    // 8 B header + 128 B data over 32 B flits
  // Packet sizes: reads and write replies are headers; writes, read data and atomics carry data.
  PayloadPool pool(128);
  tlm::tlm_generic_payload* gp = pool.allocate();
  REQUIRE(b.icnt->request_bytes(*gp) == 8);
  REQUIRE(b.icnt->reply_bytes(*gp) == 136);
  gp->set_command(tlm::TLM_WRITE_COMMAND);
  REQUIRE(b.icnt->request_bytes(*gp) == 136);
  REQUIRE(b.icnt->reply_bytes(*gp) == 8);
  mem_ext(*gp).kind = AccessKind::Atomic;
  REQUIRE(b.icnt->request_bytes(*gp) == 136);
  REQUIRE(b.icnt->reply_bytes(*gp) == 136);
  REQUIRE(b.icnt->flits(136) == 5);
  pool.free(gp);
}

TEST_CASE("crossbar: a 5-flit reply arrives 4 cycles after a 1-flit reply on an idle crossbar", "[crossbar]") {
  // Two SMs read from two partitions in the same cycle: 128 B (8 + 128 = 136 B = 5 flits
  // back) and 24 B (8 + 24 = 32 B = 1 flit back). Requests (8 B) and target latencies are
  // equal, so the replies leave the partitions in the same cycle on separate outputs.
  InterconnectConfig cfg = small_config(2, 2);
  tb::TargetOptions t;
  t.latency = 10;
  CrossbarBench b(cfg, {{{0x0, false, 128, 0}}, {{0x100, false, 24, 0}}}, {}, t);  // 0x0 -> partition 0, 0x100 -> 1
  b.run();
  const auto& big = b.sms[0]->records()[0];
  const auto& small = b.sms[1]->records()[0];
  REQUIRE(b.icnt->flits(b.icnt->reply_bytes(*b.mems[0]->arrivals()[0].gp)) == 5);
  REQUIRE(b.icnt->flits(b.icnt->reply_bytes(*b.mems[1]->arrivals()[0].gp)) == 1);
  const uint64_t sent = b.cycle(big.sent);
  REQUIRE(b.cycle(small.sent) == sent);
  REQUIRE(b.cycle(b.mems[0]->arrivals()[0].time) - sent == 1 + cfg.latency);
  REQUIRE(b.cycle(b.mems[1]->arrivals()[0].time) - sent == 1 + cfg.latency);
  const uint64_t mem_resp = sent + 1 + cfg.latency + 1 + t.latency;
  REQUIRE(b.cycle(small.responded) - mem_resp == 1 + cfg.latency);
  REQUIRE(b.cycle(big.responded) - mem_resp == 1 + cfg.latency + 4);
  REQUIRE(b.stat("icnt.reply_flits") == 6);
}

TEST_CASE("crossbar: multi-flit replies stream back to back, one every `flits` cycles, each with its last flit",
          "[crossbar]") {
  // Four 128 B reads to one partition, all outstanding: their 5-flit replies share one
  // output link. The first is delivered 4 cycles after its head; each next one 5 cycles
  // after the previous (the link is busy 5 cycles per packet, unchanged by delivering with
  // the last flit: the next head follows the previous tail).
  InterconnectConfig cfg = small_config(1, 1);
  tb::TargetOptions t;
  t.latency = 1;
  std::vector<tb::ScriptedRequest> s;
  for (uint64_t k = 0; k < 4; ++k) s.push_back({k * 0x80, false, 128, 0});
  CrossbarBench b(cfg, {s}, {4, 0, 0.0, 1, 128}, t);
  b.run();
  const auto& r = b.sms[0]->records();
  const auto& a = b.mems[0]->arrivals();
  REQUIRE(a.size() == 4);
  // Requests are 1 flit; the target's END_REQ comes at its next edge and is honoured from
  // the edge after, so one request every 2 cycles: the replies are ready faster than the
  // link carries them (5 cycles each).
  for (std::size_t k = 1; k < 4; ++k) REQUIRE(b.cycle(a[k].time) - b.cycle(a[k - 1].time) == 2);
  const uint64_t first_resp = b.cycle(a[0].time) + 1 + t.latency;
  REQUIRE(b.cycle(r[0].responded) - first_resp == 1 + cfg.latency + 4);
  for (std::size_t k = 1; k < 4; ++k) {
    INFO("reply " << k);
    REQUIRE(b.cycle(r[k].responded) - b.cycle(r[k - 1].responded) == 5);
  }
  REQUIRE(b.stat("icnt.reply_flits") == 20);
}

TEST_CASE("crossbar: a request from a faster SM clock is taken at the first interconnect edge after it",
          "[crossbar]") {
  ClockDomain sm_clk = ClockDomain::from_mhz("core", 1400.0);
  ClockDomain icnt_clk = ClockDomain::from_mhz("icnt", 700.0);
  stats::Group root("tb");
  InterconnectConfig cfg = small_config(1, 1);
  std::vector<tb::ScriptedRequest> s;
  for (uint64_t k = 0; k < 5; ++k) s.push_back({k * 0x100 * 3, false, 128, k * 7 + 1});  // odd SM cycles
  tb::ScriptedInitiator sm("sm", sm_clk, s, {});
  ProtocolChecker c1("c1"), c2("c2");
  Interconnect icnt("icnt", cfg, icnt_clk, root);
  tb::BackpressureTarget mem("mem", icnt_clk, {});
  sm.out.bind(c1.in);
  c1.out.bind(icnt.sm_side);
  icnt.mem_side.bind(c2.in);
  c2.out.bind(mem.in);
  sc_core::sc_start(icnt_clk.period() * 2000);
  REQUIRE(sm.done());
  for (std::size_t k = 0; k < s.size(); ++k) {
    const sc_core::sc_time sent = sm.records()[k].sent;
    const uint64_t first_edge = icnt_clk.cycle_at(sent) + 1;  // strictly after the send
    REQUIRE(mem.arrivals()[k].time == icnt_clk.time_of(first_edge + cfg.latency));
  }
  c1.check_quiescent();
  c2.check_quiescent();
  REQUIRE(c1.violations().empty());
  REQUIRE(c2.violations().empty());
}

TEST_CASE("crossbar: fixed_latency topology delivers after exactly `latency` cycles and sleeps meanwhile",
          "[crossbar]") {
  InterconnectConfig cfg = small_config(2, 2);
  cfg.topology = "fixed_latency";
  cfg.latency = 400;  // 001 Table 4.3
  tb::TargetOptions t;
  t.latency = 5;
  CrossbarBench b(cfg, {{{0x0, false, 128, 0}}, {{0x100, false, 128, 0}}}, {}, t);
  b.run();
  for (uint32_t i = 0; i < 2; ++i) {
    const auto& rec = b.sms[i]->records()[0];
    const uint64_t at_mem = b.cycle(b.mems[i]->arrivals()[0].time);  // 0x0 -> partition 0, 0x100 -> 1
    REQUIRE(at_mem - b.cycle(rec.sent) == 1 + cfg.latency);
    // The 5-flit read reply is delivered whole after `latency` (GPGPU-Sim's fixed-latency
    // mode): no serialization term, unlike the crossbar.
    REQUIRE(b.cycle(rec.responded) - (at_mem + 1 + t.latency) == 1 + cfg.latency);
  }
  REQUIRE(b.icnt->process().activations() < 20);  // not ~800: it sleeps through the latency
}

TEST_CASE("crossbar: a packet occupies its output link for ceil(bytes / channel_bytes) cycles", "[crossbar]") {
  InterconnectConfig cfg = small_config(1, 1);
  // Three 128 B writes back to back: 8 + 128 = 136 B = 5 flits each.
  CrossbarBench b(cfg, {{{0x0, true, 128, 0}, {0x80, true, 128, 0}, {0x100, true, 128, 0}}}, {3, 0, 0.0, 1, 128},
                  {});
  b.run();
  const auto& a = b.mems[0]->arrivals();
  REQUIRE(a.size() == 3);
  // Each is delivered with its last flit: 4 cycles of serialization after 1 + latency.
  REQUIRE(b.cycle(a[0].time) - b.cycle(b.sms[0]->records()[0].sent) == 1 + cfg.latency + 4);
  REQUIRE(b.cycle(a[1].time) - b.cycle(a[0].time) == 5);
  REQUIRE(b.cycle(a[2].time) - b.cycle(a[1].time) == 5);
  REQUIRE(b.stat("icnt.request_flits") == 15);
  REQUIRE(b.stat("icnt.reply_flits") == 3);  // write replies carry only the header
}

TEST_CASE("crossbar: a reply in parts costs a packet per part, each with its header (sector replies)", "[crossbar]") {
  InterconnectConfig cfg = small_config(1, 1);  // 32 B flits, 8 B header
  tb::TargetOptions parts;
  parts.reply_parts = 4;  // an L2 that answered 4 sectors on their own
  CrossbarBench w(cfg, {{{0x0, true, 128, 0}, {0x80, true, 128, 0}}}, {2, 0, 0.0, 1, 128}, parts);
  w.run();
  REQUIRE(w.stat("icnt.reply_flits") == 2 * 4);  // 4 acknowledgements of 1 flit per write
}

TEST_CASE("crossbar: a read reply in 4 parts costs 4 packets of header + 32 B", "[crossbar]") {
  InterconnectConfig cfg = small_config(1, 1);
  tb::TargetOptions parts;
  parts.reply_parts = 4;
  CrossbarBench r(cfg, {{{0x0, false, 128, 0}}}, {1, 0, 0.0, 1, 128}, parts);
  r.run();
  REQUIRE(r.stat("icnt.reply_flits") == 4 * 2);  // 4 x ceil((8 + 32) / 32), not ceil(136 / 32) = 5
}

TEST_CASE("crossbar: a multi-flit packet crosses its link while the target still holds the previous one",
          "[crossbar]") {
  // Three 5-flit writes to a partition that returns no END_REQ before cycle 200. The first
  // is delivered with its last flit; the second's flits cross meanwhile (the link is free),
  // so it is delivered at the edge after the END_REQ (201), not 4 cycles later; the third's
  // head follows at 201 and its last flit at 205.
  InterconnectConfig cfg = small_config(1, 1);
  tb::TargetOptions t;
  t.block_until = 200;
  CrossbarBench b(cfg, {{{0x0, true, 128, 0}, {0x80, true, 128, 0}, {0x100, true, 128, 0}}}, {3, 0, 0.0, 1, 128}, t);
  b.run();
  const auto& a = b.mems[0]->arrivals();
  REQUIRE(a.size() == 3);
  REQUIRE(b.cycle(a[0].time) - b.cycle(b.sms[0]->records()[0].sent) == 1 + cfg.latency + 4);
  REQUIRE(b.cycle(a[1].time) == t.block_until + 1);
  REQUIRE(b.cycle(a[2].time) == t.block_until + 1 + 4);
}

TEST_CASE("crossbar: round-robin arbitration interleaves competing SMs fairly", "[crossbar]") {
  InterconnectConfig cfg = small_config(3, 1);
  std::vector<std::vector<tb::ScriptedRequest>> s(3);
  for (uint32_t i = 0; i < 3; ++i)
    for (uint64_t k = 0; k < 6; ++k) s[i].push_back({(i * 100 + k) * 0x1000, false, 128, 0});
  tb::TargetOptions t;
  t.latency = 1;
  CrossbarBench b(cfg, s, {6, 0, 0.0, 1, 128}, t);
  b.run();
  const auto& a = b.mems[0]->arrivals();
  REQUIRE(a.size() == 18);
  for (std::size_t k = 0; k < a.size(); ++k) {
    INFO("arrival " << k);
    REQUIRE(a[k].sm == static_cast<int32_t>(k % 3));
  }
}

TEST_CASE("crossbar: a stalled partition fills the buffers and back-pressure reaches the SM", "[crossbar]") {
  InterconnectConfig cfg = small_config(1, 2);
  cfg.input_buffer = 4;
  cfg.output_buffer = 3;
  tb::TargetOptions t;
  t.block_until = 2000;  // partition 0 accepts nothing before cycle 2000
  std::vector<tb::ScriptedRequest> s;
  for (uint64_t k = 0; k < 20; ++k) s.push_back({k * 0x200, false, 128, 0});  // all to partition 0
  CrossbarBench b(cfg, {s}, {20, 0, 0.0, 1, 128}, t);
  b.run();
  const auto& r = b.sms[0]->records();
  std::size_t accepted_early = 0;
  for (const auto& rec : r) accepted_early += b.cycle(rec.accepted) < 2000;
  // One request waiting for the partition's END_REQ, a full output queue, a full input buffer.
  REQUIRE(accepted_early == 1 + cfg.output_buffer + cfg.input_buffer);
  REQUIRE(b.stat("icnt.request_input_full") >= 1);
  // The withheld request is accepted only after the partition resumes.
  REQUIRE(b.cycle(r[accepted_early].accepted) > 2000);
}

namespace {
void random_traffic_matches_golden_model(const InterconnectConfig& cfg) {
  const uint64_t per_sm = 600;
  uint64_t seed = 2024;
  std::vector<std::vector<tb::ScriptedRequest>> s(cfg.sm_ports);
  for (uint32_t i = 0; i < cfg.sm_ports; ++i) {
    uint64_t when = 0;
    for (uint64_t k = 0; k < per_sm; ++k) {
      when += splitmix(seed) % 3;
      // Unique addresses: SM index and sequence number in the high bits, random low bits.
      const uint64_t addr = ((uint64_t{i} << 32) | (k << 12) | (splitmix(seed) % 32) * 128);
      s[i].push_back({addr, splitmix(seed) % 3 == 0, 128, when});
    }
  }
  tb::TargetOptions t;
  t.latency = 7;
  t.end_req_delay_max = 6;
  t.end_req_delay_probability = 0.4;
  CrossbarBench b(cfg, s, {8, 5, 0.3, 77, 128}, t);
  b.run();
  const PartitionMapIF& map = b.icnt->partition_map();
  std::map<uint64_t, std::pair<uint32_t, uint64_t>> origin;  // address -> (sm, index)
  for (uint32_t i = 0; i < cfg.sm_ports; ++i)
    for (uint64_t k = 0; k < per_sm; ++k) origin[s[i][k].address] = {i, k};
  std::size_t total = 0;
  for (uint32_t p = 0; p < cfg.mem_ports; ++p) {
    std::vector<int64_t> last(cfg.sm_ports, -1);
    for (const auto& a : b.mems[p]->arrivals()) {
      auto it = origin.find(a.address);
      REQUIRE(it != origin.end());
      REQUIRE(map.partition_of(a.address) == p);
      REQUIRE(a.sm == static_cast<int32_t>(it->second.first));
      REQUIRE(static_cast<int64_t>(it->second.second) > last[it->second.first]);  // per-flow FIFO
      last[it->second.first] = static_cast<int64_t>(it->second.second);
      ++total;
    }
    REQUIRE(b.mems[p]->responses() == b.mems[p]->arrivals().size());
  }
  REQUIRE(total == cfg.sm_ports * per_sm);
  for (auto& sm : b.sms) REQUIRE(sm->responses() == per_sm);
  REQUIRE(b.stat("icnt.requests") == total);
  REQUIRE(b.stat("icnt.replies") == total);
}
}  // namespace

TEST_CASE("crossbar: random traffic with random back-pressure matches the golden routing and order model",
          "[crossbar]") {
  random_traffic_matches_golden_model(small_config(4, 3));  // 3 partitions: linear interleave of 256 B chunks
}

TEST_CASE("crossbar: fixed_latency with xor interleaving under random traffic matches the golden model",
          "[crossbar]") {
  InterconnectConfig cfg = small_config(3, 4);
  cfg.topology = "fixed_latency";
  cfg.latency = 50;
  cfg.output_buffer = 16;
  cfg.interleave.policy = "xor";
  random_traffic_matches_golden_model(cfg);
}

TEST_CASE("crossbar: xor interleaving spreads power-of-two strides and keeps addresses unique", "[crossbar]") {
  PartitionMapConfig pc;
  pc.policy = "xor";
  pc.chunk_bytes = 256;
  auto xor_map = make_partition_map(pc, 4);
  pc.policy = "linear";
  auto lin_map = make_partition_map(pc, 4);
  // A stride of 4 chunks hits one partition linearly but all four with the xor hash.
  std::vector<int> lin(4), x(4);
  for (uint64_t k = 0; k < 64; ++k) {
    ++lin[lin_map->partition_of(k * 1024)];
    ++x[xor_map->partition_of(k * 1024)];
  }
  REQUIRE(lin[0] == 64);
  for (int c : x) REQUIRE(c == 16);
  // (partition, local address) is unique for every address: no two map to one DRAM location.
  for (const PartitionMapIF* m : {xor_map.get(), lin_map.get()}) {
    std::map<std::pair<uint32_t, uint64_t>, uint64_t> seen;
    for (uint64_t a = 0; a < (1u << 16); a += 64) {
      const auto key = std::make_pair(m->partition_of(a), m->local_address(a));
      REQUIRE(seen.count(key) == 0);
      seen[key] = a;
      REQUIRE(m->local_address(a) < (1u << 16) / 4 + 256);
    }
  }
  // rotate_hash: any partition count (GTX480: 6); a stride of 6 chunks spreads over all six.
  PartitionMapConfig rh;
  rh.policy = "rotate_hash";
  auto rh6 = make_partition_map(rh, 6);
  auto lin6 = make_partition_map(PartitionMapConfig{}, 6);
  std::vector<int> r6(6), lin_counts(6);
  for (uint64_t k = 0; k < 6 * 256; ++k) {
    ++r6[rh6->partition_of(k * 6 * 256)];
    ++lin_counts[lin6->partition_of(k * 6 * 256)];
  }
  REQUIRE(lin_counts[0] == 6 * 256);
  for (int c : r6) REQUIRE(std::abs(c - 256) <= 8);  // a hash: nearly even
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> seen6;
  for (uint64_t a = 0; a < (3u << 16); a += 128) {
    const auto key = std::make_pair(rh6->partition_of(a), rh6->local_address(a));
    REQUIRE(seen6.count(key) == 0);
    seen6[key] = a;
  }
  PartitionMapConfig six;
  six.policy = "xor";
  REQUIRE_THROWS_WITH(make_partition_map(six, 6, "gpu.icnt.interleave"),
                      Catch::Contains("gpu.icnt.interleave.policy") && Catch::Contains("power-of-two"));
  // Linear with 6 partitions (GTX480): chunk i -> partition i mod 6, dense local addresses.
  PartitionMapConfig l6;
  auto m6 = make_partition_map(l6, 6);
  REQUIRE(m6->partition_of(7 * 256 + 5) == 1);
  REQUIRE(m6->local_address(7 * 256 + 5) == 256 + 5);
}

TEST_CASE("crossbar: an idle interconnect costs no activations", "[crossbar]") {
  InterconnectConfig cfg = small_config(2, 2);
  CrossbarBench b(cfg, {{{0x0, false, 128, 100}}, {}}, {}, {});
  sc_core::sc_start(b.clk.period() * 90);
  REQUIRE(b.icnt->process().activations() == 0);
  b.run();
  const uint64_t busy = b.icnt->process().activations();
  sc_core::sc_start(b.clk.period() * 10000);
  REQUIRE(b.icnt->process().activations() == busy);
}

TEST_CASE("crossbar: bad configurations are rejected naming the key", "[crossbar]") {
  auto src = config::ConfigSource::from_json(
      nlohmann::json{{"icnt", {{"topology", "mesh"}}}}, "gpu.json");
  InterconnectConfig c;
  REQUIRE_THROWS_WITH(config::read(src, c, "icnt"), Catch::Contains("icnt.topology") && Catch::Contains("gpu.json"));
  auto src2 = config::ConfigSource::from_json(nlohmann::json{{"icnt", {{"interleave", {{"chunk_bytes", 100}}}}}},
                                              "gpu.json");
  REQUIRE_THROWS_WITH(config::read(src2, c, "icnt"), Catch::Contains("icnt.interleave.chunk_bytes"));
  InterconnectConfig c3;
  c3.interleave.policy = "xor";
  c3.mem_ports = 6;
  REQUIRE_THROWS_WITH(c3.validate("gpu.icnt"), Catch::Contains("gpu.icnt.interleave.policy"));
  REQUIRE(config::list(InterconnectConfig{}).size() >= 10);
}

TEST_CASE("crossbar: every parameter is listed with a type, a default and a description", "[crossbar]") {
  tb::require_documented_parameters(InterconnectConfig{});
}

TEST_CASE("crossbar: results do not depend on the order SystemC runs processes in", "[crossbar]") {
  // Two identical interconnects with identical traffic in one simulation; the second is
  // created before its SMs and targets, so their processes run in the opposite order.
  ClockDomain sm_clk = ClockDomain::from_mhz("core", 1400.0);
  ClockDomain clk = ClockDomain::from_mhz("icnt", 700.0);
  stats::Group root("tb");
  InterconnectConfig cfg = small_config(3, 2);
  cfg.input_buffer = 2;
  cfg.output_buffer = 2;
  uint64_t seed = 31;
  std::vector<std::vector<tb::ScriptedRequest>> s(3);
  for (auto& v : s)
    for (int k = 0; k < 400; ++k) v.push_back({(splitmix(seed) % 512) * 128, splitmix(seed) % 3 == 0, 128, 0});
  tb::TargetOptions t;
  t.latency = 5;
  t.end_req_delay_max = 4;
  t.end_req_delay_probability = 0.5;
  auto sms = [&](const std::string& prefix) {
    std::vector<std::unique_ptr<tb::ScriptedInitiator>> v;
    for (int i = 0; i < 3; ++i) {
      tb::InitiatorOptions o{6, 4, 0.5, 9 + static_cast<uint64_t>(i), 128, i};
      v.push_back(std::make_unique<tb::ScriptedInitiator>((prefix + std::to_string(i)).c_str(), sm_clk, s[i], o));
    }
    return v;
  };
  auto mems = [&](const std::string& prefix) {
    std::vector<std::unique_ptr<tb::BackpressureTarget>> v;
    for (int p = 0; p < 2; ++p) {
      tb::TargetOptions o = t;
      o.seed = 50 + static_cast<uint64_t>(p);
      v.push_back(std::make_unique<tb::BackpressureTarget>((prefix + std::to_string(p)).c_str(), clk, o));
    }
    return v;
  };
  auto sms_a = sms("a_sm");
  auto mems_a = mems("a_mem");
  Interconnect icnt_a("icnt_a", cfg, clk, root);
  Interconnect icnt_b("icnt_b", cfg, clk, root);
  auto mems_b = mems("b_mem");
  auto sms_b = sms("b_sm");
  for (int i = 0; i < 3; ++i) {
    sms_a[i]->out.bind(icnt_a.sm_side);
    sms_b[i]->out.bind(icnt_b.sm_side);
  }
  for (int p = 0; p < 2; ++p) {
    icnt_a.mem_side.bind(mems_a[p]->in);
    icnt_b.mem_side.bind(mems_b[p]->in);
  }
  auto done = [&] {
    for (auto* v : {&sms_a, &sms_b})
      for (auto& x : *v)
        if (!x->done()) return false;
    return true;
  };
  while (!done() && clk.now() < 2'000'000) sc_core::sc_start(clk.period() * 1000);
  REQUIRE(done());
  for (int i = 0; i < 3; ++i)
    for (std::size_t k = 0; k < s[i].size(); ++k) {
      INFO("sm " << i << " request " << k);
      REQUIRE(sms_a[i]->records()[k].accepted == sms_b[i]->records()[k].accepted);
      REQUIRE(sms_a[i]->records()[k].responded == sms_b[i]->records()[k].responded);
    }
}

TEST_CASE("crossbar: steady-state traffic allocates no memory", "[crossbar]") {
  // No protocol checkers here: they keep a map per transaction (test-only cost).
  ClockDomain clk = ClockDomain::from_mhz("icnt", 700.0);
  stats::Group root("tb");
  InterconnectConfig cfg = small_config(4, 3);
  Interconnect icnt("icnt", cfg, clk, root);
  uint64_t seed = 8;
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> sms;
  std::vector<std::unique_ptr<tb::BackpressureTarget>> mems;
  for (int i = 0; i < 4; ++i) {
    std::vector<tb::ScriptedRequest> v;
    for (uint64_t k = 0; k < 3000; ++k) v.push_back({(splitmix(seed) % 4096) * 128, splitmix(seed) % 3 == 0, 128, k * 2});
    sms.push_back(std::make_unique<tb::ScriptedInitiator>(("sm" + std::to_string(i)).c_str(), clk, v,
                                                          tb::InitiatorOptions{8, 3, 0.3, 4 + uint64_t(i), 128, i}));
    sms.back()->out.bind(icnt.sm_side);
  }
  for (int p = 0; p < 3; ++p) {
    tb::TargetOptions t;
    t.latency = 9;
    t.end_req_delay_max = 3;
    t.end_req_delay_probability = 0.3;
    t.seed = 60 + uint64_t(p);
    mems.push_back(std::make_unique<tb::BackpressureTarget>(("mem" + std::to_string(p)).c_str(), clk, t));
    icnt.mem_side.bind(mems.back()->in);
  }
  sc_core::sc_start(clk.period() * 1000);  // warm-up: pools, route tables and logs reach their size
  const std::size_t before = tb::allocations();
  const std::size_t done_before = sms[0]->responses();
  sc_core::sc_start(clk.period() * 3000);
  const std::size_t after = tb::allocations();
  REQUIRE(sms[0]->responses() - done_before > 500);
  REQUIRE(after - before == 0);
}

TEST_CASE("crossbar: a socket binding count that differs from the config is reported", "[crossbar]") {
  ClockDomain clk = ClockDomain::from_mhz("icnt", 700.0);
  stats::Group root("tb");
  InterconnectConfig cfg = small_config(2, 1);  // two SM ports configured, one bound
  Interconnect icnt("icnt", cfg, clk, root);
  tb::ScriptedInitiator sm("sm", clk, {}, {});
  tb::BackpressureTarget mem("mem", clk, {});
  sm.out.bind(icnt.sm_side);
  icnt.mem_side.bind(mem.in);
  REQUIRE_THROWS_WITH(sc_core::sc_start(clk.period() * 10),
                      Catch::Contains("icnt") && Catch::Contains("sm_side has 1 bindings but sm_ports = 2"));
}
