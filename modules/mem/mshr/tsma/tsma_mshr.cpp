#include "mem/mshr/tsma/tsma_mshr.h"

#include <stdexcept>
#include <string>

namespace gputlm::mem {

MshrPlan TsmaMshr::plan_secondary(const MissQuery& q) {
  return merge_or_fail(checked_index(q.block, q.matched_index));
}

MshrPlan TsmaMshr::plan_primary(const MissQuery& q) {
  // Shared lines cannot be victims: with all ways shared the set (and, for an in-order
  // requester, the whole cache) locks up until one of them is filled.
  if (q.victim_way < 0) return fail(ReservationFail::SetLocked);
  const int32_t idx = table_.next_free();  // the IDX register
  if (idx < 0) return fail(ReservationFail::MshrEntriesFull);
  return allocate(idx, true);
}

MshrPlan TsmaMshr::plan(const MissQuery& q) {
  return q.matched_way >= 0 ? plan_secondary(q) : plan_primary(q);
}

int32_t TsmaMshr::checked_index(uint64_t block, int32_t index) const {
  if (index < 0 || static_cast<uint32_t>(index) >= table_.entries() || !table_.valid(static_cast<uint32_t>(index)) ||
      table_.block(static_cast<uint32_t>(index)) != block)
    throw std::runtime_error(std::string(organisation()) + " MSHR: block " + hex_address(block) +
                             " carries MSHR index " + std::to_string(index) +
                             ", which is not an entry waiting for it (the lower level must return "
                             "MemExtension::mshr_index unchanged)");
  return index;
}

int32_t TsmaMshr::find_for_fill(uint64_t block, int32_t returned_index) {
  return checked_index(block, returned_index);
}

}  // namespace gputlm::mem
