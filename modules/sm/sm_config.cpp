#include "sm/sm_config.h"

#include "core/config/config_source.h"
#include "sm/operand_collector/operand_collector.h"

namespace gputlm::sm {

namespace {
mem::CacheConfig read_only_cache(uint32_t sets, uint32_t ways, uint32_t line, uint32_t mshrs) {
  mem::CacheConfig c;
  c.sets = sets;
  c.ways = ways;
  c.line_size = line;
  c.write_policy = "read_only";
  c.fail_mode = "reject";
  c.mshr.entries = mshrs;
  return c;
}
}  // namespace

// ELF Table 1: 2 KB, 4-way, 128 B lines, 8 MSHRs.
mem::CacheConfig SmConfig::default_l1i() { return read_only_cache(4, 4, 128, 8); }

// ELF Table 1: 16 KB, 4-way, 128 B, 32 MSHRs; write-evict (GPGPU-Sim Fermi L1D).
mem::CacheConfig SmConfig::default_l1d() {
  mem::CacheConfig c;
  c.sets = 32;
  c.ways = 4;
  c.line_size = 128;
  c.write_policy = "write_evict";
  c.fail_mode = "reject";
  c.mshr.entries = 32;
  return c;
}

// Thesis Table 2.1: constant 8 KB 2-way 64 B; texture 16 KB 8-way 128 B.
mem::CacheConfig SmConfig::default_l1c() { return read_only_cache(64, 2, 64, 8); }
mem::CacheConfig SmConfig::default_l1t() { return read_only_cache(16, 8, 128, 8); }

void SmConfig::validate(const std::string& key_prefix) const {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  auto fail = [&](const std::string& key, const std::string& what) {
    throw config::ConfigError("key '" + p + key + "': " + what);
  };
  validate_unit_binding(operand_collector, exec, p);
  if (max_threads > max_warps * warp_size)
    fail("max_threads", std::to_string(max_threads) + " threads need more than max_warps (" +
                            std::to_string(max_warps) + ") warps of " + std::to_string(warp_size));
  if (scheduler.count > max_warps)
    fail("scheduler.count", "more schedulers (" + std::to_string(scheduler.count) + ") than warp slots (" +
                                std::to_string(max_warps) + ")");
  if (scheduler.ccws.vta_ways == 0 || scheduler.ccws.vta_entries % scheduler.ccws.vta_ways != 0)
    fail("scheduler.ccws.vta_ways", std::to_string(scheduler.ccws.vta_ways) + " ways do not divide vta_entries = " +
                                        std::to_string(scheduler.ccws.vta_entries));
  if (scheduler.owl.group_warps == 0 || scheduler.owl.group_warps > max_warps)
    fail("scheduler.owl.group_warps", std::to_string(scheduler.owl.group_warps) +
                                          " warps per CTA group: must be 1 to max_warps (" +
                                          std::to_string(max_warps) + ")");
  // blp_groups is held against max_ctas only when OWL schedules (its state exists only then):
  // another policy with one CTA slot (001 ch. 4's T128, sm.max_ctas=1) keeps OWL's default 2.
  if (scheduler.owl.blp_groups == 0 || (scheduler.policy == "owl" && scheduler.owl.blp_groups > max_ctas))
    fail("scheduler.owl.blp_groups", std::to_string(scheduler.owl.blp_groups) +
                                         " groups per BLP block: must be 1 to max_ctas (" + std::to_string(max_ctas) +
                                         "; a block of more groups than the SM holds CTAs is never resident at once)");
  if (fetch.width > fetch.ibuffer_entries)
    fail("fetch.width", "fetching " + std::to_string(fetch.width) + " instructions needs at least as many "
                        "I-buffer entries (fetch.ibuffer_entries = " + std::to_string(fetch.ibuffer_entries) + ")");
  if (uint64_t{fetch.width} * 8 > l1i.line_size)
    fail("fetch.width", "a fetch of " + std::to_string(fetch.width) + " instructions (8 bytes each) is wider than an "
                        "L1I line of " + std::to_string(l1i.line_size) + " bytes");
  if (fetch.code_base % l1i.line_size != 0)
    fail("fetch.code_base", "must be aligned to the L1I line size (" + std::to_string(l1i.line_size) + ")");
  if (l1i.write_policy != "read_only") fail("l1i.write_policy", "the L1I must be read_only");
  if (l1c.write_policy != "read_only") fail("l1c.write_policy", "the constant cache must be read_only");
  if (l1t.write_policy != "read_only") fail("l1t.write_policy", "the texture cache must be read_only");
  if (operand_collector.schedulers != scheduler.count)
    fail("operand_collector.schedulers", "is " + std::to_string(operand_collector.schedulers) +
                                             " but the SM has scheduler.count = " + std::to_string(scheduler.count) +
                                             " schedulers (set both)");
  if (lsu.coalescer.line_size != l1d.line_size)
    fail("lsu.coalescer.line_size", "is " + std::to_string(lsu.coalescer.line_size) + " but the L1D line is " +
                                        std::to_string(l1d.line_size));
  if (lsu.const_line_size != l1c.line_size)
    fail("lsu.const_line_size", "is " + std::to_string(lsu.const_line_size) + " but the L1C line is " +
                                    std::to_string(l1c.line_size));
  if (lsu.texture_line_size != l1t.line_size)
    fail("lsu.texture_line_size", "is " + std::to_string(lsu.texture_line_size) + " but the L1T line is " +
                                      std::to_string(l1t.line_size));
  if (scheduler.policy == "mascar") {
    // 002 §III-A: the flag must rise before an L1's MSHRs or miss queue are full, or the
    // owner warp could not issue when MP mode starts.
    for (const char* k : {"l1d", "l1c", "l1t"}) {
      const mem::CacheConfig& c = k[2] == 'd' ? l1d : k[2] == 'c' ? l1c : l1t;
      if (c.mshr.almost_full_margin == 0)
        fail(std::string(k) + ".mshr.almost_full_margin",
             "must be at least 1 under sm.scheduler.policy = mascar (the saturation flag must rise before the MSHRs "
             "are full, 002 §III-A)");
      if (c.saturation_margin == 0)
        fail(std::string(k) + ".saturation_margin",
             "must be at least 1 under sm.scheduler.policy = mascar (the saturation flag must rise before the miss "
             "queue is full, 002 §III-A)");
    }
  }
  operand_collector.validate(p + "operand_collector");
  exec.validate(p + "exec");
  lsu.validate(p + "lsu");
  for (const char* k : {"l1i", "l1d", "l1c", "l1t"}) {
    const mem::CacheConfig& c = k[2] == 'i' ? l1i : k[2] == 'd' ? l1d : k[2] == 'c' ? l1c : l1t;
    if (c.fail_mode != "reject") fail(std::string(k) + ".fail_mode", "L1 caches of an SM use reject mode");
    c.validate(p + k);
  }
}

}  // namespace gputlm::sm
