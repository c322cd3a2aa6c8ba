// `gputlm demo`: elaborates the platform a config names (configs/demo.json by
// default), runs it and prints statistics.
#include <cstdio>
#include <iostream>

#include "cli.h"
#include "options.h"
#include "platforms/platform_registry.h"

namespace {

int cmd_demo(int argc, char** argv) {
  auto opts = gputlm::cli::parse_common(argc, argv, "configs/demo.json");
  if (opts.help) {
    std::printf(
        "usage: gputlm demo [--config FILE] [-p KEY=VALUE]... [--stats FILE] [--log PATTERN=LEVEL] [--quiet]\n"
        "Runs the platform named by the config's \"platform\" key and prints its statistics.\n"
        "`gputlm params --config FILE` lists every parameter.\n");
    return 0;
  }
  if (!opts.positional.empty())
    throw std::invalid_argument("unexpected argument '" + opts.positional.front() + "'");
  auto source = gputlm::cli::load_config(opts);
  const auto& platform = gputlm::platforms::find(gputlm::platforms::platform_of(source));
  gputlm::platforms::RunOptions run_opts;
  run_opts.stats_file = opts.stats_file;
  run_opts.quiet = opts.quiet;
  return platform.run(source, run_opts, std::cout);
}

int cmd_params(int argc, char** argv) {
  auto opts = gputlm::cli::parse_common(argc, argv, "");
  if (opts.help) {
    std::printf(
        "usage: gputlm params [PLATFORM | --config FILE]\n"
        "Lists every parameter of a platform with its type, default and description.\n");
    return 0;
  }
  std::string name;
  if (!opts.positional.empty()) {
    name = opts.positional.front();
  } else if (!opts.config_file.empty()) {
    const gputlm::config::ConfigSource source = gputlm::cli::load_config(opts);
    name = gputlm::platforms::platform_of(source);
    const auto& platform = gputlm::platforms::find(name);
    if (platform.list_config_params) {
      std::cout << gputlm::config::format_listing(platform.list_config_params(source));
      return 0;
    }
  }
  if (name.empty()) {
    std::printf("platforms:\n");
    for (const auto& [n, info] : gputlm::platforms::registry())
      std::printf("  %-12s %s\n", n.c_str(), info.description.c_str());
    std::printf("`gputlm params PLATFORM` lists its parameters.\n");
    return 0;
  }
  const auto& platform = gputlm::platforms::find(name);
  std::cout << gputlm::config::format_listing(platform.list_params());
  return 0;
}

}  // namespace

GPUTLM_CLI_COMMAND("demo", "run a platform from its config and print statistics (the demo by default)", cmd_demo);
GPUTLM_CLI_COMMAND("params", "list the parameters of a platform with defaults and descriptions", cmd_params);
