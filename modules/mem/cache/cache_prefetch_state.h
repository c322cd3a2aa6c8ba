// The cache's prefetch-path statistics and settings (private to the cache's .cpp files;
// Cache holds it by unique_ptr, created by enable_prefetch()).
#pragma once

#include "mem/cache/cache.h"

namespace gputlm::mem {

struct Cache::PrefetchState {
  PrefetchState(stats::Group& parent, uint32_t keep)
      : group(parent, "prefetch"),
        keep_free(keep),
        issued(group, "issued", "prefetches sent to the next level (an MSHR entry each)"),
        dropped(group, "dropped", "prefetches not sent, by cause",
                {"present", "in_flight", "no_mshr", "miss_queue_full"}),
        useful(group, "useful", "prefetched lines whose first demand load hit them or joined their pending miss"),
        late(group, "late", "useful prefetches still pending when the demand load came (it joined the MSHR entry)"),
        useless(group, "useless", "prefetched lines replaced or invalidated before any demand load used them"),
        demand_misses(group, "demand_misses", "demand loads that allocated an MSHR entry (not covered)"),
        coverable(group, "coverable", "useful + demand_misses: the denominator of coverage"),
        coverage(group, "coverage", "useful / (useful + demand_misses)", useful, coverable),
        accuracy(group, "accuracy", "useful / issued", useful, issued) {}
  stats::Group group;
  uint32_t keep_free;
  PrefetchFeedbackIF* feedback = nullptr;
  stats::Counter issued;
  stats::CounterVector dropped;
  stats::Counter useful, late, useless, demand_misses, coverable;
  stats::Ratio coverage, accuracy;
};

}  // namespace gputlm::mem
