// The study file's JSON reader: one object's keys with their types, every error naming the
// file and the key path, and an unknown key an error (Reader::done). Internal to the study
// tool (study_spec.cpp, study_pairs.cpp).
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "study/study_spec.h"

namespace gputlm::study {

// Reads one JSON object's keys with their types, naming file and key path in errors.
class Reader {
 public:
  Reader(std::string file, const nlohmann::json& j, std::string path) : file_(std::move(file)), j_(j), path_(std::move(path)) {
    if (!j_.is_object()) fail(path_.empty() ? "the study must be a JSON object" : "must be an object");
  }
  [[noreturn]] void fail(const std::string& msg, const std::string& key = "") const {
    std::string where = path_;
    if (!key.empty()) where += (where.empty() ? "" : ".") + key;
    throw StudyError(file_ + (where.empty() ? "" : ": " + where) + ": " + msg);
  }
  bool has(const std::string& key) {
    seen_.insert(key);
    return j_.contains(key);
  }
  const nlohmann::json& get(const std::string& key) {
    if (!has(key)) fail("missing (required)", key);
    return j_.at(key);
  }
  std::string str(const std::string& key, const std::string& def = "\x01") {
    if (!has(key)) {
      if (def == "\x01") fail("missing (required)", key);
      return def;
    }
    const nlohmann::json& v = j_.at(key);
    if (!v.is_string()) fail("must be a string", key);
    return v.get<std::string>();
  }
  std::vector<std::string> strings(const std::string& key) {
    if (!has(key)) return {};
    const nlohmann::json& v = j_.at(key);
    if (!v.is_array()) fail("must be an array of strings", key);
    std::vector<std::string> out;
    for (const auto& e : v) {
      if (!e.is_string()) fail("must be an array of strings", key);
      out.push_back(e.get<std::string>());
    }
    return out;
  }
  double number(const std::string& key, double def) {
    if (!has(key)) return def;
    const nlohmann::json& v = j_.at(key);
    if (!v.is_number()) fail("must be a number", key);
    return v.get<double>();
  }
  Reader child(const std::string& key) { return Reader(file_, get(key), sub(key)); }
  std::string sub(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  // Every key of the object was read: an unknown key is an error, never ignored.
  void done() const {
    for (auto it = j_.begin(); it != j_.end(); ++it)
      if (!seen_.count(it.key())) fail("unknown key", it.key());
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  const nlohmann::json& j_;
  std::string path_;
  std::set<std::string> seen_;
};

}  // namespace gputlm::study

namespace gputlm::study {

// Reads "pairs", "pair_variants" and "weighted_speedup" of the study object `r` into `s`
// (study_pairs.cpp); `s` already holds its variants, derived variants and metrics. The
// weighted speedup joins s.metrics.
void read_pairs(Reader& r, StudySpec& s);

}  // namespace gputlm::study
