// SM back-end configuration: the GPGPU-Sim latency table per (opcode, type), config
// reading and validation errors that name the key, the re-execution queue registry,
// and the dispatch-port order the operand collector uses.
#include <catch2/catch.hpp>

#include "core/config/config_source.h"
#include "core/config/params.h"
#include "sm/exec/op_timing.h"
#include "sm/lsu/lsu_config.h"
#include "sm/lsu/reexec_queue.h"
#include "sm/operand_collector/operand_collector.h"
#include "sm/warp_instruction.h"

using namespace gputlm;
using namespace gputlm::sm;
using isa::Opcode;
using isa::ScalarType;

namespace {
OpTiming timing(const OpTimingTable& t, Opcode op, ScalarType type) {
  isa::Instruction in;
  in.op = op;
  in.type = type;
  return t.of(in);
}
}  // namespace

TEST_CASE("exec_unit latency table follows GPGPU-Sim's GTX480 lists", "[exec_unit]") {
  const OpTimingTable t(ExecConfig{});
  struct Row {
    Opcode op;
    ScalarType type;
    uint32_t lat, ii;
  };
  const std::vector<Row> rows{
      {Opcode::Add, ScalarType::S32, 4, 1},   {Opcode::Sub, ScalarType::U32, 4, 1},
      {Opcode::Max, ScalarType::S32, 13, 2},  {Opcode::Mul, ScalarType::S32, 4, 2},
      {Opcode::Mad, ScalarType::S32, 5, 1},   {Opcode::Div, ScalarType::S32, 145, 8},
      {Opcode::Rem, ScalarType::U64, 145, 8}, {Opcode::Add, ScalarType::F32, 4, 1},
      {Opcode::Min, ScalarType::F32, 13, 2},  {Opcode::Mul, ScalarType::F32, 4, 1},
      {Opcode::Fma, ScalarType::F32, 5, 1},   {Opcode::Div, ScalarType::F32, 39, 4},
      {Opcode::Add, ScalarType::F64, 8, 8},   {Opcode::Max, ScalarType::F64, 19, 16},
      {Opcode::Fma, ScalarType::F64, 8, 8},   {Opcode::Div, ScalarType::F64, 330, 130},
      {Opcode::Sqrt, ScalarType::F32, 8, 8},  {Opcode::Ex2, ScalarType::F32, 8, 8},
      {Opcode::Rcp, ScalarType::F64, 8, 8},   {Opcode::And, ScalarType::B32, 1, 1},
      {Opcode::Setp, ScalarType::F32, 1, 1},  {Opcode::Mov, ScalarType::U64, 1, 1},
      {Opcode::Cvt, ScalarType::F32, 1, 1},   {Opcode::Bra, ScalarType::None, 1, 1},
      {Opcode::Add, ScalarType::F16x2, 4, 1},
  };
  for (const Row& r : rows) {
    INFO(isa::opcode_name(r.op) << "." << isa::type_name(r.type));
    const OpTiming o = timing(t, r.op, r.type);
    CHECK(o.latency == r.lat);
    CHECK(o.initiation == r.ii);
  }
}

TEST_CASE("exec_unit latency_branch sets the latency of bra only and 0 keeps latency_other", "[exec_unit]") {
  ExecConfig cfg;
  cfg.latency_other = 2;
  const OpTimingTable same(cfg);
  CHECK(timing(same, Opcode::Bra, ScalarType::None).latency == 2);
  cfg.latency_branch = 8;  // 004's ILP SM resolves branches at EX8
  const OpTimingTable t(cfg);
  CHECK(timing(t, Opcode::Bra, ScalarType::None).latency == 8);
  CHECK(timing(t, Opcode::Bra, ScalarType::None).initiation == cfg.initiation_other);
  CHECK(timing(t, Opcode::Mov, ScalarType::U32).latency == 2);
  CHECK(timing(t, Opcode::Call, ScalarType::None).latency == 2);
  CHECK(timing(t, Opcode::Add, ScalarType::S32).latency == 4);
}

TEST_CASE("exec_unit division, remainder, sqrt and rcp issue to the SFU as GPGPU-Sim classifies them", "[exec_unit]") {
  // GPGPU-Sim (cuda-sim.cc set_opcode_and_latency): DIV/REM of every type and every
  // sqrt/rcp are SFU_OP; gputlm's op classes put the IEEE and integer forms on the SP.
  // The op class as the PTX front end assigns it (isa/frontend/classify.cpp).
  auto unit = [](Opcode op, ScalarType type, bool approx, bool divide_on_sfu, bool has_dp = false) {
    using isa::OpClass;
    isa::Instruction in;
    in.op = op;
    in.type = type;
    const bool fp = type == ScalarType::F32 || type == ScalarType::F64;
    if (approx) in.cls = OpClass::Sfu;
    else if (type == ScalarType::F64) in.cls = OpClass::Fp64;
    else if (op == Opcode::Div || op == Opcode::Rem) in.cls = fp ? OpClass::Fp32 : OpClass::IntDiv;
    else if (op == Opcode::Mul) in.cls = fp ? OpClass::Fp32 : OpClass::IntMul;
    else in.cls = fp ? OpClass::Fp32 : OpClass::IntAlu;
    return default_unit_for(in, has_dp, false, divide_on_sfu);
  };
  for (bool gs : {true, false}) {
    INFO("divide_on_sfu " << gs);
    const UnitType ieee = gs ? UnitType::Sfu : UnitType::Sp;
    CHECK(unit(Opcode::Div, ScalarType::F32, false, gs) == ieee);  // div.rn.f32
    CHECK(unit(Opcode::Sqrt, ScalarType::F32, false, gs) == ieee);
    CHECK(unit(Opcode::Rcp, ScalarType::F32, false, gs) == ieee);
    CHECK(unit(Opcode::Div, ScalarType::S32, false, gs) == ieee);
    CHECK(unit(Opcode::Rem, ScalarType::U64, false, gs) == ieee);
    CHECK(unit(Opcode::Div, ScalarType::F32, true, gs) == UnitType::Sfu);  // div.approx: always
    CHECK(unit(Opcode::Rsqrt, ScalarType::F32, true, gs) == UnitType::Sfu);
    CHECK(unit(Opcode::Div, ScalarType::F64, false, gs) == UnitType::Sfu);  // no DP unit (Fermi)
    CHECK(unit(Opcode::Div, ScalarType::F64, false, gs, true) == UnitType::Dp);
    CHECK(unit(Opcode::Add, ScalarType::F32, false, gs) == UnitType::Sp);
    CHECK(unit(Opcode::Mul, ScalarType::S32, false, gs) == UnitType::Sp);
    // f64 arithmetic is GPGPU-Sim's DP_OP (the SFU without a DP unit); f64 compares and
    // sign operations are ALU_OP, on the SP.
    CHECK(unit(Opcode::Fma, ScalarType::F64, false, gs) == UnitType::Sfu);
    CHECK(unit(Opcode::Add, ScalarType::F64, false, gs, true) == UnitType::Dp);
    CHECK(unit(Opcode::Setp, ScalarType::F64, false, gs) == UnitType::Sp);
    CHECK(unit(Opcode::Neg, ScalarType::F64, false, gs) == UnitType::Sp);
    CHECK(unit(Opcode::Abs, ScalarType::F64, false, gs, true) == UnitType::Sp);
    CHECK(unit(Opcode::Testp, ScalarType::F64, false, gs) == UnitType::Sp);
  }
  CHECK(ExecConfig{}.divide_on_sfu);
}

TEST_CASE("exec_unit config is read from JSON and bad lists name the key", "[exec_unit]") {
  ExecConfig cfg;
  const auto src = config::ConfigSource::from_json(
      nlohmann::json::parse(R"({"latency_int": [1,2,3,4,5], "sp_units": 4, "latency_sfu": 20})"), "exec.json");
  config::read(src, cfg);
  CHECK(cfg.sp_units == 4);
  CHECK(timing(OpTimingTable(cfg), Opcode::Div, ScalarType::S32).latency == 5);
  CHECK(timing(OpTimingTable(cfg), Opcode::Sin, ScalarType::F32).latency == 20);
  // GPGPU-Sim: shfl has its own entry (32 / 4 on the GTX480); mul24 and mad24 take one cycle
  // more than mul and mad.
  const OpTimingTable gtx480{ExecConfig{}};
  CHECK(timing(gtx480, Opcode::Shfl, ScalarType::B32).latency == 32);
  CHECK(timing(gtx480, Opcode::Shfl, ScalarType::B32).initiation == 4);
  CHECK(timing(gtx480, Opcode::Mul24, ScalarType::S32).latency == ExecConfig{}.latency_int[2] + 1);
  CHECK(timing(gtx480, Opcode::Mad24, ScalarType::U32).initiation == ExecConfig{}.initiation_int[3] + 1);
  CHECK(timing(gtx480, Opcode::Mul, ScalarType::S32).latency == ExecConfig{}.latency_int[2]);
  ExecConfig bad;
  bad.latency_fp = {4, 13, 4};
  CHECK_THROWS_WITH(OpTimingTable(bad), Catch::Contains("exec.latency_fp") && Catch::Contains("5 entries"));
  ExecConfig zero;
  zero.initiation_dp[2] = 0;
  CHECK_THROWS_WITH(zero.validate("sm.exec"), Catch::Contains("sm.exec.initiation_dp[2]"));
  ExecConfig typo;
  const auto src2 = config::ConfigSource::from_json(nlohmann::json::parse(R"({"latncy_int": [1]})"), "exec.json");
  CHECK_THROWS_WITH(config::read(src2, typo), Catch::Contains("latncy_int"));
}

TEST_CASE("exec_unit forwarding is none by default and a bad value names the key", "[exec_unit]") {
  CHECK(ExecConfig{}.forwarding == "none");
  CHECK_FALSE(ExecConfig{}.forwards_alu());
  ExecConfig cfg;
  config::read(config::ConfigSource::from_json(nlohmann::json::parse(R"({"forwarding": "alu"})"), "exec.json"), cfg);
  CHECK(cfg.forwards_alu());
  ExecConfig bad;
  const auto src = config::ConfigSource::from_json(nlohmann::json::parse(R"({"forwarding": "ex8"})"), "exec.json");
  CHECK_THROWS_WITH(config::read(src, bad), Catch::Contains("forwarding") && Catch::Contains("none, alu"));
  bad.forwarding = "ALU";  // set without the reader: validate catches it
  CHECK_THROWS_WITH(bad.validate("sm.exec"), Catch::Contains("sm.exec.forwarding"));
}

TEST_CASE("lsu config validation and the re-execution queue registry name the key", "[lsu]") {
  LsuConfig cfg;
  cfg.validate("sm.lsu");
  cfg.const_line_size = 256;
  CHECK_THROWS_WITH(cfg.validate("sm.lsu"), Catch::Contains("sm.lsu.const_line_size"));
  LsuConfig shared;
  shared.shared_memory.banks = 24;
  CHECK_THROWS_WITH(shared.validate("sm.lsu"), Catch::Contains("sm.lsu.shared_memory.banks"));
  ReexecQueueConfig q;
  auto none = make_reexec_queue(q, "sm.lsu.reexec_queue");
  CHECK(std::string(none->name()) == "none");
  LsuRequest r;
  CHECK_FALSE(none->take(r, 0));
  CHECK_FALSE(none->must_queue(r));
  CHECK_FALSE(none->pick(true, 0, r));
  CHECK(none->occupancy() == 0);
  q.policy = "carr";
  CHECK_THROWS_WITH(make_reexec_queue(q, "sm.lsu.reexec_queue"),
                    Catch::Contains("sm.lsu.reexec_queue.policy") && Catch::Contains("carr"));
  LsuConfig from_json;
  const auto src = config::ConfigSource::from_json(
      nlohmann::json::parse(R"({"reexec_queue": {"policy": "carr"}})"), "lsu.json");
  CHECK_THROWS_WITH(config::read(src, from_json), Catch::Contains("reexec_queue.policy"));
}

TEST_CASE("operand_collector dispatch ports and config listing", "[operand_collector]") {
  ExecConfig e;
  e.dp_units = 1;
  const auto ports = dispatch_ports(e);
  CHECK(ports == std::vector<UnitType>{UnitType::Sp, UnitType::Sp, UnitType::Sfu, UnitType::Dp, UnitType::Mem});
  OperandCollectorConfig oc;
  oc.register_banks = 0;
  CHECK_THROWS_WITH(oc.validate("sm.operand_collector"), Catch::Contains("sm.operand_collector.register_banks"));
  for (const auto& p : config::list(OperandCollectorConfig{}, "operand_collector")) CHECK_FALSE(p.description.empty());
  for (const auto& p : config::list(LsuConfig{}, "lsu")) CHECK_FALSE(p.description.empty());
  for (const auto& p : config::list(ExecConfig{}, "exec")) CHECK_FALSE(p.description.empty());
}
