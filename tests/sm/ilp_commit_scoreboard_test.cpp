// The ilp_commit scoreboard (004 §4.2, digest §F3): stall on use with forwarding from
// complete entries, in-order commit the cycle after completion, the WAW active-mask rule,
// the full table and the solo instruction, stores, and the worked examples of §F3.
#include <catch2/catch.hpp>

#include "core/config/config_source.h"
#include "sm/pipeline_protocol.h"
#include "sm/scoreboard/ilp_commit_scoreboard.h"
#include "sm/scoreboard/scoreboard_registry.h"
#include "scoreboard_test_support.h"

using namespace gputlm;
using namespace gputlm::sm;
using test::instr;

namespace {
isa::Instruction load(uint32_t dst, uint32_t addr) {
  isa::Instruction in = instr({dst}, {addr}, isa::OpClass::MemGlobal);
  in.is_load = true;
  return in;
}
isa::Instruction store(uint32_t addr, uint32_t value) {
  isa::Instruction in = instr({}, {addr, value}, isa::OpClass::MemGlobal);
  in.is_store = true;
  return in;
}
uint64_t next_seq = 1;
WarpInstruction issued(uint32_t warp, const isa::Instruction& in, uint32_t mask = ~0u) {
  WarpInstruction wi;
  wi.warp = warp;
  wi.instr = &in;
  wi.seq = next_seq++;
  wi.pc = wi.seq * 8;
  wi.active_mask = mask;
  fill_register_keys(wi);
  wi.is_memory = in.is_load || in.is_store;
  wi.long_latency_load = is_long_latency_load(in);
  return wi;
}
IlpCommitConfig entries(uint32_t n) {
  IlpCommitConfig c;
  c.entries = n;
  return c;
}
}  // namespace

TEST_CASE("ilp_commit: the worked example stalls on use and forwards complete results", "[sm][scoreboard][ilp]") {
  // A: load r1 (miss); B: add r2; C: load r3 <- r2; D: add <- r1 (digest F3).
  IlpCommitScoreboard sb("sb", 4, entries(8));
  const isa::Instruction a = load(1, 9), b = instr({2}, {7}), c = load(3, 2), d = instr({4}, {1});
  REQUIRE(sb.check(0, a) == Hazard::None);
  const WarpInstruction wa = issued(0, a);
  sb.reserve(wa);
  CHECK(sb.check(0, b) == Hazard::None);  // B issues under the miss
  const WarpInstruction wb = issued(0, b);
  sb.reserve(wb);
  CHECK(sb.check(0, c) == Hazard::Other);  // r2 not yet complete
  sb.release(wb);
  CHECK(sb.check(0, c) == Hazard::None);  // C reads r2 from the table (complete, not committed)
  CHECK(sb.free_entries() == 6);
  sb.reserve(issued(0, c));
  CHECK(sb.check(0, d) == Hazard::Memory);  // D waits on the load of r1
  CHECK(sb.depends_on_long_latency_load(0, d));
  CHECK(sb.check(1, d) == Hazard::None);  // another warp's r1 is another register
  CHECK(sb.pending_writes(0) == 2);
}

TEST_CASE("ilp_commit: entries commit in order per warp the cycle after completion", "[sm][scoreboard][ilp]") {
  IlpCommitScoreboard sb("sb", 4, entries(8));
  const isa::Instruction a = load(1, 9), b = instr({2}, {7});
  const WarpInstruction wa = issued(0, a), wb = issued(0, b);
  sb.reserve(wa);
  sb.reserve(wb);
  sb.release(wb);  // B completes first, but A is older
  ScoreboardIF::CommitResult r = sb.commit(10);
  CHECK(r.warps == 0);
  CHECK(r.busy);  // B waits
  r = sb.commit(11);
  CHECK(r.warps == 0);  // still behind A
  CHECK(sb.free_entries() == 6);
  sb.release(wa);
  r = sb.commit(12);  // A completed in this cycle: it commits from the next
  CHECK(r.warps == 0);
  r = sb.commit(13);
  CHECK(sb.free_entries() == 7);  // A commits (one entry per warp per cycle)
  CHECK(r.emptied == 0);
  CHECK_FALSE(sb.quiet(0));
  r = sb.commit(14);
  CHECK(sb.free_entries() == 8);  // then B
  CHECK(r.emptied == 1);
  CHECK(r.warps == 0);  // no check of warp 0 waited for a commit
  CHECK(sb.quiet(0));
  CHECK_FALSE(r.busy);
  r = sb.commit(15);
  CHECK(r.warps == 0);
  CHECK(r.emptied == 0);
}

TEST_CASE("ilp_commit: a commit reports only the warps whose answer it can change", "[sm][scoreboard][ilp]") {
  // A commit frees a complete entry, the warp's oldest: it lifts WAW waits, the store/load
  // order and a full table, never a wait on an incomplete source (writeback lifts those).
  IlpCommitScoreboard sb("sb", 4, entries(8));
  const isa::Instruction a = instr({1}, {7}), b = instr({2}, {7}), c = load(3, 9), redef3 = instr({3}, {7});
  const isa::Instruction d = instr({4}, {7}), st = store(9, 8);
  const WarpInstruction wa = issued(0, a), wb = issued(1, b), wc = issued(2, c, 0xffu), wd = issued(3, d);
  sb.reserve(wa);
  sb.reserve(wb);
  sb.reserve(wc);
  sb.reserve(wd);
  sb.release(wa);
  CHECK(sb.check(0, instr({5}, {1})) == Hazard::None);         // warp 0 reads r1 from the table
  CHECK(sb.check(1, instr({5}, {2})) == Hazard::Other);        // warp 1 waits on B's writeback
  CHECK(sb.check_masked(2, redef3, 0x0fu) == Hazard::Memory);  // warp 2: WAW, fewer lanes
  CHECK(sb.check(3, st) == Hazard::Other);                     // warp 3: its store waits for D
  sb.release(wc);
  sb.release(wd);
  sb.commit(1);  // all three completed in this cycle
  ScoreboardIF::CommitResult r = sb.commit(2);
  CHECK(r.warps == 0b1100);    // warps 2 and 3 waited for these commits
  CHECK(r.emptied == 0b1101);  // warp 1's B is still in flight
  CHECK(sb.check_masked(2, redef3, 0x0fu) == Hazard::None);
  CHECK(sb.check(3, st) == Hazard::None);
  // Warp 1's wait ended at the writeback; its commit only empties it.
  sb.release(wb);
  sb.commit(3);
  r = sb.commit(4);
  CHECK(r.warps == 0);
  CHECK(r.emptied == 0b0010);
}

TEST_CASE("ilp_commit: a redefinition with a covering mask hides the older one", "[sm][scoreboard][ilp]") {
  // WAW: A: load r1; B: add r1; C: use r1 -> C matches only B (digest F3).
  IlpCommitScoreboard sb("sb", 2, entries(8));
  const isa::Instruction a = load(1, 9), b = instr({1}, {7}), c = instr({5}, {1});
  const WarpInstruction wa = issued(0, a, 0xffu);
  sb.reserve(wa);
  CHECK(sb.check_masked(0, b, 0xffu) == Hazard::None);  // same lanes: allowed
  CHECK(sb.check_masked(0, b, 0x1ffu) == Hazard::None); // a superset: allowed
  CHECK(sb.check_masked(0, b, 0x0fu) == Hazard::Memory);  // fewer lanes: waits for A to commit
  const WarpInstruction wb = issued(0, b, 0xffu);
  sb.reserve(wb);
  CHECK(sb.check(0, c) == Hazard::Other);  // B's r1, not A's
  sb.release(wb);
  CHECK(sb.check(0, c) == Hazard::None);  // A still in flight, but hidden
  CHECK_FALSE(sb.depends_on_long_latency_load(0, c));
  // A partial redefinition waits until the older definition commits.
  const isa::Instruction d = instr({1}, {7});
  CHECK(sb.check_masked(0, d, 0x0fu) == Hazard::Other);  // B (complete) is not committed
  sb.commit(20);  // B is behind A: nothing commits
  CHECK(sb.check_masked(0, d, 0x0fu) == Hazard::Other);
  sb.release(wa);
  sb.commit(21);
  sb.commit(22);  // A
  CHECK(sb.check_masked(0, d, 0x0fu) == Hazard::Other);
  sb.commit(23);  // B
  CHECK(sb.check_masked(0, d, 0x0fu) == Hazard::None);
}

TEST_CASE("ilp_commit: redefining one destination of an entry leaves its others visible", "[sm][scoreboard][ilp]") {
  IlpCommitScoreboard sb("sb", 1, entries(8));
  const isa::Instruction pair = instr({1, 2}, {7}), redef = instr({1}, {7});
  sb.reserve(issued(0, pair));
  const WarpInstruction wr = issued(0, redef);
  sb.reserve(wr);
  sb.release(wr);
  CHECK(sb.check(0, instr({5}, {1})) == Hazard::None);   // r1: the complete redefinition
  CHECK(sb.check(0, instr({5}, {2})) == Hazard::Other);  // r2: still the pair's, in flight
}

TEST_CASE("ilp_commit: a full table blocks warps with entries and lets one without issue solo",
          "[sm][scoreboard][ilp]") {
  std::vector<std::string> changes;
  IlpCommitScoreboard sb("sb", 4, entries(2));
  int shared_changes = 0;
  sb.set_shared_change_hook([&] { ++shared_changes; });
  const isa::Instruction x = instr({1}, {7}), y = instr({2}, {7}), z = instr({3}, {7}), br = instr({}, {7});
  const WarpInstruction w0 = issued(0, x);
  sb.reserve(w0);
  CHECK(shared_changes == 0);
  const WarpInstruction w1 = issued(1, y);
  sb.reserve(w1);
  CHECK(shared_changes == 1);  // the last entry taken
  CHECK(sb.free_entries() == 0);
  CHECK(sb.check(0, z) == Hazard::Other);   // warp 0 holds an entry: blocked
  CHECK(sb.check(0, br) == Hazard::None);   // no destination: needs no entry
  CHECK(sb.check(2, z) == Hazard::None);    // warp 2 holds none: solo
  const WarpInstruction w2 = issued(2, z);
  sb.reserve(w2);
  CHECK(sb.check(2, instr({4}, {8})) == Hazard::Other);  // its only instruction in flight
  CHECK(sb.check(2, br) == Hazard::Other);
  CHECK_FALSE(sb.quiet(2));
  CHECK(sb.pending_writes(2) == 1);
  CHECK_THROWS_AS(sb.reserve(issued(0, z)), PipelineError);  // check() would have refused it
  sb.release(w2);  // the solo instruction's writeback readies the warp
  CHECK(sb.quiet(2));
  CHECK(sb.check(2, instr({4}, {8})) == Hazard::None);
  sb.release(w0);
  CHECK_FALSE(sb.commit(5).all);  // completed this cycle
  const ScoreboardIF::CommitResult r = sb.commit(6);
  CHECK(r.warps == 1);
  CHECK(r.all);  // the table had been full: every warp's answer may change
  CHECK(sb.check(0, z) == Hazard::None);
}

TEST_CASE("ilp_commit: a store waits to be the oldest and holds the warp's loads until it commits",
          "[sm][scoreboard][ilp]") {
  IlpCommitScoreboard sb("sb", 2, entries(8));
  const isa::Instruction a = load(1, 9), b = instr({2}, {7}), st = store(9, 2), ld = load(3, 8), alu = instr({4}, {7});
  const WarpInstruction wa = issued(0, a), wb = issued(0, b);
  sb.reserve(wa);
  sb.reserve(wb);
  sb.release(wb);
  CHECK(sb.check(0, st) == Hazard::Memory);  // not the oldest: A (a load) in the table
  sb.release(wa);
  sb.commit(1);
  CHECK(sb.check(0, st) == Hazard::Memory);  // complete is not enough: committed
  sb.commit(2);
  CHECK(sb.check(0, st) == Hazard::Other);   // B still to commit
  sb.commit(3);
  REQUIRE(sb.check(0, st) == Hazard::None);
  const WarpInstruction ws = issued(0, st);
  sb.reserve(ws);
  CHECK(sb.check(0, ld) == Hazard::Memory);  // loads wait for the store's commit
  CHECK(sb.check(0, alu) == Hazard::None);   // independent ALU work does not
  CHECK(sb.check(1, ld) == Hazard::None);    // other warps' loads do not
  CHECK(sb.pending_writes(0) == 0);          // a store writes no register
  sb.release(ws);
  sb.commit(4);
  CHECK(sb.check(0, ld) == Hazard::Memory);
  sb.commit(5);
  CHECK(sb.check(0, ld) == Hazard::None);
  CHECK(sb.quiet(0));
}

TEST_CASE("ilp_commit: with store_waits_for completed a store issues once its warp's work is complete",
          "[sm][scoreboard][ilp]") {
  IlpCommitConfig c = entries(8);
  c.store_waits_for = "completed";
  IlpCommitScoreboard sb("sb", 1, c);
  const isa::Instruction a = load(1, 9), st = store(9, 2), ld = load(3, 8);
  const WarpInstruction wa = issued(0, a);
  sb.reserve(wa);
  CHECK(sb.check(0, st) == Hazard::Memory);
  sb.release(wa);
  CHECK(sb.check(0, st) == Hazard::None);  // complete, not yet committed
  sb.reserve(issued(0, st));
  CHECK(sb.check(0, ld) == Hazard::Memory);  // loads still wait for the store's commit
}

TEST_CASE("ilp_commit: a forwarded result is readable before its writeback and commits after it",
          "[sm][scoreboard][ilp]") {
  IlpCommitScoreboard sb("sb", 1, entries(8));
  const isa::Instruction a = instr({1}, {7}), use = instr({2}, {1}), ld = load(3, 9);
  WarpInstruction wa = issued(0, a);
  sb.reserve(wa);
  CHECK(sb.check(0, use) == Hazard::Other);
  sb.forward(wa);
  wa.forwarded = true;
  CHECK(sb.check(0, use) == Hazard::None);  // from the bypass
  CHECK_THROWS_AS(sb.forward(wa), PipelineError);  // twice
  CHECK(sb.commit(1).warps == 0);  // forwarded is not complete
  const WarpInstruction wl = issued(0, ld);
  sb.reserve(wl);
  CHECK_THROWS_AS(sb.forward(wl), PipelineError);  // a load has no bypass
  WarpInstruction not_marked = wa;
  not_marked.forwarded = false;
  CHECK_THROWS_AS(sb.release(not_marked), PipelineError);  // states must agree
  sb.release(wa);
  sb.commit(2);
  const ScoreboardIF::CommitResult r = sb.commit(3);
  CHECK(sb.free_entries() == 7);  // A committed; the load is still in flight
  CHECK(r.warps == 0);            // a wait on use never waits for a commit
  CHECK(r.emptied == 0);
}

TEST_CASE("ilp_commit: a commit budget serves lower warp slots first", "[sm][scoreboard][ilp]") {
  IlpCommitConfig c = entries(8);
  c.commits_per_cycle = 1;
  IlpCommitScoreboard sb("sb", 4, c);
  const isa::Instruction x = instr({1}, {7});
  const WarpInstruction w3 = issued(3, x), w1 = issued(1, x);
  sb.reserve(w3);
  sb.reserve(w1);
  sb.release(w3);
  sb.release(w1);
  sb.commit(1);
  CHECK(sb.commit(2).emptied == 0b0010);
  const ScoreboardIF::CommitResult r = sb.commit(3);
  CHECK(r.emptied == 0b1000);
  CHECK_FALSE(r.busy);
}

TEST_CASE("ilp_commit: contract errors and the policy by name", "[sm][scoreboard][ilp]") {
  IlpCommitScoreboard sb("sb", 2, entries(4));
  const isa::Instruction x = instr({1}, {7});
  const WarpInstruction w = issued(0, x);
  sb.reserve(w);
  sb.release(w);
  CHECK_THROWS_AS(sb.release(w), PipelineError);  // twice
  CHECK_THROWS_AS(sb.release(issued(1, x)), PipelineError);  // never reserved
  CHECK_NOTHROW(sb.release(issued(1, instr({}, {7}))));  // no destination: nothing to release
  CHECK_THROWS_AS(sb.check(5, x), PipelineError);
  ScoreboardConfig cfg;
  cfg.policy = "ilp_commit";
  auto made = make_scoreboard(cfg, "sm.scoreboard", "sb2", 4);
  CHECK(made->commits());
  CHECK(made->wants_active_mask());
  cfg.policy = "ilp";
  CHECK_THROWS_WITH(make_scoreboard(cfg, "sm.scoreboard", "sb3", 4),
                    Catch::Contains("sm.scoreboard.policy") && Catch::Contains("ilp_commit"));
}
