// Factories of the policies in this folder (one file per policy family).
#pragma once

#include <memory>
#include <vector>

#include "sm/scheduler/scheduler_policy.h"

namespace gputlm::sm::policies {

std::unique_ptr<SchedulerPolicyIF> make_lrr();
std::unique_ptr<SchedulerPolicyIF> make_gto();
std::unique_ptr<SchedulerPolicyIF> make_oldest();
std::unique_ptr<SchedulerPolicyIF> make_gtrr();
std::unique_ptr<SchedulerPolicyIF> make_gtlr();
std::unique_ptr<SchedulerPolicyIF> make_sfp();
// table: the SM's warp table (barrier-waiting warps neither count nor are held; needed for
// sm_scope); null: the limit counts every warp passed to order().
std::unique_ptr<SchedulerPolicyIF> make_swl(uint32_t warp_limit, bool sm_scope = false,
                                            const WarpTable* table = nullptr);
std::unique_ptr<SchedulerPolicyIF> make_two_level(uint32_t group_size, std::unique_ptr<SchedulerPolicyIF> inner,
                                                  bool outer_gto);

// Appends warps in round-robin order starting after slot `last` (slots > last ascending,
// then slots <= last ascending); `warps` is ascending by slot.
void round_robin_after(const std::vector<WarpView>& warps, uint32_t last, std::vector<uint32_t>& order);
// Appends warps sorted oldest first (age, then slot), skipping `skip` (kNone: none).
void oldest_first(const std::vector<WarpView>& warps, uint32_t skip, std::vector<uint32_t>& order);

// oldest_first over the warps passed in, sorted again only when they differ from the last
// call's (the scheduler passes the same resident warps until residency changes, and age
// policies re-order after every issue).
class AgeSorted {
 public:
  const std::vector<uint32_t>& of(const std::vector<WarpView>& warps);

 private:
  std::vector<WarpView> seen_;
  std::vector<uint32_t> sorted_;
};

}  // namespace gputlm::sm::policies
