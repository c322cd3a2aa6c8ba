// LSU testbench: exact shared-memory timing with bank conflicts, load hit and miss
// latency through a real L1D (mem::Cache, reject mode) and a fixed-latency memory,
// constant-cache serialisation, atomics and local memory, and random reservation fails
// from a fake L1 with a fixed seed; a protocol checker on every L1 socket.
#include <catch2/catch.hpp>

#include <memory>
#include <random>

#include "../coalescer/coalescer_golden.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "core/traffic/simple_memory.h"
#include "fake_l1.h"
#include "mem/cache/cache.h"
#include "sm/exec/writeback.h"
#include "sm/lsu/lsu.h"
#include "support/sm/pipeline_stages.h"

using namespace gputlm;
using namespace gputlm::sm;
using isa::OpClass;
using isa::Opcode;
using isa::ScalarType;
using isa::StateSpace;

namespace {

mem::CacheConfig l1d_config() {
  mem::CacheConfig c;
  c.sets = 32;
  c.ways = 4;
  c.line_size = 128;
  c.hit_latency = 3;
  c.miss_latency = 2;
  c.fill_latency = 1;
  c.fail_mode = "reject";
  c.write_policy = "write_evict";
  return c;
}

// LSU + writeback + sink; the L1D is either a real cache over a fixed-latency memory or
// a fake L1; constant and texture ports go to fake L1s that never refuse.
struct Bench {
  ClockDomain dom = ClockDomain::from_mhz("core", 700);
  stats::Group root{"sm0"};
  test_support::InstructionFactory f;
  std::unique_ptr<Lsu> lsu;
  std::unique_ptr<Writeback> wb;
  std::unique_ptr<test_support::RetireSink> sink;
  std::unique_ptr<test_support::StageDriver> drv;
  std::unique_ptr<ProtocolChecker> chk_d, chk_c, chk_t, chk_b, chk_mem;
  std::unique_ptr<mem::Cache> l1d;
  std::unique_ptr<SimpleMemory> memory;
  std::unique_ptr<tb::FakeL1> fake_d, fake_c, fake_t, fake_b;

  Bench(const LsuConfig& cfg, bool real_l1d, double reject_probability = 0.0, uint32_t mem_latency = 20,
        const mem::CacheConfig& l1 = l1d_config(), const std::string& prefix = "", bool memory_first = false,
        uint32_t agen_slices = 1) {
    auto n = [&](const char* base) { return prefix + base; };
    // Creation order decides SystemC's process order within a time step; results must
    // not depend on it (memory_first builds the memory side first).
    auto make_core = [&] {
      LsuPlacement place;
      place.sm = 2;
      place.num_sms = 4;
      place.threads_per_sm = 1536;
      place.agen_slices = agen_slices;
      lsu = std::make_unique<Lsu>(n("lsu").c_str(), cfg, place, dom, root);
      wb = std::make_unique<Writeback>(n("wb").c_str(), 1, 4, dom, root);
      sink = std::make_unique<test_support::RetireSink>(n("sink").c_str(), dom, f.pool);
      drv = std::make_unique<test_support::StageDriver>(n("drv").c_str(), dom, 1);
    };
    auto make_memory = [&] {
      chk_d = std::make_unique<ProtocolChecker>(n("chk_d").c_str());
      chk_c = std::make_unique<ProtocolChecker>(n("chk_c").c_str());
      chk_t = std::make_unique<ProtocolChecker>(n("chk_t").c_str());
      chk_b = std::make_unique<ProtocolChecker>(n("chk_b").c_str());
      if (real_l1d) {
        l1d = std::make_unique<mem::Cache>(n("l1d").c_str(), l1, dom, root);
        SimpleMemoryConfig mc;
        mc.latency = mem_latency;
        memory = std::make_unique<SimpleMemory>(n("memory").c_str(), mc, dom, root);
        chk_mem = std::make_unique<ProtocolChecker>(n("chk_mem").c_str());
      } else {
        fake_d = std::make_unique<tb::FakeL1>(n("fake_d").c_str(), dom, reject_probability, 5, 99);
      }
      fake_c = std::make_unique<tb::FakeL1>(n("fake_c").c_str(), dom, 0.0, 4, 1);
      fake_t = std::make_unique<tb::FakeL1>(n("fake_t").c_str(), dom, 0.0, 4, 2);
      fake_b = std::make_unique<tb::FakeL1>(n("fake_b").c_str(), dom, 0.0, 4, 3);
    };
    if (memory_first) {
      make_memory();
      make_core();
    } else {
      make_core();
      make_memory();
    }
    drv->outs[0].bind(lsu->in);
    lsu->out.bind(wb->in);
    lsu->writeback_status.bind(wb->status_export);
    wb->out.bind(sink->in);
    drv->add_stage(*wb);
    drv->add_stage(*lsu);
    lsu->l1d.bind(chk_d->in);
    lsu->l1c.bind(chk_c->in);
    lsu->l1t.bind(chk_t->in);
    lsu->bypass.bind(chk_b->in);
    if (real_l1d) {
      chk_d->out.bind(l1d->upstream);
      l1d->downstream.bind(chk_mem->in);
      chk_mem->out.bind(memory->in);
      lsu->l1d_status.bind(l1d->status_export);
    } else {
      chk_d->out.bind(fake_d->in);
    }
    chk_c->out.bind(fake_c->in);
    chk_t->out.bind(fake_t->in);
    chk_b->out.bind(fake_b->in);
  }

  // A memory warp instruction: lanes in `mask` access `bytes`-wide elements at addr(l).
  WarpInstruction* mem(StateSpace space, isa::AccessKind kind, uint32_t bytes, uint32_t mask,
                       const std::function<uint64_t(uint32_t)>& addr, uint32_t warp, uint32_t elements = 1) {
    const bool load = kind == isa::AccessKind::Load || kind == isa::AccessKind::Atomic;
    const auto& in = f.make_instr(load ? Opcode::Ld : Opcode::St, ScalarType::U32, OpClass::MemGlobal, {1},
                                  load ? std::vector<uint32_t>{2} : std::vector<uint32_t>{});
    WarpInstruction* wi = f.make(in, warp, UnitType::Mem);
    wi->sm = 2;
    wi->result.is_memory = true;
    wi->result.mem.space = space;
    wi->result.mem.kind = kind;
    wi->result.mem.element_bytes = static_cast<uint8_t>(bytes);
    wi->result.mem.elements = static_cast<uint8_t>(elements);
    wi->result.mem.lane_mask = mask;
    for (uint32_t l = 0; l < 32; ++l)
      if (mask & (1u << l)) wi->result.mem.addr[l] = addr(l);
    return wi;
  }

  // Sends the instructions in order as soon as the LSU can accept; records accept cycles.
  std::vector<uint64_t> accepted;
  void run_in_order(std::vector<WarpInstruction*> todo, uint64_t first_cycle = 1, double ns = 20000) {
    script_in_order(std::move(todo), first_cycle);
    sc_core::sc_start(ns, sc_core::SC_NS);
  }
  void script_in_order(std::vector<WarpInstruction*> todo, uint64_t first_cycle = 1) {
    std::size_t next = 0;
    drv->set_script([this, todo, next, first_cycle](uint64_t c) mutable {
      while (c >= first_cycle && next < todo.size() && lsu->can_accept()) {
        todo[next]->dispatch_cycle = c;
        drv->outs[0].send(*todo[next++]);
        accepted.push_back(c);
      }
      return next < todo.size();
    });
  }
  void check_quiet() {
    for (ProtocolChecker* c : {chk_d.get(), chk_c.get(), chk_t.get(), chk_b.get(), chk_mem.get()}) {
      if (!c) continue;
      c->check_quiescent();
      CHECK(c->violations().empty());
    }
    CHECK(lsu->idle());
  }
  double stat(const std::string& path) const { return root.find(path)->scalar(stats::View::Total); }
};

}  // namespace

TEST_CASE("lsu shared_memory access timing with bank conflicts is exact", "[lsu][shared_memory]") {
  LsuConfig cfg;  // shared latency 26, 32 banks
  Bench b(cfg, false);
  auto* a = b.mem(StateSpace::Shared, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return l * 4; }, 0);
  auto* c = b.mem(StateSpace::Shared, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return l * 8; }, 1);
  auto* d = b.mem(StateSpace::Shared, isa::AccessKind::Store, 4, ~0u, [](uint32_t l) { return l * 128; }, 2);
  b.run_in_order({a, c, d});
  REQUIRE(b.sink->retired.size() == 3);
  // Accepted at D, prepared at D+1, bank cycles k: complete at D+1 + k-1 + 26.
  CHECK(b.accepted == std::vector<uint64_t>{1, 2, 4});
  CHECK(b.sink->of(0).complete == 1 + 1 + 0 + 26);
  CHECK(b.sink->of(1).complete == 2 + 1 + 1 + 26);
  CHECK(b.sink->of(2).complete == 4 + 1 + 31 + 26);
  CHECK(b.stat("lsu.shared_bank_cycles") == 1 + 2 + 32);
  b.check_quiet();
}

TEST_CASE("lsu with 8-lane address generation takes a warp instruction every 4 cycles", "[lsu][shared_memory]") {
  // exec.simd_width = 8: 32 threads' addresses take 4 cycles, so the LSU accepts the next
  // instruction 4 cycles after the last (conflict-free shared loads: 1 cycle apart with 32 lanes).
  LsuConfig cfg;
  Bench b(cfg, false, 0.0, 20, l1d_config(), "", false, 4);
  std::vector<WarpInstruction*> todo;
  for (uint32_t w = 0; w < 3; ++w)
    todo.push_back(b.mem(StateSpace::Shared, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return l * 4; }, w));
  b.run_in_order(todo);
  REQUIRE(b.sink->retired.size() == 3);
  CHECK(b.accepted == std::vector<uint64_t>{1, 5, 9});
  for (std::size_t i = 0; i < 3; ++i) CHECK(b.sink->of(i).complete == b.accepted[i] + 1 + 26);
  b.check_quiet();
}

TEST_CASE("lsu load miss and hit latency through the L1D equal the configured path", "[lsu]") {
  LsuConfig cfg;
  const uint32_t mem_latency = 20;
  Bench b(cfg, true, 0.0, mem_latency);
  auto* miss = b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x10000 + l * 4; }, 0);
  auto* hit = b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x10000 + l * 4; }, 1);
  uint64_t hit_sent = 0;
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) b.drv->outs[0].send(*miss);
    if (c == 200) {
      hit_sent = c;
      b.drv->outs[0].send(*hit);
    }
    return c < 200;
  });
  sc_core::sc_start(1000, sc_core::SC_NS);
  REQUIRE(b.sink->retired.size() == 2);
  const mem::CacheConfig l1 = l1d_config();
  // Request leaves the LSU at D+1 and is evaluated by the L1 in that cycle; a miss goes
  // down miss_latency later; the memory sees it at the next edge and answers `latency`
  // cycles after that; the fill is processed at the next edge and answered
  // fill_latency later; the LSU processes the response one cycle after it arrives.
  const uint64_t send = 2;
  CHECK(b.sink->of(0).complete == send + l1.miss_latency + (1 + mem_latency) + 1 + l1.fill_latency + 1);
  CHECK(b.sink->of(1).complete == hit_sent + 1 + l1.hit_latency + 1);
  CHECK(b.stat("lsu.requests") == 2);
  CHECK(b.stat("lsu.coalescing_efficiency") == Approx(1.0));
  b.check_quiet();
  CHECK(b.l1d->idle());
}

TEST_CASE("lsu retries random L1 reservation fails and completes every instruction", "[lsu]") {
  LsuConfig cfg;
  Bench b(cfg, false, 0.3);
  std::mt19937_64 rng(4242);
  std::vector<WarpInstruction*> todo;
  uint64_t expected_requests = 0;
  Coalescer co(cfg.coalescer);
  for (int i = 0; i < 60; ++i) {
    const uint32_t stride = 4u << (rng() % 6);
    const uint64_t base = 0x100000 + (rng() % 64) * 128;
    const uint32_t mask = static_cast<uint32_t>(rng()) | 1u;
    const auto kind = rng() % 3 == 0 ? isa::AccessKind::Store : isa::AccessKind::Load;
    auto* wi = b.mem(StateSpace::Global, kind, 4, mask, [&](uint32_t l) { return base + l * stride; },
                     static_cast<uint32_t>(rng() % 48));
    std::vector<LaneAccess> pieces;
    for (uint8_t l = 0; l < 32; ++l)
      if (mask & (1u << l)) pieces.push_back(LaneAccess{wi->result.mem.addr[l], 4, l});
    expected_requests += golden::coalesce(pieces, 128, 32, 1).size();
    todo.push_back(wi);
  }
  b.run_in_order(todo, 1, 100000);
  REQUIRE(b.sink->retired.size() == todo.size());
  CHECK(b.fake_d->accepted.size() == expected_requests);
  CHECK(b.fake_d->rejects > 0);
  CHECK(b.stat("lsu.reservation_fails") == static_cast<double>(b.fake_d->rejects));
  CHECK(b.stat("lsu.lsu_sat_stall_cycles") == static_cast<double>(b.fake_d->rejects));
  CHECK(b.stat("lsu.requests") == static_cast<double>(expected_requests));
  for (uint32_t w = 0; w < 48; ++w) CHECK(b.lsu->pending_stores(w) == 0);
  // Loads retire in issue order here (one latch, in-order sends, fixed latency); stores
  // retire as soon as their requests are accepted.
  uint64_t last_load = 0;
  bool first = true;
  for (const auto& r : b.sink->retired) {
    if (todo[r.seq]->result.mem.kind != isa::AccessKind::Load) continue;
    if (!first) CHECK(r.seq > last_load);
    last_load = r.seq;
    first = false;
  }
  b.check_quiet();
}

TEST_CASE("lsu survives MSHR-full refusals and withheld END_REQ of a real L1D", "[lsu]") {
  LsuConfig cfg;
  cfg.requests_per_cycle = 2;  // the L1D evaluates one per cycle: the second waits for END_REQ
  mem::CacheConfig l1 = l1d_config();
  l1.mshr.entries = 4;
  l1.mshr.almost_full_margin = 1;
  l1.port_width = 1;
  Bench b(cfg, true, 0.0, 30, l1);
  std::vector<WarpInstruction*> todo;
  for (uint32_t i = 0; i < 8; ++i)  // each load touches 32 lines (stride 128 B)
    todo.push_back(b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u,
                         [i](uint32_t l) { return 0x200000 + i * 4096 + l * 128; }, i));
  b.run_in_order(todo, 1, 200000);
  REQUIRE(b.sink->retired.size() == 8);
  CHECK(b.stat("lsu.requests") == 8 * 32);
  CHECK(b.stat("lsu.reservation_fails") > 0);
  CHECK(b.stat("lsu.lsu_sat_stall_cycles") > 0);
  CHECK(b.stat("lsu.l1_port_stall_cycles") > 0);
  CHECK(b.stat("lsu.requests_per_instruction") == Approx(32.0));
  CHECK(b.stat("lsu.coalescing_efficiency") == Approx(4.0 / 32.0));
  b.check_quiet();
  CHECK(b.l1d->idle());
}

TEST_CASE("lsu results do not depend on module creation order", "[lsu]") {
  LsuConfig cfg;
  cfg.requests_per_cycle = 2;
  mem::CacheConfig l1 = l1d_config();
  l1.mshr.entries = 4;
  l1.mshr.almost_full_margin = 1;
  Bench a(cfg, true, 0.0, 30, l1, "a_", false);
  Bench b(cfg, true, 0.0, 30, l1, "b_", true);
  std::mt19937_64 rng(77);
  std::vector<WarpInstruction*> ta, tbv;
  for (uint32_t i = 0; i < 12; ++i) {
    const uint64_t stride = 4ull << (rng() % 6);
    const uint64_t base = 0x300000 + (rng() % 32) * 128;
    const auto kind = rng() % 4 == 0 ? isa::AccessKind::Store : isa::AccessKind::Load;
    auto addr = [=](uint32_t l) { return base + l * stride; };
    ta.push_back(a.mem(StateSpace::Global, kind, 4, ~0u, addr, i));
    tbv.push_back(b.mem(StateSpace::Global, kind, 4, ~0u, addr, i));
  }
  a.script_in_order(ta);
  b.script_in_order(tbv);
  sc_core::sc_start(200000, sc_core::SC_NS);
  REQUIRE(a.sink->retired.size() == 12);
  REQUIRE(b.sink->retired.size() == 12);
  for (std::size_t i = 0; i < 12; ++i) {
    CHECK(a.sink->retired[i].seq == b.sink->retired[i].seq);
    CHECK(a.sink->retired[i].cycle == b.sink->retired[i].cycle);
  }
  CHECK(a.stat("a_lsu.reservation_fails") > 0);
  CHECK(a.stat("a_lsu.reservation_fails") == b.stat("b_lsu.reservation_fails"));
  CHECK(a.stat("a_lsu.l1_port_stall_cycles") == b.stat("b_lsu.l1_port_stall_cycles"));
  a.check_quiet();
  b.check_quiet();
}

TEST_CASE("lsu constant accesses to distinct words serialise", "[lsu]") {
  LsuConfig cfg;
  Bench b(cfg, false);
  // 4 distinct words in one 64 B line: 1 request, 3 extra latch cycles.
  auto* four = b.mem(StateSpace::Const, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return (l % 4) * 4; }, 0);
  auto* bcast = b.mem(StateSpace::Const, isa::AccessKind::Load, 4, ~0u, [](uint32_t) { return 64; }, 1);
  auto* param = b.mem(StateSpace::Param, isa::AccessKind::Load, 8, ~0u, [](uint32_t) { return 8; }, 2);
  b.run_in_order({four, bcast, param});
  REQUIRE(b.sink->retired.size() == 3);
  CHECK(b.accepted == std::vector<uint64_t>{1, 5, 6});
  REQUIRE(b.fake_c->accepted.size() == 3);
  CHECK(b.fake_c->accepted[0].address == cfg.const_base);
  CHECK(b.fake_c->accepted[1].address == cfg.const_base + 64);
  CHECK(b.fake_c->accepted[2].address == cfg.param_base);
  CHECK(b.fake_c->accepted[2].space == MemSpace::Param);
  CHECK(b.stat("lsu.const_serialization_cycles") == 3 + 0 + 1);  // param: 8 B = 2 words
  // Constant load: request at 2, answered at 2 + 4, processed at 7.
  CHECK(b.sink->of(0).complete == 7);
  b.check_quiet();
}

TEST_CASE("lsu atomics go to the L1D as 32-byte atomic writes, one per lane on one word", "[lsu]") {
  LsuConfig cfg;
  Bench b(cfg, false);
  auto* atom = b.mem(StateSpace::Global, isa::AccessKind::Atomic, 4, ~0u, [](uint32_t) { return 0x4000; }, 3);
  auto* spread = b.mem(StateSpace::Global, isa::AccessKind::Atomic, 4, ~0u, [](uint32_t l) { return 0x4000 + 4 * l; }, 4);
  b.run_in_order({atom, spread});
  REQUIRE(b.sink->retired.size() == 2);
  // One word: 32 requests; 32 consecutive words: one per 32 B segment (GPGPU-Sim 4.x).
  REQUIRE(b.fake_d->accepted.size() == 32 + 4);
  for (const auto& s : b.fake_d->accepted) {
    CHECK(s.kind == AccessKind::Atomic);
    CHECK(s.command == tlm::TLM_WRITE_COMMAND);
    CHECK(s.bytes == 32);  // the segment's data, not the line's
  }
  for (uint32_t k = 0; k < 32; ++k) CHECK(b.fake_d->accepted[k].address == 0x4000);
  for (uint32_t k = 0; k < 4; ++k) {
    CHECK(b.fake_d->accepted[32 + k].address == 0x4000 + 32 * k);
    CHECK(b.fake_d->accepted[32 + k].sectors == 1u << k);
  }
  // The atomic with a result completes when its last response is processed.
  CHECK(b.sink->of(0).complete == b.fake_d->accepted[31].cycle + 5 + 1);
  b.check_quiet();
}

TEST_CASE("lsu atomics_bypass_l1d sends atomics past the L1D to the memory port, loads still to the L1D",
          "[lsu]") {
  LsuConfig cfg;
  cfg.atomics_bypass_l1d = true;  // GPGPU-Sim: atom is .cg (CACHE_GLOBAL), which skips the L1D
  Bench b(cfg, false);
  auto* spread = b.mem(StateSpace::Global, isa::AccessKind::Atomic, 4, ~0u, [](uint32_t l) { return 0x4000 + 4 * l; }, 4);
  auto* load = b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x8000 + 4 * l; }, 5);
  b.run_in_order({spread, load});
  REQUIRE(b.sink->retired.size() == 2);
  REQUIRE(b.fake_b->accepted.size() == 4);
  for (uint32_t k = 0; k < 4; ++k) {
    CHECK(b.fake_b->accepted[k].kind == AccessKind::Atomic);
    CHECK(b.fake_b->accepted[k].address == 0x4000 + 32 * k);
    CHECK(b.fake_b->accepted[k].bytes == 32);
  }
  REQUIRE(b.fake_d->accepted.size() == 1);
  CHECK(b.fake_d->accepted[0].kind == AccessKind::Load);
  // The atomic completes when its last response (latency 4 at the bypass) is processed.
  CHECK(b.sink->of(0).complete == b.fake_b->accepted[3].cycle + 4 + 1);
  b.check_quiet();
}

// `wi` with the cache operator and flags of its instruction replaced (.cg, .nc, ...).
WarpInstruction* with_modifiers(Bench& b, WarpInstruction* wi, isa::CacheOp cache, uint32_t flags = 0) {
  isa::Instruction in = *wi->instr;
  in.cache = cache;
  in.flags |= flags;
  wi->instr = &b.f.keep(in);
  return wi;
}

TEST_CASE("lsu global_l1d_bypass all_but_nc sends global loads and stores past the L1D except ld.global.nc",
          "[lsu]") {
  LsuConfig cfg;
  cfg.global_l1d_bypass = "all_but_nc";  // GPGPU-Sim -gpgpu_gmem_skip_L1D 1 (SM6_TITANX)
  Bench b(cfg, false);
  auto* load = b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x8000 + 4 * l; }, 1);
  auto* nc = with_modifiers(
      b, b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x9000 + 4 * l; }, 2),
      isa::CacheOp::None, isa::kNc);
  auto* ca = with_modifiers(
      b, b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0xA000 + 4 * l; }, 3),
      isa::CacheOp::Ca);
  auto* store = b.mem(StateSpace::Global, isa::AccessKind::Store, 4, 0xFF, [](uint32_t l) { return 0xB000 + 4 * l; }, 4);
  auto* local = b.mem(StateSpace::Local, isa::AccessKind::Load, 4, ~0u, [](uint32_t) { return 0; }, 5);
  b.run_in_order({load, nc, ca, store, local});
  REQUIRE(b.sink->retired.size() == 5);
  // Past the L1D: the plain load, the .ca load (GPGPU-Sim bypasses every operator but .nc) and the store.
  REQUIRE(b.fake_b->accepted.size() == 3);
  CHECK(b.fake_b->accepted[0].address == 0x8000);
  CHECK(b.fake_b->accepted[0].kind == AccessKind::Load);
  CHECK(b.fake_b->accepted[1].address == 0xA000);
  CHECK(b.fake_b->accepted[2].address == 0xB000);
  CHECK(b.fake_b->accepted[2].kind == AccessKind::Store);
  // Through the L1D: the .nc load and the local load.
  REQUIRE(b.fake_d->accepted.size() == 2);
  CHECK(b.fake_d->accepted[0].address == 0x9000);
  CHECK(b.fake_d->accepted[1].space == MemSpace::Local);
  // The bypassed load completes when its response (latency 4 at the bypass) is processed.
  CHECK(b.sink->of(0).complete == b.fake_b->accepted[0].cycle + 4 + 1);
  b.check_quiet();
}

TEST_CASE("lsu global_l1d_bypass all sends every global load and store past the L1D and local through it",
          "[lsu]") {
  LsuConfig cfg;
  cfg.global_l1d_bypass = "all";  // 001 ch. 4's "no data cache" baseline
  Bench b(cfg, false);
  auto* load = b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x8000 + 4 * l; }, 1);
  auto* nc = with_modifiers(
      b, b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x9000 + 4 * l; }, 2),
      isa::CacheOp::None, isa::kNc);
  auto* store = b.mem(StateSpace::Global, isa::AccessKind::Store, 4, 0xFF, [](uint32_t l) { return 0xB000 + 4 * l; }, 4);
  auto* local = b.mem(StateSpace::Local, isa::AccessKind::Load, 4, ~0u, [](uint32_t) { return 0; }, 5);
  b.run_in_order({load, nc, store, local});
  REQUIRE(b.sink->retired.size() == 4);
  // Past the L1D: the plain load, the .nc load (unlike all_but_nc) and the store.
  REQUIRE(b.fake_b->accepted.size() == 3);
  CHECK(b.fake_b->accepted[0].address == 0x8000);
  CHECK(b.fake_b->accepted[1].address == 0x9000);
  CHECK(b.fake_b->accepted[2].kind == AccessKind::Store);
  REQUIRE(b.fake_d->accepted.size() == 1);
  CHECK(b.fake_d->accepted[0].space == MemSpace::Local);
  b.check_quiet();
}

// One run per process (a single sc_start): the two modes are two test cases.
void check_cg_rule(const char* mode) {
  LsuConfig cfg;
  cfg.global_l1d_bypass = mode;
  Bench b(cfg, false);
  auto* cg = with_modifiers(
      b, b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x8000 + 4 * l; }, 1),
      isa::CacheOp::Cg);
  auto* plain = b.mem(StateSpace::Global, isa::AccessKind::Load, 4, ~0u, [](uint32_t l) { return 0x9000 + 4 * l; }, 2);
  b.run_in_order({cg, plain});
  REQUIRE(b.sink->retired.size() == 2);
  const bool cg_bypasses = std::string(mode) == "cg";
  REQUIRE(b.fake_b->accepted.size() == (cg_bypasses ? 1u : 0u));
  REQUIRE(b.fake_d->accepted.size() == (cg_bypasses ? 1u : 2u));
  if (cg_bypasses) CHECK(b.fake_b->accepted[0].address == 0x8000);
  CHECK(b.fake_d->accepted.back().address == 0x9000);
  b.check_quiet();
}

TEST_CASE("lsu global_l1d_bypass cg (the default) sends only .cg accesses past the L1D", "[lsu]") {
  CHECK(LsuConfig{}.global_l1d_bypass == "cg");
  check_cg_rule("cg");
}

TEST_CASE("lsu global_l1d_bypass none sends .cg accesses through the L1D too", "[lsu]") { check_cg_rule("none"); }

TEST_CASE("lsu local memory is interleaved per thread and coalesces per warp", "[lsu]") {
  LsuConfig cfg;
  Bench b(cfg, false);
  auto* st = b.mem(StateSpace::Local, isa::AccessKind::Store, 4, ~0u, [](uint32_t) { return 0; }, 5, 2);  // st.v2
  b.run_in_order({st});
  REQUIRE(b.sink->retired.size() == 1);
  REQUIRE(b.fake_d->accepted.size() == 2);
  const uint64_t stride = 4ull * 1536 * 4;
  const uint64_t base = cfg.local_base + 4ull * (1536 * 2 + 5 * 32);
  CHECK(b.fake_d->accepted[0].address == base);
  CHECK(b.fake_d->accepted[1].address == base + stride);
  CHECK(b.fake_d->accepted[0].space == MemSpace::Local);
  CHECK(b.fake_d->accepted[0].sectors == 0xF);
  // A store goes to writeback once its requests are accepted (before the acks).
  CHECK(b.sink->of(0).complete == 3);
  b.check_quiet();
}

TEST_CASE("lsu sends a store with the segment it writes, a load with the whole line", "[lsu]") {
  LsuConfig cfg;
  Bench b(cfg, false);
  // Lanes 0..7 store one word each at 0x5020 + 4*lane: bytes 32..63 of line 0x5000.
  auto* st = b.mem(StateSpace::Global, isa::AccessKind::Store, 4, 0xffu, [](uint32_t l) { return 0x5020 + 4 * l; }, 3);
  auto* ld = b.mem(StateSpace::Global, isa::AccessKind::Load, 4, 0xffu, [](uint32_t l) { return 0x5020 + 4 * l; }, 4);
  // A full warp's store stays one 128-byte request.
  auto* full = b.mem(StateSpace::Global, isa::AccessKind::Store, 4, ~0u, [](uint32_t l) { return 0x6000 + 4 * l; }, 5);
  b.run_in_order({st, ld, full});
  REQUIRE(b.fake_d->accepted.size() == 3);
  CHECK(b.fake_d->accepted[0].address == 0x5020);
  CHECK(b.fake_d->accepted[0].bytes == 32);
  CHECK(b.fake_d->accepted[1].address == 0x5000);
  CHECK(b.fake_d->accepted[1].bytes == 128);
  CHECK(b.fake_d->accepted[2].address == 0x6000);
  CHECK(b.fake_d->accepted[2].bytes == 128);
  b.check_quiet();
}

TEST_CASE("lsu reports an access to a space it cannot place", "[lsu]") {
  LsuConfig cfg;
  Bench b(cfg, false);
  auto* bad = b.mem(StateSpace::Generic, isa::AccessKind::Load, 4, 1, [](uint32_t) { return 0; }, 0);
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) b.drv->outs[0].send(*bad);
    return c < 1;
  });
  CHECK_THROWS_WITH(sc_core::sc_start(100, sc_core::SC_NS), Catch::Contains("accesses space"));
}
