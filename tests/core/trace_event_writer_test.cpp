// The trace-event writer: a file that passes the trace-event format checks, slices cut
// at the window's edges and dropped outside it, counters only inside it, names escaped,
// an unwritable file named in the error.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../support/trace_event_check.h"
#include "core/trace/trace_event_writer.h"

using gputlm::trace::TraceEventWriter;
using gputlm::trace::Window;

namespace {

nlohmann::json read(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f);
  return nlohmann::json::parse(f);
}

// Outside the source tree, one per test process: a failing test leaves nothing behind there.
std::string temp(const char* what) {
  return (std::filesystem::temp_directory_path() /
          ("gputlm_trace_writer_" + std::string(what) + "_" + std::to_string(::getpid()) + ".json"))
      .string();
}

}  // namespace

TEST_CASE("trace_event_writer writes a valid file and cuts slices at the window", "[trace][observe]") {
  const std::string path = temp("window");
  {
    TraceEventWriter w(path, Window{100, 200});
    w.process_name(1, "SM \"0\"", 1);
    w.thread_name(1, 1, "scheduler 0", 0);
    w.complete(1, 1, "inside", 120, 10, "{\"warp\":3}");
    w.complete(1, 1, "nested", 125, 2);
    w.complete(1, 1, "crosses start", 90, 20);   // cut to [100, 110]
    w.complete(1, 1, "crosses end", 195, 10);    // cut to [195, 200]
    w.complete(1, 1, "before", 10, 5);           // dropped
    w.complete(1, 1, "after", 201, 5);           // dropped
    w.async_slice(1, "l2", "l2 load", 7, 150, 260, "{\"address\":\"0x80\"}");  // cut to [150, 200]
    w.async_slice(1, "l2", "l2 load", 8, 20, 30);                              // dropped
    const char* keys[] = {"a", "b"};
    const double in[] = {0.25, 1}, out[] = {1, 2};
    w.counter(1, "stalls", 100, keys, in, 2);
    w.counter(1, "stalls", 250, keys, out, 2);  // dropped
    CHECK(w.events() == 4 + 4 + 2 + 1);
    w.close({{"ts_unit", "core cycle"}});
  }
  const nlohmann::json j = read(path);
  const auto problems = gputlm::test::trace_event_problems(j, 100, 200);
  INFO(nlohmann::json(problems).dump(1));
  CHECK(problems.empty());
  CHECK(j["displayTimeUnit"] == "ns");
  // First in the file, spelled as Perfetto looks for it (it then reads ts in that unit).
  std::ifstream raw(path);
  std::string head(40, '\0');
  raw.read(&head[0], 40);
  CHECK(head.rfind("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 0) == 0);
  CHECK(j["otherData"]["ts_unit"] == "core cycle");
  std::map<std::string, nlohmann::json> x;
  int b = 0, e = 0, c = 0;
  for (const auto& ev : j["traceEvents"]) {
    if (ev["ph"] == "X") x[ev["name"]] = ev;
    b += ev["ph"] == "b";
    e += ev["ph"] == "e";
    c += ev["ph"] == "C";
    if (ev["ph"] == "M" && ev["name"] == "process_name") CHECK(ev["args"]["name"] == "SM \"0\"");
  }
  REQUIRE(x.size() == 4);
  CHECK(x["inside"]["ts"] == 120);
  CHECK(x["inside"]["dur"] == 10);
  CHECK(x["inside"]["args"]["warp"] == 3);
  CHECK(x["crosses start"]["ts"] == 100);
  CHECK(x["crosses start"]["dur"] == 10);
  CHECK(x["crosses end"]["ts"] == 195);
  CHECK(x["crosses end"]["dur"] == 5);
  CHECK(b == 1);
  CHECK(e == 1);
  CHECK(c == 1);
  std::remove(path.c_str());
}

TEST_CASE("trace_event_check finds what viewers reject", "[trace][observe]") {
  using gputlm::test::trace_event_problems;
  // A vector, not a json: `{ok}` as a json is an array of one under g++ but a copy of `ok`
  // under clang (nlohmann's brace-initialisation ambiguity).
  auto events = [](const std::vector<nlohmann::json>& ev) {
    nlohmann::json meta = nlohmann::json::array(
        {{{"ph", "M"}, {"name", "process_name"}, {"pid", 1}, {"tid", 0}, {"args", {{"name", "p"}}}},
         {{"ph", "M"}, {"name", "thread_name"}, {"pid", 1}, {"tid", 1}, {"args", {{"name", "t"}}}}});
    for (auto& e : ev) meta.push_back(e);
    return nlohmann::json{{"traceEvents", meta}};
  };
  const nlohmann::json ok = {{"ph", "X"}, {"name", "a"}, {"pid", 1}, {"tid", 1}, {"ts", 0}, {"dur", 2}};
  CHECK(trace_event_problems(events({ok})).empty());
  CHECK_FALSE(trace_event_problems(nlohmann::json::array()).empty());
  // X without a duration, partially overlapping X slices, a counter with a string value,
  // an unnamed thread, an async end without a begin, a timestamp outside the window.
  CHECK_FALSE(trace_event_problems(events({{{"ph", "X"}, {"name", "a"}, {"pid", 1}, {"tid", 1}, {"ts", 0}}})).empty());
  CHECK_FALSE(trace_event_problems(
                  events({ok, {{"ph", "X"}, {"name", "b"}, {"pid", 1}, {"tid", 1}, {"ts", 1}, {"dur", 5}}}))
                  .empty());
  CHECK(trace_event_problems(events({ok, {{"ph", "X"}, {"name", "b"}, {"pid", 1}, {"tid", 1}, {"ts", 1}, {"dur", 1}}}))
            .empty());
  CHECK_FALSE(trace_event_problems(
                  events({{{"ph", "C"}, {"name", "c"}, {"pid", 1}, {"ts", 0}, {"args", {{"v", "x"}}}}}))
                  .empty());
  CHECK_FALSE(trace_event_problems(events({{{"ph", "X"}, {"name", "a"}, {"pid", 1}, {"tid", 2}, {"ts", 0}, {"dur", 1}}}))
                  .empty());
  CHECK_FALSE(trace_event_problems(
                  events({{{"ph", "e"}, {"cat", "c"}, {"name", "n"}, {"id", "0x1"}, {"pid", 1}, {"ts", 0}}}))
                  .empty());
  CHECK_FALSE(trace_event_problems(events({ok}), 1, 10).empty());
  CHECK_FALSE(trace_event_problems(
                  events({{{"ph", "B"}, {"name", "a"}, {"pid", 1}, {"tid", 1}, {"ts", 0}}}))
                  .empty());
}

TEST_CASE("trace_event_writer names a file it cannot create", "[trace][observe]") {
  CHECK_THROWS_WITH(TraceEventWriter("/nonexistent-dir/t.json", Window{}),
                    Catch::Contains("timeline '/nonexistent-dir/t.json'") && Catch::Contains("cannot create"));
}
