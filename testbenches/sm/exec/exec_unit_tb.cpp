// Execution units and writeback: exact latency and initiation-interval cycles per op
// class (GPGPU-Sim GTX480 tables), writeback port limit with oldest-first priority, and
// back-pressure from a full writeback; the bypass point with exec.forwarding = alu.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "core/stats/stats.h"
#include "sm/exec/exec_unit.h"
#include "sm/exec/writeback.h"
#include "support/sm/pipeline_stages.h"

using namespace gputlm;
using namespace gputlm::sm;
using isa::OpClass;
using isa::Opcode;
using isa::ScalarType;

namespace {
// Records the cycle each instruction reached its bypass point (exec.forwarding = alu).
struct ForwardRecorder : ForwardSinkIF {
  void forwarded(WarpInstruction& wi) override { at.push_back({wi.seq, dom->now()}); }
  const ClockDomain* dom = nullptr;
  std::vector<std::pair<uint64_t, uint64_t>> at;  // (seq, cycle)
};

struct Bench {
  ClockDomain dom = ClockDomain::from_mhz("core", 700);
  stats::Group root{"sm0"};
  test_support::InstructionFactory f;
  std::vector<std::unique_ptr<ExecUnit>> units;
  std::unique_ptr<Writeback> wb;
  std::unique_ptr<test_support::RetireSink> sink;
  std::unique_ptr<test_support::StageDriver> drv;

  Bench(const ExecConfig& cfg, std::vector<UnitType> types, uint32_t ports, uint32_t buffer,
        ForwardSinkIF* forward = nullptr) {
    wb = std::make_unique<Writeback>("wb", ports, buffer, dom, root);
    sink = std::make_unique<test_support::RetireSink>("sink", dom, f.pool);
    drv = std::make_unique<test_support::StageDriver>("drv", dom, types.size());
    wb->out.bind(sink->in);
    drv->add_stage(*wb);
    for (std::size_t i = 0; i < types.size(); ++i) {
      units.push_back(std::make_unique<ExecUnit>(("u" + std::to_string(i)).c_str(), types[i], cfg, dom, root));
      drv->outs[i].bind(units.back()->in);
      units.back()->out.bind(wb->in);
      units.back()->writeback_status.bind(wb->status_export);
      if (forward) units.back()->forward_sink.bind(*forward);
      drv->add_stage(*units.back());
    }
  }
};

// Sends each (instruction, unit) as soon as the unit can accept, in order; records the
// cycle each was accepted.
struct InOrderScript {
  std::vector<std::pair<WarpInstruction*, std::size_t>> todo;
  std::vector<uint64_t> accepted;
  std::size_t next = 0;
  uint64_t refusals = 0;
  bool operator()(Bench& b, uint64_t cycle) {
    while (next < todo.size()) {
      auto [wi, u] = todo[next];
      if (!b.units[u]->can_accept()) {
        ++refusals;
        break;
      }
      wi->dispatch_cycle = cycle;
      b.drv->outs[u].send(*wi);
      accepted.push_back(cycle);
      ++next;
    }
    return next < todo.size();
  }
};
}  // namespace

TEST_CASE("exec_unit latency per op class is exact (GTX480 tables)", "[exec_unit]") {
  ExecConfig cfg;
  Bench b(cfg, {UnitType::Sp}, 2, 8);
  struct Case {
    Opcode op;
    ScalarType t;
    uint32_t latency;
  };
  const std::vector<Case> cases{{Opcode::Add, ScalarType::S32, 4},  {Opcode::Max, ScalarType::S32, 13},
                                {Opcode::Mul, ScalarType::F32, 4},  {Opcode::Fma, ScalarType::F32, 5},
                                {Opcode::And, ScalarType::B32, 1},  {Opcode::Add, ScalarType::F64, 8}};
  InOrderScript s;
  for (const Case& c : cases) s.todo.push_back({b.f.make(b.f.make_instr(c.op, c.t, OpClass::IntAlu), 0, UnitType::Sp), 0});
  b.drv->set_script([&](uint64_t c) { return c < 1 || s(b, c); });
  sc_core::sc_start(2000, sc_core::SC_NS);
  REQUIRE(b.sink->retired.size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const test_support::Retired& r = b.sink->of(i);
    INFO("case " << i);
    CHECK(r.complete == s.accepted[i] + cases[i].latency);
    CHECK(r.cycle == r.complete + 1);  // writeback one cycle after completion
  }
  CHECK(b.units[0]->idle());
  CHECK(b.wb->idle());
}

TEST_CASE("exec_unit initiation interval spaces issues exactly", "[exec_unit]") {
  ExecConfig cfg;
  Bench b(cfg, {UnitType::Sp, UnitType::Sfu}, 2, 8);
  InOrderScript s;
  const auto& mul = b.f.make_instr(Opcode::Mul, ScalarType::S32, OpClass::IntMul);  // 4 / 2
  for (int i = 0; i < 4; ++i) s.todo.push_back({b.f.make(mul, 1, UnitType::Sp), 0});
  InOrderScript d;
  const auto& ddiv = b.f.make_instr(Opcode::Div, ScalarType::F64, OpClass::Fp64);  // 330 / 130
  const auto& sqrt = b.f.make_instr(Opcode::Sqrt, ScalarType::F32, OpClass::Sfu);  // 8 / 8
  d.todo.push_back({b.f.make(ddiv, 2, UnitType::Sfu), 1});
  d.todo.push_back({b.f.make(ddiv, 2, UnitType::Sfu), 1});
  d.todo.push_back({b.f.make(sqrt, 3, UnitType::Sfu), 1});
  b.drv->set_script([&](uint64_t c) {
    if (c < 1) return true;
    const bool a = s(b, c);
    const bool e = d(b, c);
    return a || e;
  });
  sc_core::sc_start(2000, sc_core::SC_NS);
  CHECK(s.accepted == std::vector<uint64_t>{1, 3, 5, 7});
  CHECK(d.accepted == std::vector<uint64_t>{1, 131, 261});
  REQUIRE(b.sink->retired.size() == 7);
  for (std::size_t i = 0; i < 4; ++i) CHECK(b.sink->of(i).complete == s.accepted[i] + 4);
  CHECK(b.sink->of(4).complete == 331);
  CHECK(b.sink->of(5).complete == 461);
  CHECK(b.sink->of(6).complete == 261 + 8);
}

TEST_CASE("exec_unit with simd_width 8 holds each warp instruction 4 cycles and finishes with its last slice",
          "[exec_unit]") {
  ExecConfig cfg;
  cfg.simd_width = 8;  // 004 Table 1's ILP SM
  Bench b(cfg, {UnitType::Sp}, 2, 8);
  InOrderScript s;
  const auto& add = b.f.make_instr(Opcode::Add, ScalarType::S32, OpClass::IntAlu);  // 4 / 1
  const auto& ddiv = b.f.make_instr(Opcode::Div, ScalarType::S32, OpClass::IntMul);  // 145 / 8: its interval is longer
  for (int i = 0; i < 3; ++i) s.todo.push_back({b.f.make(add, 1, UnitType::Sp), 0});
  s.todo.push_back({b.f.make(ddiv, 1, UnitType::Sp), 0});
  s.todo.push_back({b.f.make(add, 1, UnitType::Sp), 0});
  b.drv->set_script([&](uint64_t c) { return c < 1 || s(b, c); });
  sc_core::sc_start(2000, sc_core::SC_NS);
  CHECK(s.accepted == std::vector<uint64_t>{1, 5, 9, 13, 21});
  REQUIRE(b.sink->retired.size() == 5);
  for (std::size_t i = 0; i < 3; ++i) CHECK(b.sink->of(i).complete == s.accepted[i] + 4 + 3);
  CHECK(b.sink->of(3).complete == 13 + 145 + 3);  // the div: its interval (8) outlasts its 4 slices
  CHECK(b.sink->of(4).complete == 21 + 4 + 3);
}

TEST_CASE("exec_unit with forwarding alu reports a result at dispatch + latency - 2 and only results",
          "[exec_unit]") {
  // The dependent of an instruction dispatched in D issues in D + L - 2 and dispatches in
  // D + L, when its first slice may take the producer's first slice from EX_L (ExecUnit::
  // forward_cycle); not before D; nothing for an instruction without destinations.
  ExecConfig cfg;
  cfg.simd_width = 8;
  cfg.forwarding = "alu";
  cfg.pipeline_registers = 2;  // does not move the bypass point
  ForwardRecorder rec;
  Bench b(cfg, {UnitType::Sp, UnitType::Sfu}, 2, 8, &rec);
  rec.dom = &b.dom;
  InOrderScript s;
  const auto& add = b.f.make_instr(Opcode::Add, ScalarType::S32, OpClass::IntAlu, {1}, {2});    // 4
  const auto& band = b.f.make_instr(Opcode::And, ScalarType::B32, OpClass::IntAlu, {2}, {3});   // 1
  const auto& bra = b.f.make_instr(Opcode::Bra, ScalarType::None, OpClass::Branch);             // no result
  const auto& max = b.f.make_instr(Opcode::Max, ScalarType::S32, OpClass::IntAlu, {3}, {4});    // 13
  s.todo.push_back({b.f.make(add, 0, UnitType::Sp), 0});
  s.todo.push_back({b.f.make(band, 0, UnitType::Sp), 0});
  s.todo.push_back({b.f.make(bra, 0, UnitType::Sp), 0});
  s.todo.push_back({b.f.make(max, 0, UnitType::Sp), 0});
  InOrderScript t;
  const auto& sqrt = b.f.make_instr(Opcode::Sqrt, ScalarType::F32, OpClass::Sfu, {5}, {6});  // 8
  t.todo.push_back({b.f.make(sqrt, 1, UnitType::Sfu), 1});
  b.drv->set_script([&](uint64_t c) {
    if (c < 1) return true;
    const bool x = s(b, c);
    const bool y = t(b, c);
    return x || y;
  });
  sc_core::sc_start(2000, sc_core::SC_NS);
  CHECK(s.accepted == std::vector<uint64_t>{1, 5, 9, 13});
  REQUIRE(t.accepted.size() == 1);
  REQUIRE(b.sink->retired.size() == 5);
  std::vector<std::pair<uint64_t, uint64_t>> expected{
      {0, 1 + 4 - 2}, {1, 5}, {3, 13 + 13 - 2}, {4, t.accepted[0] + 8 - 2}};  // seq 2 (bra): none
  std::sort(rec.at.begin(), rec.at.end());
  CHECK(rec.at == expected);
  // Writeback is unchanged: the last slice, the latency and the pipeline registers.
  CHECK(b.sink->of(0).complete == 1 + 4 + 3 + 2);
}

TEST_CASE("exec_unit writeback port limit serves the oldest first", "[exec_unit]") {
  ExecConfig cfg;
  Bench b(cfg, {UnitType::Sp, UnitType::Sp, UnitType::Sfu}, 1, 8);
  const auto& add = b.f.make_instr(Opcode::Add, ScalarType::S32, OpClass::IntAlu);
  const auto& mad = b.f.make_instr(Opcode::Mad, ScalarType::S32, OpClass::IntAlu);  // 5
  WarpInstruction* w0 = b.f.make(mad, 0, UnitType::Sp);   // seq 0, completes 6
  WarpInstruction* w1 = b.f.make(add, 1, UnitType::Sp);   // seq 1, completes 6 (sent at 2)
  WarpInstruction* w2 = b.f.make(add, 2, UnitType::Sfu);  // seq 2, completes 6 (sent at 2)
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) b.drv->outs[0].send(*w0);
    if (c == 2) {
      b.drv->outs[1].send(*w1);
      b.drv->outs[2].send(*w2);
    }
    return c < 2;
  });
  sc_core::sc_start(200, sc_core::SC_NS);
  REQUIRE(b.sink->retired.size() == 3);
  CHECK(b.sink->of(0).complete == 6);
  CHECK(b.sink->of(1).complete == 6);
  CHECK(b.sink->of(2).complete == 6);
  CHECK(b.sink->of(0).cycle == 7);
  CHECK(b.sink->of(1).cycle == 8);
  CHECK(b.sink->of(2).cycle == 9);
  CHECK(b.root.find("wb.port_limited_cycles")->scalar(stats::View::Total) == 2);
}

TEST_CASE("exec_unit full writeback back-pressures the unit", "[exec_unit]") {
  ExecConfig cfg;
  cfg.result_buffer = 1;
  Bench b(cfg, {UnitType::Sp}, 1, 1);
  InOrderScript s;
  const auto& add = b.f.make_instr(Opcode::Add, ScalarType::S32, OpClass::IntAlu);
  for (int i = 0; i < 12; ++i) s.todo.push_back({b.f.make(add, static_cast<uint32_t>(i), UnitType::Sp), 0});
  b.drv->set_script([&](uint64_t c) { return c < 1 || s(b, c); });
  sc_core::sc_start(2000, sc_core::SC_NS);
  REQUIRE(b.sink->retired.size() == 12);
  for (std::size_t i = 1; i < 12; ++i) CHECK(b.sink->retired[i].seq == b.sink->retired[i - 1].seq + 1);
  // A one-entry writeback buffer frees its slot for the cycle after a pop: one result
  // every 2 cycles, so the unit must have refused work.
  CHECK(s.refusals > 0);
  CHECK(b.root.find("u0.writeback_stall_cycles")->scalar(stats::View::Total) > 0);
  // The one-entry buffer writes back at most one result every 2 cycles.
  for (std::size_t i = 1; i < 12; ++i) CHECK(b.sink->retired[i].cycle - b.sink->retired[i - 1].cycle >= 2);
}

TEST_CASE("exec_unit refuses an instruction sent while busy", "[exec_unit]") {
  ExecConfig cfg;
  Bench b(cfg, {UnitType::Sp}, 1, 4);
  const auto& mul = b.f.make_instr(Opcode::Mul, ScalarType::S32, OpClass::IntMul);
  WarpInstruction* a = b.f.make(mul, 0, UnitType::Sp);
  WarpInstruction* c2 = b.f.make(mul, 0, UnitType::Sp);
  bool threw = false;
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) {
      b.drv->outs[0].send(*a);
      try {
        b.drv->outs[0].send(*c2);
      } catch (const PipelineError& e) {
        threw = std::string(e.what()).find("cannot accept") != std::string::npos;
      }
    }
    return c < 1;
  });
  sc_core::sc_start(100, sc_core::SC_NS);
  CHECK(threw);
}
