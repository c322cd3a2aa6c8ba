#include "platforms/platform_registry.h"

#include "platforms/demo/demo_platform.h"
#include "platforms/fermi/fermi_platform.h"
#include "platforms/ilp/ilp_platform.h"
#include "platforms/pascal/pascal_platform.h"
#include "platforms/soc/soc_platform.h"

namespace gputlm::platforms {

// Explicit, not static-initialiser registration: objects of a static library that
// nothing references are not linked, and their registrars would never run.
const std::map<std::string, PlatformInfo>& registry() {
  static const std::map<std::string, PlatformInfo> r = {
      {"demo", demo::platform_info()},
      {"fermi", fermi::platform_info()},
      {"ilp", ilp::platform_info()},
      {"pascal", pascal::platform_info()},
      {"soc", soc::platform_info()},
  };
  return r;
}

const PlatformInfo& find(const std::string& name) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& kv : registry()) known += (known.empty() ? "" : ", ") + kv.first;
    throw config::ConfigError("unknown platform '" + name + "' (known: " + known + ")");
  }
  return it->second;
}

std::string platform_of(const config::ConfigSource& source) {
  const auto& root = source.root();
  if (!root.contains("platform"))
    throw config::ConfigError(source.main_file() + ": missing key 'platform' (which platform to build)");
  if (!root["platform"].is_string())
    throw config::ConfigError(source.origin_of("platform") + ": key 'platform': expected a string, got " +
                              root["platform"].dump());
  return root["platform"].get<std::string>();
}

}  // namespace gputlm::platforms
