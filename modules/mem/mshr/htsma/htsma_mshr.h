// HTSMA, the hybrid tag-shared MSHR array (001 §5.2, Listing 5.1; seed-mechanisms §E5):
// a TSMA plus a small fully associative s-MSHR. Entry ids [0, entries) are TSMA
// entries, [entries, entries + small_entries) the s-MSHR's. Misses handled by the
// s-MSHR do not reserve a line (on-fill allocation), so one way of every set stays
// unshared and the set never locks up; a victim with its hit bit set is protected from
// early eviction by preferring the s-MSHR.
//
// Listing 5.1 leaves open what happens when the s-MSHR is full in the reserved-way
// branch: the miss fails with MshrEntriesFull (the cache retries). The "s-MSHR full ->
// TSMA" branch searches the s-MSHR first, so a block is never tracked twice (§Z 26).
#pragma once

#include "mem/mshr/tsma/tsma_mshr.h"

namespace gputlm::mem {

class HtsmaMshr : public TsmaMshr {
 public:
  HtsmaMshr(const MshrConfig& cfg, stats::Group& parent);
  const char* organisation() const override { return "htsma"; }
  MshrPlan plan(const MissQuery& q) override;
  void commit(const MshrPlan& p, uint64_t block, const MshrField& f) override;
  int32_t find_for_fill(uint64_t block, int32_t returned_index) override;
  void release(int32_t entry) override;
  uint32_t field_count(int32_t entry) const override;
  const MshrField& field(int32_t entry, uint32_t i) const override;
  uint64_t block_of(int32_t entry) const override;
  bool line_reserved(int32_t entry) const override;
  uint32_t occupied() const override { return table_.occupied() + small_.occupied(); }
  uint32_t capacity() const override { return table_.entries() + small_.entries(); }
  uint32_t small_occupied() const { return small_.occupied(); }

 private:
  bool is_small(int32_t entry) const { return entry >= static_cast<int32_t>(table_.entries()); }
  uint32_t small_slot(int32_t entry) const;
  // CAM search of the s-MSHR (counts its comparisons); -1 when absent.
  int32_t search_small(uint64_t block);
  MshrPlan small_merge_or_fail(int32_t entry);
  MshrPlan small_allocate_or_fail();

  MshrTable small_;
  stats::Counter smshr_access_, tsma_access_, small_searches_skipped_;
};

}  // namespace gputlm::mem
