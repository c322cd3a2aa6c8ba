#include "core/config/config_source.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace gputlm::config {

namespace fs = std::filesystem;

namespace {
nlohmann::json parse_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open config file");
  try {
    return nlohmann::json::parse(in, nullptr, true, /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& e) {
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
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    value = text;  // a bare word is a string
  }
  nlohmann::json* node = &root_;
  std::string path;
  std::stringstream ss(key);
  std::string part;
  std::vector<std::string> parts;
  while (std::getline(ss, part, '.')) {
    if (part.empty()) throw ConfigError(origin + ": empty component in key '" + key + "'");
    parts.push_back(part);
  }
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    path += (path.empty() ? "" : ".") + parts[i];
    if (!node->contains(parts[i])) (*node)[parts[i]] = nlohmann::json::object();
    node = &(*node)[parts[i]];
    if (!node->is_object())
      throw ConfigError(origin + ": key '" + path + "' is a value, not a group");
  }
  (*node)[parts.back()] = value;
  origins_[key] = origin;
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
