// Typed configuration structs (DRAMSys style) with VCML-style parameters: every field
// has a name, a default (the struct's initial value) and a description, plus a check.
// A config struct describes itself once:
//
//   struct CacheConfig {
//     uint32_t sets = 64;
//     std::string replacement = "lru";
//     MshrConfig mshr;
//     template <class V> void visit(V& v) {
//       v.param("sets", sets, "number of sets", at_least(1));
//       v.param("replacement", replacement, "replacement policy", one_of({"lru", "fifo"}));
//       v.group("mshr", mshr, "miss status holding registers");
//     }
//   };
//
// and the visitors below read it from JSON (rejecting unknown keys, wrong types and
// out-of-range values, naming file and key), list it, or write it back as JSON.
//
// A list of groups (`v.group_list("sm_groups", groups, "...", prototype)`) is a JSON
// array of objects; each element is read on top of a copy of `prototype`, so a struct can
// make its elements overlay one of its own groups (the GPU's SM groups overlay `sm`).
// Element i's keys are named "name[i].key" in errors and listings.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config/config_source.h"

namespace gputlm::config {

// A constraint on a parameter's value.
struct Check {
  std::optional<double> min, max;
  bool power_of_two = false;
  std::vector<std::string> choices;  // for strings
  std::string describe() const;
};
inline Check any() { return {}; }
inline Check at_least(double lo) { Check c; c.min = lo; return c; }
inline Check in_range(double lo, double hi) { Check c; c.min = lo; c.max = hi; return c; }
inline Check power_of_two(double lo = 1) { Check c; c.min = lo; c.power_of_two = true; return c; }
inline Check one_of(std::vector<std::string> choices) { Check c; c.choices = std::move(choices); return c; }

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};

// Human name of a parameter type, for listings and error messages.
template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) return "unsigned integer";
  else if constexpr (std::is_integral_v<T>) return "integer";
  else if constexpr (std::is_floating_point_v<T>) return "number";
  else if constexpr (std::is_same_v<T, std::string>) return "string";
  else if constexpr (is_vector<T>::value) return "list of " + type_name<typename T::value_type>();
  else static_assert(sizeof(T) == 0, "unsupported parameter type");
}

// Reads a config struct from a JSON object.
class Reader {
 public:
  Reader(const ConfigSource& source, const nlohmann::json& node, std::string prefix)
      : source_(source), node_(node), prefix_(std::move(prefix)) {
    if (!node_.is_object()) fail(prefix_, "expected a group (JSON object), got " + node_.dump());
  }

  template <class T>
  void param(const char* name, T& field, const char* /*description*/, const Check& check = {}) {
    visited_.push_back(name);
    auto it = node_.find(name);
    if (it == node_.end()) return;  // keep the default
    const std::string key = path(name);
    field = convert<T>(*it, key, check);
  }

  template <class C>
  void group(const char* name, C& sub, const char* /*description*/) {
    visited_.push_back(name);
    auto it = node_.find(name);
    if (it == node_.end()) return;
    Reader r(source_, *it, path(name));
    sub.visit(r);
    r.finish();
  }

  template <class C>
  void group_list(const char* name, std::vector<C>& list, const char* /*description*/, const C& prototype) {
    visited_.push_back(name);
    auto it = node_.find(name);
    if (it == node_.end()) return;
    const std::string key = path(name);
    if (!it->is_array()) fail(key, "expected a list of groups (JSON array of objects), got " + it->dump());
    std::vector<C> out;
    for (std::size_t i = 0; i < it->size(); ++i) {
      C element = prototype;
      Reader r(source_, (*it)[i], key + "[" + std::to_string(i) + "]");
      element.visit(r);
      r.finish();
      out.push_back(std::move(element));
    }
    list = std::move(out);
  }

  // Rejects keys the struct does not have.
  void finish() const {
    for (auto it = node_.begin(); it != node_.end(); ++it) {
      bool known = false;
      for (const auto& v : visited_) known = known || v == it.key();
      if (!known) fail(path(it.key()), "unknown key" + suggestion(it.key()));
    }
  }

 private:
  std::string path(const std::string& name) const { return prefix_.empty() ? name : prefix_ + "." + name; }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ConfigError(source_.origin_of(key) + ": key '" + key + "': " + what);
  }
  std::string suggestion(const std::string& key) const;

  template <class T>
  T convert(const nlohmann::json& v, const std::string& key, const Check& check) const {
    if constexpr (is_vector<T>::value) {
      if (!v.is_array()) fail(key, "expected a " + type_name<T>() + ", got " + v.dump());
      T out;
      for (std::size_t i = 0; i < v.size(); ++i)
        out.push_back(convert<typename T::value_type>(v[i], key + "[" + std::to_string(i) + "]", check));
      return out;
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean()) fail(key, "expected a bool, got " + v.dump());
      return v.get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
      if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))
        fail(key, "expected " + std::string(std::is_unsigned_v<T> ? "an unsigned" : "an") + " integer, got " + v.dump());
      const double d = v.get<double>();
      if (d < static_cast<double>(std::numeric_limits<T>::lowest()) ||
          d > static_cast<double>(std::numeric_limits<T>::max()) || (std::is_unsigned_v<T> && d < 0))
        fail(key, "value " + v.dump() + " does not fit a " + type_name<T>());
      check_number(d, key, check);
      if (v.is_number_float()) return static_cast<T>(d);
      return v.is_number_unsigned() ? static_cast<T>(v.get<uint64_t>()) : static_cast<T>(v.get<int64_t>());
    } else if constexpr (std::is_floating_point_v<T>) {
      if (!v.is_number()) fail(key, "expected a number, got " + v.dump());
      const double d = v.get<double>();
      check_number(d, key, check);
      return static_cast<T>(d);
    } else {
      if (!v.is_string()) fail(key, "expected a string, got " + v.dump());
      std::string s = v.get<std::string>();
      if (!check.choices.empty()) {
        bool ok = false;
        for (const auto& c : check.choices) ok = ok || c == s;
        if (!ok) fail(key, "value \"" + s + "\" is not " + check.describe());
      }
      return s;
    }
  }

  void check_number(double d, const std::string& key, const Check& check) const;

  const ConfigSource& source_;
  const nlohmann::json& node_;
  std::string prefix_;
  std::vector<std::string> visited_;
};

// One row of a parameter listing.
struct ParamInfo {
  std::string path, type, default_value, description, constraint;
};

// Lists the parameters of a config struct with their defaults (the struct's values).
// A list of groups lists each element's parameters ("name[i].key", the element's values);
// an empty list lists one row for the list and, as "name[i].key", the prototype's own
// parameters with each of its groups as one row (what an element may set).
class Lister {
 public:
  explicit Lister(std::vector<ParamInfo>& out, std::string prefix = "", bool groups_as_rows = false)
      : out_(out), prefix_(std::move(prefix)), groups_as_rows_(groups_as_rows) {}
  template <class T>
  void param(const char* name, T& field, const char* description, const Check& check = {}) {
    out_.push_back({path(name), type_name<T>(), to_json_value(field).dump(), description, check.describe()});
  }
  template <class C>
  void group(const char* name, C& sub, const char* description) {
    if (groups_as_rows_) {
      out_.push_back({path(name), "group", "{}", description, ""});
      return;
    }
    Lister l(out_, path(name));
    sub.visit(l);
  }
  template <class C>
  void group_list(const char* name, std::vector<C>& list, const char* description, const C& prototype) {
    if (list.empty()) {
      out_.push_back({path(name), "list of groups", "[]", description, ""});
      C copy = prototype;
      Lister l(out_, path(name) + "[i]", true);
      copy.visit(l);
      return;
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      Lister l(out_, path(name) + "[" + std::to_string(i) + "]");
      list[i].visit(l);
    }
  }

 private:
  std::string path(const std::string& n) const { return prefix_.empty() ? n : prefix_ + "." + n; }
  template <class T>
  static nlohmann::json to_json_value(const T& v) { return nlohmann::json(v); }
  std::vector<ParamInfo>& out_;
  std::string prefix_;
  bool groups_as_rows_;
};

// Writes a config struct as JSON (the effective configuration of a run).
class Writer {
 public:
  explicit Writer(nlohmann::json& out) : out_(out) { out_ = nlohmann::json::object(); }
  template <class T>
  void param(const char* name, T& field, const char*, const Check& = {}) { out_[name] = field; }
  template <class C>
  void group(const char* name, C& sub, const char*) {
    Writer w(out_[name]);
    sub.visit(w);
  }
  template <class C>
  void group_list(const char* name, std::vector<C>& list, const char*, const C&) {
    nlohmann::json& a = out_[name];
    a = nlohmann::json::array();
    for (C& element : list) {
      nlohmann::json e;
      Writer w(e);
      element.visit(w);
      a.push_back(std::move(e));
    }
  }

 private:
  nlohmann::json& out_;
};

// Read `cfg` from the subtree at `key_path` ("" = the root) of `source`.
template <class C>
void read(const ConfigSource& source, C& cfg, const std::string& key_path = "") {
  const nlohmann::json* node = &source.root();
  if (!key_path.empty()) {
    node = &source.root().at(nlohmann::json::json_pointer("/" + [&] {
      std::string p = key_path;
      for (auto& ch : p) if (ch == '.') ch = '/';
      return p;
    }()));
  }
  Reader r(source, *node, key_path);
  cfg.visit(r);
  r.finish();
}

template <class C>
std::vector<ParamInfo> list(const C& defaults, const std::string& prefix = "") {
  std::vector<ParamInfo> out;
  C copy = defaults;
  Lister l(out, prefix);
  copy.visit(l);
  return out;
}

template <class C>
nlohmann::json to_json(const C& cfg) {
  nlohmann::json j;
  C copy = cfg;
  Writer w(j);
  copy.visit(w);
  return j;
}

// A fixed-width table of parameters: path, type, default, constraint, description.
std::string format_listing(const std::vector<ParamInfo>& params);

}  // namespace gputlm::config
