#include <catch2/catch.hpp>
#include <vector>

#include "core/memory/backing_store.h"
#include "core/tlm/payload_pool.h"

using namespace gputlm;

TEST_CASE("payload_pool recycles payloads: no allocation in steady state", "[tlm]") {
  PayloadPool pool(128);
  std::vector<tlm::tlm_generic_payload*> live;
  for (int round = 0; round < 100; ++round) {
    for (int i = 0; i < 16; ++i) {
      auto* gp = pool.allocate();
      gp->acquire();
      CHECK(gp->get_data_ptr() != nullptr);
      CHECK(gp->get_data_length() == 128);
      CHECK(gp->get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE);
      CHECK(mem_ext(*gp).status == MemStatus::Ok);
      mem_ext(*gp).warp = i;
      mem_ext(*gp).status = MemStatus::Nack;
      live.push_back(gp);
    }
    for (auto* gp : live) gp->release();
    live.clear();
  }
  CHECK(pool.created() == 16);
  CHECK(pool.in_use() == 0);
  auto* gp = pool.allocate();
  CHECK(mem_ext(*gp).warp == -1);  // extension reset on reuse
  CHECK(mem_ext(*gp).mshr_index[0] == kNoMshrIndex);
  gp->acquire();
  gp->release();
}

TEST_CASE("backing_store is sparse and zero-filled", "[memory]") {
  BackingStore m;
  CHECK(m.load<uint32_t>(0x1234) == 0);
  CHECK(m.page_count() == 0);
  m.store<uint64_t>(4096 - 4, 0x1122334455667788ull);  // straddles two pages
  CHECK(m.page_count() == 2);
  CHECK(m.load<uint64_t>(4096 - 4) == 0x1122334455667788ull);
  CHECK(m.load<uint32_t>(4096) == 0x11223344u);
  m.store<uint32_t>(0x00F0'0000'0000ull, 7);  // above the radix table's range
  CHECK(m.load<uint32_t>(0x00F0'0000'0000ull) == 7);
  CHECK(m.page_count() == 3);
  m.fill(10000, 0xAB, 3);
  CHECK(m.load<uint8_t>(10002) == 0xAB);
  CHECK(m.load<uint8_t>(10003) == 0);
}

TEST_CASE("device allocator aligns, finds and rejects bad frees", "[memory]") {
  DeviceAllocator a;
  uint64_t x = a.allocate(100), y = a.allocate(1);
  CHECK(x % 256 == 0);
  CHECK(y % 256 == 0);
  CHECK(y >= x + 100);
  uint64_t start = 0, bytes = 0;
  CHECK(a.find(x + 99, &start, &bytes));
  CHECK(start == x);
  CHECK(bytes == 100);
  CHECK_FALSE(a.find(x + 100, nullptr, nullptr));
  a.release(x);
  CHECK_FALSE(a.find(x, nullptr, nullptr));
  CHECK_THROWS_WITH(a.release(x), Catch::Contains("not the start of a live allocation"));
}
