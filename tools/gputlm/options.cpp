#include "options.h"

#include <filesystem>
#include <stdexcept>

#include "core/log/log.h"

namespace gputlm::cli {

CommonOptions parse_common(int argc, char** argv, const std::string& default_config) {
  CommonOptions o;
  o.config_file = default_config;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs " + what);
      return argv[++i];
    };
    if (a == "--config" || a == "-c") o.config_file = value("a config file");
    else if (a == "-p" || a == "--param") o.overrides.push_back(value("KEY=VALUE"));
    else if (a.rfind("-p", 0) == 0 && a.size() > 2 && a[2] != '-') o.overrides.push_back(a.substr(2));
    else if (a == "--stats") o.stats_file = value("a file name");
    else if (a == "--log") log::set_level_from_string(value("PATTERN=LEVEL"));
    else if (a == "--quiet" || a == "-q") o.quiet = true;
    else if (a == "--help" || a == "-h") o.help = true;
    else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
    else o.positional.push_back(a);
  }
  return o;
}

std::string self_exe() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the gputlm executable (/proc/self/exe)");
  return p.string();
}

config::ConfigSource load_config(const CommonOptions& opts) {
  if (opts.config_file.empty()) throw std::invalid_argument("no config file given (--config FILE)");
  config::ConfigSource src = config::ConfigSource::from_file(opts.config_file);
  for (const auto& o : opts.overrides) src.apply_override(o);
  return src;
}

}  // namespace gputlm::cli
