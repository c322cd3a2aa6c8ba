// MT-HWP (001 §4.4.2, §4.4.4, after Lee et al. MICRO'10; digest §D5): an inter-thread
// stride table (per PC, the stride between consecutive warps' addresses), a per-warp
// (PC, warp) stride table, and a global table holding strides promoted from the per-warp
// table. Exposed for the unit tests.
#pragma once

#include <map>
#include <memory>

#include "mem/cache/prefetch/data_prefetcher.h"
#include "mem/cache/prefetch/stride_table.h"

namespace gputlm::mem {

class MtHwpPrefetcher final : public DataPrefetcherIF {
 public:
  enum Source : std::size_t { Global = 0, InterThread = 1, PerWarp = 2 };
  MtHwpPrefetcher(const DataPrefetchConfig& cfg, stats::Group& group);

  int64_t on_load(const LoadInfo& load) override;
  // The table the last on_load took its stride from (-1: none).
  int last_source() const { return last_source_; }
  const StrideTable& global() const { return global_; }
  const StrideTable& inter_thread() const { return inter_thread_; }
  const StrideTable& per_warp() const { return per_warp_; }
  static uint64_t warp_key(uint64_t pc, int32_t warp) { return (pc << 8) | (static_cast<uint64_t>(warp) & 0xff); }

 private:
  void train_inter_thread(const LoadInfo& load);
  void train_per_warp(const LoadInfo& load);
  uint32_t promotion_warps_, distance_;
  StrideTable global_, inter_thread_, per_warp_;
  struct Promotion {
    int64_t stride = 0;
    uint64_t warps = 0;  // bit w: warp w's entry reached STEADY with `stride`
  };
  std::map<uint64_t, Promotion> promotion_;
  int last_source_ = -1;
  stats::Counter promotions_;
  stats::CounterVector sources_;
};

}  // namespace gputlm::mem
