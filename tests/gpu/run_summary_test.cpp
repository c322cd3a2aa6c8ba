// run_summary: the whole-run cycle count of launches that may overlap (busy_cycles) and
// how the summary states it.
#include <catch2/catch.hpp>

#include "gpu/run_summary.h"

using gputlm::gpu::busy_cycles;
using gputlm::gpu::LaunchInterval;

TEST_CASE("run_summary busy_cycles sums disjoint launches and counts overlap once", "[gpu][run_summary]") {
  CHECK(busy_cycles({}) == 0);
  // One stream: back to back with the idle admission cycle between them (not counted).
  CHECK(busy_cycles({{1, 4460}, {4461, 8833}}) == 4459 + 4372);
  // Two streams overlapping: the span, not the sum.
  CHECK(busy_cycles({{1, 1000}, {3, 1500}}) == 1499);
  // Nested, duplicated and given in any order.
  CHECK(busy_cycles({{50, 60}, {10, 100}, {10, 100}, {200, 210}}) == 90 + 10);
  CHECK(busy_cycles({{200, 210}, {10, 100}, {50, 60}}) == 100);
  // Touching intervals: [10, 20) and [20, 30) cover 20 cycles.
  CHECK(busy_cycles({{20, 30}, {10, 20}}) == 20);
  // A chain where a later-starting interval ends first.
  CHECK(busy_cycles({{0, 100}, {10, 20}, {90, 150}, {160, 170}}) == 150 + 10);
  // Empty and reversed intervals count nothing.
  CHECK(busy_cycles({{5, 5}, {9, 3}}) == 0);
}

TEST_CASE("run_summary format_summary names the per-launch sum only when launches overlapped", "[gpu][run_summary]") {
  gputlm::gpu::RunSummary s;
  s.cycles = 1499;
  s.launch_cycles = 1499;
  s.thread_instructions = 2998;
  const std::string alone = gputlm::gpu::format_summary(s);
  CHECK_THAT(alone, Catch::Contains("cycles               1499\n"));
  CHECK_THAT(alone, Catch::Contains("IPC                  2.000 thread instr/cycle"));
  CHECK_THAT(alone, !Catch::Contains("overlapped"));
  s.launch_cycles = 2496;
  const std::string overlapped = gputlm::gpu::format_summary(s);
  CHECK_THAT(overlapped, Catch::Contains("cycles               1499 (launches overlapped: their own cycles sum to 2496)"));
  CHECK_THAT(overlapped, Catch::Contains("IPC                  2.000 thread instr/cycle"));
}
