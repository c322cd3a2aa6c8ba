// PCST, PCST + ITPC and STPE (001 §4.2; digest §D2-D4): one class, the later mechanisms
// switched on by the factory (pcst_prefetcher.cpp). Exposed for the unit tests, which
// read its tables.
#pragma once

#include <memory>

#include "mem/cache/prefetch/data_prefetcher.h"
#include "mem/cache/prefetch/stride_table.h"

namespace gputlm::mem {

class PcstPrefetcher final : public DataPrefetcherIF {
 public:
  // itpc: learn inter-PC strides at CTA ends; throttle: STPE's CTA-based throttling.
  PcstPrefetcher(const DataPrefetchConfig& cfg, bool itpc, bool throttle, stats::Group& group);

  int64_t on_load(const LoadInfo& load) override;
  void on_cta_complete(int32_t cta) override;
  void on_useful() override { ++useful_; }
  void on_useless() override { ++useless_; }

  const StrideTable& pcst() const { return pcst_; }
  const StrideTable& itpc() const { return itpc_; }
  uint32_t throttle_count() const { return throttle_cnt_; }
  bool off() const { return off_; }
  uint64_t useful() const { return useful_; }
  uint64_t useless() const { return useless_; }

 private:
  void update_itpc(int32_t cta);
  bool grid_scope_;
  bool insertion_order_;
  bool itpc_on_, throttle_on_;
  bool cumulative_;
  uint32_t resets_allowed_;
  StrideTable pcst_, itpc_;
  uint64_t useful_ = 0, useless_ = 0;
  uint32_t throttle_cnt_ = 0;
  bool off_ = false;
  std::unique_ptr<stats::Counter> throttle_events_, off_stat_, itpc_updates_;
};

}  // namespace gputlm::mem
