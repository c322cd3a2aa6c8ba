#include "core/log/log.h"

#include <iostream>
#include <map>
#include <stdexcept>
#include <systemc>

namespace gputlm::log {

namespace {
struct State {
  std::map<std::string, Level> rules;  // pattern -> level
  uint64_t generation = 0;
  std::ostream* sink = &std::clog;
};
State& state() {
  static State s;
  return s;
}
}  // namespace

Level parse_level(const std::string& s) {
  if (s == "off") return Level::Off;
  if (s == "error") return Level::Error;
  if (s == "warn" || s == "warning") return Level::Warn;
  if (s == "info") return Level::Info;
  if (s == "debug") return Level::Debug;
  if (s == "trace") return Level::Trace;
  throw std::invalid_argument("unknown log level '" + s +
                              "' (expected off, error, warn, info, debug or trace)");
}

const char* to_string(Level l) {
  switch (l) {
    case Level::Off: return "off";
    case Level::Error: return "error";
    case Level::Warn: return "warn";
    case Level::Info: return "info";
    case Level::Debug: return "debug";
    case Level::Trace: return "trace";
  }
  return "?";
}

void set_level(const std::string& pattern, Level level) {
  state().rules[pattern] = level;
  ++state().generation;
}

void set_level_from_string(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos) {
    set_level("*", parse_level(assignment));
    return;
  }
  set_level(assignment.substr(0, eq), parse_level(assignment.substr(eq + 1)));
}

void reset_levels() {
  state().rules.clear();
  ++state().generation;
}

Level level_for(const std::string& module) {
  Level best = Level::Warn;
  std::size_t best_len = 0;
  bool found = false;
  for (const auto& [pattern, level] : state().rules) {
    bool match;
    std::size_t len;
    if (!pattern.empty() && pattern.back() == '*') {
      len = pattern.size() - 1;
      match = module.compare(0, len, pattern, 0, len) == 0;
    } else {
      len = pattern.size() + 1;  // exact beats any prefix of the same length
      match = module == pattern;
    }
    if (match && (!found || len > best_len)) {
      best = level;
      best_len = len;
      found = true;
    }
  }
  return best;
}

void set_sink(std::ostream* sink) { state().sink = sink ? sink : &std::clog; }

uint64_t Logger::current_generation() { return state().generation; }

void Logger::refresh() const {
  level_ = level_for(module_);
  generation_ = current_generation();
}

void Logger::write(Level l, const std::string& msg) const {
  (*state().sink) << "[" << sc_core::sc_time_stamp() << "] " << to_string(l) << " " << module_ << ": "
                  << msg << "\n";
}

}  // namespace gputlm::log
