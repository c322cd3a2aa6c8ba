// The scheduler policy registry: adding a policy is one file in this folder plus one line
// in each table below.
#include <algorithm>
#include <string>

#include "core/config/config_source.h"
#include "sm/scheduler/policies/base_policies.h"
#include "sm/scheduler/policies/ccws_policy.h"
#include "sm/scheduler/policies/elf_policy.h"
#include "sm/scheduler/policies/kaws_policy.h"
#include "sm/scheduler/policies/mascar_policy.h"
#include "sm/scheduler/policies/owl_policy.h"
#include "sm/scheduler/policies/laws_policy.h"
#ifdef GPUTLM_HAVE_RTL
#include "sm/scheduler/rtl/warp_order_rtl.h"
#endif

namespace gputlm::sm {

#ifdef GPUTLM_HAVE_RTL
namespace {
// impl=compare: the C++ policy and the RTL side by side; the C++ order is used, a
// different RTL order throws with both.
class ComparingPolicy final : public SchedulerPolicyIF {
 public:
  ComparingPolicy(std::unique_ptr<SchedulerPolicyIF> model, std::unique_ptr<SchedulerPolicyIF> rtl)
      : model_(std::move(model)), rtl_(std::move(rtl)) {}
  const char* name() const override { return model_->name(); }
  void order(const std::vector<WarpView>& warps, std::vector<uint32_t>& out) override {
    const std::size_t from = out.size();
    model_->order(warps, out);
    rtl_out_.clear();
    rtl_->order(warps, rtl_out_);
    if (std::equal(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(), rtl_out_.begin(), rtl_out_.end())) return;
    auto list = [](auto b, auto e) {
      std::string s;
      for (auto it = b; it != e; ++it) s += (s.empty() ? "" : " ") + std::to_string(*it);
      return s;
    };
    throw WarpOrderRtlError(std::string("warp-order RTL differs from the ") + model_->name() + " model after " +
                            std::to_string(issues_) + " issues: model [" +
                            list(out.begin() + static_cast<std::ptrdiff_t>(from), out.end()) + "], rtl [" +
                            list(rtl_out_.begin(), rtl_out_.end()) + "]");
  }
  void issued(uint32_t slot, const isa::Instruction& in) override {
    ++issues_;
    model_->issued(slot, in);
    rtl_->issued(slot, in);
  }
  void warp_removed(uint32_t slot) override {
    model_->warp_removed(slot);
    rtl_->warp_removed(slot);
  }

 private:
  std::unique_ptr<SchedulerPolicyIF> model_, rtl_;
  std::vector<uint32_t> rtl_out_;
  uint64_t issues_ = 0;
};
}  // namespace
#endif

const std::vector<std::string>& scheduler_policy_names() {
  static const std::vector<std::string> names = {"lrr",  "gto",       "oldest", "gtrr", "gtlr",
                                                 "sfp",  "two_level", "swl",    "elf",
                                                 "ccws", "mascar", "owl",   "laws", "laws_th", "laws_nmd", "kaws"};
  return names;
}

std::unique_ptr<SchedulerPolicyIF> make_base_policy(const std::string& name, const std::string& key) {
  if (name == "lrr") return policies::make_lrr();
  if (name == "gto") return policies::make_gto();
  if (name == "oldest") return policies::make_oldest();
  if (name == "gtrr") return policies::make_gtrr();
  if (name == "gtlr") return policies::make_gtlr();
  if (name == "sfp") return policies::make_sfp();
  throw config::ConfigError("key '" + key + "': unknown scheduling policy \"" + name + "\"");
}

std::unique_ptr<SchedulerPolicyIF> make_scheduler_policy(const SchedulerConfig& cfg, const std::string& key_prefix,
                                                         const PolicyContext& context) {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  if (cfg.impl != "tlm") {
    if (cfg.policy != "gto" && cfg.policy != "lrr")
      throw config::ConfigError("key '" + p + "impl': the RTL implements policies gto and lrr, not \"" + cfg.policy +
                                "\"");
#ifdef GPUTLM_HAVE_RTL
    auto rtl = make_rtl_warp_order(cfg.policy == "gto");
    if (cfg.impl == "rtl") return rtl;
    return std::make_unique<ComparingPolicy>(make_base_policy(cfg.policy, p + "policy"), std::move(rtl));
#else
    throw config::ConfigError("key '" + p + "impl': \"" + cfg.impl +
                              "\" needs the RTL models, and this build has none (Verilator was not found when it "
                              "was configured; install Debian's verilator and reconfigure)");
#endif
  }
  if (cfg.policy == "swl") return policies::make_swl(cfg.warp_limit, cfg.warp_limit_scope == "sm", context.warps);
  if (cfg.policy == "elf") return std::make_unique<ElfPolicy>(cfg.elf, key_prefix, context);
  if (cfg.policy == "ccws") return make_ccws_policy(cfg, key_prefix, context);
  if (cfg.policy == "mascar") return make_mascar_policy(cfg, key_prefix, context);
  if (cfg.policy == "owl") return make_owl_policy(cfg, key_prefix, context);
  if (cfg.policy == "laws" || cfg.policy == "laws_th" || cfg.policy == "laws_nmd")
    return make_laws_policy(cfg, key_prefix, context);
  if (cfg.policy == "kaws") return make_kaws_policy(cfg, context);
  if (cfg.policy == "two_level")
    return policies::make_two_level(cfg.fetch_group_size, make_base_policy(cfg.inner_policy, p + "inner_policy"),
                                    cfg.outer_policy == "gto");
  return make_base_policy(cfg.policy, p + "policy");
}

}  // namespace gputlm::sm
