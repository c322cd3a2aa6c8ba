// A writer of Chrome / Perfetto trace-event files (the JSON object format:
// {"traceEvents": [...], "displayTimeUnit": ..., "otherData": {...}}), which
// ui.perfetto.dev and chrome://tracing open. Events are written as they come (the file
// is never held in memory) and only within a window of time: slices that cross a window
// edge are cut at it, anything outside is dropped, so that a long run gives a small file.
//
// Timestamps are in whatever unit the caller uses (the GPU timeline: core cycles).
// chrome://tracing reads `ts` as microseconds and uses displayTimeUnit only to format
// times; Perfetto reads `ts` in the displayTimeUnit when it finds the key early in the
// file, so the writer puts it first. Process and thread names are metadata ("M") events.
#pragma once

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

namespace gputlm::trace {

struct Window {
  double begin = 0;
  double end = std::numeric_limits<double>::infinity();
  bool contains(double t) const { return t >= begin && t <= end; }
};

class TraceEventWriter {
 public:
  // Creates `path`; throws std::runtime_error naming it when it cannot.
  // display_time_unit: "ns" or "ms" (written as "displayTimeUnit").
  TraceEventWriter(const std::string& path, Window window, const std::string& display_time_unit = "ns");
  ~TraceEventWriter();
  TraceEventWriter(const TraceEventWriter&) = delete;
  TraceEventWriter& operator=(const TraceEventWriter&) = delete;

  const Window& window() const { return window_; }
  // Metadata: the name and display order of a process (pid) and of a thread (pid, tid).
  void process_name(uint32_t pid, const std::string& name, int sort_index);
  void thread_name(uint32_t pid, uint32_t tid, const std::string& name, int sort_index);
  // A complete event ("X") on a thread. `args` is a JSON object's text or null.
  void complete(uint32_t pid, uint32_t tid, const char* name, double ts, double dur, const char* args = nullptr);
  // An async slice (a "b" and an "e" event with the same category and id) in a process:
  // for things that overlap on one track (transactions in flight, resident CTAs).
  void async_slice(uint32_t pid, const char* cat, const char* name, uint64_t id, double begin, double end,
                   const char* args = nullptr);
  // A counter ("C"): one value per key, from `ts` until the next event of this counter.
  void counter(uint32_t pid, const char* name, double ts, const char* const* keys, const double* values,
               std::size_t n);
  // Ends the event array, adds otherData, closes the file; throws naming the file when a
  // write failed.
  void close(const nlohmann::json& other_data);
  uint64_t events() const { return events_; }

  // `s` as the body of a JSON string (quotes, backslashes, control characters escaped).
  static std::string escape(const std::string& s);

 private:
  // Clips [b, e] to the window; false when nothing of it lies inside.
  bool clip(double& b, double& e) const;
  void begin_event();
  std::string path_;
  Window window_;
  std::FILE* f_ = nullptr;
  uint64_t events_ = 0;
};

}  // namespace gputlm::trace
