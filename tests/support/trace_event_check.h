// A checker of Chrome / Perfetto trace-event files (JSON object format), after the
// Trace Event Format document: required fields per phase type, metadata events naming
// every process and thread used, B/E nesting, complete events (X) with a duration and
// properly nested on their thread, async begin/end pairs, numeric counters, timestamps
// within a window. Header-only for the core and GPU tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gputlm::test {

// Problems found (empty: valid); at most `max_problems` of them.
inline std::vector<std::string> trace_event_problems(const nlohmann::json& j,
                                                     double window_begin = -std::numeric_limits<double>::infinity(),
                                                     double window_end = std::numeric_limits<double>::infinity(),
                                                     std::size_t max_problems = 20) {
  std::vector<std::string> p;
  auto bad = [&](std::size_t i, const std::string& what) {
    if (p.size() < max_problems) p.push_back("event " + std::to_string(i) + ": " + what);
  };
  if (!j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array())
    return {"not a JSON object with a \"traceEvents\" array"};
  if (j.contains("displayTimeUnit") &&
      !(j["displayTimeUnit"] == "ms" || j["displayTimeUnit"] == "ns"))
    p.push_back("displayTimeUnit must be \"ms\" or \"ns\"");
  const nlohmann::json& ev = j["traceEvents"];
  std::set<long long> named_pids;
  std::set<std::pair<long long, long long>> named_threads;
  std::set<long long> used_pids;
  std::set<std::pair<long long, long long>> used_threads;
  std::map<std::pair<long long, long long>, std::vector<std::pair<double, double>>> slices;  // X per thread
  std::map<std::pair<long long, long long>, std::vector<std::string>> open_b;              // B/E per thread
  std::map<std::tuple<long long, std::string, std::string>, double> open_async;           // (pid, cat, id) -> ts
  constexpr double eps = 1e-9;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    const nlohmann::json& e = ev[i];
    if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string()) {
      bad(i, "no \"ph\"");
      continue;
    }
    const std::string ph = e["ph"];
    auto has_int = [&](const char* k) { return e.contains(k) && e[k].is_number_integer(); };
    auto has_num = [&](const char* k) { return e.contains(k) && e[k].is_number(); };
    auto has_str = [&](const char* k) { return e.contains(k) && e[k].is_string(); };
    if (!has_int("pid")) {
      bad(i, ph + " without an integer pid");
      continue;
    }
    const long long pid = e["pid"];
    const long long tid = has_int("tid") ? e["tid"].get<long long>() : 0;
    if (ph == "M") {
      const std::string name = has_str("name") ? e["name"].get<std::string>() : "";
      if (!e.contains("args") || !e["args"].is_object()) {
        bad(i, "metadata without args");
      } else if (name == "process_name" || name == "thread_name") {
        if (!e["args"].contains("name") || !e["args"]["name"].is_string()) bad(i, name + " without args.name");
        if (name == "process_name") named_pids.insert(pid);
        else named_threads.insert({pid, tid});
      } else if (name == "process_sort_index" || name == "thread_sort_index") {
        if (!e["args"].contains("sort_index") || !e["args"]["sort_index"].is_number())
          bad(i, name + " without a numeric args.sort_index");
      } else {
        bad(i, "unknown metadata '" + name + "'");
      }
      continue;
    }
    if (!has_num("ts")) {
      bad(i, ph + " without a numeric ts");
      continue;
    }
    const double ts = e["ts"];
    if (ts < window_begin - eps || ts > window_end + eps) bad(i, "ts " + std::to_string(ts) + " outside the window");
    used_pids.insert(pid);
    if (ph == "X") {
      if (!has_str("name") || !has_int("tid")) bad(i, "X without name or tid");
      if (!has_num("dur") || e["dur"].get<double>() < 0) {
        bad(i, "X without a duration >= 0");
        continue;
      }
      const double end = ts + e["dur"].get<double>();
      if (end > window_end + eps) bad(i, "X ends after the window");
      used_threads.insert({pid, tid});
      slices[{pid, tid}].push_back({ts, end});
    } else if (ph == "B" || ph == "E") {
      if (!has_int("tid")) bad(i, ph + " without tid");
      used_threads.insert({pid, tid});
      std::vector<std::string>& st = open_b[{pid, tid}];
      if (ph == "B") {
        if (!has_str("name")) bad(i, "B without name");
        st.push_back(has_str("name") ? e["name"].get<std::string>() : "");
      } else if (st.empty()) {
        bad(i, "E without a B");
      } else {
        if (has_str("name") && e["name"] != st.back()) bad(i, "E closes '" + st.back() + "' with another name");
        st.pop_back();
      }
    } else if (ph == "b" || ph == "e") {
      if (!has_str("cat") || !has_str("name") || !e.contains("id") || !(e["id"].is_string() || e["id"].is_number()))
        bad(i, ph + " without cat, name or id");
      const auto key = std::make_tuple(pid, has_str("cat") ? e["cat"].get<std::string>() : "", e.value("id", nlohmann::json()).dump());
      if (ph == "b") {
        if (open_async.count(key)) bad(i, "b with an id already open");
        open_async[key] = ts;
      } else {
        auto it = open_async.find(key);
        if (it == open_async.end()) bad(i, "e without its b");
        else {
          if (ts < it->second) bad(i, "e before its b");
          open_async.erase(it);
        }
      }
    } else if (ph == "C") {
      if (!has_str("name") || !e.contains("args") || !e["args"].is_object() || e["args"].empty()) {
        bad(i, "C without name or values");
        continue;
      }
      for (auto a = e["args"].begin(); a != e["args"].end(); ++a)
        if (!a->is_number()) bad(i, "counter value '" + a.key() + "' is not a number");
    } else if (ph == "i" || ph == "I") {
      if (!has_str("name")) bad(i, "instant without name");
    } else {
      bad(i, "unexpected phase '" + ph + "'");
    }
  }
  for (const auto& [thread, st] : open_b)
    if (!st.empty()) p.push_back("B without E on pid " + std::to_string(thread.first));
  if (!open_async.empty()) p.push_back(std::to_string(open_async.size()) + " async b without e");
  for (long long pid : used_pids)
    if (!named_pids.count(pid)) p.push_back("pid " + std::to_string(pid) + " has no process_name");
  for (const auto& t : used_threads)
    if (!named_threads.count(t))
      p.push_back("pid " + std::to_string(t.first) + " tid " + std::to_string(t.second) + " has no thread_name");
  // Complete events on one thread nest: each lies inside the enclosing one or after it.
  for (auto& [thread, v] : slices) {
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return a.first < b.first || (a.first == b.first && a.second > b.second);
    });
    std::vector<double> ends;
    for (const auto& [b, e] : v) {
      while (!ends.empty() && ends.back() <= b + eps) ends.pop_back();
      if (!ends.empty() && e > ends.back() + eps) {
        if (p.size() < max_problems)
          p.push_back("X slices overlap without nesting on pid " + std::to_string(thread.first) + " tid " +
                      std::to_string(thread.second) + " at ts " + std::to_string(b));
        break;
      }
      ends.push_back(e);
    }
  }
  return p;
}

}  // namespace gputlm::test
