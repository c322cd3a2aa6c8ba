#include "core/config/config_source.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <fstream>
#include <optional>
#include <sstream>

namespace gputlm::config {

namespace fs = std::filesystem;

namespace {
nlohmann::json parse_file(const std::string& path) {
  // Found by fuzzing: a folder opens as a stream and fails only when read; a name the
  // file system refuses (too long, a loop of links) made is_directory() throw.
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw ConfigError(path + ": is a folder, not a config file");
  if (ec && ec != std::errc::no_such_file_or_directory) throw ConfigError(path + ": " + ec.message());
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open config file");
  try {
    return nlohmann::json::parse(in, nullptr, true, /*ignore_comments=*/true);
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number out of range (1e999)
    throw ConfigError(path + ": malformed JSON: " + e.what());
  }
}
}  // namespace

void ConfigSource::merge(nlohmann::json& dst, const nlohmann::json& src, const std::string& prefix,
                         const std::string& origin) {
  for (auto it = src.begin(); it != src.end(); ++it) {
    const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object() && dst.contains(it.key()) && dst[it.key()].is_object()) {
      merge(dst[it.key()], *it, path, origin);
    } else {
      dst[it.key()] = *it;
      origins_[path] = origin;
    }
  }
}

nlohmann::json ConfigSource::load_with_extends(const std::string& path, int depth,
                                               ConfigSource& self) {
  if (depth > 16) throw ConfigError(path + ": 'extends' chain deeper than 16 files (a cycle?)");
  nlohmann::json doc = parse_file(path);
  if (!doc.is_object()) throw ConfigError(path + ": top level must be a JSON object");
  nlohmann::json merged = nlohmann::json::object();
  if (doc.contains("extends")) {
    const nlohmann::json ext = doc["extends"];
    doc.erase("extends");
    std::vector<std::string> bases;
    if (ext.is_string()) {
      bases.push_back(ext.get<std::string>());
    } else if (ext.is_array()) {
      for (const auto& b : ext) {
        if (!b.is_string()) throw ConfigError(path + ": key 'extends': expected file names");
        bases.push_back(b.get<std::string>());
      }
    } else {
      throw ConfigError(path + ": key 'extends': expected a file name or a list of file names");
    }
    for (const auto& b : bases) {
      fs::path base = fs::path(path).parent_path() / b;
      nlohmann::json base_doc = load_with_extends(base.lexically_normal().string(), depth + 1, self);
      self.merge(merged, base_doc, "", base.lexically_normal().string());
    }
  }
  self.merge(merged, doc, "", path);
  return merged;
}

ConfigSource ConfigSource::from_file(const std::string& path) {
  ConfigSource s;
  s.main_file_ = path;
  s.root_ = load_with_extends(path, 0, s);
  return s;
}

ConfigSource ConfigSource::from_json(const nlohmann::json& j, const std::string& origin) {
  if (!j.is_object()) throw ConfigError(origin + ": top level must be a JSON object");
  ConfigSource s;
  s.main_file_ = origin;
  s.merge(s.root_, j, "", origin);
  return s;
}

void ConfigSource::apply_override(const std::string& assignment) {
  const std::string origin = "command line (-p " + assignment + ")";
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(origin + ": expected KEY=VALUE, e.g. -p sm.l1d.sets=64");
  const std::string key = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  try {
    (void)nlohmann::json(assignment).dump();  // found by fuzzing: raw bytes reached error messages
  } catch (const nlohmann::json::type_error&) {
    throw ConfigError("command line (-p ...): the assignment is not valid UTF-8");
  }
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    value = text;  // a bare word is a string
  } catch (const nlohmann::json::out_of_range& e) {  // 1e999
    throw ConfigError(origin + ": " + e.what());
  }
  // Components: names, and elements of a list of groups: "[i]" or ".i" by index, or
  // ".KIND" for the element whose "kind" (or "name") is KIND, so both
  // sm_groups[1].count and sm_groups.ilp.sm.registers work. The origin is recorded
  // under the indexed path (sm_groups[1].sm.registers), the name the reader gives.
  struct Step {
    std::string name;
    std::optional<std::size_t> index;
  };
  std::vector<Step> steps;
  // Found by fuzzing: an index of more digits than an unsigned long holds threw
  // out_of_range from stoul. No list is that long: more than 9 digits is an error here.
  auto index_of = [&](const std::string& digits) -> std::size_t {
    if (digits.size() > 9) throw ConfigError(origin + ": index " + digits + " out of range in key '" + key + "'");
    return std::stoul(digits);
  };
  std::stringstream ss(key);
  std::string part;
  while (std::getline(ss, part, '.')) {
    if (part.empty()) throw ConfigError(origin + ": empty component in key '" + key + "'");
    const std::size_t bracket = std::min(part.find('['), part.size());
    if (bracket == 0) throw ConfigError(origin + ": malformed key '" + key + "' (an index follows a name: NAME[i])");
    steps.push_back({part.substr(0, bracket), std::nullopt});
    for (std::size_t b = bracket; b < part.size();) {  // "[i]" suffixes
      const std::size_t close = part.find(']', b);
      const std::string digits = part[b] == '[' && close != std::string::npos ? part.substr(b + 1, close - b - 1) : "";
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        throw ConfigError(origin + ": malformed index in key '" + key + "' (expected NAME[i], e.g. sm_groups[1])");
      steps.push_back({"", index_of(digits)});
      b = close + 1;
    }
  }
  nlohmann::json* node = &root_;
  std::string path;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Step step = steps[i];
    const bool last = i + 1 == steps.size();
    if (node->is_array()) {
      if (!step.index) {
        if (!step.name.empty() && step.name.find_first_not_of("0123456789") == std::string::npos) {
          step.index = index_of(step.name);
        } else {
          std::string kinds;
          for (std::size_t e = 0; e < node->size() && !step.index; ++e) {
            const nlohmann::json& el = (*node)[e];
            for (const char* id : {"kind", "name"})
              if (el.is_object() && el.contains(id) && (*el.find(id)).is_string()) {
                if ((*el.find(id)).get<std::string>() == step.name) step.index = e;
                kinds += (kinds.empty() ? "" : ", ") + (*el.find(id)).get<std::string>();
                break;
              }
          }
          if (!step.index)
            throw ConfigError(origin + ": key '" + path + "' has no element '" + step.name + "'" +
                              (kinds.empty() ? "" : " (elements: " + kinds + ")"));
        }
      }
      if (*step.index >= node->size())
        throw ConfigError(origin + ": key '" + path + "' has " + std::to_string(node->size()) +
                          " elements, no element " + std::to_string(*step.index));
      path += "[" + std::to_string(*step.index) + "]";
      if (last) {
        (*node)[*step.index] = value;
        break;
      }
      node = &(*node)[*step.index];
    } else {
      if (step.index)
        throw ConfigError(origin + ": key '" + path + "' is not a list (index [" + std::to_string(*step.index) +
                          "] in '" + key + "')");
      path += (path.empty() ? "" : ".") + step.name;
      if (last) {
        (*node)[step.name] = value;
        break;
      }
      if (!node->contains(step.name)) (*node)[step.name] = nlohmann::json::object();
      node = &(*node)[step.name];
    }
    if (!node->is_object() && !node->is_array())
      throw ConfigError(origin + ": key '" + path + "' is a value, not a group");
  }
  origins_[path] = origin;
}

std::string ConfigSource::origin_of(const std::string& key_path) const {
  std::string p = key_path;
  while (true) {
    auto it = origins_.find(p);
    if (it != origins_.end()) return it->second;
    auto dot = p.rfind('.');
    if (dot == std::string::npos) break;
    p = p.substr(0, dot);
  }
  return main_file_;
}

}  // namespace gputlm::config
