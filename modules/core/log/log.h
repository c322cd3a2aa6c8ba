// Logging with per-module verbosity. A block owns a Logger named by its hierarchical
// name; verbosity rules ("gpu.sm3.*=debug", "*=warn") are set globally from the command
// line or a config. The enabled check is one integer compare in the common case.
#pragma once

#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>

namespace gputlm::log {

enum class Level : int { Off = 0, Error = 1, Warn = 2, Info = 3, Debug = 4, Trace = 5 };

Level parse_level(const std::string& s);  // throws std::invalid_argument naming the value
const char* to_string(Level l);

// pattern: a module name, or a prefix ending in '*' ("gpu.sm*"); the longest matching
// pattern wins. Default for everything: warn.
void set_level(const std::string& pattern, Level level);
// "pattern=level" as given on a command line.
void set_level_from_string(const std::string& assignment);
void reset_levels();
Level level_for(const std::string& module);
// Where log lines go (std::clog by default); for tests.
void set_sink(std::ostream* sink);

class Logger {
 public:
  explicit Logger(std::string module) : module_(std::move(module)) {}
  bool enabled(Level l) const {
    if (generation_ != current_generation()) refresh();
    return static_cast<int>(l) <= static_cast<int>(level_);
  }
  void write(Level l, const std::string& msg) const;
  const std::string& module() const { return module_; }

 private:
  static uint64_t current_generation();
  void refresh() const;
  std::string module_;
  mutable Level level_ = Level::Warn;
  mutable uint64_t generation_ = ~uint64_t{0};
};

}  // namespace gputlm::log

// GPUTLM_LOG(logger, Debug, "hit at 0x" << std::hex << addr): the message is only
// formatted when enabled.
#define GPUTLM_LOG(logger, level, expr)                                          \
  do {                                                                           \
    if ((logger).enabled(::gputlm::log::Level::level)) {                         \
      std::ostringstream gputlm_log_s_;                                          \
      gputlm_log_s_ << expr;                                                     \
      (logger).write(::gputlm::log::Level::level, gputlm_log_s_.str());          \
    }                                                                            \
  } while (0)
