// The LSU's coalescer (GPGPU-Sim 3.x semantics for sm_2x, docs/blocks/lsu.md): the
// per-lane pieces of one warp memory instruction are grouped, per warp part, into one
// request per cache line, with the 32 B sectors, the bytes and the lanes each request
// serves. Atomics follow GPGPU-Sim's memory_coalescing_arch_13_atomic: within a warp
// part and a line, lanes whose bytes overlap need separate requests (each atomic
// operation on a word is serialised).
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config/params.h"

namespace gputlm::sm {

// One piece of a warp's access: `bytes` contiguous bytes at `address` touched by `lane`.
struct LaneAccess {
  uint64_t address = 0;
  uint32_t bytes = 0;
  uint8_t lane = 0;
};

// Bytes of a line a request can describe (MemExtension::byte_mask).
inline constexpr uint32_t kMaxLineBytes = 128;

// One request of a coalesced warp access.
struct LineRequest {
  uint64_t line_address = 0;         // aligned to the line size
  uint32_t sector_mask = 0;          // bit i: sector i of the line is touched
  std::bitset<kMaxLineBytes> byte_mask;  // bytes of the line touched
  uint32_t lane_mask = 0;            // lanes served by this request
  uint64_t segment_address = 0;      // atomics: the atomic segment the request covers; else line_address
};

struct CoalescerConfig {
  uint32_t line_size = 128;
  uint32_t sector_size = 32;
  uint32_t warp_parts = 1;
  uint32_t atomic_warp_parts = 1;
  uint32_t atomic_segment = 32;
  std::string impl = "tlm";

  template <class V>
  void visit(V& v) {
    v.param("impl", impl,
            "implementation: tlm (the C++ model), rtl (the Verilated RTL of modules/sm/lsu/rtl/coalescer.sv "
            "behind its transactor), compare (both on every access; a difference is an error naming the first "
            "differing request)",
            config::one_of({"tlm", "rtl", "compare"}));
    v.param("line_size", line_size,
            "bytes per coalesced request (the L1D line; GPGPU-Sim sm_2x: 128 B segments for >= 4 B accesses)",
            config::power_of_two(4));
    v.param("sector_size", sector_size, "bytes per sector of the request's sector mask (32 B chunks)",
            config::power_of_two(1));
    v.param("warp_parts", warp_parts,
            "loads/stores are coalesced separately per warp part (1 = whole warp, sm_2x; 2 = half warps, sm_1x)",
            config::power_of_two(1));
    v.param("atomic_warp_parts", atomic_warp_parts,
            "atomics are coalesced per warp part (GPGPU-Sim 4.x memory_coalescing_arch_atomic: mem_warp_parts, "
            "1 on SM2_GTX480; GPGPU-Sim 3.x: half warps, 2)",
            config::power_of_two(1));
    v.param("atomic_segment", atomic_segment,
            "bytes of one atomic request: lanes are grouped per segment and the request carries that much data "
            "(GPGPU-Sim 4.x on Fermi/Kepler: 32 B sector segments; line_size for one request per line)",
            config::power_of_two(4));
  }
  // Throws config::ConfigError naming `key_prefix`.<key>.
  void validate(const std::string& key_prefix) const;
};

// The part of a line a store sends down: the smallest aligned segment of line_size / 2^k
// bytes (at least min_bytes) that holds every touched byte. CUDA's coalescing rule since
// compute 1.2, which GPGPU-Sim applies to the memory requests it sends (32, 64 or 128
// bytes), so a partial store crosses the interconnect with only its segment's data.
struct Segment {
  uint64_t address = 0;
  uint32_t bytes = 0;
};
Segment covering_segment(const LineRequest& lr, uint32_t line_size, uint32_t min_bytes);

// What the LSU asks of a coalescer, whatever implements it (the C++ model, or RTL behind a
// transactor: docs/rtl_cosim.md).
class CoalescerIF {
 public:
  virtual ~CoalescerIF() = default;
  // See Coalescer::coalesce and Coalescer::coalesce_atomic.
  virtual void coalesce(const LaneAccess* pieces, std::size_t n, uint32_t warp_size,
                        std::vector<LineRequest>& out) = 0;
  virtual void coalesce_atomic(const LaneAccess* pieces, std::size_t n, uint32_t warp_size,
                               std::vector<LineRequest>& out) = 0;
};

// The coalescer `cfg.impl` names (throws config::ConfigError naming key_prefix for a bad
// config, or for rtl/compare in a build without Verilator).
std::unique_ptr<CoalescerIF> make_coalescer(const CoalescerConfig& cfg, const std::string& key_prefix = "coalescer");

// The first difference between two coalescer results, or "" when equal (what
// impl=compare and the RTL testbenches report).
std::string first_difference(const std::vector<LineRequest>& model, const std::vector<LineRequest>& rtl);
std::string to_string(const LineRequest& r);
// Whether two requests are the same on every field the RTL drives.
bool same_request(const LineRequest& a, const LineRequest& b);

class Coalescer : public CoalescerIF {
 public:
  // Validates cfg (config::ConfigError naming `key_prefix`).
  explicit Coalescer(const CoalescerConfig& cfg, const std::string& key_prefix = "coalescer");

  void coalesce(const LaneAccess* pieces, std::size_t n, uint32_t warp_size, std::vector<LineRequest>& out) override {
    static_cast<const Coalescer&>(*this).coalesce(pieces, n, warp_size, out);
  }
  void coalesce_atomic(const LaneAccess* pieces, std::size_t n, uint32_t warp_size,
                       std::vector<LineRequest>& out) override {
    static_cast<const Coalescer&>(*this).coalesce_atomic(pieces, n, warp_size, out);
  }

  // Loads and stores: one request per (warp part, line); a piece crossing a line
  // boundary is split. Requests are ordered by warp part, then by line address. `out`
  // is cleared first (its capacity is reused: no allocation in steady state).
  void coalesce(const LaneAccess* pieces, std::size_t n, uint32_t warp_size, std::vector<LineRequest>& out) const;
  // Atomics: as coalesce, but a piece whose bytes overlap those of every request of its
  // line in its warp part opens a new request; order: warp part, line, creation.
  void coalesce_atomic(const LaneAccess* pieces, std::size_t n, uint32_t warp_size,
                       std::vector<LineRequest>& out) const;

  const CoalescerConfig& config() const { return cfg_; }
  // A line's bytes as two words (cheaper to build and test than a bitset while grouping).
  struct Bytes {
    uint64_t lo = 0, hi = 0;
  };
  uint64_t line_of(uint64_t address) const { return address & ~static_cast<uint64_t>(cfg_.line_size - 1); }

 private:
  void group(const LaneAccess* pieces, std::size_t n, uint32_t warp_size, uint32_t parts, bool atomic,
             std::vector<LineRequest>& out) const;
  // group(), loads and stores: the request of a segment within the current warp part, by
  // open addressing with generation stamps (no clearing per part). A divergent warp access
  // has up to 32 lines per part, and searching the requests made so far for each piece
  // cost O(n^2) (bfs: 7 % of a run). Parts with more segments than kSegSlots / 2 search.
  static constexpr uint32_t kSegSlots = 512;
  struct SegSlot {
    uint64_t segment = 0;
    uint32_t stamp = 0, request = 0;
  };
  int64_t find_segment(uint64_t segment) const;
  void add_segment(uint64_t segment, uint32_t request) const;
  CoalescerConfig cfg_;
  mutable std::vector<Bytes> bytes_;  // group(): the bytes of out[i]; capacity reused
  mutable std::vector<SegSlot> seg_slots_;
  mutable uint32_t seg_stamp_ = 0, seg_count_ = 0;
};

}  // namespace gputlm::sm
