#include "mem/cache/prefetch/data_prefetcher.h"

#include <functional>

#include "core/config/config_source.h"

namespace gputlm::mem {

namespace {
struct Entry {
  const char* name;
  std::function<std::unique_ptr<DataPrefetcherIF>(const DataPrefetchConfig&, stats::Group&)> make;
};
const std::vector<Entry>& registry() {
  static const std::vector<Entry> r{
      {"none", [](const DataPrefetchConfig&, stats::Group&) { return std::unique_ptr<DataPrefetcherIF>(); }},
      {"stride", [](const DataPrefetchConfig& c, stats::Group&) { return make_stride_prefetcher(c); }},
      {"pcst", [](const DataPrefetchConfig& c, stats::Group& g) { return make_pcst_prefetcher(c, g); }},
      {"pcst_itpc", [](const DataPrefetchConfig& c, stats::Group& g) { return make_pcst_itpc_prefetcher(c, g); }},
      {"stpe", [](const DataPrefetchConfig& c, stats::Group& g) { return make_stpe_prefetcher(c, g); }},
      {"mt_hwp", [](const DataPrefetchConfig& c, stats::Group& g) { return make_mt_hwp_prefetcher(c, g); }},
  };
  return r;
}
}  // namespace

const std::vector<std::string>& data_prefetcher_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Entry& e : registry()) n.push_back(e.name);
    return n;
  }();
  return names;
}

std::unique_ptr<DataPrefetcherIF> make_data_prefetcher(const DataPrefetchConfig& cfg, const std::string& key,
                                                       stats::Group& group) {
  for (const Entry& e : registry())
    if (cfg.policy == e.name) return e.make(cfg, group);
  throw config::ConfigError("key '" + key + ".policy': unknown data prefetcher '" + cfg.policy + "'");
}

}  // namespace gputlm::mem
