// Set-associative MSHR (001 §5.4.4, seed-mechanisms §E3): entries organised as
// sets x ways; only the indexed set (block mod sets) is searched. A primary miss whose
// set is full fails even when other sets have free entries; the search is still charged.
#pragma once

#include "mem/mshr/mshr_table.h"

namespace gputlm::mem {

class SetAssocMshr : public TableMshr {
 public:
  SetAssocMshr(const MshrConfig& cfg, stats::Group& parent);
  const char* organisation() const override { return "set_assoc"; }
  MshrPlan plan(const MissQuery& q) override;
  int32_t find_for_fill(uint64_t block, int32_t returned_index) override;
  uint32_t sets() const { return sets_; }
  uint32_t set_of(uint64_t block) const { return static_cast<uint32_t>(block % sets_); }

 private:
  uint32_t ways_, sets_;
};

}  // namespace gputlm::mem
