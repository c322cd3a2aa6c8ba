// Conventional MSHR (001 §1.2, seed-mechanisms §E1): N fully associative entries of M
// fields. Every search (miss or fill) compares the block against all N tags.
#pragma once

#include "mem/mshr/mshr_table.h"

namespace gputlm::mem {

class ConventionalMshr : public TableMshr {
 public:
  ConventionalMshr(const MshrConfig& cfg, stats::Group& parent) : TableMshr(cfg, parent) {}
  const char* organisation() const override { return "conventional"; }
  MshrPlan plan(const MissQuery& q) override;
  int32_t find_for_fill(uint64_t block, int32_t returned_index) override;
};

}  // namespace gputlm::mem
