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
  bytes_.reserve(32 * 8);  // as the LSU's line requests: 32 lanes, up to 8 pieces each
  seg_slots_.resize(kSegSlots);
}

namespace {
// A segment's first slot in the table (multiplicative hash to log2(kSegSlots) = 9 bits).
uint32_t segment_home(uint64_t segment) { return static_cast<uint32_t>((segment * 0x9E3779B97F4A7C15ull) >> 55); }
}  // namespace

int64_t Coalescer::find_segment(uint64_t segment) const {
  for (uint32_t i = segment_home(segment);; i = (i + 1) % kSegSlots) {
    const SegSlot& s = seg_slots_[i];
    if (s.stamp != seg_stamp_) return -1;
    if (s.segment == segment) return s.request;
  }
}

void Coalescer::add_segment(uint64_t segment, uint32_t request) const {
  uint32_t i = segment_home(segment);
  while (seg_slots_[i].stamp == seg_stamp_) i = (i + 1) % kSegSlots;
  seg_slots_[i] = SegSlot{segment, seg_stamp_, request};
  ++seg_count_;
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

namespace {
// Bits [a, b) of a 64-bit word (0 <= a <= b <= 64).
uint64_t word_bits(uint32_t a, uint32_t b) {
  if (a >= b) return 0;
  const uint64_t below_b = b == 64 ? ~uint64_t{0} : (uint64_t{1} << b) - 1;
  return below_b & ~((uint64_t{1} << a) - 1);
}
// Bytes [off, off + len) of a line (off + len <= 128).
Coalescer::Bytes range_mask(uint32_t off, uint32_t len) {
  const uint32_t end = off + len;
  return {word_bits(std::min(off, 64u), std::min(end, 64u)), word_bits(std::max(off, 64u) - 64, std::max(end, 64u) - 64)};
}
std::bitset<kMaxLineBytes> to_bitset(const Coalescer::Bytes& m) {
  static_assert(kMaxLineBytes == 128, "two 64-bit words per line");
  return (std::bitset<kMaxLineBytes>(m.hi) << 64) | std::bitset<kMaxLineBytes>(m.lo);
}
}  // namespace

void Coalescer::group(const LaneAccess* pieces, std::size_t n, uint32_t warp_size, uint32_t parts, bool atomic,
                      std::vector<LineRequest>& out) const {
  out.clear();
  bytes_.clear();
  const uint32_t part_lanes = std::max<uint32_t>(1, warp_size / parts);
  const uint64_t line = cfg_.line_size;
  const uint32_t sector_shift = static_cast<uint32_t>(__builtin_ctz(cfg_.sector_size));
  // Atomics group per segment (GPGPU-Sim 4.x memory_coalescing_arch_atomic), loads and stores per line.
  const uint64_t unit = atomic ? cfg_.atomic_segment : line;
  for (uint32_t part = 0; part < parts; ++part) {
    const std::size_t part_begin = out.size();
    const uint32_t lane_lo = part * part_lanes, lane_hi = lane_lo + part_lanes;
    std::size_t last = part_begin;  // the request the previous piece joined (when < out.size())
    if (!atomic) {  // a fresh segment table for this part
      if (++seg_stamp_ == 0) {
        for (SegSlot& s : seg_slots_) s.stamp = 0;
        seg_stamp_ = 1;
      }
      seg_count_ = 0;
    }
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
        const Bytes bytes = range_mask(off, len);
        std::size_t k = out.size();
        // A load or store has one request per segment in its part, so the one the previous
        // piece joined matches whenever its segment does (neighbouring lanes mostly share a
        // line); an atomic takes the first request of its segment without overlapping bytes.
        if (!atomic && last < out.size() && out[last].segment_address == seg) {
          k = last;
        } else if (!atomic && seg_count_ < kSegSlots / 2) {
          const int64_t found = find_segment(seg);
          if (found >= 0) k = static_cast<std::size_t>(found);
          else add_segment(seg, static_cast<uint32_t>(k));  // created below at out.size()
        } else {
          for (std::size_t j = part_begin; j < out.size(); ++j)
            if (out[j].segment_address == seg && (!atomic || ((bytes_[j].lo & bytes.lo) | (bytes_[j].hi & bytes.hi)) == 0)) {
              k = j;
              break;
            }
        }
        if (k == out.size()) {
          out.emplace_back();
          bytes_.push_back(Bytes{});
          out[k].line_address = base;
          out[k].segment_address = seg;
        }
        LineRequest& req = out[k];
        bytes_[k].lo |= bytes.lo;
        bytes_[k].hi |= bytes.hi;
        req.lane_mask |= 1u << a.lane;
        const uint32_t first = off >> sector_shift, end = (off + len - 1) >> sector_shift;  // sectors first..end
        req.sector_mask |= static_cast<uint32_t>(((uint64_t{1} << (end - first + 1)) - 1) << first);
        last = k;
        addr += len;
        left -= len;
      }
    }
    for (std::size_t i = part_begin; i < out.size(); ++i) out[i].byte_mask = to_bitset(bytes_[i]);
    // By line (atomics: segment) address. Loads and stores have one request per line, so
    // any sort gives the same order (std::sort does not allocate); atomics keep creation
    // order within a segment: a stable insertion sort (std::stable_sort may allocate).
    auto by_segment = [](const LineRequest& x, const LineRequest& y) { return x.segment_address < y.segment_address; };
    if (!atomic) {
      if (!std::is_sorted(out.begin() + static_cast<std::ptrdiff_t>(part_begin), out.end(), by_segment))
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(part_begin), out.end(), by_segment);
      continue;
    }
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
