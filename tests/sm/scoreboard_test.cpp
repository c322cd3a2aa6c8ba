// Scoreboard hazards: RAW and WAW on registers and predicates, the memory and
// long-latency-load marks, release, and contract violations; the barrel (stall-on-issue)
// scoreboard; policies by name.
#include <catch2/catch.hpp>

#include "sm/pipeline_protocol.h"
#include "core/config/config_source.h"
#include "sm/scoreboard/barrel_scoreboard.h"
#include "sm/scoreboard/ilp_commit_scoreboard.h"
#include "sm/scoreboard/scoreboard.h"
#include "sm/scoreboard/scoreboard_registry.h"
#include "scoreboard_test_support.h"

using namespace gputlm;
using namespace gputlm::sm;
using test::instr;

namespace {
WarpInstruction issued(uint32_t warp, const isa::Instruction& in, bool memory) {
  WarpInstruction wi;
  wi.warp = warp;
  wi.instr = &in;
  fill_register_keys(wi);
  wi.is_memory = memory;
  wi.long_latency_load = is_long_latency_load(in);
  return wi;
}
}  // namespace

TEST_CASE("scoreboard: RAW and WAW hazards per warp, memory and long-latency marks", "[sm][scoreboard]") {
  Scoreboard sb("sb", 4);
  isa::Instruction ld = instr({5}, {1}, isa::OpClass::MemGlobal);
  ld.is_load = true;
  const WarpInstruction w_ld = issued(0, ld, true);
  sb.reserve(w_ld);
  CHECK(sb.pending_writes(0) == 1);

  const isa::Instruction use5 = instr({7}, {5, 2});
  const isa::Instruction use6 = instr({7}, {6});
  const isa::Instruction write5 = instr({5}, {2});
  CHECK(sb.check(0, use5) == Hazard::Memory);   // RAW on a load result
  CHECK(sb.check(0, write5) == Hazard::Memory); // WAW
  CHECK(sb.check(0, use6) == Hazard::None);
  CHECK(sb.check(1, use5) == Hazard::None);     // other warps are independent
  CHECK(sb.depends_on_long_latency_load(0, use5));
  CHECK_FALSE(sb.depends_on_long_latency_load(0, write5));  // a WAW is not a source dependence

  const isa::Instruction mul = instr({6}, {2});
  const WarpInstruction w_mul = issued(0, mul, false);
  sb.reserve(w_mul);
  CHECK(sb.check(0, use6) == Hazard::Other);
  CHECK_FALSE(sb.depends_on_long_latency_load(0, use6));
  const isa::Instruction both = instr({8}, {5, 6});
  CHECK(sb.check(0, both) == Hazard::Memory);  // any memory producer makes it a memory hazard
  CHECK(sb.describe(0) == "r5(ld) r6");

  // A shared-memory load is a memory result but not a long-latency one.
  isa::Instruction lds = instr({9}, {1}, isa::OpClass::MemShared);
  lds.is_load = true;
  sb.reserve(issued(0, lds, true));
  CHECK(sb.check(0, instr({1}, {9})) == Hazard::Memory);
  CHECK_FALSE(sb.depends_on_long_latency_load(0, instr({1}, {9})));

  sb.release(w_ld);
  CHECK(sb.check(0, use5) == Hazard::None);
  CHECK(sb.pending_writes(0) == 2);
  CHECK_THROWS_AS(sb.release(w_ld), PipelineError);        // not pending any more
  CHECK_THROWS_AS(sb.reserve(w_mul), PipelineError);       // WAW issued anyway
  CHECK_THROWS_AS(sb.check(9, use5), PipelineError);       // no such warp slot
}

TEST_CASE("scoreboard: predicate registers are tracked separately from general registers", "[sm][scoreboard]") {
  Scoreboard sb("sb", 2);
  isa::Instruction setp = instr({}, {3});
  setp.n_dst_preds = 1;
  setp.dst_preds[0] = 3;  // %p3, not %r3
  const WarpInstruction w = issued(1, setp, false);
  sb.reserve(w);
  isa::Instruction guarded = instr({4}, {3});  // reads %r3 only
  CHECK(sb.check(1, guarded) == Hazard::None);
  guarded.n_src_preds = 1;
  guarded.src_preds[0] = 3;  // @%p3
  CHECK(sb.check(1, guarded) == Hazard::Other);
  sb.release(w);
  CHECK(sb.check(1, guarded) == Hazard::None);
}

TEST_CASE("barrel scoreboard: one instruction in flight per warp whatever its registers", "[sm][scoreboard]") {
  BarrelScoreboard sb("barrel", 4);
  isa::Instruction ld = instr({5}, {1}, isa::OpClass::MemGlobal);
  ld.is_load = true;
  WarpInstruction w_ld = issued(0, ld, true);
  w_ld.pc = 0x40;
  const isa::Instruction independent = instr({7}, {2});  // shares no register with the load
  const isa::Instruction use5 = instr({7}, {5});
  CHECK(sb.check(0, independent) == Hazard::None);
  sb.reserve(w_ld);
  CHECK(sb.pending_writes(0) == 1);
  CHECK(sb.check(0, independent) == Hazard::Memory);  // the conventional scoreboard says None
  CHECK(sb.check(0, use5) == Hazard::Memory);
  CHECK(sb.check(1, independent) == Hazard::None);  // other warps are independent
  CHECK(sb.depends_on_long_latency_load(0, use5));
  CHECK_FALSE(sb.depends_on_long_latency_load(0, independent));
  CHECK(sb.describe(0) == "in flight: pc 0x40 r5 (ld)");
  CHECK_THROWS_AS(sb.reserve(issued(0, independent, false)), PipelineError);  // a second in flight

  sb.release(w_ld);
  CHECK(sb.check(0, independent) == Hazard::None);
  CHECK(sb.pending_writes(0) == 0);
  CHECK(sb.describe(0).empty());
  CHECK_THROWS_AS(sb.release(w_ld), PipelineError);  // nothing in flight

  // An ALU instruction in flight, even one without destination registers, blocks as Other.
  const isa::Instruction nodst = instr({}, {2});
  WarpInstruction w_nodst = issued(2, nodst, false);
  sb.reserve(w_nodst);
  CHECK(sb.pending_writes(2) == 0);
  CHECK(sb.check(2, independent) == Hazard::Other);
  CHECK_FALSE(sb.depends_on_long_latency_load(2, use5));
  sb.release(w_nodst);
  CHECK(sb.check(2, independent) == Hazard::None);
  CHECK_THROWS_AS(sb.check(4, independent), PipelineError);  // slot out of range
}

TEST_CASE("scoreboard: a forwarded result is readable and still blocks writers until its writeback",
          "[sm][scoreboard]") {
  Scoreboard sb("sb", 2);
  const isa::Instruction mul = instr({6}, {2});
  WarpInstruction w_mul = issued(0, mul, false);
  sb.reserve(w_mul);
  const isa::Instruction use6 = instr({7}, {6});
  const isa::Instruction write6 = instr({6}, {3});
  const isa::Instruction rmw6 = instr({6}, {6});  // x = f(x): reads by bypass, writes only after writeback
  CHECK(sb.check(0, use6) == Hazard::Other);
  sb.forward(w_mul);
  w_mul.forwarded = true;  // (SmCore::forwarded sets it)
  CHECK(sb.check(0, use6) == Hazard::None);     // RAW cleared at the bypass point
  CHECK(sb.check(0, write6) == Hazard::Other);  // WAW pending until writeback
  CHECK(sb.check(0, rmw6) == Hazard::Other);
  CHECK(sb.pending_writes(0) == 1);
  CHECK(sb.describe(0) == "r6(fwd)");
  // The release must say it was forwarded, once.
  WarpInstruction not_marked = w_mul;
  not_marked.forwarded = false;
  CHECK_THROWS_AS(sb.release(not_marked), PipelineError);
  sb.release(w_mul);
  CHECK(sb.pending_writes(0) == 0);
  CHECK(sb.check(0, write6) == Hazard::None);
  CHECK_THROWS_AS(sb.release(w_mul), PipelineError);  // released twice
  CHECK_THROWS_AS(sb.forward(w_mul), PipelineError);  // not pending any more

  // A load is never forwarded, and an unforwarded instruction released as forwarded is an error.
  isa::Instruction ld = instr({5}, {1}, isa::OpClass::MemGlobal);
  ld.is_load = true;
  const WarpInstruction w_ld = issued(0, ld, true);
  sb.reserve(w_ld);
  CHECK_THROWS_AS(sb.forward(w_ld), PipelineError);
  CHECK(sb.check(0, instr({7}, {5})) == Hazard::Memory);
  WarpInstruction ld_marked = w_ld;
  ld_marked.forwarded = true;
  CHECK_THROWS_AS(sb.release(ld_marked), PipelineError);
  sb.release(w_ld);
  CHECK(sb.pending_writes(0) == 0);
}

TEST_CASE("barrel scoreboard: with forwarding the warp is ready at the bypass point and the forwarded "
          "instruction is written back later",
          "[sm][scoreboard]") {
  BarrelScoreboard sb("barrel", 2);
  const isa::Instruction a = instr({6}, {2}), b = instr({7}, {6});
  WarpInstruction w_a = issued(0, a, false), w_b = issued(0, b, false);
  w_a.seq = 10;
  w_b.seq = 11;
  sb.reserve(w_a);
  CHECK(sb.check(0, b) == Hazard::Other);
  CHECK_THROWS_AS(sb.forward(w_b), PipelineError);  // not the one in flight
  sb.forward(w_a);
  w_a.forwarded = true;
  CHECK(sb.check(0, b) == Hazard::None);  // 004 §4.1: the ready bit at EX_L
  CHECK(sb.describe(0) == "1 forwarded awaiting writeback");
  sb.reserve(w_b);  // a second instruction in flight beside the forwarded one
  CHECK(sb.pending_writes(0) == 2);
  CHECK(sb.check(0, a) == Hazard::Other);
  sb.release(w_a);
  CHECK_THROWS_AS(sb.release(w_a), PipelineError);  // written back twice
  CHECK(sb.pending_writes(0) == 1);
  CHECK(sb.check(0, a) == Hazard::Other);  // b still holds the warp
  WarpInstruction b_marked = w_b;
  b_marked.forwarded = true;
  CHECK_THROWS_AS(sb.release(b_marked), PipelineError);  // b was not forwarded
  sb.release(w_b);
  CHECK(sb.check(0, a) == Hazard::None);
  CHECK(sb.pending_writes(0) == 0);
  CHECK(sb.describe(0).empty());

  // A memory instruction keeps the warp until its writeback.
  isa::Instruction ld = instr({5}, {1}, isa::OpClass::MemGlobal);
  ld.is_load = true;
  const WarpInstruction w_ld = issued(1, ld, true);
  sb.reserve(w_ld);
  CHECK_THROWS_AS(sb.forward(w_ld), PipelineError);
  CHECK(sb.check(1, b) == Hazard::Memory);
  sb.release(w_ld);
  CHECK(sb.check(1, b) == Hazard::None);
}

TEST_CASE("scoreboard registry: policies by name and an unknown name names the key", "[sm][scoreboard]") {
  ScoreboardConfig cfg;
  CHECK(scoreboard_policy_names() == std::vector<std::string>{"conventional", "barrel", "ilp_commit"});
  auto conventional = make_scoreboard(cfg, "sm.scoreboard", "conventional", 2);
  CHECK(dynamic_cast<Scoreboard*>(conventional.get()) != nullptr);
  cfg.policy = "barrel";
  auto barrel = make_scoreboard(cfg, "sm.scoreboard", "barrel", 2);
  CHECK(dynamic_cast<BarrelScoreboard*>(barrel.get()) != nullptr);
  cfg.policy = "ilp_commit";
  auto ilp = make_scoreboard(cfg, "sm.scoreboard", "ilp_commit", 2);
  CHECK(dynamic_cast<IlpCommitScoreboard*>(ilp.get()) != nullptr);
  cfg.policy = "scoreboarding";
  CHECK_THROWS_WITH(make_scoreboard(cfg, "sm.scoreboard", "other", 2),
                    Catch::Contains("sm.scoreboard.policy") && Catch::Contains("scoreboarding"));
}
