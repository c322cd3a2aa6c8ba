#include "core/memory/backing_store.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gputlm {

const uint8_t* BackingStore::find_page(uint64_t index) const {
  if (index == last_index_) return last_page_;
  const uint8_t* p = nullptr;
  if (index < kRadixPages) {
    const uint64_t top = index >> kLeafBits;
    if (top < radix_.size() && radix_[top]) p = (*radix_[top])[index & ((1u << kLeafBits) - 1)];
  } else {
    auto it = high_pages_.find(index);
    if (it != high_pages_.end()) p = it->second;
  }
  if (p) {
    last_index_ = index;
    last_page_ = p;
  }
  return p;
}

uint8_t*& BackingStore::slot(uint64_t index) {
  if (index < kRadixPages) {
    const uint64_t top = index >> kLeafBits;
    if (top >= radix_.size()) radix_.resize(top + 1);
    if (!radix_[top]) {
      radix_[top] = std::make_unique<Leaf>();
      radix_[top]->fill(nullptr);
    }
    return (*radix_[top])[index & ((1u << kLeafBits) - 1)];
  }
  return high_pages_[index];
}

uint8_t* BackingStore::get_page(uint64_t index) {
  if (const uint8_t* p = find_page(index)) return const_cast<uint8_t*>(p);
  auto page = std::make_unique<Page>();
  page->fill(0);
  uint8_t* raw = page->data();
  owned_.push_back(std::move(page));
  slot(index) = raw;
  ++page_count_;
  last_index_ = index;
  last_page_ = raw;
  return raw;
}

void BackingStore::clear() {
  radix_.clear();
  high_pages_.clear();
  owned_.clear();
  mapped_.clear();
  page_count_ = 0;
  last_page_ = nullptr;
  last_index_ = ~uint64_t{0};
}

void BackingStore::map_external(uint64_t addr, uint8_t* bytes, uint64_t len) {
  if (addr % kPageBytes || len % kPageBytes || !bytes)
    throw std::invalid_argument("backing store: external mapping must cover whole 4 KiB pages");
  for (uint64_t off = 0; off < len; off += kPageBytes) {  // all or nothing
    const uint64_t index = (addr + off) / kPageBytes;
    if (find_page(index) && !mapped_.count(index))
      throw std::invalid_argument("backing store: cannot map external memory over an owned page");
  }
  for (uint64_t off = 0; off < len; off += kPageBytes) {
    const uint64_t index = (addr + off) / kPageBytes;
    slot(index) = bytes + off;
    mapped_.insert(index);
  }
  last_page_ = nullptr;
  last_index_ = ~uint64_t{0};
}

void BackingStore::unmap_external(uint64_t addr, uint64_t len) {
  if (len == 0) return;
  const uint64_t first = addr / kPageBytes;
  const uint64_t last = addr + len - 1 < addr ? ~uint64_t{0} / kPageBytes : (addr + len - 1) / kPageBytes;
  for (auto it = mapped_.lower_bound(first); it != mapped_.end() && *it <= last;) {
    slot(*it) = nullptr;
    it = mapped_.erase(it);
  }
  last_page_ = nullptr;
  last_index_ = ~uint64_t{0};
}

void BackingStore::read(uint64_t addr, void* dst, std::size_t len) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (len > 0) {
    uint64_t index = addr / kPageBytes, offset = addr % kPageBytes;
    std::size_t n = std::min<std::size_t>(len, kPageBytes - offset);
    if (const uint8_t* p = find_page(index))
      std::memcpy(out, p + offset, n);
    else if (!external_ || !external_->read_external(addr, out, n))
      std::memset(out, 0, n);
    out += n;
    addr += n;
    len -= n;
  }
}

void BackingStore::write(uint64_t addr, const void* src, std::size_t len) {
  auto* in = static_cast<const uint8_t*>(src);
  while (len > 0) {
    uint64_t index = addr / kPageBytes, offset = addr % kPageBytes;
    std::size_t n = std::min<std::size_t>(len, kPageBytes - offset);
    const uint8_t* p = find_page(index);
    if (p || !external_ || !external_->write_external(addr, in, n))
      std::memcpy((p ? const_cast<uint8_t*>(p) : get_page(index)) + offset, in, n);
    in += n;
    addr += n;
    len -= n;
  }
}

void BackingStore::fill(uint64_t addr, uint8_t value, std::size_t len) {
  std::array<uint8_t, kPageBytes> chunk;
  chunk.fill(value);
  while (len > 0) {
    uint64_t offset = addr % kPageBytes;
    std::size_t n = std::min<std::size_t>(len, kPageBytes - offset);
    write(addr, chunk.data(), n);
    addr += n;
    len -= n;
  }
}

uint64_t DeviceAllocator::allocate(uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  uint64_t start = (next_ + 255) & ~uint64_t{255};
  if (start + bytes > limit_ || start + bytes < start)
    throw std::runtime_error("device allocation of " + std::to_string(bytes) +
                             " bytes exceeds the device address space");
  live_.emplace(start, bytes);
  next_ = start + bytes;
  return start;
}

void DeviceAllocator::release(uint64_t addr) {
  auto it = live_.find(addr);
  if (it == live_.end())
    throw std::runtime_error("device free of address 0x" + [&] {
      char b[32];
      std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(addr));
      return std::string(b);
    }() + " that is not the start of a live allocation");
  live_.erase(it);
}

bool DeviceAllocator::find(uint64_t addr, uint64_t* start, uint64_t* bytes) const {
  auto it = live_.upper_bound(addr);
  if (it == live_.begin()) return false;
  --it;
  if (addr >= it->first + it->second) return false;
  if (start) *start = it->first;
  if (bytes) *bytes = it->second;
  return true;
}

}  // namespace gputlm
