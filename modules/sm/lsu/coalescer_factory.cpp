// make_coalescer: the C++ model, the RTL behind its transactor, or both compared on every
// access (impl = tlm | rtl | compare).
#include <cstdio>

#include "core/config/config_source.h"
#include "sm/lsu/coalescer.h"
#ifdef GPUTLM_HAVE_RTL
#include "sm/lsu/rtl/coalescer_rtl.h"
#endif

namespace gputlm::sm {

std::string to_string(const LineRequest& r) {
  char head[160];
  std::snprintf(head, sizeof head, "line 0x%llx segment 0x%llx sectors 0x%x lanes 0x%08x bytes ",
                static_cast<unsigned long long>(r.line_address), static_cast<unsigned long long>(r.segment_address),
                r.sector_mask, r.lane_mask);
  std::string s = head;
  for (int w = static_cast<int>(kMaxLineBytes / 32) - 1; w >= 0; --w) {
    uint32_t word = 0;
    for (uint32_t b = 0; b < 32; ++b) word |= static_cast<uint32_t>(r.byte_mask[static_cast<std::size_t>(w) * 32 + b]) << b;
    char x[12];
    std::snprintf(x, sizeof x, "%08x", word);
    s += x;
  }
  return s;
}

bool same_request(const LineRequest& a, const LineRequest& b) {
  return a.line_address == b.line_address && a.segment_address == b.segment_address &&
         a.sector_mask == b.sector_mask && a.lane_mask == b.lane_mask && a.byte_mask == b.byte_mask;
}

std::string first_difference(const std::vector<LineRequest>& model, const std::vector<LineRequest>& rtl) {
  const std::size_t n = std::max(model.size(), rtl.size());
  for (std::size_t i = 0; i < n; ++i) {
    const bool in_m = i < model.size(), in_r = i < rtl.size();
    if (in_m && in_r && same_request(model[i], rtl[i])) continue;
    return "request " + std::to_string(i) + " of " + std::to_string(model.size()) + " (model) / " +
           std::to_string(rtl.size()) + " (rtl):\n  model: " + (in_m ? to_string(model[i]) : "(none)") +
           "\n  rtl:   " + (in_r ? to_string(rtl[i]) : "(none)");
  }
  return "";
}

#ifdef GPUTLM_HAVE_RTL
namespace {

// Both implementations on every access; the model's result is used, a difference throws.
class ComparingCoalescer final : public CoalescerIF {
 public:
  explicit ComparingCoalescer(const CoalescerConfig& cfg, const std::string& key)
      : model_(cfg, key), rtl_(make_rtl_coalescer(cfg)) {}
  void coalesce(const LaneAccess* pieces, std::size_t n, uint32_t warp_size, std::vector<LineRequest>& out) override {
    model_.coalesce(pieces, n, warp_size, out);
    rtl_->coalesce(pieces, n, warp_size, rtl_out_);
    check(pieces, n, out, "load/store");
  }
  void coalesce_atomic(const LaneAccess* pieces, std::size_t n, uint32_t warp_size,
                       std::vector<LineRequest>& out) override {
    model_.coalesce_atomic(pieces, n, warp_size, out);
    rtl_->coalesce_atomic(pieces, n, warp_size, rtl_out_);
    check(pieces, n, out, "atomic");
  }

 private:
  void check(const LaneAccess* pieces, std::size_t n, const std::vector<LineRequest>& out, const char* kind) {
    const std::string d = first_difference(out, rtl_out_);
    if (d.empty()) return;
    std::string in;
    for (std::size_t i = 0; i < n && i < 8; ++i) {
      char b[64];
      std::snprintf(b, sizeof b, " lane %u: 0x%llx+%u", pieces[i].lane,
                    static_cast<unsigned long long>(pieces[i].address), pieces[i].bytes);
      in += b;
    }
    if (n > 8) in += " ...";
    throw RtlError(std::string("coalescer RTL differs from the model on a ") + kind + " access of " +
                   std::to_string(n) + " pieces (" + in + "), " + d);
  }
  Coalescer model_;
  std::unique_ptr<CoalescerIF> rtl_;
  std::vector<LineRequest> rtl_out_;
};

}  // namespace
#endif

std::unique_ptr<CoalescerIF> make_coalescer(const CoalescerConfig& cfg, const std::string& key_prefix) {
  if (cfg.impl == "tlm") return std::make_unique<Coalescer>(cfg, key_prefix);
  cfg.validate(key_prefix);
#ifdef GPUTLM_HAVE_RTL
  if (cfg.impl == "rtl") return make_rtl_coalescer(cfg);
  if (cfg.impl == "compare") return std::make_unique<ComparingCoalescer>(cfg, key_prefix);
  throw config::ConfigError("key '" + key_prefix + ".impl': unknown implementation \"" + cfg.impl +
                            "\" (tlm, rtl, compare)");
#else
  throw config::ConfigError("key '" + key_prefix + ".impl': \"" + cfg.impl +
                            "\" needs the RTL models, and this build has none (Verilator was not found when it was "
                            "configured; install Debian's verilator and reconfigure)");
#endif
}

}  // namespace gputlm::sm
