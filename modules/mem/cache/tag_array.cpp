#include "mem/cache/tag_array.h"

#include <stdexcept>

namespace gputlm::mem {

TagArray::TagArray(uint32_t sets, uint32_t ways, uint32_t line_size, std::unique_ptr<SetIndexIF> index,
                   std::unique_ptr<ReplacementIF> replacement)
    : sets_(sets),
      ways_(ways),
      line_size_(line_size),
      index_(std::move(index)),
      replacement_(std::move(replacement)),
      lines_(static_cast<std::size_t>(sets) * ways),
      reserved_(sets, 0),
      candidate_(ways),
      valid_(ways) {}

int32_t TagArray::find(uint32_t set, uint64_t block) const {
  for (uint32_t w = 0; w < ways_; ++w) {
    const CacheLine& l = line(set, w);
    if (l.state != LineState::Invalid && l.block == block) return static_cast<int32_t>(w);
  }
  return -1;
}

int32_t TagArray::victim(uint32_t set) const {
  for (uint32_t w = 0; w < ways_; ++w) {
    const CacheLine& l = line(set, w);
    candidate_[w] = l.state != LineState::Reserved;
    valid_[w] = l.state != LineState::Invalid;
  }
  return replacement_->victim(set, candidate_, valid_);
}

void TagArray::touch(uint32_t set, uint32_t way) {
  line(set, way).hit = true;
  replacement_->on_hit(set, way);
}

void TagArray::reserve(uint32_t set, uint32_t way, uint64_t block, int32_t wid, int32_t mshr_index) {
  CacheLine& l = line(set, way);
  if (l.state == LineState::Reserved) throw std::logic_error("TagArray: reserving a reserved line");
  l = CacheLine{block, LineState::Reserved, false, false, wid, mshr_index};
  ++reserved_[set];
  replacement_->on_insert(set, way);
}

void TagArray::install(uint32_t set, uint32_t way, uint64_t block, int32_t wid) {
  CacheLine& l = line(set, way);
  if (l.state == LineState::Reserved) throw std::logic_error("TagArray: installing over a reserved line");
  l = CacheLine{block, LineState::Valid, false, false, wid, -1};
  replacement_->on_insert(set, way);
}

void TagArray::complete_fill(uint32_t set, uint32_t way) {
  CacheLine& l = line(set, way);
  if (l.state != LineState::Reserved) throw std::logic_error("TagArray: fill of a line that is not reserved");
  l.state = LineState::Valid;
  l.mshr_index = -1;
  --reserved_[set];
}

void TagArray::invalidate(uint32_t set, uint32_t way) {
  CacheLine& l = line(set, way);
  if (l.state == LineState::Reserved) --reserved_[set];
  l = CacheLine{};
}

}  // namespace gputlm::mem
