// Pipeline tests of the SM front half on real PTX (tests/sm/cu/pipeline.cu), with exact
// cycle relations: the stand-in back end writes an instruction back latency[unit] cycles
// after issue, and the retire sink releases its registers in that cycle before issue, so
// a dependent instruction issues exactly `latency` cycles after its producer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "front_harness.h"
#include "support/sm/pipeline_kernels.h"
#include "support/sm/ptx_kernel.h"

using namespace gputlm;
using namespace gputlm::sm;
using namespace gputlm::sm::tb;
using namespace gputlm::sm::test_support;

namespace {
constexpr uint32_t kAlu = 4, kSfu = 8, kMem = 6;
std::array<uint32_t, kUnitTypes> latencies() { return {kAlu, kSfu, kSfu, kAlu, kMem}; }
std::array<uint32_t, kUnitTypes> ones() { return {1, 1, 1, 1, 1}; }
}  // namespace

TEST_CASE("sm front: a dependent ALU chain in one warp issues once per ALU latency", "[sm]") {
  SmConfig cfg;
  cfg.scheduler.count = 1;
  cfg.operand_collector.schedulers = 1;
  FrontHarness tb("tb", cfg, latencies(), ones());
  run_alu_chain(tb, 32, 3);

  const auto chain = alu_chain_issues(tb.issued, 0);
  REQUIRE(chain.size() == 8);
  for (std::size_t i = 1; i < chain.size(); ++i) {
    INFO(chain[i].text);
    CHECK(chain[i].cycle - chain[i - 1].cycle == kAlu);
  }
  REQUIRE(tb.completions.size() == 1);
  CHECK(tb.completions[0].finish_cycle > tb.completions[0].start_cycle);
  CHECK(tb.core.idle());
}

TEST_CASE("sm front: two independent warps interleave on one scheduler (lrr)", "[sm]") {
  SmConfig cfg;
  cfg.scheduler.count = 1;
  cfg.operand_collector.schedulers = 1;
  cfg.scheduler.policy = "lrr";
  FrontHarness tb("tb", cfg, latencies(), ones());
  run_alu_chain(tb, 64, -5);

  // The warps interleave, each still one ALU latency apart from its own producer.
  const auto c0 = check_alu_chains_interleave(tb.issued);
  for (std::size_t i = 1; i < c0.size(); ++i) {
    INFO(c0[i].text);
    CHECK(c0[i].cycle - c0[i - 1].cycle == kAlu);
  }
}

TEST_CASE("sm front: barriers, divergence and loops run to completion with correct results", "[sm]") {
  SmConfig cfg;
  FrontHarness tb("tb", cfg, latencies(), ones());
  run_barrier_diverge(tb, 3, 96, 100);
  REQUIRE(tb.completions.size() == 3);
  CHECK(tb.core.idle());
  const auto* flushes = tb.root.find("sm0.fetch.stale_fetches");
  REQUIRE(flushes != nullptr);
}

TEST_CASE("sm front: a loop refetches after each taken branch and sums correctly", "[sm]") {
  SmConfig cfg;
  FrontHarness tb("tb", cfg, latencies(), ones());
  run_loop_sum(tb, 2, 64, 10);
  // Every warp instruction was written back; the stall classes cover every cycle without
  // issue of each scheduler.
  const auto* issued = tb.root.find("sm0.warp_instructions");
  const auto* wbs = tb.root.find("sm0.writebacks");
  REQUIRE(issued != nullptr);
  REQUIRE(wbs != nullptr);
  CHECK(issued->scalar(stats::View::Total) == wbs->scalar(stats::View::Total));
  const auto* cycles = tb.root.find("sm0.cycles");
  const auto* elf = dynamic_cast<const stats::CounterVector*>(tb.root.find("sm0.stall_elf"));
  const auto* kaws = dynamic_cast<const stats::CounterVector*>(tb.root.find("sm0.stall_kaws"));
  const auto* per = dynamic_cast<const stats::CounterVector*>(tb.root.find("sm0.issued_per_scheduler"));
  REQUIRE(elf != nullptr);
  REQUIRE(kaws != nullptr);
  REQUIRE(per != nullptr);
  CHECK(elf->sum() == kaws->sum());
  // scheduler-cycles = issuing cycles + stall cycles (single issue: one per issuing cycle)
  const uint64_t sched_cycles = static_cast<uint64_t>(cycles->scalar(stats::View::Total)) * cfg.scheduler.count;
  CHECK(per->sum() + elf->sum() == sched_cycles);
}

TEST_CASE("scheduler warp limit: only the oldest warps issue; the others are not eligible", "[sm][scheduler]") {
  SmConfig cfg;
  cfg.scheduler.count = 1;
  cfg.operand_collector.schedulers = 1;
  cfg.scheduler.policy = "lrr";
  FrontHarness tb("tb", cfg, latencies(), ones());
  tb.core.scheduler(0).set_warp_limit(1);
  run_alu_chain(tb, 64, 7);
  // Warp 1 (younger) starts issuing only after warp 0 issued its last instruction.
  uint64_t last0 = 0, first1 = ~uint64_t{0};
  for (const auto& i : tb.issued) {
    if (i.warp == 0) last0 = std::max(last0, i.cycle);
    if (i.warp == 1) first1 = std::min(first1, i.cycle);
  }
  CHECK(first1 > last0);
}

namespace {
// dual_issue kernel: ... 9 sin | 10 xor, 11 cos (fetched together; cos is independent of
// xor and goes to the SFU). Returns (xor issue cycle, cos issue cycle).
std::pair<uint64_t, uint64_t> run_dual(bool dual) {
  SmConfig cfg;
  cfg.scheduler.count = 1;
  cfg.operand_collector.schedulers = 1;
  cfg.scheduler.dual_issue = dual;
  FrontHarness tb("tb", cfg, latencies(), ones());
  PtxKernel k(kPipelinePtx, "dual_issue", {1, 1, 1}, {32, 1, 1});
  const uint64_t fout = k.upload(std::vector<float>(32, 0.f)), iout = k.upload(std::vector<int>(32, 0));
  k.set_param<uint64_t>(0, fout);
  k.set_param<uint64_t>(1, iout);
  k.set_param<float>(2, 0.01f);
  k.set_param<int>(3, 5);
  tb.run(k.instance());
  const auto f = k.download<float>(fout, 32);
  const auto i = k.download<int>(iout, 32);
  for (int t = 0; t < 32; ++t) {
    CHECK(i[t] == ((5 ^ t) + 5));
    CHECK(f[t] == Approx(std::sin(0.01f * t) + std::cos(0.01f * t)).epsilon(1e-3));
  }
  uint64_t x = 0, c = 0;
  for (const auto& r : tb.issued) {
    if (r.text.rfind("xor.b32", 0) == 0) x = r.cycle;
    if (r.text.rfind("cos.approx", 0) == 0) c = r.cycle;
  }
  return {x, c};
}
}  // namespace

TEST_CASE("scheduler dual issue: the next independent instruction to another unit issues in the same cycle", "[sm][scheduler]") {
  const auto [x, c] = run_dual(true);
  CHECK(c == x);
}

TEST_CASE("scheduler single issue: the same pair issues in consecutive cycles", "[sm][scheduler]") {
  const auto [x, c] = run_dual(false);
  CHECK(c == x + 1);
}

TEST_CASE("sm front: the state dump names each warp's pc, next instruction, wait reason and pending registers", "[sm]") {
  SmConfig cfg;
  cfg.scheduler.count = 1;
  cfg.operand_collector.schedulers = 1;
  // A 200-cycle memory latency for the stand-in LSU keeps the warps waiting on ld.param.
  FrontHarness tb("tb", cfg, {4, 8, 8, 4, 200}, ones());
  PtxKernel k(kPipelinePtx, "barrier_diverge", {1, 1, 1}, {64, 1, 1});
  k.set_param<uint64_t>(0, k.upload(std::vector<int>(64, 0)));
  k.set_param<int>(1, 1);
  KernelInstance& ki = k.instance();
  tb.core.launch_cta(ki, 0);
  sc_core::sc_start(tb.clock.period() * 120);
  const std::string dump = tb.core.state_dump();
  INFO(dump);
  CHECK(dump.find("1 CTA(s), 2 warp(s)") != std::string::npos);
  CHECK(dump.find("warp 0 (cta 0 warp 0") != std::string::npos);
  CHECK(dump.find("warp 1 (cta 0 warp 1") != std::string::npos);
  CHECK(dump.find("`cvta.to.global.u64") != std::string::npos);  // next instruction text
  CHECK(dump.find("scoreboard_memory") != std::string::npos);     // waits on the parameter load
  CHECK(dump.find("pending writes r") != std::string::npos);
  CHECK(dump.find("(mem)") != std::string::npos);
}

TEST_CASE("scheduler warp sharing: a warp stalled on its own busy unit issues from another scheduler", "[sm][scheduler]") {
  SmConfig cfg;  // 2 schedulers; the one warp (slot 0) belongs to scheduler 0
  // SP accepts one instruction per 10 cycles per scheduler: scheduler 1's SP collector is
  // free while scheduler 0's is busy.
  FrontHarness tb("tb", cfg, latencies(), {10, 1, 1, 1, 1});
  for (uint32_t s = 0; s < 2; ++s)
    tb.core.scheduler(s).set_sharing_source([&tb](uint32_t self, std::vector<uint32_t>& slots) {
      for (uint32_t w = 0; w < tb.core.warps().size(); ++w)
        if (tb.core.warps()[w].valid && w % 2 != self) slots.push_back(w);
    });
  run_alu_chain(tb, 32, 6);
  CHECK(tb.core.scheduler(0).shared_issues() == 0);
  CHECK(tb.core.scheduler(1).shared_issues() > 0);
  bool by_other = false;
  for (const auto& i : tb.issued) by_other = by_other || (i.warp == 0 && i.scheduler == 1);
  CHECK(by_other);
}

TEST_CASE("kaws warp sharing: another scheduler issues a warp exactly when its own collector is busy and the other's free",
          "[sm][scheduler][kaws]") {
  SmConfig cfg;  // 2 schedulers; the one warp (slot 0) belongs to scheduler 0
  cfg.scheduler.warp_sharing = true;
  cfg.operand_collector.per_scheduler = true;
  // Each scheduler's SP takes one instruction per 10 cycles; the chain's ALU latency is 4.
  FrontHarness tb("tb", cfg, latencies(), {10, 1, 1, 1, 1});
  run_alu_chain(tb, 32, 6);
  const auto chain = alu_chain_issues(tb.issued, 0);
  REQUIRE(chain.size() == 8);
  uint32_t shared = 0;
  for (std::size_t i = 1; i < chain.size(); ++i) {
    INFO(chain[i].text << " by scheduler " << chain[i].scheduler);
    const uint64_t gap = chain[i].cycle - chain[i - 1].cycle;
    if (chain[i].scheduler == 1) {
      // Ready kAlu cycles after its producer, which scheduler 0 issued: its own SP is busy
      // for 10, scheduler 1's is free, so scheduler 1 takes it at once.
      CHECK(chain[i - 1].scheduler == 0);
      CHECK(gap == kAlu);
      ++shared;
    } else {
      // Scheduler 0 issues it when its own SP frees, 10 cycles after its last SP issue,
      // unless it was ready before (then it had no reason to share).
      if (chain[i - 1].scheduler == 1) {
        REQUIRE(i >= 2);
        CHECK(chain[i - 2].scheduler == 0);
        CHECK(chain[i].cycle - chain[i - 2].cycle == 10);
      } else {
        CHECK(gap == 10);
      }
    }
  }
  CHECK(shared >= 3);
  const auto* per_scheduler = tb.root.find("sm0.shared_issues");
  REQUIRE(per_scheduler != nullptr);
  CHECK(per_scheduler->scalar(stats::View::Total) == tb.core.scheduler(1).shared_issues());
  CHECK(tb.core.scheduler(0).shared_issues() == 0);
}

TEST_CASE("kaws warp sharing: the candidates are other schedulers' warps oldest first and the first ready one issues",
          "[sm][scheduler][kaws]") {
  SmConfig cfg;  // 2 schedulers: scheduler 0 owns slots 0 and 2, scheduler 1 slots 1 and 3
  cfg.scheduler.policy = "oldest";
  cfg.scheduler.warp_sharing = true;
  cfg.operand_collector.per_scheduler = true;
  FrontHarness tb("tb", cfg, latencies(), {10, 1, 1, 1, 1});
  // Record every list the sharing unit hands a scheduler, in the cycle it is asked.
  struct Asked {
    uint64_t cycle;
    uint32_t scheduler;
    std::vector<uint32_t> slots;
    std::vector<uint64_t> ages;  // the slots' warp ages when asked
  };
  std::vector<Asked> asked;
  for (uint32_t s = 0; s < 2; ++s)
    tb.core.scheduler(s).set_sharing_source([&tb, &asked](uint32_t x, std::vector<uint32_t>& slots) {
      tb.core.sharing_candidates(x, slots);
      std::vector<uint64_t> ages;
      for (uint32_t w : slots) ages.push_back(tb.core.warps()[w].age);
      asked.push_back({tb.clock.now(), x, slots, ages});
    });
  run_alu_chain(tb, 128, 6);  // 4 warps, each a dependent chain
  std::map<std::pair<uint64_t, uint32_t>, const Asked*> by_cycle;
  uint32_t several = 0;
  for (const auto& a : asked) {
    by_cycle[{a.cycle, a.scheduler}] = &a;
    several += a.slots.size() >= 2;
  }
  CHECK(several > 0);  // the order among several candidates was exercised
  uint32_t shared = 0, first_taken = 0;
  for (const auto& i : tb.issued) {
    if (i.warp % 2 == i.scheduler) continue;
    ++shared;
    const auto it = by_cycle.find({i.cycle, i.scheduler});
    REQUIRE(it != by_cycle.end());  // a shared issue follows a question in the same cycle
    const auto& list = it->second->slots;
    INFO("cycle " << i.cycle << " scheduler " << i.scheduler << " issued warp " << i.warp);
    REQUIRE(std::find(list.begin(), list.end(), i.warp) != list.end());
    first_taken += list.front() == i.warp;
  }
  CHECK(shared > 0);
  CHECK(first_taken > 0);
  // Every list: other schedulers' warps only, strictly oldest first.
  for (const auto& a : asked) {
    INFO("cycle " << a.cycle << " scheduler " << a.scheduler);
    for (std::size_t k = 0; k < a.slots.size(); ++k) {
      CHECK(a.slots[k] % 2 != a.scheduler);
      if (k > 0) CHECK(a.ages[k - 1] < a.ages[k]);
    }
  }
}

TEST_CASE("kaws warp sharing needs per-scheduler collectors", "[sm][scheduler][kaws]") {
  SmConfig cfg;
  cfg.scheduler.warp_sharing = true;
  CHECK_THROWS_WITH(FrontHarness("tb", cfg, latencies(), ones()), Catch::Contains("sm.scheduler.warp_sharing"));
}

TEST_CASE("kaws warp sharing on a 4-scheduler SM keeps a dependent chain at its ALU latency, lowest free scheduler first",
          "[sm][scheduler][kaws]") {
  SmConfig cfg;
  cfg.scheduler.count = 4;
  cfg.operand_collector.schedulers = 4;
  cfg.operand_collector.per_scheduler = true;
  cfg.scheduler.warp_sharing = true;
  // Each scheduler's SP takes one instruction per 10 cycles; the chain's ALU latency is 4.
  // Owner scheduler 0 issues, its SP is then busy for 10: the next link, ready 4 cycles later,
  // goes to the lowest-numbered scheduler whose SP is free, and so on: every link issues
  // exactly one ALU latency after its producer (without sharing: one per 10 cycles).
  FrontHarness tb("tb", cfg, latencies(), {10, 1, 1, 1, 1});
  run_alu_chain(tb, 32, 6);
  const auto chain = alu_chain_issues(tb.issued, 0);
  REQUIRE(chain.size() == 8);
  // Golden model of the receiver rule: each link goes to the lowest-numbered scheduler whose
  // SP took no instruction of the warp in the last 10 cycles (SP work: all but ld/st/ret).
  std::vector<IssueRecord> sp;
  for (const auto& r : tb.issued)
    if (r.warp == 0 && r.text.rfind("ld.", 0) != 0 && r.text.rfind("st.", 0) != 0 && r.text.rfind("ret", 0) != 0)
      sp.push_back(r);
  auto sp_free = [&](uint32_t sched, uint64_t cycle) {
    for (const auto& r : sp)
      if (r.scheduler == sched && r.cycle < cycle && cycle < r.cycle + 10) return false;
    return true;
  };
  for (std::size_t i = 1; i < chain.size(); ++i) {
    INFO(chain[i].text << " by scheduler " << chain[i].scheduler << " in cycle " << chain[i].cycle);
    CHECK(chain[i].cycle - chain[i - 1].cycle == kAlu);
    uint32_t expected = 0;
    while (expected < 4 && !sp_free(expected, chain[i].cycle)) ++expected;
    CHECK(chain[i].scheduler == expected);
  }
  CHECK(tb.core.scheduler(1).shared_issues() + tb.core.scheduler(2).shared_issues() +
            tb.core.scheduler(3).shared_issues() >= 5);
}
