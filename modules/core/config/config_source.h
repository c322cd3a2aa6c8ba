// Where configuration values come from: a JSON file that may extend base files
// ("extends": "base.json" or a list, paths relative to the including file), plus
// command-line overrides "-p a.b.c=value". Every leaf remembers its origin so that an
// error names the file (or the -p option) and the key path.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace gputlm::config {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ConfigSource {
 public:
  ConfigSource() = default;
  static ConfigSource from_file(const std::string& path);
  static ConfigSource from_json(const nlohmann::json& j, const std::string& origin = "<inline>");

  // "a.b.c=value": value is JSON if it parses as JSON (numbers, true/false, quoted
  // strings, arrays), else a plain string. Creates the path; the reader rejects a key
  // that the configuration does not have.
  void apply_override(const std::string& assignment);

  const nlohmann::json& root() const { return root_; }
  // The file or option that set key_path (or its closest ancestor).
  std::string origin_of(const std::string& key_path) const;
  const std::string& main_file() const { return main_file_; }

 private:
  void merge(nlohmann::json& dst, const nlohmann::json& src, const std::string& prefix,
             const std::string& origin);
  static nlohmann::json load_with_extends(const std::string& path, int depth,
                                          ConfigSource& self);

  nlohmann::json root_ = nlohmann::json::object();
  std::map<std::string, std::string> origins_;
  std::string main_file_ = "<inline>";
};

}  // namespace gputlm::config
