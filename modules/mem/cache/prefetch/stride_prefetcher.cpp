// sm.l1d_prefetch.policy = stride: the conventional PC-based stride prefetcher as the
// thesis describes it (001 §4.1.1, Figs 4.1-4.2; digest §D1). Every warp's load trains the
// PC's entry with its first active lane's address, so interleaved warps disturb each
// other's strides: the problem PCST answers (001 §4.1.2).
#include "mem/cache/prefetch/data_prefetcher.h"
#include "mem/cache/prefetch/stride_table.h"

namespace gputlm::mem {

namespace {
class StridePrefetcher final : public DataPrefetcherIF {
 public:
  explicit StridePrefetcher(const DataPrefetchConfig& cfg) : table_(cfg.table_entries) {}
  int64_t on_load(const LoadInfo& load) override {
    // D1 rule 6: prefetch prev_addr + stride when the new state is TRANSIENT or STEADY.
    const StrideEntry& e = table_.train_address(load.pc, load.first_address);
    return predicts(e.state) ? e.stride : 0;
  }

 private:
  StrideTable table_;
};
}  // namespace

std::unique_ptr<DataPrefetcherIF> make_stride_prefetcher(const DataPrefetchConfig& cfg) {
  return std::make_unique<StridePrefetcher>(cfg);
}

}  // namespace gputlm::mem
