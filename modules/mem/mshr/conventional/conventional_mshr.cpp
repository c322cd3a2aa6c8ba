#include "mem/mshr/conventional/conventional_mshr.h"
#include "mem/mshr/mshr_storage.h"

#include <stdexcept>
#include <string>

namespace gputlm::mem {

MshrPlan ConventionalMshr::plan(const MissQuery& q) {
  // Allocate-on-miss with every way reserved: the tag stage refuses the miss before the
  // MSHR is searched (GPGPU-Sim's line-allocation failure).
  if (q.matched_way < 0 && q.allocate_on_miss && q.victim_way < 0) return fail(ReservationFail::SetLocked);
  stats_.tag_compares.add(table_.entries());  // a CAM search activates every comparator
  const int32_t e = table_.search(q.block, 0, table_.entries());
  if (e >= 0) return merge_or_fail(e);
  const int32_t f = table_.next_free();
  if (f < 0) return fail(ReservationFail::MshrEntriesFull);
  return allocate(f, q.allocate_on_miss);
}

int32_t ConventionalMshr::find_for_fill(uint64_t block, int32_t /*returned_index*/) {
  stats_.tag_compares.add(table_.entries());
  const int32_t e = table_.search(block, 0, table_.entries());
  if (e < 0)
    throw std::runtime_error("conventional MSHR: fill for block " + hex_address(block) +
                             " that no entry waits for");
  return e;
}

}  // namespace gputlm::mem

namespace gputlm::mem {

// 001 §1.2, Fig. 1.2: each entry has a valid bit, a block tag and its fields.
uint64_t conventional_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g, const MshrFieldWidths& w) {
  const uint64_t tag = g.address_bits - index_bits(g.line_size);
  return uint64_t{cfg.entries} * (1 + tag + uint64_t{cfg.fields} * w.bits(g.line_size));
}

}  // namespace gputlm::mem
