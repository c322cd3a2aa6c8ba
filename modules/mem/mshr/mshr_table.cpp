#include "mem/mshr/mshr_table.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gputlm::mem {

MshrTable::MshrTable(uint32_t entries, uint32_t fields)
    : entries_(entries),
      fields_(fields),
      valid_(entries, 0),
      reserved_line_(entries, 0),
      block_(entries, kNoBlock),
      free_bits_((entries + 63) / 64, ~uint64_t{0}),
      count_(entries, 0),
      fields_store_(static_cast<std::size_t>(entries) * fields) {
  if (entries == 0 || fields == 0) throw std::invalid_argument("MshrTable: entries and fields must be positive");
  if (entries >= kIndexFrom) {
    uint32_t bits = 1;
    while ((uint64_t{1} << bits) < 2ull * entries) ++bits;  // load factor <= 1/2
    index_.assign(std::size_t{1} << bits, 0);
    index_shift_ = 64 - bits;
    indexed_ = true;
  }
}

int32_t MshrTable::index_find(uint64_t block) const {
  const uint32_t mask = static_cast<uint32_t>(index_.size() - 1);
  for (uint32_t i = index_slot(block);; i = (i + 1) & mask) {
    const uint32_t v = index_[i];
    if (v == 0) return -1;
    if (block_[v - 1] == block) return static_cast<int32_t>(v - 1);
  }
}

void MshrTable::index_insert(uint32_t e) {
  const uint32_t mask = static_cast<uint32_t>(index_.size() - 1);
  uint32_t i = index_slot(block_[e]);
  for (; index_[i] != 0; i = (i + 1) & mask)
    if (block_[index_[i] - 1] == block_[e]) {  // a block in two entries: scan from now on
      indexed_ = false;
      return;
    }
  index_[i] = e + 1;
}

void MshrTable::index_erase(uint32_t e) {
  // Backward-shift deletion keeps every other block reachable from its home slot.
  const uint32_t mask = static_cast<uint32_t>(index_.size() - 1);
  uint32_t i = index_slot(block_[e]);
  while (index_[i] != e + 1) i = (i + 1) & mask;  // present: inserted at allocate
  for (uint32_t j = (i + 1) & mask; index_[j] != 0; j = (j + 1) & mask) {
    const uint32_t home = index_slot(block_[index_[j] - 1]);
    // The entry at j may move to i if its home is not in the cyclic range (i, j].
    const bool home_in_range = i < j ? (home > i && home <= j) : (home > i || home <= j);
    if (!home_in_range) {
      index_[i] = index_[j];
      i = j;
    }
  }
  index_[i] = 0;
}

int32_t MshrTable::next_free(uint32_t first, uint32_t n) const {
  // Priority encoder over the availability vector, a 64-bit word at a time.
  const uint32_t end = first + n;
  for (uint32_t e = first; e < end;) {
    const uint32_t word = e / 64, bit = e % 64;
    uint64_t bits = free_bits_[word] >> bit;
    const uint32_t span = 64 - bit;
    if (end - e < span) bits &= (uint64_t{1} << (end - e)) - 1;
    if (bits) return static_cast<int32_t>(e + static_cast<uint32_t>(__builtin_ctzll(bits)));
    e += span;
  }
  return -1;
}

int32_t MshrTable::search(uint64_t block, uint32_t first, uint32_t n) const {
  const uint32_t end = std::min(first + n, used_end_);
  if (indexed_) {
    const int32_t e = index_find(block);
    return e >= 0 && static_cast<uint32_t>(e) >= first && static_cast<uint32_t>(e) < end ? e : -1;
  }
  // Free entries hold kNoBlock, so only valid entries can match.
  const uint64_t* tags = block_.data();
  for (uint32_t e = first; e < end; ++e)
    if (tags[e] == block) return static_cast<int32_t>(e);
  return -1;
}

void MshrTable::allocate(uint32_t e, uint64_t block, bool reserved_line, const MshrField& f) {
  if (valid_[e]) throw std::logic_error("MshrTable: allocate of busy entry " + std::to_string(e));
  if (block == kNoBlock) throw std::invalid_argument("MshrTable: block address out of range");
  valid_[e] = 1;
  reserved_line_[e] = reserved_line ? 1 : 0;
  block_[e] = block;
  if (indexed_) index_insert(e);
  free_bits_[e / 64] &= ~(uint64_t{1} << (e % 64));
  count_[e] = 1;
  fields_store_[static_cast<std::size_t>(e) * fields_] = f;
  ++occupied_;
  if (e >= used_end_) used_end_ = e + 1;
}

void MshrTable::merge(uint32_t e, const MshrField& f) {
  if (!valid_[e] || count_[e] >= fields_)
    throw std::logic_error("MshrTable: merge into invalid or full entry " + std::to_string(e));
  fields_store_[static_cast<std::size_t>(e) * fields_ + count_[e]++] = f;
}

void MshrTable::release(uint32_t e) {
  if (!valid_[e]) throw std::logic_error("MshrTable: release of free entry " + std::to_string(e));
  valid_[e] = 0;
  if (indexed_) index_erase(e);
  block_[e] = kNoBlock;
  free_bits_[e / 64] |= uint64_t{1} << (e % 64);
  count_[e] = 0;
  --occupied_;
  while (used_end_ > 0 && !valid_[used_end_ - 1]) --used_end_;
}

MshrStats::MshrStats(stats::Group& parent)
    : group(parent, "mshr"),
      tag_compares(group, "tag_compares", "MSHR tag comparisons, including searches that failed (001 Fig. 5.11)"),
      allocations(group, "allocations", "entries allocated by primary misses"),
      merges(group, "merges", "requests merged into an existing entry (secondary misses)"),
      releases(group, "releases", "entries released by fills"),
      fails(group, "fails", "misses the MSHR array could not take, by cause",
            {"mshr_entries_full", "mshr_fields_full", "set_locked"}) {}

void MshrStats::count_fail(ReservationFail cause) {
  switch (cause) {
    case ReservationFail::MshrEntriesFull: fails.add(0); break;
    case ReservationFail::MshrFieldsFull: fails.add(1); break;
    case ReservationFail::SetLocked: fails.add(2); break;
    default: throw std::logic_error("MshrStats: unexpected fail cause");
  }
}

}  // namespace gputlm::mem

namespace gputlm::mem {

uint32_t TableMshr::checked(int32_t entry) const {
  if (!in_use(entry))
    throw std::logic_error(std::string(organisation()) + " MSHR: no valid entry " + std::to_string(entry));
  return static_cast<uint32_t>(entry);
}

MshrPlan TableMshr::merge_or_fail(int32_t entry, MshrStructure s) {
  if (!table_.has_free_field(checked(entry))) return fail(ReservationFail::MshrFieldsFull);
  MshrPlan p;
  p.action = MshrAction::Merge;
  p.entry = entry;
  p.structure = s;
  return p;
}

void TableMshr::commit(const MshrPlan& p, uint64_t block, const MshrField& f) {
  if (p.action == MshrAction::Allocate) {
    table_.allocate(static_cast<uint32_t>(p.entry), block, p.reserve_line, f);
    ++stats_.allocations;
  } else if (p.action == MshrAction::Merge) {
    if (table_.block(checked(p.entry)) != block)
      throw std::logic_error(std::string(organisation()) + " MSHR: merge of another block into entry " +
                             std::to_string(p.entry));
    table_.merge(static_cast<uint32_t>(p.entry), f);
    ++stats_.merges;
  } else {
    throw std::logic_error(std::string(organisation()) + " MSHR: commit of a failed plan");
  }
}

void TableMshr::release(int32_t entry) {
  table_.release(checked(entry));
  ++stats_.releases;
}

}  // namespace gputlm::mem
