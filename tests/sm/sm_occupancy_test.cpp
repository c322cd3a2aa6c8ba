// Occupancy: CTAs of a kernel are accepted until one resource is exhausted; each
// TEST_CASE makes a different resource the binding one and checks the count and the
// named limit (SmCtaIF::can_accept_cta / Sm::occupancy_limit).
#include <catch2/catch.hpp>

#include "sm_test_harness.h"
#include "support/sm/pipeline_kernels.h"
#include "support/sm/ptx_kernel.h"

using namespace sm_test;

namespace {
// Launches CTAs of a `block`-thread kernel until the SM refuses; returns how many fit.
uint32_t fill(const SmConfig& cfg, uint32_t regs_per_thread, uint32_t extra_shared, std::string& limit,
              uint32_t block = 64) {
  SmHarness tb("tb", cfg);
  PtxKernel k(kPipelinePtx, "barrier_diverge", {64, 1, 1}, {block, 1, 1});
  k.set_param<uint64_t>(0, 0);
  KernelInstance& ki = k.instance(regs_per_thread);
  ki.demand.shared_bytes += extra_shared;
  uint32_t n = 0;
  while (tb.sm.can_accept_cta(ki)) tb.sm.launch_cta(ki, n++);
  limit = tb.sm.occupancy_limit(ki);
  CHECK(tb.sm.resident_ctas() == n);
  return n;
}
}  // namespace

TEST_CASE("sm occupancy: limited by CTA slots", "[sm]") {
  SmConfig cfg;  // 8 CTAs, 48 warps, 1536 threads, 32768 registers, 48 KB shared
  std::string limit;
  CHECK(fill(cfg, 16, 0, limit) == 8);
  CHECK(limit == "cta slots");
}

TEST_CASE("sm occupancy: limited by threads", "[sm]") {
  SmConfig cfg;
  cfg.max_ctas = 32;
  cfg.max_threads = 320;  // 5 CTAs of 64 threads
  std::string limit;
  CHECK(fill(cfg, 16, 0, limit) == 5);
  CHECK(limit == "threads");
}

TEST_CASE("sm occupancy: limited by warps", "[sm]") {
  SmConfig cfg;
  cfg.max_ctas = 32;
  cfg.max_warps = 14;  // 33-thread CTAs use 2 warps each: 7 fit (231 threads of 448)
  cfg.max_threads = 448;
  std::string limit;
  CHECK(fill(cfg, 16, 0, limit, 33) == 7);
  CHECK(limit == "warps");
}

TEST_CASE("sm occupancy: limited by registers", "[sm]") {
  SmConfig cfg;
  // 64 threads x 63 registers = 4032 per CTA: 32768 / 4032 = 8.1 -> 8 would hit CTA slots,
  // so allow more CTA slots: 8 fit, the 9th exceeds the register file.
  cfg.max_ctas = 16;
  std::string limit;
  CHECK(fill(cfg, 63, 0, limit) == 8);
  CHECK(limit == "registers");
}

TEST_CASE("sm occupancy: limited by shared memory", "[sm]") {
  SmConfig cfg;
  cfg.max_ctas = 16;
  std::string limit;
  // barrier_diverge uses 1024 B of shared memory per CTA; +11264 B = 12 KB per CTA -> 4 fit in 48 KB.
  CHECK(fill(cfg, 8, 11264, limit) == 4);
  CHECK(limit == "shared memory");
}
