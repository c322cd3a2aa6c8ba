#include "core/config/params.h"

#include <algorithm>
#include <sstream>

namespace gputlm::config {

namespace {
std::string number(double d) {
  std::ostringstream s;
  s << d;
  return s.str();
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string Check::describe() const {
  std::ostringstream s;
  if (!choices.empty()) {
    s << "one of";
    for (std::size_t i = 0; i < choices.size(); ++i) s << (i ? ", " : " ") << choices[i];
    return s.str();
  }
  if (power_of_two) s << "power of two";
  if (min && max) s << (power_of_two ? ", " : "") << "in [" << number(*min) << ", " << number(*max) << "]";
  else if (min) s << (power_of_two ? ", " : "") << ">= " << number(*min);
  else if (max) s << (power_of_two ? ", " : "") << "<= " << number(*max);
  return s.str();
}

void Reader::check_number(double d, const std::string& key, const Check& check) const {
  if (!std::isfinite(d)) fail(key, "value must be finite");
  if ((check.min && d < *check.min) || (check.max && d > *check.max))
    fail(key, "value " + number(d) + " out of range (" + check.describe() + ")");
  if (check.power_of_two) {
    const auto u = static_cast<uint64_t>(d);
    if (d < 1 || static_cast<double>(u) != d || (u & (u - 1)) != 0)
      fail(key, "value " + number(d) + " is not a power of two");
  }
}

std::string Reader::suggestion(const std::string& key) const {
  std::string best;
  std::size_t best_d = 3;  // suggest only close names
  for (const auto& v : visited_) {
    std::size_t d = edit_distance(key, v);
    if (d < best_d) {
      best_d = d;
      best = v;
    }
  }
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

std::string format_listing(const std::vector<ParamInfo>& params) {
  std::size_t w_path = 9, w_type = 4, w_def = 7;
  for (const auto& p : params) {
    w_path = std::max(w_path, p.path.size());
    w_type = std::max(w_type, p.type.size());
    w_def = std::max(w_def, std::min<std::size_t>(p.default_value.size(), 24));
  }
  std::ostringstream s;
  auto row = [&](const std::string& a, const std::string& b, const std::string& c, const std::string& d) {
    s << a << std::string(w_path + 2 - a.size(), ' ') << b << std::string(w_type + 2 - b.size(), ' ') << c
      << std::string(c.size() < w_def + 2 ? w_def + 2 - c.size() : 1, ' ') << d << "\n";
  };
  row("parameter", "type", "default", "description");
  for (const auto& p : params)
    row(p.path, p.type, p.default_value,
        p.description + (p.constraint.empty() ? "" : " [" + p.constraint + "]"));
  return s.str();
}

}  // namespace gputlm::config
