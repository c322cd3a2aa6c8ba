// Operand collector: exact dispatch cycles under register-bank conflicts (constructed
// cases and random traffic against oc_golden.h), single-ported collectors, availability
// per (scheduler, unit type) readable by every scheduler (KAWS), dispatch back-pressure.
#include <catch2/catch.hpp>

#include <memory>
#include <random>

#include "core/stats/stats.h"
#include "oc_golden.h"
#include "sm/operand_collector/operand_collector.h"
#include "support/sm/pipeline_stages.h"

using namespace gputlm;
using namespace gputlm::sm;
using isa::OpClass;
using isa::Opcode;
using isa::ScalarType;

namespace {
struct Bench {
  ClockDomain dom = ClockDomain::from_mhz("core", 700);
  stats::Group root{"sm0"};
  test_support::InstructionFactory f;
  ExecConfig ecfg;
  std::unique_ptr<OperandCollector> oc;
  std::vector<std::unique_ptr<test_support::FakeUnit>> units;
  std::unique_ptr<test_support::StageDriver> drv;

  explicit Bench(const OperandCollectorConfig& cfg, const ExecConfig& exec = ExecConfig{}) : ecfg(exec) {
    oc = std::make_unique<OperandCollector>("oc", cfg, ecfg, dom, root);
    drv = std::make_unique<test_support::StageDriver>("drv", dom, 1);
    drv->outs[0].bind(oc->issue_in);
    drv->add_stage(*oc);
    const auto ports = dispatch_ports(ecfg);
    for (std::size_t p = 0; p < ports.size(); ++p) {
      units.push_back(
          std::make_unique<test_support::FakeUnit>(("unit" + std::to_string(p)).c_str(), ports[p], dom, f.pool));
      oc->dispatch[p].bind(units.back()->in);
      oc->unit_status[p].bind(units.back()->status_export);
    }
  }
  // Dispatch cycle of instruction `seq` (throws if never dispatched).
  uint64_t dispatched(uint64_t seq) const {
    for (const auto& u : units)
      for (const auto& r : u->received)
        if (r.seq == seq) return r.cycle;
    throw std::runtime_error("seq " + std::to_string(seq) + " not dispatched");
  }
  const isa::Instruction& add(std::vector<uint32_t> srcs) {
    return f.make_instr(Opcode::Add, ScalarType::S32, OpClass::IntAlu, srcs, {100});
  }
};
}  // namespace

TEST_CASE("operand_collector operands in distinct banks dispatch two cycles after issue", "[operand_collector]") {
  Bench b(OperandCollectorConfig{});
  WarpInstruction* wi = b.f.make(b.add({0, 1, 2}), 0, UnitType::Sp);
  WarpInstruction* none = b.f.make(b.f.make_instr(Opcode::Mov, ScalarType::U32, OpClass::IntAlu, {}, {5}), 1,
                                   UnitType::Sp);
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) {
      REQUIRE(b.oc->can_accept(0, UnitType::Sp));
      b.drv->outs[0].send(*wi);
      b.drv->outs[0].send(*none);
    }
    return c < 1;
  });
  sc_core::sc_start(100, sc_core::SC_NS);
  CHECK(b.dispatched(0) == 3);
  CHECK(b.dispatched(1) == 3);
  CHECK(b.units[0]->received.size() == 2);  // both to the first SP port
}

TEST_CASE("operand_collector bank conflicts serialise reads", "[operand_collector]") {
  Bench b(OperandCollectorConfig{});  // 16 banks
  // Warp 0: r0, r16, r32 all in bank 0. Warp 1: r15 and r31 are in bank (15+1)%16 = 0 too.
  WarpInstruction* a = b.f.make(b.add({0, 16, 32}), 0, UnitType::Sp);
  WarpInstruction* c = b.f.make(b.add({15, 31}), 1, UnitType::Sfu);
  b.drv->set_script([&](uint64_t cyc) {
    if (cyc == 1) {
      b.drv->outs[0].send(*a);
      b.drv->outs[0].send(*c);
    }
    return cyc < 1;
  });
  sc_core::sc_start(100, sc_core::SC_NS);
  CHECK(b.dispatched(0) == 5);  // reads 2, 3, 4
  CHECK(b.dispatched(1) == 7);  // reads 5, 6 (younger)
  CHECK(b.root.find("oc.bank_conflict_cycles")->scalar(stats::View::Total) == 4);
  CHECK(b.oc->bank_of(15, 1) == 0);
}

TEST_CASE("operand_collector single-ported collector reads one operand per cycle", "[operand_collector]") {
  OperandCollectorConfig cfg;
  cfg.reads_per_collector = 1;
  Bench b(cfg);
  WarpInstruction* a = b.f.make(b.add({0, 1, 2}), 0, UnitType::Sp);
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) b.drv->outs[0].send(*a);
    return c < 1;
  });
  sc_core::sc_start(100, sc_core::SC_NS);
  CHECK(b.dispatched(0) == 5);
}

TEST_CASE("operand_collector random traffic matches the golden dispatch cycles", "[operand_collector]") {
  OperandCollectorConfig cfg;
  cfg.register_banks = 8;
  Bench b(cfg);
  std::mt19937_64 rng(2024);
  struct Plan {
    WarpInstruction* wi;
    golden::OcInstr g;
  };
  std::vector<Plan> plan;
  const UnitType types[3] = {UnitType::Sp, UnitType::Sfu, UnitType::Mem};
  for (int i = 0; i < 60; ++i) {
    std::vector<uint32_t> regs;
    const int n = static_cast<int>(rng() % 4);
    while (static_cast<int>(regs.size()) < n) {
      const uint32_t r = static_cast<uint32_t>(rng() % 40);
      if (std::find(regs.begin(), regs.end(), r) == regs.end()) regs.push_back(r);
    }
    const uint32_t warp = static_cast<uint32_t>(rng() % 12);
    const UnitType u = types[rng() % 3];
    plan.push_back(Plan{b.f.make(b.add(regs), warp, u, static_cast<uint32_t>(rng() % 2)), {0, warp, regs}});
  }
  std::size_t next = 0;
  b.drv->set_script([&](uint64_t c) {
    // Issue in order while a collector is free; at most two per cycle (two schedulers).
    for (int k = 0; k < 2 && next < plan.size(); ++k) {
      WarpInstruction* wi = plan[next].wi;
      if (!b.oc->can_accept(wi->issue_scheduler, wi->unit)) break;
      plan[next].g.issue = c;
      b.drv->outs[0].send(*wi);
      ++next;
    }
    return next < plan.size();
  });
  sc_core::sc_start(5000, sc_core::SC_NS);
  REQUIRE(next == plan.size());
  std::vector<golden::OcInstr> g;
  for (const Plan& p : plan) g.push_back(p.g);
  const auto expect = golden::oc_dispatch_cycles(g, 8, 0);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    INFO("instruction " << i);
    CHECK(b.dispatched(i) == expect[i]);
  }
  CHECK(b.oc->idle());
}

TEST_CASE("operand_collector availability per scheduler is visible to every scheduler (KAWS)",
          "[operand_collector]") {
  OperandCollectorConfig cfg;
  cfg.per_scheduler = true;
  cfg.schedulers = 2;
  cfg.collectors_sp = cfg.collectors_sfu = cfg.collectors_mem = 1;
  cfg.reads_per_collector = 1;
  Bench b(cfg);
  b.units[0]->accept = false;  // SP port 0
  b.units[1]->accept = false;  // SP port 1
  WarpInstruction* a = b.f.make(b.add({0}), 0, UnitType::Sp, 0);
  WarpInstruction* shared = b.f.make(b.add({1}), 4, UnitType::Sp, 1);
  shared->scheduler = 0;  // scheduler 0's warp issued on scheduler 1's collector
  std::vector<bool> seen;
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) {
      b.drv->outs[0].send(*a);
      seen.push_back(b.oc->can_accept(0, UnitType::Sp));   // false: taken
      seen.push_back(b.oc->can_accept(1, UnitType::Sp));   // true
      seen.push_back(b.oc->can_accept(0, UnitType::Sfu));  // true
      b.drv->outs[0].send(*shared);
      seen.push_back(b.oc->can_accept(1, UnitType::Sp));   // false
    }
    if (c == 10) {
      seen.push_back(b.oc->can_accept(0, UnitType::Sp));  // still held: units refuse
      b.units[0]->accept = true;
      b.units[1]->accept = true;
    }
    if (c == 12) seen.push_back(b.oc->can_accept(0, UnitType::Sp));  // freed at 11, free from 12
    return c < 12;
  });
  sc_core::sc_start(100, sc_core::SC_NS);
  CHECK(seen == std::vector<bool>{false, true, true, false, false, true});
  CHECK(b.dispatched(0) == 11);
  CHECK(b.dispatched(1) == 11);
  CHECK(b.root.find("oc.dispatch_stall_cycles")->scalar(stats::View::Total) == 8);  // cycles 3..10
}

// Pascal's sub-core binding: 2 schedulers, 2 SP units, each scheduler's collectors feed only its own SP.
void check_unit_binding(bool bound) {
  OperandCollectorConfig cfg;
  cfg.per_scheduler = true;
  cfg.units_per_scheduler = bound;
  cfg.schedulers = 2;
  cfg.collectors_sp = cfg.collectors_sfu = cfg.collectors_mem = 1;
  ExecConfig exec;
  exec.sp_units = 2;
  exec.sfu_units = 2;
  Bench b(cfg, exec);
  REQUIRE(b.units[0]->unit_type() == UnitType::Sp);
  b.units[0]->accept = false;  // scheduler 0's SP is busy until cycle 10
  WarpInstruction* a = b.f.make(b.add({0}), 0, UnitType::Sp, 0);
  WarpInstruction* c = b.f.make(b.add({1}), 1, UnitType::Sp, 1);
  b.drv->set_script([&](uint64_t cyc) {
    if (cyc == 1) {
      b.drv->outs[0].send(*a);
      b.drv->outs[0].send(*c);
    }
    if (cyc == 10) b.units[0]->accept = true;
    return cyc < 10;
  });
  sc_core::sc_start(100, sc_core::SC_NS);
  if (bound) {
    CHECK(b.dispatched(0) == 11);  // waits for its own unit (accepting again from cycle 10's script)
    CHECK(b.units[0]->received.size() == 1);
    CHECK(b.dispatched(1) == 3);  // scheduler 1's unit was free
    CHECK(b.units[1]->received.size() == 1);
    CHECK(b.root.find("oc.dispatch_stall_cycles")->scalar(stats::View::Total) == 8);  // cycles 3..10
  } else {
    CHECK(b.dispatched(0) == 3);  // both go to SP 1 at once (the fake unit takes any number)
    CHECK(b.dispatched(1) == 3);
    CHECK(b.units[1]->received.size() == 2);
    CHECK(b.root.find("oc.dispatch_stall_cycles")->scalar(stats::View::Total) == 0);
  }
}

TEST_CASE("operand_collector units_per_scheduler binds unit k to scheduler k (Pascal sub-cores)",
          "[operand_collector]") {
  check_unit_binding(true);
}

TEST_CASE("operand_collector without units_per_scheduler any unit of the type takes any collector",
          "[operand_collector]") {
  check_unit_binding(false);
}

TEST_CASE("operand_collector units_per_scheduler rejects unit counts that do not split over the schedulers",
          "[operand_collector]") {
  OperandCollectorConfig cfg;
  cfg.per_scheduler = true;
  cfg.units_per_scheduler = true;
  cfg.schedulers = 2;
  ExecConfig exec;
  exec.sp_units = 3;
  stats::Group root{"sm0"};
  ClockDomain dom = ClockDomain::from_mhz("core", 700);
  CHECK_THROWS_WITH(OperandCollector("oc", cfg, exec, dom, root), Catch::Contains("exec.sp_units"));
  cfg.per_scheduler = false;
  exec.sp_units = 2;
  CHECK_THROWS_WITH(OperandCollector("oc2", cfg, exec, dom, root),
                    Catch::Contains("operand_collector.units_per_scheduler"));
}

TEST_CASE("operand_collector refuses an instruction without a free collector", "[operand_collector]") {
  OperandCollectorConfig cfg;
  cfg.collectors_sp = 1;
  Bench b(cfg);
  WarpInstruction* a = b.f.make(b.add({0}), 0, UnitType::Sp);
  WarpInstruction* c2 = b.f.make(b.add({0}), 1, UnitType::Sp);
  std::string err;
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) {
      b.drv->outs[0].send(*a);
      try {
        b.drv->outs[0].send(*c2);
      } catch (const PipelineError& e) {
        err = e.what();
      }
    }
    return c < 1;
  });
  sc_core::sc_start(100, sc_core::SC_NS);
  CHECK_THAT(err, Catch::Contains("no free sp collector"));
}

TEST_CASE("operand_collector issue_width limits the instructions of a unit type issued in one cycle (ID_OC)",
          "[operand_collector]") {
  OperandCollectorConfig cfg;  // 8 SFU collectors, 6 SP: the widths bind, not the collectors
  cfg.issue_width_sfu = 1;
  cfg.issue_width_sp = 2;
  Bench b(cfg);
  WarpInstruction* s0 = b.f.make(b.add({0}), 0, UnitType::Sfu);
  WarpInstruction* s1 = b.f.make(b.add({1}), 1, UnitType::Sfu);
  WarpInstruction* p0 = b.f.make(b.add({2}), 2, UnitType::Sp);
  WarpInstruction* p1 = b.f.make(b.add({3}), 3, UnitType::Sp);
  std::vector<bool> seen;
  std::vector<uint64_t> version;
  std::string err;
  b.drv->set_script([&](uint64_t c) {
    if (c == 1) {
      version.push_back(b.oc->availability_version(c));
      seen.push_back(b.oc->can_accept(0, UnitType::Sfu));  // true
      b.drv->outs[0].send(*s0);
      seen.push_back(b.oc->can_accept(1, UnitType::Sfu));  // false: one SFU issue per cycle
      seen.push_back(b.oc->can_accept(1, UnitType::Sp));   // true: another type
      b.drv->outs[0].send(*p0);
      seen.push_back(b.oc->can_accept(0, UnitType::Sp));  // true: two SP per cycle
      b.drv->outs[0].send(*p1);
      seen.push_back(b.oc->can_accept(0, UnitType::Sp));  // false
      version.push_back(b.oc->availability_version(c));
      try {
        b.drv->outs[0].send(*s1);
      } catch (const PipelineError& e) {
        err = e.what();
      }
    }
    if (c == 2) {
      version.push_back(b.oc->availability_version(c));  // differs: the widths are free again
      seen.push_back(b.oc->can_accept(1, UnitType::Sfu));  // true
      b.drv->outs[0].send(*s1);
    }
    return c < 2;
  });
  sc_core::sc_start(100, sc_core::SC_NS);
  CHECK(seen == std::vector<bool>{true, false, true, true, false, true});
  CHECK_THAT(err, Catch::Contains("issue_width 1"));
  REQUIRE(version.size() == 3);
  CHECK(version[2] != version[1]);
  CHECK(b.dispatched(0) == 3);
  CHECK(b.dispatched(1) == 4);
}
