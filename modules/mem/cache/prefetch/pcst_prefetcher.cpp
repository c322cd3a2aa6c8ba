// sm.l1d_prefetch.policy = pcst | pcst_itpc | stpe (001 §4.2.1-4.2.3, Fig. 4.3; digest
// §D2-D4; readings in docs/platforms/thesis_prefetch.md).
//  * PCST: only thread 0's loads train the PC-indexed table (D1's FSM plus #Access); every
//    warp's load looks its PC up and prefetches addr + stride in TRANSIENT / STEADY.
//  * ITPC: at each CTA end the PCST entries with #Access == 1 give inter-PC strides (next
//    entry's address - this entry's), trained into a second table with the same FSM; it is
//    consulted only when PCST gives no stride, and lookups never change it.
//  * STPE: at each CTA end, after the ITPC update, useful < useless clears both tables;
//    after more than throttle_resets clears prefetching stays off for the run.
#include "mem/cache/prefetch/pcst_prefetcher.h"

#include <algorithm>
#include <vector>

namespace gputlm::mem {

PcstPrefetcher::PcstPrefetcher(const DataPrefetchConfig& cfg, bool itpc, bool throttle, stats::Group& group)
    : grid_scope_(cfg.train_scope == "grid"),
      insertion_order_(cfg.itpc_order == "insertion"),
      itpc_on_(itpc),
      throttle_on_(throttle),
      cumulative_(cfg.throttle_interval == "cumulative"),
      resets_allowed_(cfg.throttle_resets),
      pcst_(cfg.table_entries),
      itpc_(cfg.table_entries) {
  if (itpc_on_)
    itpc_updates_ = std::make_unique<stats::Counter>(group, "itpc_updates",
                                                     "ITPC table updates at CTA ends (one per inter-PC stride)");
  if (throttle_on_) {
    throttle_events_ = std::make_unique<stats::Counter>(
        group, "throttle_events", "STPE: CTA ends at which useful < useless prefetches cleared both tables");
    off_stat_ = std::make_unique<stats::Counter>(
        group, "prefetcher_off", "STPE: 1 once prefetching was turned off for the run (too many clears)");
  }
}

int64_t PcstPrefetcher::on_load(const LoadInfo& load) {
  if (off_) return 0;
  if (load.thread0 && (!grid_scope_ || load.cta == 0)) {
    // The entry follows one thread: when another CTA's thread 0 trains it, its address and
    // #Access restart there (no stride between two threads' addresses; stride and state are
    // kept), so #Access counts one CTA's accesses, which ITPC's per-CTA scan needs (§Z 21).
    StrideEntry* e = pcst_.find(load.pc);
    if (e && e->owner != load.cta) {
      e->address = load.train_address;
      e->accesses = 1;
      e->owner = load.cta;
    } else {
      pcst_.train_address(load.pc, load.train_address).owner = load.cta;
    }
  }
  int64_t stride = pcst_.lookup(load.pc);
  if (stride == 0 && itpc_on_) stride = itpc_.lookup(load.pc);
  return stride;
}

void PcstPrefetcher::update_itpc(int32_t cta) {
  std::vector<const StrideEntry*> order;
  order.reserve(pcst_.size());
  for (const auto& kv : pcst_.entries()) order.push_back(&kv.second);
  if (insertion_order_)
    std::sort(order.begin(), order.end(),
              [](const StrideEntry* a, const StrideEntry* b) { return a->inserted < b->inserted; });
  // Adjacent entries that both saw exactly one access of this CTA's thread 0 (001 Table 4.2:
  // "Inter-PC stride considers entries having only one access").
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    const StrideEntry& a = *order[i];
    const StrideEntry& b = *order[i + 1];
    if (a.accesses != 1 || b.accesses != 1 || a.owner != cta || b.owner != cta) continue;
    itpc_.train_stride(a.key, static_cast<int64_t>(b.address - a.address));
    ++*itpc_updates_;
  }
}

void PcstPrefetcher::on_cta_complete(int32_t cta) {
  if (off_) return;
  if (itpc_on_) update_itpc(cta);
  if (!throttle_on_) return;
  if (useful_ < useless_) {
    pcst_.clear();
    itpc_.clear();
    ++throttle_cnt_;
    ++*throttle_events_;
    if (throttle_cnt_ > resets_allowed_) {
      off_ = true;
      ++*off_stat_;
    }
  }
  if (!cumulative_) useful_ = useless_ = 0;
}

std::unique_ptr<DataPrefetcherIF> make_pcst_prefetcher(const DataPrefetchConfig& cfg, stats::Group& group) {
  return std::make_unique<PcstPrefetcher>(cfg, false, false, group);
}
std::unique_ptr<DataPrefetcherIF> make_pcst_itpc_prefetcher(const DataPrefetchConfig& cfg, stats::Group& group) {
  return std::make_unique<PcstPrefetcher>(cfg, true, false, group);
}
std::unique_ptr<DataPrefetcherIF> make_stpe_prefetcher(const DataPrefetchConfig& cfg, stats::Group& group) {
  return std::make_unique<PcstPrefetcher>(cfg, true, true, group);
}

}  // namespace gputlm::mem
