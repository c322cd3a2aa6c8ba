// The scheduler's stall classification on constructed cases (docs/blocks/scheduler.md):
// alu_chain (tests/sm/cu/pipeline.cu) on one scheduler with a stand-in back end whose
// latencies and initiation intervals put the warp in each situation at known cycles.
//   instruction indices: 0 ld.param %rd1 | 1 ld.param %r1 | 2 cvta (needs %rd1) |
//   3 mov %r2 | 4 mul (needs %r2, %r1) | 5 xor | 6 add | 7 mul | ...
// Fetch brings pairs (0,1) (2,3) (4,5) (6,7) ... into the 2-entry I-buffer.
#include <catch2/catch.hpp>

#include "front_harness.h"
#include "support/sm/pipeline_kernels.h"

using namespace gputlm;
using namespace gputlm::sm;
using namespace gputlm::sm::tb;
using namespace gputlm::sm::test_support;

namespace {
uint64_t issue_cycle_of(const std::vector<IssueRecord>& all, const std::string& prefix, int nth = 0) {
  for (const auto& r : all)
    if (r.text.rfind(prefix, 0) == 0 && nth-- == 0) return r.cycle;
  FAIL("no issue of " << prefix);
  return 0;
}
void check_class(const FrontHarness& tb, uint64_t cycle, ElfStall elf, KawsStall kaws) {
  INFO("cycle " << cycle);
  const CycleTrace& t = tb.at(cycle);
  CHECK(t.issued == 0);
  CHECK(to_string(t.elf) == std::string(to_string(elf)));
  CHECK(to_string(t.kaws) == std::string(to_string(kaws)));
}
}  // namespace

TEST_CASE("scheduler stall classes: memory conflict, memory dependency, pipeline, scoreboard, fetch", "[sm][scheduler]") {
  SmConfig cfg;
  cfg.scheduler.count = 1;
  cfg.operand_collector.schedulers = 1;
  // latency: SP 4, SFU 8, DP 8, INT 4, MEM 40; interval: SP 10, MEM 5, others 1.
  FrontHarness tb("tb", cfg, {4, 8, 8, 4, 40}, {10, 1, 1, 1, 5});
  run_alu_chain(tb, 32, 2);

  // 1. ld.param %r1 waits 5 cycles for the LSU (interval 5): memory conflict / pipeline.
  const uint64_t ld0 = issue_cycle_of(tb.issued, "ld.param.u64");
  const uint64_t ld1 = issue_cycle_of(tb.issued, "ld.param.u32");
  CHECK(ld1 == ld0 + 5);
  for (uint64_t c = ld0 + 1; c < ld1; ++c) check_class(tb, c, ElfStall::MemConflict, KawsStall::Pipeline);

  // 2. cvta needs %rd1 from the first load (latency 40): memory dependency / scoreboard
  //    once its pair (2,3) is in the I-buffer.
  const uint64_t cvta = issue_cycle_of(tb.issued, "cvta");
  CHECK(cvta == ld0 + 40);
  check_class(tb, cvta - 1, ElfStall::MemDependency, KawsStall::Scoreboard);

  // 3. mov %r2 is independent but the SP unit takes one instruction per 10 cycles:
  //    other / pipeline.
  const uint64_t mov = issue_cycle_of(tb.issued, "mov.u32");
  CHECK(mov == cvta + 10);
  for (uint64_t c = cvta + 1; c < mov; ++c) check_class(tb, c, ElfStall::Other, KawsStall::Pipeline);

  // 4. The xor needs the mul's result (SP latency 4, and the SP interval 10 binds):
  //    mul and xor were fetched together, so the cycles between are SP-unit limited:
  //    other / pipeline (operands of xor are ready at mul + 4, the unit at mul + 10).
  const uint64_t mul = issue_cycle_of(tb.issued, "mul.lo.s32");
  const uint64_t x = issue_cycle_of(tb.issued, "xor.b32");
  CHECK(x == mul + 10);
  for (uint64_t c = mul + 1; c < mul + 4; ++c) check_class(tb, c, ElfStall::Other, KawsStall::Scoreboard);
  for (uint64_t c = mul + 4; c < x; ++c) check_class(tb, c, ElfStall::Other, KawsStall::Pipeline);

  // 5. After the xor the I-buffer is empty: fetch at x, L1I hit response at x+1, decode
  //    at x+2, visible to issue at x+3: fetch / idle at x+1 and x+2.
  check_class(tb, x + 1, ElfStall::Fetch, KawsStall::Idle);
  check_class(tb, x + 2, ElfStall::Fetch, KawsStall::Idle);
}
