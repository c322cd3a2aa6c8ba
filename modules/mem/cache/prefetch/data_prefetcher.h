// L1D data prefetchers (sm.l1d_prefetch.policy), created by name (make_data_prefetcher).
// The LSU shows each global load warp instruction bound for the L1D (on_load) and gets
// back the stride to apply; the SM reports CTA completions; the L1D reports whether
// prefetched lines were used (PrefetchFeedbackIF). Digest §D1-D5; 001 ch. 4.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/stats/stats.h"
#include "mem/cache/cache_types.h"
#include "mem/cache/prefetch/data_prefetch_config.h"

namespace gputlm::mem {

// One global load warp instruction as the LSU sees it.
struct LoadInfo {
  uint64_t pc = 0;
  int32_t warp = -1;  // warp slot in the SM
  int32_t cta = -1;   // linear CTA id in its grid
  // Thread 0 of the CTA (lane 0 of its first warp) executes this load: PCST's training
  // thread (001 §4.2.1); train_address is its address.
  bool thread0 = false;
  uint64_t train_address = 0;
  uint64_t first_address = 0;  // the first active lane's address (per-warp and stride training)
};

class DataPrefetcherIF : public PrefetchFeedbackIF {
 public:
  ~DataPrefetcherIF() override = default;
  // Trains with the load and returns the stride to prefetch at (0: no prefetch).
  virtual int64_t on_load(const LoadInfo& load) = 0;
  // A CTA of this SM finished (ITPC's update, STPE's throttle check).
  virtual void on_cta_complete(int32_t cta) { (void)cta; }
  // PrefetchFeedbackIF: a prefetched line served its first demand / left unused.
  void on_useful() override {}
  void on_useless() override {}
};

// One factory per policy (each in its own file); `group` takes the policy's own statistics.
std::unique_ptr<DataPrefetcherIF> make_stride_prefetcher(const DataPrefetchConfig& cfg);
std::unique_ptr<DataPrefetcherIF> make_pcst_prefetcher(const DataPrefetchConfig& cfg, stats::Group& group);
std::unique_ptr<DataPrefetcherIF> make_pcst_itpc_prefetcher(const DataPrefetchConfig& cfg, stats::Group& group);
std::unique_ptr<DataPrefetcherIF> make_stpe_prefetcher(const DataPrefetchConfig& cfg, stats::Group& group);
std::unique_ptr<DataPrefetcherIF> make_mt_hwp_prefetcher(const DataPrefetchConfig& cfg, stats::Group& group);

// The prefetcher named by cfg.policy; null for "none". Throws config::ConfigError naming
// `key` + ".policy" for an unknown name.
std::unique_ptr<DataPrefetcherIF> make_data_prefetcher(const DataPrefetchConfig& cfg, const std::string& key,
                                                       stats::Group& group);

}  // namespace gputlm::mem
