// Platforms are created by name: a config file says "platform": "<name>", and the
// registry maps the name to the platform's parameter listing and its runner.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "core/config/config_source.h"
#include "core/config/params.h"

namespace gputlm::platforms {

struct RunOptions {
  std::string stats_file;  // write statistics JSON here when not empty
  bool quiet = false;
};

struct PlatformInfo {
  std::string description;
  // Every parameter with its default and description.
  std::function<std::vector<config::ParamInfo>()> list_params;
  // Optional: the listing for one config (`gputlm params --config FILE`), where the config
  // adds parameters the defaults do not have (a GPU's sm_groups).
  std::function<std::vector<config::ParamInfo>(const config::ConfigSource&)> list_config_params;
  // Elaborates the platform from the config, runs it, prints a summary to `out`;
  // returns the process exit code.
  std::function<int(const config::ConfigSource&, const RunOptions&, std::ostream& out)> run;
};

// Every built-in platform; adding one is one line in platform_registry.cpp.
const std::map<std::string, PlatformInfo>& registry();
const PlatformInfo& find(const std::string& name);  // throws naming the known platforms
// The "platform" key of a config (an error names the file when it is missing).
std::string platform_of(const config::ConfigSource& source);


}  // namespace gputlm::platforms
