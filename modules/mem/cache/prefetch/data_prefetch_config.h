// Configuration of the L1D data prefetchers (sm.l1d_prefetch; docs/blocks/cache.md,
// "Data prefetchers", and docs/platforms/thesis_prefetch.md for the thesis readings).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/params.h"

namespace gputlm::mem {

// Names accepted by DataPrefetchConfig::policy (the registry's keys, in order).
const std::vector<std::string>& data_prefetcher_names();

struct MtHwpConfig {
  uint32_t promotion_warps = 3;
  uint32_t warp_table_entries = 0;
  uint32_t distance = 1;

  template <class V>
  void visit(V& v) {
    v.param("promotion_warps", promotion_warps,
            "stride promotion: a PC's stride moves to the global table once this many warps' per-warp entries "
            "predict the same stride (001 §4.4.2 leaves the rule open; our reading of Lee et al. MICRO'10: 3)",
            config::in_range(1, 64));
    v.param("warp_table_entries", warp_table_entries,
            "entries of the per-warp (PC, warp) stride table; 0 = unlimited (001 §4.4.1-4.4.2's setting)",
            config::at_least(0));
    v.param("distance", distance,
            "inter-thread prefetching: prefetch the data of the warp this many warps ahead (addr + distance x "
            "the inter-warp stride; Lee et al. MICRO'10 prefetch for the next warp: 1)",
            config::in_range(1, 64));
  }
};

struct DataPrefetchConfig {
  std::string policy = "none";
  uint32_t table_entries = 0;
  std::string train_scope = "cta";
  std::string itpc_order = "pc";
  std::string throttle_interval = "cta";
  uint32_t throttle_resets = 2;
  std::string target = "requests";
  uint32_t mshr_keep_free = 0;
  MtHwpConfig mt_hwp;

  template <class V>
  void visit(V& v) {
    v.param("policy", policy,
            "L1D data prefetcher: none; stride (001 §4.1.1: PC-based stride, every load trains); pcst (001 §4.2.1: "
            "trained by thread 0's loads only, every warp looks up); pcst_itpc (+ 001 §4.2.2's inter-PC strides "
            "learnt at each CTA end); stpe (pcst_itpc + 001 §4.2.3's CTA-based throttling); mt_hwp (001 §4.4.2: "
            "inter-thread + per-warp tables with a promoted global table). Prefetches fill the L1D",
            config::one_of(data_prefetcher_names()));
    v.param("table_entries", table_entries,
            "entries of each PC-indexed stride table (stride, PCST, ITPC, MT-HWP's inter-thread and global); 0 = "
            "unlimited, the thesis's 'unlimited on-chip storage' (001 §4.4.1-4.4.2; sizes unspecified); a full "
            "table replaces its least recently used entry",
            config::at_least(0));
    v.param("train_scope", train_scope,
            "pcst, pcst_itpc, stpe: whose loads train the table (001 §4.2.1 'thread ID 0'): cta = thread 0 of every "
            "CTA (what ITPC's per-CTA scan implies), grid = thread 0 of the grid's CTA 0 only",
            config::one_of({"cta", "grid"}));
    v.param("itpc_order", itpc_order,
            "pcst_itpc, stpe: the 'next entry' of ITPC's scan (001 Table 4.2): pc = next PC in the table, "
            "insertion = next entry allocated (program order of first execution)",
            config::one_of({"pc", "insertion"}));
    v.param("throttle_interval", throttle_interval,
            "stpe: the useful / useless prefetch counts compared at each CTA end are those since the previous CTA "
            "end (cta) or since the start of the run (cumulative); 001 §4.2.3 does not say",
            config::one_of({"cta", "cumulative"}));
    v.param("throttle_resets", throttle_resets,
            "stpe: prefetching turns off for the rest of the run once the tables were cleared more than this many "
            "times (001 §4.2.3: 'more than twice' = 2)",
            config::in_range(0, 1000000));
    v.param("target", target,
            "which addresses a prediction applies to: requests = the line of each of the warp instruction's L1D "
            "requests plus the stride (every line the warp will touch next); first_lane = the first active "
            "lane's address plus the stride only (001 Fig. 4.3's one issue_prefetching(addr + stride))",
            config::one_of({"requests", "first_lane"}));
    v.param("mshr_keep_free", mshr_keep_free,
            "a prefetch is sent only while more than this many L1D MSHR entries are free (0: any free entry; the "
            "thesis does not say; a prefetch never waits, it is dropped)",
            config::at_least(0));
    v.group("mt_hwp", mt_hwp, "mt_hwp: per-warp training, inter-thread prefetching and stride promotion");
  }
  bool enabled() const { return policy != "none"; }
};

}  // namespace gputlm::mem
