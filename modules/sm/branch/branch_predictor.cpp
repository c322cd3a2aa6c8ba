#include "sm/branch/branch_predictor.h"

#include <functional>

#include "core/config/config_source.h"

namespace gputlm::sm {

namespace {
struct Entry {
  const char* name;
  std::function<std::unique_ptr<BranchPredictorIF>(const BranchConfig&)> make;
};
// One line per policy.
const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      {"none", [](const BranchConfig&) { return std::unique_ptr<BranchPredictorIF>(); }},
      {"stall", [](const BranchConfig&) { return make_no_prediction(); }},
      {"static_btfn", [](const BranchConfig&) { return make_static_btfn(); }},
      {"gshare", [](const BranchConfig& c) { return make_gshare(c.gshare); }},
      {"perfect", [](const BranchConfig&) { return make_perfect(); }},
  };
  return entries;
}
}  // namespace

const std::vector<std::string>& branch_predictor_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Entry& e : registry()) n.push_back(e.name);
    return n;
  }();
  return names;
}

std::unique_ptr<BranchPredictorIF> make_branch_predictor(const BranchConfig& cfg, const std::string& key) {
  std::string known;
  for (const Entry& e : registry()) {
    if (cfg.predictor == e.name) return e.make(cfg);
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  throw config::ConfigError("key '" + key + ".predictor': unknown branch predictor \"" + cfg.predictor +
                            "\" (known: " + known + ")");
}

}  // namespace gputlm::sm
