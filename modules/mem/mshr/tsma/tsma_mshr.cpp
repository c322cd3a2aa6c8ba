#include "mem/mshr/tsma/tsma_mshr.h"
#include "mem/mshr/mshr_storage.h"

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

namespace gputlm::mem {

// 001 §5.1, Fig. 5.2 (digest §E4): tagless entries (valid + fields); the index generator's
// availability vector (one bit per entry) and IDX register (log2 entries); a share bit and
// an IDX in every cache block. The IDX carried by requests in flight is not storage here.
uint64_t tsma_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g, const MshrFieldWidths& w) {
  const uint64_t idx = index_bits(cfg.entries);
  const uint64_t lines = uint64_t{g.cache_sets} * g.cache_ways;
  return uint64_t{cfg.entries} * (1 + uint64_t{cfg.fields} * w.bits(g.line_size)) + cfg.entries + idx +
         lines * (1 + idx);
}

}  // namespace gputlm::mem
