#include "study/metrics.h"

#include <fnmatch.h>

#include <vector>

namespace gputlm::study {

namespace {

void collect(const nlohmann::json& j, const std::vector<std::string>& segs, std::size_t i, double& sum, bool& found) {
  if (i == segs.size()) {
    if (j.is_number()) {
      sum += j.get<double>();
      found = true;
    }
    return;
  }
  const std::string& s = segs[i];
  const bool glob = s.find_first_of("*?[") != std::string::npos;
  if (j.is_object()) {
    if (!glob) {
      auto it = j.find(s);
      if (it != j.end()) collect(*it, segs, i + 1, sum, found);
      return;
    }
    for (auto it = j.begin(); it != j.end(); ++it)
      if (fnmatch(s.c_str(), it.key().c_str(), 0) == 0) collect(*it, segs, i + 1, sum, found);
  } else if (j.is_array()) {
    if (s == "*") {
      for (const auto& e : j) collect(e, segs, i + 1, sum, found);
    } else if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos) {
      const std::size_t k = std::stoul(s);
      if (k < j.size()) collect(j[k], segs, i + 1, sum, found);
    }
  }
}

}  // namespace

std::optional<double> sum_path(const nlohmann::json& j, const std::string& path) {
  // "A+B": the sum of both (no statistics key contains '+'); found if either matches.
  if (const std::size_t plus = path.find('+'); plus != std::string::npos) {
    auto a = sum_path(j, path.substr(0, plus)), b = sum_path(j, path.substr(plus + 1));
    if (!a && !b) return std::nullopt;
    return a.value_or(0) + b.value_or(0);
  }
  std::vector<std::string> segs;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    segs.push_back(path.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  double sum = 0;
  bool found = false;
  collect(j, segs, 0, sum, found);
  if (!found) return std::nullopt;
  return sum;
}

std::optional<double> evaluate(const Metric& m, const nlohmann::json& stats, double host_seconds) {
  if (!m.path.empty()) return sum_path(stats, m.path);
  if (!m.numerator.empty()) {
    auto n = sum_path(stats, m.numerator), d = sum_path(stats, m.denominator);
    if (!n || !d || *d == 0) return std::nullopt;
    return *n / *d;
  }
  if (m.name == "host_seconds") return host_seconds;
  auto cycles = sum_path(stats, "cycles");
  if (m.name == "cycles") return cycles;
  auto thread = sum_path(stats, "launches.*.thread_instructions");
  auto warp = sum_path(stats, "launches.*.warp_instructions");
  if (m.name == "thread_instructions") return thread;
  if (m.name == "warp_instructions") return warp;
  if (!cycles || *cycles == 0) return std::nullopt;
  if (m.name == "ipc" && thread) return *thread / *cycles;
  if (m.name == "warp_ipc" && warp) return *warp / *cycles;
  return std::nullopt;
}

}  // namespace gputlm::study
