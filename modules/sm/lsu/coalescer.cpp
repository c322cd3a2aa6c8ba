// Coalescing per warp part and line (GPGPU-Sim memory_coalescing_arch_13 and its
// atomic variant); see coalescer.h.
#include "sm/lsu/coalescer.h"

#include <algorithm>

#include "core/config/config_source.h"

namespace gputlm::sm {

namespace {
[[noreturn]] void bad(const std::string& prefix, const char* key, const std::string& what) {
  throw config::ConfigError("key '" + (prefix.empty() ? std::string() : prefix + ".") + key + "': " + what);
}
bool pow2(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

void CoalescerConfig::validate(const std::string& p) const {
  if (!pow2(line_size) || line_size > kMaxLineBytes)
    bad(p, "line_size", "must be a power of two <= " + std::to_string(kMaxLineBytes) + ", got " +
                            std::to_string(line_size));
  if (!pow2(sector_size) || sector_size > line_size)
    bad(p, "sector_size", "must be a power of two <= line_size " + std::to_string(line_size) + ", got " +
                              std::to_string(sector_size));
  if (line_size / sector_size > 32)
    bad(p, "sector_size", "at most 32 sectors per line (sector mask is 32 bits), got " +
                              std::to_string(line_size / sector_size));
  if (!pow2(warp_parts) || warp_parts > 32) bad(p, "warp_parts", "must be a power of two <= 32");
  if (!pow2(atomic_warp_parts) || atomic_warp_parts > 32) bad(p, "atomic_warp_parts", "must be a power of two <= 32");
  if (!pow2(atomic_segment) || atomic_segment > line_size)
    bad(p, "atomic_segment", "must be a power of two <= line_size " + std::to_string(line_size) + ", got " +
                                 std::to_string(atomic_segment));
}

Coalescer::Coalescer(const CoalescerConfig& cfg, const std::string& key_prefix) : cfg_(cfg) {
  cfg_.validate(key_prefix);
}

Segment covering_segment(const LineRequest& lr, uint32_t line_size, uint32_t min_bytes) {
  uint32_t lo = line_size, hi = 0;
  for (uint32_t b = 0; b < line_size && b < kMaxLineBytes; ++b)
    if (lr.byte_mask[b]) {
      lo = std::min(lo, b);
      hi = b;
    }
  if (lo > hi) return Segment{lr.line_address, line_size};  // no byte recorded: the whole line
  uint32_t size = line_size;
  while (size / 2 >= min_bytes && lo / (size / 2) == hi / (size / 2)) size /= 2;
  return Segment{lr.line_address + lo / size * size, size};
}

void Coalescer::coalesce(const LaneAccess* pieces, std::size_t n, uint32_t warp_size,
                         std::vector<LineRequest>& out) const {
  group(pieces, n, warp_size, cfg_.warp_parts, false, out);
}

void Coalescer::coalesce_atomic(const LaneAccess* pieces, std::size_t n, uint32_t warp_size,
                                std::vector<LineRequest>& out) const {
  group(pieces, n, warp_size, cfg_.atomic_warp_parts, true, out);
}

void Coalescer::group(const LaneAccess* pieces, std::size_t n, uint32_t warp_size, uint32_t parts, bool atomic,
                      std::vector<LineRequest>& out) const {
  out.clear();
  const uint32_t part_lanes = std::max<uint32_t>(1, warp_size / parts);
  const uint64_t line = cfg_.line_size;
  // Atomics group per segment (GPGPU-Sim 4.x memory_coalescing_arch_atomic), loads and stores per line.
  const uint64_t unit = atomic ? cfg_.atomic_segment : line;
  for (uint32_t part = 0; part < parts; ++part) {
    const std::size_t part_begin = out.size();
    const uint32_t lane_lo = part * part_lanes, lane_hi = lane_lo + part_lanes;
    for (std::size_t i = 0; i < n; ++i) {
      const LaneAccess& a = pieces[i];
      if (a.lane < lane_lo || a.lane >= lane_hi || a.bytes == 0) continue;
      uint64_t addr = a.address;
      uint64_t left = a.bytes;
      while (left > 0) {  // split at line (atomics: segment) boundaries (misaligned pieces)
        const uint64_t base = addr & ~(line - 1);
        const uint64_t seg = addr & ~(unit - 1);
        const uint32_t off = static_cast<uint32_t>(addr - base);
        const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(left, seg + unit - addr));
        std::bitset<kMaxLineBytes> bytes;
        for (uint32_t b = 0; b < len; ++b) bytes.set(off + b);
        LineRequest* req = nullptr;
        for (std::size_t k = part_begin; k < out.size() && !req; ++k)
          if (out[k].segment_address == seg && (!atomic || (out[k].byte_mask & bytes).none())) req = &out[k];
        if (!req) {
          out.emplace_back();
          req = &out.back();
          req->line_address = base;
          req->segment_address = seg;
        }
        req->byte_mask |= bytes;
        req->lane_mask |= 1u << a.lane;
        for (uint32_t s = off / cfg_.sector_size; s <= (off + len - 1) / cfg_.sector_size; ++s)
          req->sector_mask |= 1u << s;
        addr += len;
        left -= len;
      }
    }
    // Stable insertion sort by line (atomics: segment) address, creation order kept
    // within one (no allocation, as std::stable_sort may allocate).
    for (std::size_t i = part_begin + 1; i < out.size(); ++i) {
      LineRequest r = out[i];
      std::size_t j = i;
      while (j > part_begin && out[j - 1].segment_address > r.segment_address) {
        out[j] = out[j - 1];
        --j;
      }
      out[j] = r;
    }
  }
}

}  // namespace gputlm::sm
