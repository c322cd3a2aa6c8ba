// BackingStore hit-path benchmark (run by hand, not a test): the functional model's
// global loads and stores in the store's own pages, as every run without a SoC device
// does. Reports host ns per access for the patterns the executor produces: 4-byte
// accesses within one page (the lookup cache hits), 4-byte accesses scattered over 64 MB
// (radix lookups), and 128-byte coalesced warp spans.
//
//   store_bench [--accesses N]
#include <chrono>
#include <systemc>  // sc_main: the store's library links SystemC, whose main() calls it
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/memory/backing_store.h"

namespace {

template <class F>
double ns_per_access(uint64_t n, F&& body) {
  const auto t0 = std::chrono::steady_clock::now();
  body();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(n);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  uint64_t n = 20'000'000;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--accesses")) n = std::strtoull(argv[++i], nullptr, 10);
  const uint64_t base = 0x10000000ull, span = 64ull << 20;
  gputlm::BackingStore s;
  s.fill(base, 1, span);  // every page exists: the hit path only
  uint64_t sink = 0;
  const double same_page = ns_per_access(n, [&] {
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t a = base + ((i * 4) & 4095);
      s.store<uint32_t>(a, static_cast<uint32_t>(i));
      sink += s.load<uint32_t>(a);
    }
  });
  uint64_t x = 88172645463325252ull;  // xorshift: scattered addresses
  const double scattered = ns_per_access(n, [&] {
    for (uint64_t i = 0; i < n; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      const uint64_t a = base + ((x % span) & ~uint64_t{3});
      s.store<uint32_t>(a, static_cast<uint32_t>(i));
      sink += s.load<uint32_t>(a);
    }
  });
  uint8_t buf[128];
  const double spans = ns_per_access(n / 4, [&] {
    for (uint64_t i = 0; i < n / 4; ++i) {
      const uint64_t a = base + ((i * 128) % span);
      s.read(a, buf, sizeof buf);
      buf[i & 127] ^= 1;
      s.write(a, buf, sizeof buf);
      sink += buf[0];
    }
  });
  std::printf("store_bench: %llu accesses\n", static_cast<unsigned long long>(n));
  std::printf("  same page 4 B   %.2f ns per store+load\n", same_page);
  std::printf("  scattered 4 B   %.2f ns per store+load\n", scattered);
  std::printf("  128 B spans     %.2f ns per read+write\n", spans);
  std::printf("  (checksum %llu)\n", static_cast<unsigned long long>(sink));
  return 0;
}
