// sm.l1d_prefetch.policy = mt_hwp (digest §D5). Both prefetchers train on every load;
// the lookup order is global -> inter-thread -> per-warp and the first table with a
// stride issues (001 §4.4.4). Promotion (unspecified in 001): once promotion_warps warps'
// per-warp entries of a PC reach STEADY with the same stride, the global table takes
// (PC, stride). Readings: docs/platforms/thesis_prefetch.md.
#include "mem/cache/prefetch/mt_hwp_prefetcher.h"

namespace gputlm::mem {

MtHwpPrefetcher::MtHwpPrefetcher(const DataPrefetchConfig& cfg, stats::Group& group)
    : promotion_warps_(cfg.mt_hwp.promotion_warps),
      distance_(cfg.mt_hwp.distance),
      global_(cfg.table_entries),
      inter_thread_(cfg.table_entries),
      per_warp_(cfg.mt_hwp.warp_table_entries),
      promotions_(group, "promotions", "MT-HWP: strides promoted from the per-warp table to the global table"),
      sources_(group, "stride_source", "MT-HWP: the table each prefetching load took its stride from",
               {"global", "inter_thread", "per_warp"}) {}

void MtHwpPrefetcher::train_inter_thread(const LoadInfo& load) {
  StrideEntry* e = inter_thread_.find(load.pc);
  if (!e) {
    inter_thread_.train_address(load.pc, load.first_address).owner = load.warp;
    return;
  }
  if (e->owner == load.warp) {  // the same warp again (a loop): no inter-thread information
    e->address = load.first_address;
    return;
  }
  // The stride per warp step between the last warp's address and this one's.
  const int64_t diff = static_cast<int64_t>(load.first_address - e->address);
  const int64_t steps = static_cast<int64_t>(load.warp) - e->owner;
  const int64_t s = diff % steps == 0 ? diff / steps : diff;
  StrideEntry& t = inter_thread_.train_stride(load.pc, s);
  t.address = load.first_address;
  t.owner = load.warp;
}

void MtHwpPrefetcher::train_per_warp(const LoadInfo& load) {
  const uint64_t key = warp_key(load.pc, load.warp);
  const StrideEntry* before = per_warp_.find(key);
  const bool was_steady = before && before->state == StrideState::Steady;
  const StrideEntry& e = per_warp_.train_address(key, load.first_address);
  if (e.state != StrideState::Steady || was_steady || e.stride == 0) return;
  Promotion& p = promotion_[load.pc];
  if (p.stride != e.stride) p = Promotion{e.stride, 0};
  p.warps |= uint64_t{1} << (static_cast<uint32_t>(load.warp) & 63);
  if (static_cast<uint32_t>(__builtin_popcountll(p.warps)) < promotion_warps_) return;
  const StrideEntry* g = global_.find(load.pc);
  if (!g || g->stride != p.stride) {
    global_.put(load.pc, p.stride, StrideState::Steady);
    ++promotions_;
  }
}

int64_t MtHwpPrefetcher::on_load(const LoadInfo& load) {
  train_inter_thread(load);
  train_per_warp(load);
  int64_t stride = global_.lookup(load.pc);
  last_source_ = Global;
  if (stride == 0) {
    stride = inter_thread_.lookup(load.pc) * static_cast<int64_t>(distance_);
    last_source_ = InterThread;
  }
  if (stride == 0) {
    stride = per_warp_.lookup(warp_key(load.pc, load.warp));
    last_source_ = PerWarp;
  }
  if (stride == 0) {
    last_source_ = -1;
    return 0;
  }
  sources_.add(static_cast<std::size_t>(last_source_));
  return stride;
}

std::unique_ptr<DataPrefetcherIF> make_mt_hwp_prefetcher(const DataPrefetchConfig& cfg, stats::Group& group) {
  return std::make_unique<MtHwpPrefetcher>(cfg, group);
}

}  // namespace gputlm::mem
