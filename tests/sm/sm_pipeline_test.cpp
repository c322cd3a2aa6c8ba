// Pipeline tests of the whole Sm (front half + operand collectors + execution units +
// LSU + L1s + memory port) on real PTX (cu/pipeline.cu), with exact cycles.
//
// Dependent-issue distance: an instruction issued in cycle I is in a collector unit in I;
// its operands (distinct banks) are read in I+1; it dispatches in I+2 and finishes at
// I+2+latency; the writeback stage receives it then and writes it back one cycle later,
// when the retire sink releases its registers, so a consumer issues at I+3+latency.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "sm/exec/op_timing.h"
#include "sm/scheduler/scheduler_policy.h"
#include "sm_test_harness.h"
#include "support/sm/pipeline_kernels.h"

using namespace sm_test;

namespace {
constexpr uint64_t kPipelineOverhead = 3;

SmConfig one_scheduler(const std::string& policy) {
  SmConfig cfg;
  cfg.scheduler.count = 1;
  cfg.scheduler.policy = policy;
  cfg.operand_collector.schedulers = 1;
  return cfg;
}

// The latency of the alu_chain instruction whose text is `producer` (mul 4, xor 1, add 4 by
// default): the exec config's INT MUL and ADD columns, latency_other for the rest.
uint64_t producer_latency(const SmConfig& cfg, const std::string& producer) {
  if (producer.rfind("mul", 0) == 0) return cfg.exec.latency_int[2];
  if (producer.rfind("add", 0) == 0) return cfg.exec.latency_int[0];
  return cfg.exec.latency_other;
}
}  // namespace

TEST_CASE("sm: a dependent ALU chain in one warp issues once per ALU latency", "[sm]") {
  SmConfig cfg = one_scheduler("gto");
  SmHarness tb("tb", cfg);
  run_alu_chain(tb, 32, 3);

  const OpTimingTable timing(cfg.exec);
  const auto chain = alu_chain_issues(tb.issued, 0);
  REQUIRE(chain.size() == 8);
  const isa::Module* m = nullptr;
  (void)m;
  for (std::size_t i = 1; i < chain.size(); ++i) {
    INFO(chain[i - 1].text << " -> " << chain[i].text);
    const uint64_t lat = producer_latency(cfg, chain[i - 1].text);
    CHECK(chain[i].cycle - chain[i - 1].cycle == lat + kPipelineOverhead);
  }
  CHECK(tb.sm.idle());
  // While its only warp waits on memory (parameter loads, the output store) the SM sleeps:
  // fewer activations than active cycles, and the slept cycles are counted.
  const auto* cycles = tb.root.find("sm0.cycles");
  const auto* slept = tb.root.find("sm0.sleep_cycles");
  REQUIRE(cycles != nullptr);
  REQUIRE(slept != nullptr);
  CHECK(slept->scalar(stats::View::Epoch) > 0);
  CHECK(tb.sm.process().activations() < static_cast<uint64_t>(cycles->scalar(stats::View::Epoch)));
}

TEST_CASE("sm: exec.pipeline_registers adds to every dependent-issue distance (GPGPU-Sim latency + 6)", "[sm]") {
  SmConfig cfg = one_scheduler("gto");
  cfg.exec.pipeline_registers = 3;  // GPGPU-Sim's ID_OC, OC_EX and EX_WB registers
  SmHarness tb("tb", cfg);
  run_alu_chain(tb, 32, 3);
  const auto chain = alu_chain_issues(tb.issued, 0);
  REQUIRE(chain.size() == 8);
  for (std::size_t i = 1; i < chain.size(); ++i) {
    INFO(chain[i - 1].text << " -> " << chain[i].text);
    const uint64_t lat = producer_latency(cfg, chain[i - 1].text);
    CHECK(chain[i].cycle - chain[i - 1].cycle == lat + kPipelineOverhead + 3);
  }
  CHECK(tb.sm.idle());
}

TEST_CASE("sm: the barrel scoreboard issues a warp's next instruction only after its last is written back",
          "[sm]") {
  // One warp, LRR: with the conventional scoreboard independent instructions issue back to
  // back; with barrel every issue waits for the previous instruction's writeback, so no two
  // are ever closer than the shortest latency (1) plus the pipeline overhead, while the
  // dependent chain keeps its exact distances.
  SmConfig cfgs[2] = {one_scheduler("lrr"), one_scheduler("lrr")};
  cfgs[1].scoreboard.policy = "barrel";
  for (SmConfig& c : cfgs) c.scheduler.verify_repeats = true;
  SmHarness conventional("conventional", cfgs[0]), barrel("barrel", cfgs[1]);  // both before the run
  std::vector<IssueRecord> records[2];
  int run = 0;
  for (SmHarness* tb : {&conventional, &barrel}) {
    run_alu_chain(*tb, 32, 3);  // checks every output
    CHECK(tb->sm.idle());
    for (const IssueRecord& r : tb->issued)
      if (r.warp == 0) records[run].push_back(r);
    ++run;
  }
  REQUIRE(records[0].size() == records[1].size());
  REQUIRE(records[1].size() > 8);
  uint64_t closest[2] = {~uint64_t{0}, ~uint64_t{0}};
  for (int i = 0; i < 2; ++i)
    for (std::size_t k = 1; k < records[i].size(); ++k)
      closest[i] = std::min(closest[i], records[i][k].cycle - records[i][k - 1].cycle);
  CHECK(closest[0] == 1);
  CHECK(closest[1] == 1 + kPipelineOverhead);
  CHECK(records[1].back().cycle > records[0].back().cycle);
  const auto chain0 = alu_chain_issues(records[0], 0), chain1 = alu_chain_issues(records[1], 0);
  REQUIRE(chain0.size() == 8);
  REQUIRE(chain1.size() == 8);
  for (std::size_t k = 1; k < 8; ++k)
    CHECK(chain1[k].cycle - chain1[k - 1].cycle == chain0[k].cycle - chain0[k - 1].cycle);
}

TEST_CASE("sm: the ilp_commit scoreboard issues like the conventional one until its table fills", "[sm][ilp]") {
  // One warp, LRR. With entries to spare, stall on use gives the conventional scoreboard's
  // issue cycles up to the output store; with one entry a dependent instruction also waits for its producer's
  // commit, one cycle after the writeback that readies it (004 §4.2 rule 5).
  SmConfig cfgs[3] = {one_scheduler("lrr"), one_scheduler("lrr"), one_scheduler("lrr")};
  cfgs[1].scoreboard.policy = cfgs[2].scoreboard.policy = "ilp_commit";
  cfgs[1].scoreboard.ilp_commit.entries = 64;
  cfgs[2].scoreboard.ilp_commit.entries = 1;
  for (SmConfig& c : cfgs) c.scheduler.verify_repeats = true;
  SmHarness conventional("conventional", cfgs[0]), roomy("roomy", cfgs[1]), one("one", cfgs[2]);  // before the run
  std::vector<IssueRecord> records[3];
  int run = 0;
  for (SmHarness* tb : {&conventional, &roomy, &one}) {
    run_alu_chain(*tb, 32, 3);  // checks every output
    CHECK(tb->sm.idle());
    for (const IssueRecord& r : tb->issued)
      if (r.warp == 0) records[run].push_back(r);
    ++run;
  }
  REQUIRE(records[0].size() == records[1].size());
  // The output store waits to be the warp's oldest instruction: until the chain's last
  // result commits, one cycle after the writeback the conventional store waits for; the
  // kernel's ret follows it.
  bool after_store = false;
  for (std::size_t k = 1; k < records[0].size(); ++k) {  // (the harnesses run one after the other)
    INFO(records[0][k].text);
    after_store = after_store || records[0][k].text.rfind("st.", 0) == 0;
    CHECK(records[1][k].cycle - records[1][0].cycle ==
          records[0][k].cycle - records[0][0].cycle + (after_store ? 1 : 0));
  }
  CHECK(after_store);
  const auto chain0 = alu_chain_issues(records[0], 0), chain2 = alu_chain_issues(records[2], 0);
  REQUIRE(chain0.size() == 8);
  REQUIRE(chain2.size() == 8);
  for (std::size_t k = 1; k < 8; ++k) {
    INFO(chain2[k - 1].text << " -> " << chain2[k].text);
    CHECK(chain2[k].cycle - chain2[k - 1].cycle == chain0[k].cycle - chain0[k - 1].cycle + 1);
  }
}

TEST_CASE("sm: exec.simd_width 8 adds the three extra slices to every dependent-issue distance", "[sm]") {
  // 32 threads on 8 lanes: the result is complete with the 4th slice, 3 cycles after the
  // first (004 Table 1's ILP SM).
  SmConfig cfg = one_scheduler("gto");
  cfg.exec.simd_width = 8;
  SmHarness tb("tb", cfg);
  run_alu_chain(tb, 32, 3);  // checks every output
  const auto chain = alu_chain_issues(tb.issued, 0);
  REQUIRE(chain.size() == 8);
  for (std::size_t i = 1; i < chain.size(); ++i) {
    INFO(chain[i - 1].text << " -> " << chain[i].text);
    const uint64_t lat = producer_latency(cfg, chain[i - 1].text);
    CHECK(chain[i].cycle - chain[i - 1].cycle == lat + kPipelineOverhead + 3);
  }
  CHECK(tb.sm.idle());
}

TEST_CASE("sm: two independent warps interleave on one scheduler", "[sm]") {
  SmConfig cfg = one_scheduler("lrr");
  SmHarness tb("tb", cfg);
  run_alu_chain(tb, 64, 11);
  check_alu_chains_interleave(tb.issued);
}

TEST_CASE("sm: barriers, divergence, shared memory and loops give correct results on the full SM", "[sm]") {
  SmConfig cfg;
  SmHarness tb("tb", cfg);
  run_barrier_diverge(tb, 4, 128, 9);
  run_loop_sum(tb, 3, 96, 17);
  REQUIRE(tb.completions.size() == 7);
  for (const auto& c : tb.completions) CHECK(c.finish_cycle > c.start_cycle);
  CHECK(tb.sm.idle());
  // Every scheduler-cycle of an active SM is an issue or exactly one stall class.
  const auto* cycles = tb.root.find("sm0.cycles");
  const auto* elf = dynamic_cast<const stats::CounterVector*>(tb.root.find("sm0.stall_elf"));
  const auto* kaws = dynamic_cast<const stats::CounterVector*>(tb.root.find("sm0.stall_kaws"));
  const auto* issued = tb.root.find("sm0.warp_instructions");
  REQUIRE(cycles != nullptr);
  REQUIRE(elf != nullptr);
  REQUIRE(kaws != nullptr);
  REQUIRE(issued != nullptr);
  CHECK(elf->sum() == kaws->sum());
  const auto* per = dynamic_cast<const stats::CounterVector*>(tb.root.find("sm0.issued_per_scheduler"));
  REQUIRE(per != nullptr);
  CHECK(per->sum() == static_cast<uint64_t>(issued->scalar(stats::View::Epoch)));
  CHECK(per->sum() + elf->sum() == static_cast<uint64_t>(cycles->scalar(stats::View::Epoch)) * cfg.scheduler.count);
  CHECK(elf->value(1) > 0);  // global loads/stores: some memory-dependency stalls
}

TEST_CASE("sm: two identical runs give identical statistics", "[sm]") {
  // Two SMs in one elaboration run the same launch one after the other; their statistics
  // trees (cycles, issue counts, stall classes, cache and LSU counters) must be equal.
  SmConfig cfg;
  SmHarness a("a", cfg), b("b", cfg);
  std::vector<int> ra, rb;
  for (SmHarness* tb : {&a, &b}) (tb == &a ? ra : rb) = run_barrier_diverge(*tb, 5, 96, 4);
  CHECK(ra == rb);
  // (The stand-in memory's own occupancy samples depend on absolute time; the SM's do not.)
  CHECK(a.root.to_json()["sm0"].dump() == b.root.to_json()["sm0"].dump());
  CHECK(a.completions.size() == b.completions.size());
  for (std::size_t i = 0; i < a.completions.size() && i < b.completions.size(); ++i)
    CHECK(a.completions[i].finish_cycle - a.completions[i].start_cycle ==
          b.completions[i].finish_cycle - b.completions[i].start_cycle);
}

TEST_CASE("sm: every scheduling policy runs barriers, divergence and loops with correct results", "[sm][policy]") {
  // One SM per policy, all elaborated together, run one after the other.
  std::vector<std::unique_ptr<SmHarness>> sms;
  for (const std::string& policy : scheduler_policy_names()) {
    SmConfig cfg;
    cfg.scheduler.policy = policy;
    cfg.scheduler.warp_limit = 3;
    cfg.scheduler.fetch_group_size = 2;
    sms.push_back(std::make_unique<SmHarness>(("sm_" + policy).c_str(), cfg));
  }
  for (std::size_t p = 0; p < sms.size(); ++p) {
    INFO("policy " << scheduler_policy_names()[p]);
    run_loop_sum(*sms[p], 3, 160, 9);
    CHECK(sms[p]->completions.size() == 3);
    CHECK(sms[p]->sm.idle());
  }
}

TEST_CASE("sm: schedulers that repeat an unchanged decision issue exactly as schedulers deciding every cycle",
          "[sm][policy]") {
  // A scheduler re-decides only when its warps, its inputs or unit availability changed
  // (WarpScheduler::decision_unchanged); an issue filter makes it decide every cycle. For
  // every policy, both must issue the same instructions in the same cycles and count the
  // same stalls.
  std::vector<std::unique_ptr<SmHarness>> repeat, every;
  for (const std::string& policy : scheduler_policy_names()) {
    SmConfig cfg;
    cfg.scheduler.policy = policy;
    cfg.scheduler.warp_limit = 3;
    cfg.scheduler.fetch_group_size = 2;
    repeat.push_back(std::make_unique<SmHarness>(("repeat_" + policy).c_str(), cfg));
    every.push_back(std::make_unique<SmHarness>(("every_" + policy).c_str(), cfg));
    for (uint32_t s = 0; s < cfg.scheduler.count; ++s)
      every.back()->sm.core().scheduler(s).set_issue_filter([](uint32_t, const isa::Instruction&) { return true; });
  }
  for (std::size_t p = 0; p < repeat.size(); ++p) {
    INFO("policy " << scheduler_policy_names()[p]);
    for (auto* tb : {repeat[p].get(), every[p].get()}) {
      run_barrier_diverge(*tb, 3, 96, 4);
      run_loop_sum(*tb, 3, 160, 9);
    }
    const auto& a = repeat[p]->issued;
    const auto& b = every[p]->issued;
    REQUIRE(a.size() == b.size());
    REQUIRE(!a.empty());
    const uint64_t a0 = a.front().cycle, b0 = b.front().cycle;  // the benches run one after the other
    std::size_t same = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      same += a[i].cycle - a0 == b[i].cycle - b0 && a[i].warp == b[i].warp && a[i].pc == b[i].pc;
    CHECK(same == a.size());
    CHECK(repeat[p]->root.to_json()["sm0"].dump() == every[p]->root.to_json()["sm0"].dump());
  }
}

TEST_CASE("sm: a warp may fetch beside buffered instructions (ibuffer deeper than width or not_full)", "[sm][fetch]") {
  // A fetch sent while the I-buffer still holds the warp's last sequential instructions
  // must be dropped when one of them branches away, and a buffer ending with the
  // function's last instruction has nothing more to fetch.
  std::vector<std::unique_ptr<SmHarness>> sms;
  for (const char* eligible : {"room_for_width", "not_full"}) {
    SmConfig cfg;
    cfg.fetch.ibuffer_entries = 4;
    cfg.fetch.eligible = eligible;
    sms.push_back(std::make_unique<SmHarness>((std::string("sm_") + eligible).c_str(), cfg));
  }
  for (auto& tb : sms) {
    INFO(tb->name());
    run_barrier_diverge(*tb, 3, 96, 4);
    run_loop_sum(*tb, 3, 160, 9);
    CHECK(tb->sm.idle());
  }
}
