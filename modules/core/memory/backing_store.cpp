#include "core/memory/backing_store.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gputlm {

const BackingStore::Page* BackingStore::find_page(uint64_t index) const {
  if (index == last_index_) return last_page_;
  const Page* p = nullptr;
  if (index < kRadixPages) {
    const uint64_t top = index >> kLeafBits;
    if (top < radix_.size() && radix_[top]) p = (*radix_[top])[index & ((1u << kLeafBits) - 1)].get();
  } else {
    auto it = high_pages_.find(index);
    if (it != high_pages_.end()) p = it->second.get();
  }
  if (p) {
    last_index_ = index;
    last_page_ = p;
  }
  return p;
}

BackingStore::Page& BackingStore::get_page(uint64_t index) {
  if (const Page* p = find_page(index)) return *const_cast<Page*>(p);
  auto page = std::make_unique<Page>();
  page->fill(0);
  Page* raw = page.get();
  if (index < kRadixPages) {
    const uint64_t top = index >> kLeafBits;
    if (top >= radix_.size()) radix_.resize(top + 1);
    if (!radix_[top]) radix_[top] = std::make_unique<Leaf>();
    (*radix_[top])[index & ((1u << kLeafBits) - 1)] = std::move(page);
  } else {
    high_pages_.emplace(index, std::move(page));
  }
  ++page_count_;
  last_index_ = index;
  last_page_ = raw;
  return *raw;
}

void BackingStore::clear() {
  radix_.clear();
  high_pages_.clear();
  page_count_ = 0;
  last_page_ = nullptr;
  last_index_ = ~uint64_t{0};
}

void BackingStore::read(uint64_t addr, void* dst, std::size_t len) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (len > 0) {
    uint64_t index = addr / kPageBytes, offset = addr % kPageBytes;
    std::size_t n = std::min<std::size_t>(len, kPageBytes - offset);
    if (const Page* p = find_page(index))
      std::memcpy(out, p->data() + offset, n);
    else
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
    std::memcpy(get_page(index).data() + offset, in, n);
    in += n;
    addr += n;
    len -= n;
  }
}

void BackingStore::fill(uint64_t addr, uint8_t value, std::size_t len) {
  while (len > 0) {
    uint64_t index = addr / kPageBytes, offset = addr % kPageBytes;
    std::size_t n = std::min<std::size_t>(len, kPageBytes - offset);
    std::memset(get_page(index).data() + offset, value, n);
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
