// Concurrent specs (runtime/concurrent_spec.h) on the functional backend: components with
// their own buffers and references, each launch on its component's stream, `repeat` with
// a kernel that is not idempotent (saxpy updates y in place), and every bad input an error
// naming the composite file and the key; `gputlm run` takes a concurrent spec.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/concurrent_spec.h"
#include "test_support.h"

using namespace gputlm::runtime;
using namespace gputlm::runtime::test;
namespace fs = std::filesystem;

namespace {

// <dir>/<name>/spec.json: y = a*x + y in place over 256 elements, x = iota(x0, 1),
// y = fill(y0); its reference is a*(x0+i) + y0 exactly (small integers in f32).
std::string saxpy_component(const std::string& dir, const std::string& name, float a, float x0, float y0) {
  const std::string d = dir + "/" + name;
  fs::create_directories(d);
  fs::copy_file(saxpy_ptx(), d + "/saxpy.ptx", fs::copy_options::overwrite_existing);
  std::vector<float> ref(256);
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = a * (x0 + static_cast<float>(i)) + y0;
  write_vector(d + "/y_ref.bin", ref);
  nlohmann::json s = {{"ptx", "saxpy.ptx"}, {"kernel", "saxpy"}, {"grid", {1}}, {"block", {256}},
                      {"buffers", {{"x", {{"type", "f32"}, {"count", 256}, {"init", {{"iota", {{"start", x0}}}}}}},
                                   {"y", {{"type", "f32"}, {"count", 256}, {"init", {{"fill", y0}}}}}}},
                      {"args", {256, a, "x", "y"}},
                      {"outputs", {{"y", {{"file", "y_out.bin"}, {"expect", {{"file", "y_ref.bin"}}}}}}}};
  write_text(d + "/spec.json", s.dump());
  return d + "/spec.json";
}

// Writes <dir>/pair/concurrent.json with `body` (components name specs relative to it).
std::string composite(const std::string& dir, const std::string& body) {
  fs::create_directories(dir + "/pair");
  write_text(dir + "/pair/concurrent.json", body);
  return dir + "/pair/concurrent.json";
}

std::string parse_error(const std::string& path) {
  try {
    (void)parse_spec_file(path);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("concurrent_spec runs two components with their own buffers and references", "[runtime][concurrent]") {
  const std::string dir = scratch_dir("concurrent_two");
  saxpy_component(dir, "a", 2, 0, 1);
  saxpy_component(dir, "b", 3, 5, 0);
  const std::string path = composite(dir, R"({"description": "two saxpys",
    "concurrent": [{"spec": "../a/spec.json", "stream": 4}, {"spec": "../b/spec.json", "stream": 7, "repeat": 3}]})");
  const SpecFile spec = parse_spec_file(path);
  REQUIRE(std::holds_alternative<ConcurrentSpec>(spec));
  const ConcurrentSpec& c = std::get<ConcurrentSpec>(spec);
  REQUIRE(c.components.size() == 2);
  CHECK(c.components[1].repeat == 3);
  CHECK(c.components[0].spec.path == fs::path(dir + "/a/spec.json").lexically_normal().string());

  Runtime rt;
  const SpecReport rep = run_spec_file(spec, rt);
  // Round by round of repeats: c0.r0, c1.r0, c1.r1, c1.r2.
  REQUIRE(rep.launches.size() == 4);
  const std::vector<std::string> labels = {"c0.r0.launch", "c1.r0.launch", "c1.r1.launch", "c1.r2.launch"};
  const std::vector<uint32_t> streams = {4, 7, 7, 7};
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(rep.launches[i].label == labels[i]);
    CHECK(rep.launches[i].stream == streams[i]);
  }
  // saxpy is not idempotent: every repeat verifies only because each has its own buffers.
  REQUIRE(rep.outputs.size() == 4);
  const std::vector<std::string> outputs = {"c0.r0.y", "c1.r0.y", "c1.r1.y", "c1.r2.y"};
  for (std::size_t i = 0; i < 4; ++i) {
    INFO(rep.outputs[i].buffer << ": " << rep.outputs[i].message());
    CHECK(rep.outputs[i].buffer == outputs[i]);
    CHECK(rep.outputs[i].checked);
    CHECK(rep.outputs[i].compare.ok());
    CHECK(rep.outputs[i].written_file.empty());  // a component's output files are its own runs'
  }
  CHECK(rep.ok());
  CHECK_FALSE(fs::exists(dir + "/a/y_out.bin"));
  CHECK(rep.buffers.size() == 8);  // x and y of four component runs, all distinct
  CHECK(rep.buffers.at("c1.r0.y").addr != rep.buffers.at("c1.r1.y").addr);
}

TEST_CASE("concurrent_spec checks each component against its own reference", "[runtime][concurrent]") {
  const std::string dir = scratch_dir("concurrent_mismatch");
  saxpy_component(dir, "a", 2, 0, 1);
  const std::string b = saxpy_component(dir, "b", 3, 5, 0);
  std::vector<float> wrong(256, 0.0f);
  write_vector(dir + "/b/y_ref.bin", wrong);  // b's reference now disagrees, a's does not
  const std::string path = composite(dir, R"({"concurrent": [{"spec": "../a/spec.json", "stream": 0},
                                                               {"spec": "../b/spec.json", "stream": 1}]})");
  Runtime rt;
  const SpecReport rep = run_spec_file(parse_spec_file(path), rt);
  REQUIRE(rep.outputs.size() == 2);
  CHECK(rep.outputs[0].compare.ok());
  CHECK_FALSE(rep.outputs[1].compare.ok());
  CHECK_THAT(rep.outputs[1].message(), Catch::Contains("MISMATCH in buffer 'c1.r0.y'"));
  CHECK_FALSE(rep.ok());
}

TEST_CASE("concurrent_spec reads a plain launch spec unchanged", "[runtime][concurrent]") {
  const std::string dir = scratch_dir("concurrent_plain");
  const std::string a = saxpy_component(dir, "a", 2, 0, 1);
  const SpecFile spec = parse_spec_file(a);
  REQUIRE(std::holds_alternative<LaunchSpec>(spec));
  Runtime rt;
  const SpecReport rep = run_spec_file(spec, rt);
  REQUIRE(rep.outputs.size() == 1);
  CHECK(rep.outputs[0].buffer == "y");
  CHECK(rep.launches.at(0).label == "launch");
  CHECK(fs::exists(dir + "/a/y_out.bin"));
}

TEST_CASE("concurrent_spec bad input is an error naming the file and the key", "[runtime][concurrent]") {
  const std::string dir = scratch_dir("concurrent_bad");
  saxpy_component(dir, "a", 2, 0, 1);
  const std::string a = R"({"spec": "../a/spec.json", "stream": 0})";
  struct Case {
    const char* what;
    std::string body, key, detail;
  };
  const std::vector<Case> cases = {
      {"missing file", R"({"concurrent": [{"spec": "../nope/spec.json", "stream": 0}]})", "concurrent[0].spec",
       "file '../nope/spec.json' not found"},
      {"nested", R"({"concurrent": [{"spec": "nested.json", "stream": 0}]})", "concurrent[0].spec",
       "'nested.json' is itself a concurrent spec (they do not nest)"},
      {"duplicate stream", R"({"concurrent": [)" + a + R"(, {"spec": "../a/spec.json", "stream": 0}]})",
       "concurrent[1].stream", "stream 0 is concurrent[0]'s too"},
      {"repeat 0", R"({"concurrent": [{"spec": "../a/spec.json", "stream": 0, "repeat": 0}]})", "concurrent[0].repeat",
       "0 is out of range [1, 1000]"},
      {"unknown component key", R"({"concurrent": [{"spec": "../a/spec.json", "stream": 0, "repeats": 2}]})",
       "concurrent[0].repeats", "unknown key (allowed here: spec, stream, repeat, loop)"},
      {"loop not a boolean", R"({"concurrent": [{"spec": "../a/spec.json", "stream": 0, "loop": 1}]})",
       "concurrent[0].loop", "expected true or false, got 1"},
      {"unknown top-level key", R"({"concurrent": [)" + a + R"(], "kernel": "saxpy"})", "kernel",
       "unknown key (allowed in a concurrent spec: concurrent, description)"},
      {"missing stream", R"({"concurrent": [{"spec": "../a/spec.json"}]})", "concurrent[0].stream", "missing"},
      {"negative stream", R"({"concurrent": [{"spec": "../a/spec.json", "stream": -1}]})", "concurrent[0].stream",
       "expected a non-negative integer, got -1"},
      {"empty list", R"({"concurrent": []})", "concurrent", "expected a non-empty array"},
      {"bad component", R"({"concurrent": [{"spec": "../a/bad.json", "stream": 0}]})", "concurrent[0].spec",
       "bad.json: girdd: unknown key"},
  };
  fs::create_directories(dir + "/pair");
  write_text(dir + "/pair/nested.json", R"({"concurrent": [{"spec": "../a/spec.json", "stream": 0}]})");
  write_text(dir + "/a/bad.json", R"({"ptx": "saxpy.ptx", "kernel": "saxpy", "girdd": [1], "block": [1]})");
  for (const Case& c : cases) {
    const std::string path = composite(dir, c.body);
    const std::string msg = parse_error(path);
    INFO(c.what << ": " << msg);
    CHECK_THAT(msg, Catch::StartsWith(path + ": " + c.key + ": "));
    CHECK_THAT(msg, Catch::Contains(c.detail));
  }
}

TEST_CASE("concurrent_spec gputlm run takes a concurrent spec and exits 1 on a bad one", "[runtime][concurrent][cli]") {
  const std::string dir = scratch_dir("concurrent_cli");
  saxpy_component(dir, "a", 2, 0, 1);
  saxpy_component(dir, "b", 3, 5, 0);
  const std::string good = composite(dir, R"({"concurrent": [{"spec": "../a/spec.json", "stream": 0},
                                                               {"spec": "../b/spec.json", "stream": 1, "repeat": 2}]})");
  CliResult r = run_cli("run " + good + " --functional --stats " + dir + "/stats.json");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("c1.r1.launch"));
  CHECK_THAT(r.output, Catch::Contains("output c1.r1.y"));
  CHECK_THAT(r.output, Catch::Contains("PASS"));

  const std::string bad = composite(dir, R"({"concurrent": [{"spec": "../a/spec.json", "stream": 0, "repeat": 0}]})");
  r = run_cli("run " + bad + " --functional");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains(bad + ": concurrent[0].repeat: 0 is out of range [1, 1000]"));
}
