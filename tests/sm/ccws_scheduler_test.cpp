// CCWS scheduling (digest §A9) in a whole SM on a kernel whose warps each reuse their
// own lines (cu/ccws_reuse.ptx): with a 1 KB L1D that 8 warps thrash, lost intra-warp
// locality is detected (VTA hits) and warps are throttled; with the 16 KB default L1D
// nothing is lost and nothing throttled. Results are checked in every run.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "sm/scheduler/ccws/ccws_state.h"
#include "sm_test_harness.h"

using namespace sm_test;

namespace {
SmConfig ccws_sm(bool tiny_l1d, const std::string& policy = "ccws") {
  SmConfig cfg;
  cfg.scheduler.policy = policy;
  if (tiny_l1d) {
    cfg.l1d.sets = 2;  // 2 sets x 4 ways x 128 B = 1 KB: 8 lines
    cfg.l1d.ways = 4;
  }
  return cfg;
}

struct ReuseRun {
  uint64_t cycles = 0;
  uint64_t l1d_load_hits = 0;
};

// `warps` warps in one CTA, each reading its `lines` lines `reps` times; outputs checked.
ReuseRun run_reuse(SmHarness& tb, uint32_t warps, int lines, int reps) {
  ReuseRun r;
  r.cycles = run_reuse_kernel(tb, warps, lines, reps, 7, 3);
  r.l1d_load_hits = static_cast<uint64_t>(tb.root.to_json()["sm0"]["l1d"]["load_hits"].get<double>());
  return r;
}
}  // namespace

TEST_CASE("ccws: a thrashing 1 KB L1D shows lost locality and throttles warps", "[sm][ccws]") {
  SmHarness ccws("ccws", ccws_sm(true));
  SmHarness gto("gto", ccws_sm(true, "gto"));
  const ReuseRun c = run_reuse(ccws, 8, 4, 8);  // 32 lines of reuse, 8 fit
  const ReuseRun g = run_reuse(gto, 8, 4, 8);
  CcwsStats& st = *ccws.sm.core().ccws()->stats();
  INFO("ccws: " << c.cycles << " cycles, " << c.l1d_load_hits << " L1D load hits; gto: " << g.cycles << " cycles, "
                << g.l1d_load_hits << " hits; vta_hits " << st.vta_hits.value() << ", limited_cycles "
                << st.limited_cycles.value() << ", throttled_load_blocks " << st.throttled_load_blocks.value());
  CHECK(st.evictions_recorded.value() > 0);
  CHECK(st.vta_hits.value() > 0);
  CHECK(st.vta_hits.value() <= st.vta_probes.value());
  CHECK(st.limited_cycles.value() > 0);
  CHECK(st.throttled_warp_cycles.value() >= st.limited_cycles.value());
  CHECK(st.throttled_load_blocks.value() > 0);
  // Holding the other warps' loads back lets the allowed ones reuse their lines.
  CHECK(c.l1d_load_hits > g.l1d_load_hits);
  CHECK(gto.sm.core().ccws() == nullptr);  // no CCWS state (or hooks) under another policy
}

TEST_CASE("ccws: with a 16 KB L1D nothing is lost and nothing is throttled", "[sm][ccws]") {
  SmHarness tb("tb", ccws_sm(false));
  run_reuse(tb, 8, 4, 8);  // 32 lines: all fit
  CcwsStats& st = *tb.sm.core().ccws()->stats();
  CHECK(st.vta_probes.value() > 0);  // the first touches miss
  CHECK(st.vta_hits.value() == 0);
  CHECK(st.limited_cycles.value() == 0);
  CHECK(st.throttled_warp_cycles.value() == 0);
  CHECK(st.throttled_load_blocks.value() == 0);
}

TEST_CASE("ccws: throttle = warps leaves throttled warps out of the order with correct results", "[sm][ccws]") {
  SmConfig cfg = ccws_sm(true);
  cfg.scheduler.ccws.throttle = "warps";
  SmHarness tb("tb", cfg);
  run_reuse(tb, 8, 4, 8);
  CcwsStats& st = *tb.sm.core().ccws()->stats();
  CHECK(st.vta_hits.value() > 0);
  CHECK(st.limited_cycles.value() > 0);
  CHECK(st.throttled_load_blocks.value() == 0);  // nothing is vetoed: whole warps wait
}
