// Command-line options shared by the gputlm subcommands: --config FILE, -p KEY=VALUE
// (repeatable), --stats FILE, --log PATTERN=LEVEL (repeatable), --quiet.
#pragma once

#include <string>
#include <vector>

#include "core/config/config_source.h"

namespace gputlm::cli {

struct CommonOptions {
  std::string config_file;
  std::vector<std::string> overrides;
  std::string stats_file;
  bool quiet = false;
  bool help = false;
  std::vector<std::string> positional;
};

// Throws std::invalid_argument naming the offending option.
CommonOptions parse_common(int argc, char** argv, const std::string& default_config);
// The running gputlm executable (/proc/self/exe): commands that start more gputlm
// processes, or find the build's workloads beside it, use it.
std::string self_exe();

// The config file with the -p overrides applied.
config::ConfigSource load_config(const CommonOptions& opts);

}  // namespace gputlm::cli
