// The coalescer's transactor: CoalescerIF calls to pin-level activity on the Verilated
// RTL (coalescer.sv) and back. Pieces go in one per cycle (valid/ready), requests come out
// one per cycle (out_ready held high) until `done`.
#include <atomic>
#include <string>

#include "Vgputlm_coalescer.h"
#include "Vgputlm_coalescer_bug.h"
#include "sm/lsu/rtl/coalescer_rtl.h"
#include "verilated.h"

namespace gputlm::sm {

namespace {

std::atomic<uint64_t> g_coalescer_rtl_cycles{0};

uint32_t log2_of(uint32_t v) {
  uint32_t l = 0;
  while ((1u << l) < v) ++l;
  return l;
}

template <class Model>
class CoalescerTransactor final : public CoalescerIF {
 public:
  explicit CoalescerTransactor(const CoalescerConfig& cfg)
      : cfg_(cfg), ctx_(std::make_unique<VerilatedContext>()), m_(std::make_unique<Model>(ctx_.get(), "coalescer")) {
    reset();
  }
  ~CoalescerTransactor() override { m_->final(); }

  void coalesce(const LaneAccess* pieces, std::size_t n, uint32_t warp_size, std::vector<LineRequest>& out) override {
    run(pieces, n, warp_size, cfg_.warp_parts, false, out);
  }
  void coalesce_atomic(const LaneAccess* pieces, std::size_t n, uint32_t warp_size,
                       std::vector<LineRequest>& out) override {
    run(pieces, n, warp_size, cfg_.atomic_warp_parts, true, out);
  }

 private:
  void reset() {
    m_->clk = 0;
    m_->rst_n = 0;
    m_->eval();
    m_->rst_n = 1;
    m_->eval();
  }

  void tick() {
    m_->clk = 1;
    m_->eval();
    m_->clk = 0;
    m_->eval();
    g_coalescer_rtl_cycles.fetch_add(1, std::memory_order_relaxed);
  }

  void run(const LaneAccess* pieces, std::size_t n, uint32_t warp_size, uint32_t parts, bool atomic,
           std::vector<LineRequest>& out) {
    out.clear();
    if (n == 0) return;  // nothing to coalesce: the RTL is not started
    const uint32_t part_lanes = warp_size / parts > 0 ? warp_size / parts : 1;
    m_->cfg_line_log2 = log2_of(cfg_.line_size);
    m_->cfg_sector_log2 = log2_of(cfg_.sector_size);
    m_->cfg_unit_log2 = log2_of(atomic ? cfg_.atomic_segment : cfg_.line_size);
    m_->cfg_part_lanes_log2 = log2_of(part_lanes);
    m_->cfg_atomic = atomic;
    m_->out_ready = 1;
    std::size_t next = 0;
    // Each piece takes at most two chunks (a piece is smaller than a unit), each request
    // one cycle, plus done: a bound that only a broken RTL reaches.
    const uint64_t limit = 4 * n + 2 * kMaxLineBytes + 8;
    for (uint64_t cycle = 0;; ++cycle) {
      if (cycle > limit)
        throw RtlError("RTL coalescer: no `done` after " + std::to_string(limit) + " cycles for " + std::to_string(n) +
                       " pieces");
      const bool offer = next < n;
      m_->in_valid = offer;
      if (offer) {
        const LaneAccess& a = pieces[next];
        if (a.bytes > 255 || a.lane >= 32)
          throw RtlError("RTL coalescer: piece of lane " + std::to_string(a.lane) + " with " +
                         std::to_string(a.bytes) + " bytes is outside its pins (8-bit size, 32 lanes)");
        m_->in_addr = a.address;
        m_->in_bytes = a.bytes;
        m_->in_lane = a.lane;
        m_->in_last = next + 1 == n;
      }
      // The outputs are the state's alone (Moore): valid since the last edge, no eval needed
      // for the new inputs before reading them.
      const bool accepted = offer && m_->in_ready;
      if (m_->out_valid) out.push_back(request());
      const bool finished = m_->done;
      tick();
      if (accepted) ++next;
      if (finished) break;
    }
    m_->in_valid = 0;
    if (m_->overflow) {
      reset();  // overflow is sticky: start the next access from a clean RTL
      throw RtlError("RTL coalescer: more requests than its table holds (MAX_REQS) for one warp access of " +
                     std::to_string(n) + " pieces");
    }
  }

  LineRequest request() const {
    LineRequest r;
    r.line_address = m_->out_line_addr;
    r.segment_address = m_->out_seg_addr;
    r.sector_mask = m_->out_sector_mask;
    r.lane_mask = m_->out_lane_mask;
    for (uint32_t w = 0; w < kMaxLineBytes / 32; ++w)
      for (uint32_t b = 0; b < 32; ++b)
        if ((m_->out_byte_mask[w] >> b) & 1u) r.byte_mask.set(w * 32 + b);
    return r;
  }

  CoalescerConfig cfg_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
};

}  // namespace

std::unique_ptr<CoalescerIF> make_rtl_coalescer(const CoalescerConfig& cfg, bool injected_bug) {
  if (injected_bug) return std::make_unique<CoalescerTransactor<Vgputlm_coalescer_bug>>(cfg);
  return std::make_unique<CoalescerTransactor<Vgputlm_coalescer>>(cfg);
}

uint64_t rtl_coalescer_cycles() { return g_coalescer_rtl_cycles.load(std::memory_order_relaxed); }

}  // namespace gputlm::sm
