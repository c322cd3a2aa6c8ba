// TSMA, the tag-shared MSHR array (001 §5.1, Fig. 5.2; seed-mechanisms §E4): a tagless,
// directly indexed array. A primary miss takes the index from the index generator
// (lowest free entry), and the cache reserves ("shares") the victim line, storing the
// index in it; a tag hit on a shared line is a secondary miss into that index; the
// response carries the index back. No tag comparisons at all. If every way of the set
// is shared, the miss cannot be handled (cache lock-up).
#pragma once

#include "mem/mshr/mshr_table.h"

namespace gputlm::mem {

class TsmaMshr : public TableMshr {
 public:
  TsmaMshr(const MshrConfig& cfg, stats::Group& parent) : TableMshr(cfg, parent) {}
  const char* organisation() const override { return "tsma"; }
  MshrPlan plan(const MissQuery& q) override;
  int32_t find_for_fill(uint64_t block, int32_t returned_index) override;

 protected:
  // Shared with HTSMA, whose TSMA part behaves identically.
  MshrPlan plan_secondary(const MissQuery& q);  // tag hit on a shared line
  MshrPlan plan_primary(const MissQuery& q);    // tag miss: share the victim line
  int32_t checked_index(uint64_t block, int32_t index) const;
};

}  // namespace gputlm::mem
