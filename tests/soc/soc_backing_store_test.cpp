// The backing store's external memory (the GPU device's host window): mapped pages read
// and write the external bytes, unmapped window addresses go to the ExternalMemoryIF,
// other addresses keep private pages as before.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/memory/backing_store.h"

using gputlm::BackingStore;

namespace {
// An external memory over [base, base + bytes) backed by a vector, counting calls.
struct FakeHostMemory : gputlm::ExternalMemoryIF {
  uint64_t base;
  std::vector<uint8_t> bytes;
  int reads = 0, writes = 0;
  FakeHostMemory(uint64_t b, std::size_t n) : base(b), bytes(n, 0) {}
  bool inside(uint64_t a) const { return a >= base && a - base < bytes.size(); }
  bool read_external(uint64_t a, void* dst, std::size_t len) override {
    if (!inside(a)) return false;
    ++reads;
    std::memcpy(dst, bytes.data() + (a - base), len);
    return true;
  }
  bool write_external(uint64_t a, const void* src, std::size_t len) override {
    if (!inside(a)) return false;
    ++writes;
    std::memcpy(bytes.data() + (a - base), src, len);
    return true;
  }
};
}  // namespace

TEST_CASE("soc backing store sends window accesses without pages to the external memory", "[soc][store]") {
  BackingStore s;
  FakeHostMemory host(0x80000000ull, 4 * 4096);
  s.set_external(&host);
  const uint32_t v = 0x11223344;
  s.store(0x80000000ull + 4094, v);  // straddles two pages: two external writes
  CHECK(host.writes == 2);
  CHECK(s.load<uint32_t>(0x80000000ull + 4094) == v);
  CHECK(host.reads == 2);
  CHECK(s.page_count() == 0);
  uint32_t in_host = 0;
  std::memcpy(&in_host, host.bytes.data() + 4094, 4);
  CHECK(in_host == v);
  // Outside the window: private pages, as without external memory.
  s.store<uint32_t>(0x1000, 7);
  CHECK(s.page_count() == 1);
  CHECK(s.load<uint32_t>(0x1000) == 7);
  CHECK(s.load<uint32_t>(0x9000) == 0);
  CHECK(host.writes == 2);
  s.fill(0x80000000ull + 8192, 0xab, 16);
  CHECK(host.bytes[8192 + 15] == 0xab);
  CHECK(s.page_count() == 1);
}

TEST_CASE("soc backing store maps external pages and unmaps them", "[soc][store]") {
  BackingStore s;
  FakeHostMemory host(0x80000000ull, 4 * 4096);
  s.set_external(&host);
  s.map_external(0x80000000ull + 4096, host.bytes.data() + 4096, 2 * 4096);
  CHECK(s.mapped_page_count() == 2);
  s.store<uint64_t>(0x80000000ull + 4096 + 8, 0x0102030405060708ull);
  CHECK(host.writes == 0);  // straight into the mapped bytes
  uint64_t direct = 0;
  std::memcpy(&direct, host.bytes.data() + 4096 + 8, 8);
  CHECK(direct == 0x0102030405060708ull);
  host.bytes[2 * 4096 + 5] = 42;  // written behind the store's back: seen at once
  CHECK(s.load<uint8_t>(0x80000000ull + 2 * 4096 + 5) == 42);
  CHECK(host.reads == 0);
  s.load<uint8_t>(0x80000000ull);  // page 0 is not mapped
  CHECK(host.reads == 1);
  s.unmap_external(0, ~uint64_t{0});  // "invalidate everything" terminates and unmaps all
  CHECK(s.mapped_page_count() == 0);
  CHECK(s.load<uint8_t>(0x80000000ull + 2 * 4096 + 5) == 42);
  CHECK(host.reads == 2);
  CHECK(s.page_count() == 0);
}

TEST_CASE("soc backing store refuses misaligned mappings and mappings over owned pages", "[soc][store]") {
  BackingStore s;
  std::vector<uint8_t> ext(8192);
  CHECK_THROWS_AS(s.map_external(100, ext.data(), 4096), std::invalid_argument);
  CHECK_THROWS_AS(s.map_external(4096, ext.data(), 100), std::invalid_argument);
  s.store<uint32_t>(4096, 1);
  CHECK_THROWS_AS(s.map_external(0, ext.data(), 8192), std::invalid_argument);
  s.map_external(8192, ext.data(), 4096);
  s.map_external(8192, ext.data() + 4096, 4096);  // remapping a mapped page is fine
  CHECK(s.mapped_page_count() == 1);
  s.store<uint8_t>(8192, 9);
  CHECK(ext[4096] == 9);
  s.clear();
  CHECK(s.mapped_page_count() == 0);
  CHECK(s.page_count() == 0);
}
