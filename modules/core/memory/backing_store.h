// Sparse functional memory: the bytes a kernel reads and writes. Pages of 4 KiB are
// created on first write; reading an untouched byte gives zero. The functional model
// reads and writes it; timing blocks never copy data they do not need.
#pragma once

#include <cstddef>
#include <cstdint>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputlm {

class BackingStore {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  void read(uint64_t addr, void* dst, std::size_t len) const;
  void write(uint64_t addr, const void* src, std::size_t len);
  void fill(uint64_t addr, uint8_t value, std::size_t len);

  template <class T>
  T load(uint64_t addr) const {
    T v;
    read(addr, &v, sizeof(T));
    return v;
  }
  template <class T>
  void store(uint64_t addr, const T& v) {
    write(addr, &v, sizeof(T));
  }

  std::size_t page_count() const { return page_count_; }
  void clear();

 private:
  using Page = std::array<uint8_t, kPageBytes>;
  const Page* find_page(uint64_t index) const;
  Page& get_page(uint64_t index);

  // Pages below 2^40 (every device allocation) sit in a two-level radix table: O(1)
  // lookup for scattered accesses. Pages above (rare) sit in an ordered map.
  static constexpr unsigned kLeafBits = 14;
  static constexpr uint64_t kRadixPages = uint64_t{1} << 28;  // 2^40 bytes / 4 KiB
  using Leaf = std::array<std::unique_ptr<Page>, std::size_t{1} << kLeafBits>;
  std::vector<std::unique_ptr<Leaf>> radix_;
  std::map<uint64_t, std::unique_ptr<Page>> high_pages_;
  std::size_t page_count_ = 0;
  mutable const Page* last_page_ = nullptr;  // one-entry lookup cache
  mutable uint64_t last_index_ = ~uint64_t{0};
};

// A bump allocator for device addresses with explicit free, used by the runtime API.
// Allocations are aligned to 256 B like cudaMalloc; addresses start above zero so that
// a null pointer is never a valid buffer.
class DeviceAllocator {
 public:
  explicit DeviceAllocator(uint64_t base = 0x10000000ull, uint64_t limit = 1ull << 40)
      : base_(base), next_(base), limit_(limit) {}
  uint64_t allocate(uint64_t bytes);
  void release(uint64_t addr);  // throws on an address that is not a live allocation
  // The allocation containing addr, or false. Used for out-of-bounds reports.
  bool find(uint64_t addr, uint64_t* start, uint64_t* bytes) const;
  const std::map<uint64_t, uint64_t>& live() const { return live_; }
  uint64_t base() const { return base_; }  // lowest address ever handed out

 private:
  uint64_t base_, next_, limit_;
  std::map<uint64_t, uint64_t> live_;  // start -> size
};

}  // namespace gputlm
