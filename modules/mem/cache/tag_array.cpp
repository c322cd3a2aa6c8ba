#include "mem/cache/tag_array.h"

#include <stdexcept>

namespace gputlm::mem {

TagArray::TagArray(uint32_t sets, uint32_t ways, uint32_t line_size, uint32_t sectors,
                   std::unique_ptr<SetIndexIF> index, std::unique_ptr<ReplacementIF> replacement)
    : sets_(sets),
      ways_(ways),
      line_size_(line_size),
      sector_size_(line_size / sectors),
      all_sectors_(sectors >= 32 ? ~0u : (1u << sectors) - 1),
      line_shift_(line_size != 0 && (line_size & (line_size - 1)) == 0 ? __builtin_ctz(line_size) : -1),
      index_(std::move(index)),
      replacement_(std::move(replacement)),
      lines_(static_cast<std::size_t>(sets) * ways),
      present_(static_cast<std::size_t>(sets) * ways, kAbsent),
      reserved_line_(static_cast<std::size_t>(sets) * ways, 0),
      reserved_(sets, 0),
      candidate_(ways),
      valid_(ways) {}

int32_t TagArray::find(uint32_t set, uint64_t block) const {
  // block is an address divided by the line size: never kAbsent.
  const uint64_t* p = present_.data() + at(set, 0);
  for (uint32_t w = 0; w < ways_; ++w)
    if (p[w] == block) return static_cast<int32_t>(w);
  return -1;
}

int32_t TagArray::victim(uint32_t set) const {
  // Every way reserved: no candidate, so no victim (a refused miss to a locked set asks
  // this once per retry; the policy is not consulted).
  if (reserved_[set] == ways_) return -1;
  const std::size_t first = at(set, 0);
  for (uint32_t w = 0; w < ways_; ++w) {
    candidate_[w] = reserved_line_[first + w] ^ 1;
    valid_[w] = present_[first + w] != kAbsent ? 1 : 0;
  }
  return replacement_->victim(set, candidate_, valid_);
}

void TagArray::touch(uint32_t set, uint32_t way) {
  line(set, way).hit = true;
  replacement_->on_hit(set, way);
}

void TagArray::reserve(uint32_t set, uint32_t way, uint64_t block, int32_t wid, int32_t mshr_index,
                       uint32_t sectors) {
  CacheLine& l = line(set, way);
  if (l.state == LineState::Reserved) throw std::logic_error("TagArray: reserving a reserved line");
  ++contents_version_;
  l = CacheLine{};
  l.block = block;
  l.state = LineState::Reserved;
  present_[at(set, way)] = block;
  reserved_line_[at(set, way)] = 1;
  l.wid = wid;
  l.mshr_index = mshr_index;
  l.pending_sectors = sectors;
  ++reserved_[set];
  replacement_->on_insert(set, way);
}

void TagArray::reserve_sectors(uint32_t set, uint32_t way, uint32_t sectors, int32_t mshr_index) {
  CacheLine& l = line(set, way);
  if (l.state == LineState::Invalid) throw std::logic_error("TagArray: sector reservation on an invalid line");
  if (l.state == LineState::Valid) ++reserved_[set];
  l.state = LineState::Reserved;
  reserved_line_[at(set, way)] = 1;
  l.pending_sectors |= sectors;
  l.partial_sectors &= ~sectors;  // fetched now: readable at the fill (GPGPU-Sim's allocate_sector)
  l.mshr_index = mshr_index;
}

void TagArray::install(uint32_t set, uint32_t way, uint64_t block, int32_t wid, uint32_t sectors) {
  CacheLine& l = line(set, way);
  if (l.state == LineState::Reserved) throw std::logic_error("TagArray: installing over a reserved line");
  ++contents_version_;
  l = CacheLine{};
  l.block = block;
  l.state = LineState::Valid;
  present_[at(set, way)] = block;
  l.wid = wid;
  l.valid_sectors = sectors;
  log_gain(block);
  replacement_->on_insert(set, way);
}

void TagArray::complete_fill(uint32_t set, uint32_t way, uint32_t sectors) {
  CacheLine& l = line(set, way);
  if (l.state != LineState::Reserved || (l.pending_sectors & sectors) != sectors)
    throw std::logic_error("TagArray: fill of sectors that are not pending");
  ++contents_version_;
  log_gain(l.block);
  l.valid_sectors |= sectors;
  l.pending_sectors &= ~sectors;
  l.partial_sectors &= ~sectors;
  if (l.pending_sectors == 0) {
    l.state = LineState::Valid;
    reserved_line_[at(set, way)] = 0;
    l.mshr_index = -1;
    --reserved_[set];
  }
}

void TagArray::write_lazy(uint32_t set, uint32_t way, uint32_t sector, const std::bitset<128>& bytes) {
  CacheLine& l = line(set, way);
  l.written |= bytes;
  mark_dirty(set, way, sector);
  if ((l.valid_sectors | l.pending_sectors) & sector) return;  // readable now or at its fill
  // Readable once every byte of the sector has been written (update_m_readable).
  const uint32_t first = static_cast<uint32_t>(__builtin_ctz(sector)) * sector_size_;
  bool all = true;
  for (uint32_t b = first; b < first + sector_size_ && all; ++b) all = l.written.test(b);
  if (all) {
    ++contents_version_;
    log_gain(l.block);
    l.valid_sectors |= sector;
    l.partial_sectors &= ~sector;
  } else {
    l.partial_sectors |= sector;
  }
}

uint32_t TagArray::writeback_bytes(const CacheLine& l) const {
  if (all_sectors_ == 1) return line_size_;
  return static_cast<uint32_t>(__builtin_popcount(l.dirty_sectors)) * sector_size_;
}

void TagArray::invalidate(uint32_t set, uint32_t way) {
  CacheLine& l = line(set, way);
  if (l.state == LineState::Reserved) --reserved_[set];
  ++contents_version_;
  l = CacheLine{};
  present_[at(set, way)] = kAbsent;
  reserved_line_[at(set, way)] = 0;
}

}  // namespace gputlm::mem
