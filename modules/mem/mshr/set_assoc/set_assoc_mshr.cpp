#include "mem/mshr/set_assoc/set_assoc_mshr.h"

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
