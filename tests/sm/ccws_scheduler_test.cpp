// CCWS scheduling (digest §A9) in a whole SM on a kernel whose warps each reuse their
// own lines (cu/ccws_reuse.ptx): with a 1 KB L1D that 8 warps thrash, lost intra-warp
// locality is detected (VTA hits) and warps are throttled; with the 16 KB default L1D
// nothing is lost and nothing throttled. Results are checked in every run.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "sm/scheduler/ccws/ccws_state.h"
#include "sm_test_harness.h"
#include "support/sm/ptx_kernel.h"

using namespace sm_test;

namespace {
constexpr const char* kCcwsPtx = "tests/sm/cu/ccws_reuse.ptx";

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

// `warps` warps in one CTA, each reading its `lines` lines `reps` times.
ReuseRun run_reuse(SmHarness& tb, uint32_t warps, int lines, int reps) {
  PtxKernel k(kCcwsPtx, "ccws_reuse", {1, 1, 1}, {32 * warps, 1, 1});
  std::vector<int> in(static_cast<std::size_t>(32) * warps * static_cast<uint32_t>(lines));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 7 + 3);
  const uint64_t in_addr = k.upload(in);
  const uint64_t out_addr = k.upload(std::vector<int>(32 * warps, 0));
  k.set_param<uint64_t>(0, in_addr);
  k.set_param<uint64_t>(1, out_addr);
  k.set_param<int>(2, lines);
  k.set_param<int>(3, reps);
  ReuseRun r;
  r.cycles = tb.run(k.instance());
  const std::vector<int> out = k.download<int>(out_addr, 32 * warps);
  for (uint32_t t = 0; t < 32 * warps; ++t) {
    const uint32_t warp = t / 32, lane = t % 32;
    int want = 0;
    for (int rep = 0; rep < reps; ++rep)
      for (int i = 0; i < lines; ++i)
        want += in[(static_cast<std::size_t>(warp) * static_cast<uint32_t>(lines) + static_cast<uint32_t>(i)) * 32 + lane] ^ rep;
    INFO("thread " << t);
    REQUIRE(out[t] == want);
  }
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
