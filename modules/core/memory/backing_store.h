// Sparse functional memory: the bytes a kernel reads and writes. Pages of 4 KiB are
// created on first write; reading an untouched byte gives zero. The functional model
// reads and writes it; timing blocks never copy data they do not need.
//
// In a virtual platform the memory may live elsewhere (host DRAM behind a TLM socket):
// pages can be mapped onto bytes the store does not own (DMI pointers), and an
// ExternalMemoryIF is asked for accesses that find no page. Both sit off the hit path, so
// a store without them runs exactly as before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputlm {

// Memory outside the store: called for an access that finds no page. The bytes
// [addr, addr + len) lie within one page. Returns false when addr is not external memory
// (the store then reads zero or creates a private page, as without it).
class ExternalMemoryIF {
 public:
  virtual ~ExternalMemoryIF() = default;
  virtual bool read_external(uint64_t addr, void* dst, std::size_t len) = 0;
  virtual bool write_external(uint64_t addr, const void* src, std::size_t len) = 0;
};

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

  // Pages the store owns (created by writes); mapped external pages are not counted.
  std::size_t page_count() const { return page_count_; }
  void clear();  // drops owned and mapped pages; keeps the external memory

  // Accesses that find no page go to `ext` (not owned; nullptr: none).
  void set_external(ExternalMemoryIF* ext) { external_ = ext; }
  // Pages [addr, addr + len) (page-aligned) read and write `bytes` directly, which must
  // stay valid until unmapped. Throws std::invalid_argument for a misaligned range or
  // a page the store already owns.
  void map_external(uint64_t addr, uint8_t* bytes, uint64_t len);
  // Forgets the mapped pages among the pages overlapping [addr, addr + len).
  void unmap_external(uint64_t addr, uint64_t len);
  std::size_t mapped_page_count() const { return mapped_.size(); }

 private:
  using Page = std::array<uint8_t, kPageBytes>;
  // A page's bytes: owned (in owned_) or mapped (external). Raw pointers keep the
  // lookup as cheap as before.
  const uint8_t* find_page(uint64_t index) const;
  uint8_t* get_page(uint64_t index);
  uint8_t*& slot(uint64_t index);

  // Pages below 2^40 (every device allocation) sit in a two-level radix table: O(1)
  // lookup for scattered accesses. Pages above (rare) sit in an ordered map.
  static constexpr unsigned kLeafBits = 14;
  static constexpr uint64_t kRadixPages = uint64_t{1} << 28;  // 2^40 bytes / 4 KiB
  using Leaf = std::array<uint8_t*, std::size_t{1} << kLeafBits>;
  std::vector<std::unique_ptr<Leaf>> radix_;
  std::map<uint64_t, uint8_t*> high_pages_;
  std::vector<std::unique_ptr<Page>> owned_;
  std::set<uint64_t> mapped_;  // indices of mapped pages
  std::size_t page_count_ = 0;
  ExternalMemoryIF* external_ = nullptr;
  mutable const uint8_t* last_page_ = nullptr;  // one-entry lookup cache
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
