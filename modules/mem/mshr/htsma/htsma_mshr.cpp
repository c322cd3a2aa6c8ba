#include "mem/mshr/htsma/htsma_mshr.h"
#include "mem/mshr/mshr_storage.h"

#include <stdexcept>
#include <string>

namespace gputlm::mem {

HtsmaMshr::HtsmaMshr(const MshrConfig& cfg, stats::Group& parent)
    : TsmaMshr(cfg, parent),
      small_(cfg.small_entries, cfg.fields),
      smshr_access_(stats_.group, "smshr_access", "misses handled by the s-MSHR (001 Fig. 5.7)"),
      tsma_access_(stats_.group, "tsma_access", "misses handled by the TSMA (001 Fig. 5.7)"),
      small_searches_skipped_(stats_.group, "smshr_searches_skipped",
                              "s-MSHR searches avoided by its empty bit") {}

uint32_t HtsmaMshr::small_slot(int32_t entry) const {
  const int32_t s = entry - static_cast<int32_t>(table_.entries());
  if (s < 0 || static_cast<uint32_t>(s) >= small_.entries() || !small_.valid(static_cast<uint32_t>(s)))
    throw std::logic_error("htsma MSHR: no valid s-MSHR entry " + std::to_string(entry));
  return static_cast<uint32_t>(s);
}

int32_t HtsmaMshr::search_small(uint64_t block) {
  if (small_.empty()) {  // the empty bit: a miss cannot be secondary in an empty s-MSHR
    ++small_searches_skipped_;
    return -1;
  }
  stats_.tag_compares.add(small_.entries());
  const int32_t s = small_.search(block, 0, small_.entries());
  return s < 0 ? -1 : s + static_cast<int32_t>(table_.entries());
}

MshrPlan HtsmaMshr::small_merge_or_fail(int32_t entry) {
  if (!small_.has_free_field(small_slot(entry))) return fail(ReservationFail::MshrFieldsFull);
  MshrPlan p;
  p.action = MshrAction::Merge;
  p.entry = entry;
  p.structure = MshrStructure::Small;
  return p;
}

MshrPlan HtsmaMshr::small_allocate_or_fail() {
  const int32_t s = small_.next_free();
  if (s < 0) return fail(ReservationFail::MshrEntriesFull);
  return allocate(s + static_cast<int32_t>(table_.entries()), false, MshrStructure::Small);
}

MshrPlan HtsmaMshr::plan(const MissQuery& q) {
  // s-MSHR blocks never reserve a line, so a reserved matching line is TSMA-shared.
  if (q.matched_way >= 0) return plan_secondary(q);
  if (q.set_reserved + 1 >= q.ways) {  // share_cnt == A-1: the last unshared way is kept
    const int32_t e = search_small(q.block);
    return e >= 0 ? small_merge_or_fail(e) : small_allocate_or_fail();
  }
  const int32_t e = search_small(q.block);  // may be a secondary miss in the s-MSHR
  if (e >= 0) return small_merge_or_fail(e);
  if (q.victim_hit && small_.next_free() >= 0) return small_allocate_or_fail();
  return plan_primary(q);  // TSMA primary (the critical path of Listing 5.1)
}

void HtsmaMshr::commit(const MshrPlan& p, uint64_t block, const MshrField& f) {
  if (p.structure == MshrStructure::Main) {
    TableMshr::commit(p, block, f);
    ++tsma_access_;
    return;
  }
  if (p.action == MshrAction::Allocate) {
    const int32_t s = p.entry - static_cast<int32_t>(table_.entries());
    small_.allocate(static_cast<uint32_t>(s), block, false, f);
    ++stats_.allocations;
  } else if (p.action == MshrAction::Merge) {
    const uint32_t s = small_slot(p.entry);
    if (small_.block(s) != block) throw std::logic_error("htsma MSHR: merge of another block into the s-MSHR");
    small_.merge(s, f);
    ++stats_.merges;
  } else {
    throw std::logic_error("htsma MSHR: commit of a failed plan");
  }
  ++smshr_access_;
}

int32_t HtsmaMshr::find_for_fill(uint64_t block, int32_t returned_index) {
  if (returned_index >= 0 && !is_small(returned_index)) return checked_index(block, returned_index);
  // The s-MSHR is conventional: its fill is found by an associative search.
  stats_.tag_compares.add(small_.entries());
  const int32_t s = small_.search(block, 0, small_.entries());
  if (s < 0)
    throw std::runtime_error("htsma MSHR: fill for block " + hex_address(block) + " (index " +
                             std::to_string(returned_index) + ") that no entry waits for");
  return s + static_cast<int32_t>(table_.entries());
}

void HtsmaMshr::release(int32_t entry) {
  if (!is_small(entry)) return TableMshr::release(entry);
  small_.release(small_slot(entry));
  ++stats_.releases;
}

uint32_t HtsmaMshr::field_count(int32_t entry) const {
  return is_small(entry) ? small_.count(small_slot(entry)) : TableMshr::field_count(entry);
}
const MshrField& HtsmaMshr::field(int32_t entry, uint32_t i) const {
  return is_small(entry) ? small_.field(small_slot(entry), i) : TableMshr::field(entry, i);
}
uint64_t HtsmaMshr::block_of(int32_t entry) const {
  return is_small(entry) ? small_.block(small_slot(entry)) : TableMshr::block_of(entry);
}
bool HtsmaMshr::line_reserved(int32_t entry) const {
  return is_small(entry) ? false : TableMshr::line_reserved(entry);
}

}  // namespace gputlm::mem

namespace gputlm::mem {

// 001 §5.2 (digest §E5): the TSMA, a hit bit per cache block, a share_cnt of
// log2(assoc + 1) bits per set, the s-MSHR (a conventional MSHR of small_entries entries)
// and its `empty` flag.
uint64_t htsma_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g, const MshrFieldWidths& w) {
  MshrConfig small = cfg;
  small.entries = cfg.small_entries;
  const uint64_t lines = uint64_t{g.cache_sets} * g.cache_ways;
  return tsma_storage_bits(cfg, g, w) + lines + uint64_t{g.cache_sets} * index_bits(uint64_t{g.cache_ways} + 1) +
         conventional_storage_bits(small, g, w) + 1;
}

}  // namespace gputlm::mem
