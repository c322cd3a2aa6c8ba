// The cache's tag array: per line the block tag, state (invalid / valid / reserved for a
// pending fill), dirty bit, LAWS WID tag, HTSMA hit bit and the MSHR index of a reserved
// (TSMA: shared) line; per set the number of reserved lines (HTSMA's share counter).
// Set indexing and replacement are policy objects.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mem/cache/replacement.h"
#include "mem/cache/set_index.h"

namespace gputlm::mem {

enum class LineState : uint8_t { Invalid, Valid, Reserved };

struct CacheLine {
  uint64_t block = 0;
  LineState state = LineState::Invalid;
  bool dirty = false;
  bool hit = false;         // HTSMA: set by a hit, cleared when (re)allocated by a miss
  int32_t wid = -1;         // LAWS: warp whose primary miss brought the line in
  int32_t mshr_index = -1;  // MSHR entry of a reserved line (TSMA IDX)
};

class TagArray {
 public:
  TagArray(uint32_t sets, uint32_t ways, uint32_t line_size, std::unique_ptr<SetIndexIF> index,
           std::unique_ptr<ReplacementIF> replacement);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  uint32_t line_size() const { return line_size_; }
  uint64_t block_of(uint64_t address) const { return address / line_size_; }
  uint32_t set_of(uint64_t block) const { return index_->set_of(block); }

  // Way holding `block` (valid or reserved) in `set`, or -1.
  int32_t find(uint32_t set, uint64_t block) const;
  // Replacement victim among the non-reserved ways, or -1 when all are reserved.
  int32_t victim(uint32_t set) const;
  CacheLine& line(uint32_t set, uint32_t way) { return lines_[set * ways_ + way]; }
  const CacheLine& line(uint32_t set, uint32_t way) const { return lines_[set * ways_ + way]; }
  uint32_t reserved_in_set(uint32_t set) const { return reserved_[set]; }

  void touch(uint32_t set, uint32_t way);  // a hit: replacement update and hit bit
  // Reserve (on-miss / tag sharing) or fill (on-fill) `way` for `block`.
  void reserve(uint32_t set, uint32_t way, uint64_t block, int32_t wid, int32_t mshr_index);
  void install(uint32_t set, uint32_t way, uint64_t block, int32_t wid);
  // A reserved line's data has arrived.
  void complete_fill(uint32_t set, uint32_t way);
  void invalidate(uint32_t set, uint32_t way);

 private:
  uint32_t sets_, ways_, line_size_;
  std::unique_ptr<SetIndexIF> index_;
  std::unique_ptr<ReplacementIF> replacement_;
  std::vector<CacheLine> lines_;
  std::vector<uint32_t> reserved_;
  mutable std::vector<bool> candidate_, valid_;  // scratch for victim(), sized once
};

}  // namespace gputlm::mem
