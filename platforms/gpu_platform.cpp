#include "platforms/gpu_platform.h"

#include <algorithm>

namespace gputlm::platforms {

gpu::GpuConfig read_gpu_config(const config::ConfigSource& source) {
  const std::string platform = platform_of(source);
  const auto& known = gpu::GpuConfig::platforms();
  if (std::find(known.begin(), known.end(), platform) == known.end()) {
    std::string names;
    for (const auto& n : known) names += (names.empty() ? "" : ", ") + n;
    throw config::ConfigError(source.origin_of("platform") + ": platform '" + platform +
                              "' is not a GPU platform (a GPU config names one of: " + names + ")");
  }
  gpu::GpuConfig cfg;  // the defaults are the GTX480's; the file sets the rest
  config::read(source, cfg);
  cfg.validate();
  return cfg;
}

PlatformInfo gpu_platform_info(const std::string& description) {
  PlatformInfo info;
  info.description = description;
  info.list_params = [] { return config::list(gpu::GpuConfig{}); };
  // The defaults, with the config's SM groups in place of the sm_groups template: each
  // group's keys (sm_groups[i].sm.*) with the values this config gives them.
  info.list_config_params = [](const config::ConfigSource& source) {
    const gpu::GpuConfig cfg = read_gpu_config(source);
    std::vector<config::ParamInfo> rows = config::list(gpu::GpuConfig{});
    if (cfg.sm_groups.empty()) return rows;
    auto is_groups = [](const config::ParamInfo& p) { return p.path.rfind("sm_groups", 0) == 0; };
    const auto at = std::find_if(rows.begin(), rows.end(), is_groups);
    std::vector<config::ParamInfo> groups;
    for (config::ParamInfo& p : config::list(cfg))
      if (is_groups(p)) {
        p.description = "[" + source.main_file() + "] " + p.description;
        groups.push_back(std::move(p));
      }
    const auto pos = rows.erase(at, std::find_if_not(at, rows.end(), is_groups));
    rows.insert(pos, groups.begin(), groups.end());
    return rows;
  };
  info.run = [](const config::ConfigSource& source, const RunOptions& opts, std::ostream& out) {
    const gpu::GpuConfig cfg = read_gpu_config(source);
    if (!opts.quiet) {
      out << cfg.summary();
      out << "(a GPU platform runs kernels: gputlm run SPEC.json --config " << source.main_file() << ")\n";
    }
    return 0;
  };
  return info;
}

}  // namespace gputlm::platforms
