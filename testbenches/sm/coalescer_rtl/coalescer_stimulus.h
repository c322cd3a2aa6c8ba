// Stimulus shared by the coalescer RTL testbenches (coalescer_rtl: the --cc model's pins
// driven directly; coalescer_rtl_sc: the --sc sc_module's pins driven through sc_signals):
// directed warp accesses and a seeded random generator of accesses that fit the RTL's table.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../coalescer/coalescer_golden.h"
#include "core/random/splitmix64.h"
#include "sm/lsu/coalescer.h"

namespace gputlm::sm::tb {

struct Access {
  std::vector<LaneAccess> pieces;
  CoalescerConfig cfg;
  bool atomic = false;
};

inline uint32_t log2_of(uint32_t v) {
  uint32_t l = 0;
  while ((1u << l) < v) ++l;
  return l;
}

constexpr std::size_t kRtlMaxRequests = 64;  // coalescer.sv's MAX_REQS

inline std::vector<Access> directed() {
  std::vector<Access> v;
  auto add = [&](std::vector<LaneAccess> p, CoalescerConfig cfg = {}, bool atomic = false) {
    v.push_back(Access{std::move(p), cfg, atomic});
  };
  add(golden::strided(0x1000, 4, 4));                 // one line, all sectors
  add(golden::strided(0x1000, 8, 4));                 // two lines
  add(golden::strided(0x1000, 128, 4));               // 32 lines
  add(golden::strided(0x1004, 4, 4));                 // misaligned: two lines, partial sectors
  add(golden::strided(0x1000, 8, 8));                 // 64-bit
  add(golden::strided(0x1000, 16, 16));               // 128-bit vector
  add(golden::strided(0x1000, 4, 4, 0x0000f00fu));    // partial lane mask
  add(golden::strided(0x107c, 4, 8));                 // pieces crossing a line boundary
  CoalescerConfig half;
  half.warp_parts = 2;
  half.line_size = 64;
  add(golden::strided(0x2000, 4, 4), half);
  CoalescerConfig sm1x;
  sm1x.atomic_warp_parts = 2;
  sm1x.atomic_segment = 128;
  add(golden::strided(0x3000, 0, 4), sm1x, true);     // every lane on one word: serialised
  add(golden::strided(0x3000, 4, 4), CoalescerConfig{}, true);   // 32 B atomic segments
  add(golden::strided(0x3000, 2, 4), CoalescerConfig{}, true);   // overlapping words
  std::vector<LaneAccess> local;                      // several pieces per lane (local memory)
  for (uint8_t l = 0; l < 32; ++l)
    for (uint32_t k = 0; k < 4; ++k) local.push_back(LaneAccess{0x8000 + k * 128 + l * 4u, 4, l});
  add(local);
  add({LaneAccess{0x5000, 0, 3}, LaneAccess{0x5004, 4, 4}});      // a zero-byte piece
  return v;
}

inline Access random_access(uint64_t& s) {
  Access a;
  auto r = [&](uint64_t n) { return SplitMix64::step(s) % n; };
  a.cfg.line_size = 32u << r(3);                       // 32, 64, 128
  a.cfg.sector_size = std::min<uint32_t>(a.cfg.line_size, 16u << r(2));
  a.cfg.warp_parts = 1u << r(3);
  a.cfg.atomic_warp_parts = 1u << r(3);
  a.cfg.atomic_segment = std::min<uint32_t>(a.cfg.line_size, 32u << r(3));
  a.atomic = r(3) == 0;
  const uint32_t bytes = 1u << r(5);                   // 1 .. 16
  const uint64_t span = 64 + r(4096);
  const uint32_t per_lane = r(4) == 0 ? 1 + static_cast<uint32_t>(r(3)) : 1;
  for (uint8_t l = 0; l < 32; ++l) {
    if (r(4) == 0) continue;
    for (uint32_t k = 0; k < per_lane; ++k) {
      uint64_t addr = 0x10000 + r(span);
      if (a.atomic || r(2)) addr &= ~static_cast<uint64_t>(bytes - 1);  // atomics are aligned
      a.pieces.push_back(LaneAccess{addr, bytes, l});
    }
  }
  if (a.pieces.empty()) a.pieces.push_back(LaneAccess{0x10000, bytes, 0});
  // The RTL's table holds kRtlMaxRequests requests (what 32 lanes of one piece each can
  // need); a wider random access is trimmed to fit (overflow has its own test).
  Coalescer model(a.cfg);
  std::vector<LineRequest> reqs;
  for (;;) {
    if (a.atomic)
      model.coalesce_atomic(a.pieces.data(), a.pieces.size(), 32, reqs);
    else
      model.coalesce(a.pieces.data(), a.pieces.size(), 32, reqs);
    if (reqs.size() <= kRtlMaxRequests) break;
    a.pieces.pop_back();
  }
  return a;
}

}  // namespace gputlm::sm::tb
