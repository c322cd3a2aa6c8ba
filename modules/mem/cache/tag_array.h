// The cache's tag array: per line the block tag, state (invalid / valid / reserved for a
// pending fill), dirty bit, LAWS WID tag, HTSMA hit bit and the MSHR index of a reserved
// (TSMA: shared) line; per set the number of reserved lines (HTSMA's share counter).
// Set indexing and replacement are policy objects.
#pragma once

#include <bitset>
#include <cstdint>
#include <memory>
#include <vector>

#include "mem/cache/replacement.h"
#include "mem/cache/set_index.h"
#include "mem/interconnect/partition_map.h"

namespace gputlm::mem {

enum class LineState : uint8_t { Invalid, Valid, Reserved };

// A line is Reserved while data for it is pending and it was allocated at miss time
// (on-miss, TSMA); reserved lines are never victims. With sectors, a line is a hit for a
// sector whose valid bit is set, whatever its state; pending sectors are being fetched.
// Lazy fetch-on-read (write_allocate): a store allocates without fetching; a sector it
// writes only in part is `partial` (dirty, not readable) until its bytes are all written
// (it becomes valid) or a read fetches it (GPGPU-Sim's MODIFIED sector with m_readable false).
struct CacheLine {
  uint64_t block = 0;       // line address / line size
  LineState state = LineState::Invalid;
  bool dirty = false;
  bool hit = false;         // HTSMA: set by a hit, cleared when (re)allocated by a miss
  bool prefetched = false;  // filled by a prefetch and not yet used by a demand load
  int32_t wid = -1;         // LAWS: warp whose primary miss brought the line in
  int32_t mshr_index = -1;  // MSHR entry of a reserved line (TSMA IDX)
  uint32_t valid_sectors = 0;
  uint32_t pending_sectors = 0;
  uint32_t dirty_sectors = 0;    // written since the fill: what a write-back carries
  uint32_t partial_sectors = 0;  // lazy: written in part, not readable
  std::bitset<128> written;      // lazy: bytes written (line-relative, line_size <= 128)
};

class TagArray {
 public:
  TagArray(uint32_t sets, uint32_t ways, uint32_t line_size, uint32_t sectors, std::unique_ptr<SetIndexIF> index,
           std::unique_ptr<ReplacementIF> replacement);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  uint32_t line_size() const { return line_size_; }
  uint32_t sector_size() const { return sector_size_; }
  uint32_t all_sectors() const { return all_sectors_; }
  // Sector bit of a byte address within its line.
  uint32_t sector_bit(uint64_t address) const {
    return 1u << static_cast<uint32_t>((address % line_size_) / sector_size_);
  }
  uint64_t block_of(uint64_t address) const {
    return line_shift_ >= 0 ? address >> line_shift_ : address / line_size_;  // a shift for the usual sizes
  }
  // With an index map the set is chosen by the block's address inside its L2 slice
  // (partition-select bits removed, GPGPU-Sim's l2_cache_config::set_index).
  uint32_t set_of(uint64_t block) const {
    return index_->set_of(index_map_ ? index_map_->local_address(block * line_size_) / line_size_ : block);
  }
  void set_index_map(const PartitionMapIF* map) { index_map_ = map; }

  // Way holding `block` (valid or reserved) in `set`, or -1.
  int32_t find(uint32_t set, uint64_t block) const;
  // Replacement victim among the non-reserved ways, or -1 when all are reserved.
  int32_t victim(uint32_t set) const;
  CacheLine& line(uint32_t set, uint32_t way) { return lines_[at(set, way)]; }
  const CacheLine& line(uint32_t set, uint32_t way) const { return lines_[at(set, way)]; }
  uint32_t reserved_in_set(uint32_t set) const { return reserved_[set]; }

  void touch(uint32_t set, uint32_t way);  // a hit: replacement update and hit bit
  // Reserve (on-miss / tag sharing) `way` for `block`, its `sectors` pending.
  void reserve(uint32_t set, uint32_t way, uint64_t block, int32_t wid, int32_t mshr_index, uint32_t sectors);
  // A sector miss on a present line (on-miss): the line becomes reserved, keeping its valid sectors.
  void reserve_sectors(uint32_t set, uint32_t way, uint32_t sectors, int32_t mshr_index);
  // Fill (on-fill allocation) `way` with `block`, `sectors` valid.
  void install(uint32_t set, uint32_t way, uint64_t block, int32_t wid, uint32_t sectors);
  // Pending sectors of a reserved line have arrived.
  void complete_fill(uint32_t set, uint32_t way, uint32_t sectors);
  // On-fill sector miss: sectors arrive for a line that is present.
  void add_sectors(uint32_t set, uint32_t way, uint32_t sectors) {
    ++contents_version_;
    log_gain(line(set, way).block);
    line(set, way).valid_sectors |= sectors;
    line(set, way).partial_sectors &= ~sectors;
  }
  // A write to `sectors` of a present line: dirty from now on.
  void mark_dirty(uint32_t set, uint32_t way, uint32_t sectors) {
    line(set, way).dirty = true;
    line(set, way).dirty_sectors |= sectors;
  }
  // Lazy fetch-on-read: `bytes` (line-relative) of the line's sector `sector` are written
  // without a fetch; the sector is readable once all its bytes are (or it was valid).
  void write_lazy(uint32_t set, uint32_t way, uint32_t sector, const std::bitset<128>& bytes);
  // Bytes a write-back of the line carries: its dirty sectors (the line when unsectored).
  uint32_t writeback_bytes(const CacheLine& l) const;
  void invalidate(uint32_t set, uint32_t way);
  // Changes whenever a line's valid sectors may have changed (what a presence probe sees);
  // code that changes a line through line() calls note_contents_change().
  uint64_t contents_version() const { return contents_version_; }
  void note_contents_change() {
    ++contents_version_;
    ++unlogged_changes_;
  }
  // The blocks whose lines gained valid sectors (what can turn a presence probe from "absent"
  // to "present"), in order: the i-th of gains() is gained_block(i) while gains() - i <=
  // kGainLog. Changes made through note_contents_change() are not logged; they count in
  // unlogged_changes().
  static constexpr uint32_t kGainLog = 64;
  uint64_t gains() const { return gains_; }
  uint64_t gained_block(uint64_t i) const { return gained_[i % kGainLog]; }
  uint64_t unlogged_changes() const { return unlogged_changes_; }

 private:
  uint32_t sets_, ways_, line_size_, sector_size_, all_sectors_;
  int32_t line_shift_;  // log2(line_size_), or -1 when it is not a power of two
  std::unique_ptr<SetIndexIF> index_;
  const PartitionMapIF* index_map_ = nullptr;
  std::unique_ptr<ReplacementIF> replacement_;
  std::vector<CacheLine> lines_;
  // The block of each valid or reserved line, kAbsent for an invalid one: find() scans a set
  // here, 8 bytes a way, not the 56-byte CacheLines (a 48-way set is 6 host cache lines, not 42).
  static constexpr uint64_t kAbsent = ~uint64_t{0};
  std::vector<uint64_t> present_;
  std::vector<uint8_t> reserved_line_;  // 1 while a line is reserved: victim() reads these two
  std::vector<uint32_t> reserved_;
  mutable std::vector<uint8_t> candidate_, valid_;  // scratch for victim(), sized once
  uint64_t contents_version_ = 0;
  void log_gain(uint64_t block) { gained_[gains_++ % kGainLog] = block; }
  // Index of (set, way) in lines_, present_ and reserved_line_.
  std::size_t at(uint32_t set, uint32_t way) const { return static_cast<std::size_t>(set) * ways_ + way; }
  uint64_t gained_[kGainLog] = {};
  uint64_t gains_ = 0, unlogged_changes_ = 0;
};

}  // namespace gputlm::mem
