#include "mem/mshr/set_assoc/set_assoc_mshr.h"
#include "mem/mshr/mshr_storage.h"

#include <stdexcept>

namespace gputlm::mem {

SetAssocMshr::SetAssocMshr(const MshrConfig& cfg, stats::Group& parent)
    : TableMshr(cfg, parent), ways_(cfg.ways), sets_(cfg.entries / cfg.ways) {
  if (cfg.ways == 0 || cfg.entries % cfg.ways != 0)
    throw std::invalid_argument("set_assoc MSHR: entries must be a multiple of ways");
}

MshrPlan SetAssocMshr::plan(const MissQuery& q) {
  if (q.matched_way < 0 && q.allocate_on_miss && q.victim_way < 0) return fail(ReservationFail::SetLocked);
  const uint32_t first = set_of(q.block) * ways_;
  stats_.tag_compares.add(ways_);
  const int32_t e = table_.search(q.block, first, ways_);
  if (e >= 0) return merge_or_fail(e);
  const int32_t f = table_.next_free(first, ways_);
  if (f < 0) return fail(ReservationFail::MshrEntriesFull);  // this set is full
  return allocate(f, q.allocate_on_miss);
}

int32_t SetAssocMshr::find_for_fill(uint64_t block, int32_t /*returned_index*/) {
  stats_.tag_compares.add(ways_);
  const int32_t e = table_.search(block, set_of(block) * ways_, ways_);
  if (e < 0)
    throw std::runtime_error("set_assoc MSHR: fill for block " + hex_address(block) + " that no entry waits for");
  return e;
}

}  // namespace gputlm::mem

namespace gputlm::mem {

// 001 §5.4.4: a conventional entry per way; the set index (block mod sets) is implied by
// the entry's position, so a power-of-two set count drops log2(sets) bits from each tag.
uint64_t set_assoc_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g, const MshrFieldWidths& w) {
  const uint32_t sets = cfg.entries / cfg.ways;
  const bool power_of_two = (sets & (sets - 1)) == 0;
  const uint64_t tag = g.address_bits - index_bits(g.line_size) - (power_of_two ? index_bits(sets) : 0);
  return uint64_t{cfg.entries} * (1 + tag + uint64_t{cfg.fields} * w.bits(g.line_size));
}

}  // namespace gputlm::mem
