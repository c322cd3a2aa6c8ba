// Golden models for the LSU's address-side blocks, written independently of the
// implementation (byte-by-byte with ordered maps): coalesced line requests, atomic
// splitting, shared-memory bank conflict degree.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "sm/lsu/coalescer.h"

namespace gputlm::sm::golden {

struct Line {
  uint64_t line = 0;
  uint32_t sectors = 0;
  std::set<uint32_t> bytes;
  uint32_t lanes = 0;
  bool operator==(const Line& o) const {
    return line == o.line && sectors == o.sectors && bytes == o.bytes && lanes == o.lanes;
  }
};

inline std::vector<Line> coalesce(const std::vector<LaneAccess>& pieces, uint32_t line_size, uint32_t sector_size,
                                  uint32_t parts, uint32_t warp_size = 32) {
  std::vector<Line> out;
  const uint32_t per_part = warp_size / parts;
  for (uint32_t p = 0; p < parts; ++p) {
    std::map<uint64_t, Line> lines;
    for (const LaneAccess& a : pieces) {
      if (a.lane / per_part != p) continue;
      for (uint64_t b = a.address; b < a.address + a.bytes; ++b) {
        Line& l = lines[b / line_size * line_size];
        l.line = b / line_size * line_size;
        const uint32_t off = static_cast<uint32_t>(b % line_size);
        l.bytes.insert(off);
        l.sectors |= 1u << (off / sector_size);
        l.lanes |= 1u << a.lane;
      }
    }
    for (auto& kv : lines) out.push_back(kv.second);
  }
  return out;
}

// Atomics: a lane joins the first request of its (part, segment) none of whose bytes it
// touches (lanes in order), else opens a new one; output by part, segment, creation.
// (Pieces do not cross a segment: aligned accesses of at most `segment` bytes.)
inline std::vector<Line> coalesce_atomic(const std::vector<LaneAccess>& pieces, uint32_t line_size,
                                         uint32_t sector_size, uint32_t parts, uint32_t segment,
                                         uint32_t warp_size = 32) {
  std::vector<Line> out;
  const uint32_t per_part = warp_size / parts;
  for (uint32_t p = 0; p < parts; ++p) {
    std::map<uint64_t, std::vector<Line>> lines;
    for (const LaneAccess& a : pieces) {
      if (a.lane / per_part != p) continue;
      const uint64_t base = a.address / line_size * line_size;
      std::vector<Line>& list = lines[a.address / segment * segment];
      Line* target = nullptr;
      for (Line& l : list) {
        bool overlap = false;
        for (uint64_t b = a.address; b < a.address + a.bytes; ++b) overlap = overlap || l.bytes.count(b - base);
        if (!overlap) {
          target = &l;
          break;
        }
      }
      if (!target) {
        list.push_back(Line{});
        target = &list.back();
        target->line = base;
      }
      for (uint64_t b = a.address; b < a.address + a.bytes; ++b) {
        target->bytes.insert(static_cast<uint32_t>(b - base));
        target->sectors |= 1u << ((b - base) / sector_size);
      }
      target->lanes |= 1u << a.lane;
    }
    for (auto& kv : lines)
      for (auto& l : kv.second) out.push_back(l);
  }
  return out;
}

inline std::vector<Line> to_golden(const std::vector<LineRequest>& reqs) {
  std::vector<Line> out;
  for (const LineRequest& r : reqs) {
    Line l;
    l.line = r.line_address;
    l.sectors = r.sector_mask;
    l.lanes = r.lane_mask;
    for (uint32_t b = 0; b < kMaxLineBytes; ++b)
      if (r.byte_mask.test(b)) l.bytes.insert(b);
    out.push_back(l);
  }
  return out;
}

// Shared memory: per part, the most distinct words any bank must deliver; parts add up.
inline uint32_t shared_cycles(const std::vector<LaneAccess>& pieces, uint32_t banks, uint32_t width, uint32_t parts,
                              uint32_t warp_size = 32) {
  uint32_t total = 0;
  const uint32_t per_part = warp_size / parts;
  for (uint32_t p = 0; p < parts; ++p) {
    std::map<uint32_t, std::set<uint64_t>> per_bank;
    for (const LaneAccess& a : pieces) {
      if (a.lane / per_part != p) continue;
      for (uint64_t b = a.address; b < a.address + a.bytes; ++b) per_bank[(b / width) % banks].insert(b / width);
    }
    uint32_t worst = 0;
    for (auto& kv : per_bank) worst = std::max<uint32_t>(worst, static_cast<uint32_t>(kv.second.size()));
    total += worst;
  }
  return total;
}

// Pieces of a warp access: lane l at base + l * stride, `bytes` each, for lanes in mask.
inline std::vector<LaneAccess> strided(uint64_t base, uint64_t stride, uint32_t bytes, uint32_t mask = 0xffffffffu) {
  std::vector<LaneAccess> v;
  for (uint32_t l = 0; l < 32; ++l)
    if (mask & (1u << l)) v.push_back(LaneAccess{base + l * stride, bytes, static_cast<uint8_t>(l)});
  return v;
}

}  // namespace gputlm::sm::golden
