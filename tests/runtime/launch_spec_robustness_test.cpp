// launch_spec: malformed input never crashes or hangs the parser. Every truncation and a
// fixed set of byte mutations of a valid spec either parse or throw SpecError naming the
// spec file; more key paths of nested sections are checked by name.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"
#include "core/random/splitmix64.h"
#include "test_support.h"

using namespace gputlm::runtime;
using namespace gputlm::runtime::test;

namespace {

std::string valid_spec(const std::string& dir) {
  std::filesystem::copy_file(saxpy_ptx(), dir + "/saxpy.ptx", std::filesystem::copy_options::overwrite_existing);
  std::vector<float> ref(64, 5.0f);
  write_vector(dir + "/y_ref.bin", ref);
  return "{\"ptx\": \"saxpy.ptx\", \"kernel\": \"saxpy\", \"grid\": [1, 1, 1], \"block\": [64, 1, 1],"
         " \"shared_bytes\": 0,"
         " \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": 64, \"init\": {\"fill\": 1}},"
         "              \"y\": {\"type\": \"f32\", \"count\": 64, \"init\": {\"iota\": {\"start\": 3, \"step\": 0}}}},"
         " \"args\": [64, 2.0, \"x\", \"y\"],"
         " \"launches\": [{\"grid\": [1]}, {\"kernel\": \"saxpy\", \"args\": [64, 0.0, \"x\", \"y\"]}],"
         " \"outputs\": {\"y\": {\"file\": \"y_out.bin\", \"expect\": {\"file\": \"y_ref.bin\", \"rtol\": 0, \"atol\": 0}}}}";
}

std::string parse_error(const std::string& text, const std::string& path) {
  try {
    parse_launch_spec_text(text, path);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("launch_spec: the robustness base spec runs two launches and matches", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("robust_base");
  write_text(dir + "/spec.json", valid_spec(dir));
  Runtime rt;
  SpecReport rep = run_launch_spec(parse_launch_spec(dir + "/spec.json"), rt);
  REQUIRE(rep.launches.size() == 2);
  CHECK(rep.launches[0].label == "launches[0]");
  REQUIRE(rep.ok());
}

TEST_CASE("launch_spec: every truncation of a valid spec is a SpecError, never a crash", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("robust_truncate");
  std::string text = valid_spec(dir), path = dir + "/spec.json";
  REQUIRE(parse_error(text, path).empty());
  for (std::size_t len = 0; len < text.size(); ++len) {
    std::string msg = parse_error(text.substr(0, len), path);
    INFO("prefix of " << len << " bytes");
    REQUIRE_THAT(msg, Catch::StartsWith(path));
  }
}

TEST_CASE("launch_spec: byte mutations of a valid spec parse or fail with a SpecError", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("robust_mutate");
  std::string text = valid_spec(dir), path = dir + "/spec.json";
  gputlm::SplitMix64 rng(2024);
  const char alphabet[] = "{}[]\":,-.0123456789eEaxyz \n\\tfn";
  std::size_t errors = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string m = text;
    int edits = 1 + static_cast<int>(rng.uniform_int(0, 2));
    for (int e = 0; e < edits; ++e) {
      auto pos = static_cast<std::size_t>(rng.uniform_int(0, static_cast<int64_t>(m.size()) - 1));
      m[pos] = alphabet[rng.uniform_int(0, sizeof(alphabet) - 2)];
    }
    try {
      parse_launch_spec_text(m, path);
    } catch (const SpecError& e) {
      ++errors;
      REQUIRE_THAT(std::string(e.what()), Catch::StartsWith(path));
    }
  }
  CHECK(errors > 1000);  // most mutations break the spec; none may escape as another error
}

TEST_CASE("launch_spec names key paths inside launches, outputs and inits", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("robust_paths");
  std::string base = valid_spec(dir), path = dir + "/spec.json";
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = base;
    auto pos = t.find(from);
    REQUIRE(pos != std::string::npos);
    return parse_error(t.replace(pos, from.size(), to), path);
  };
  CHECK_THAT(with("{\"grid\": [1]}", "{\"gird\": [1]}"), Catch::Contains(": launches[0].gird: unknown key"));
  CHECK_THAT(with("\"rtol\": 0", "\"rtoll\": 0"), Catch::Contains(": outputs.y.expect.rtoll: unknown key"));
  CHECK_THAT(with("\"atol\": 0", "\"atol\": -1"), Catch::Contains(": outputs.y.expect.atol: must be a non-negative"));
  CHECK(with("{\"grid\": [1]}", "{\"grid\": [1e0]}").empty());  // integral reals are integers
  CHECK_THAT(with("{\"grid\": [1]}", "{\"grid\": [1.5]}"), Catch::Contains(": launches[0].grid[0]: expected a non-negative integer, got 1.5"));
  CHECK_THAT(with("{\"grid\": [1]}", "{\"grid\": [0]}"), Catch::Contains(": launches[0].grid[0]: 0 is out of range"));
  CHECK_THAT(with("{\"grid\": [1]}", "{\"grid\": [1, 1, 1, 1]}"), Catch::Contains(": launches[0].grid: expected an array of 1 to 3"));
  CHECK_THAT(with("\"launches\": [", "\"launches\": [{\"block\": [2048]}, "),
             Catch::Contains(": launches[0].block[0]: 2048 is out of range [1, 1024]"));
  CHECK_THAT(with("{\"fill\": 1}", "{\"fill\": 1, \"iota\": {}}"),
             Catch::Contains(": buffers.x.init: expected exactly one of file, fill, iota, random"));
  CHECK_THAT(with("{\"fill\": 1}", "{\"random\": {\"seed\": 1, \"min\": 2, \"max\": 1}}"),
             Catch::Contains(": buffers.x.init.random: min is greater than max"));
  CHECK_THAT(with("{\"fill\": 1}", "{\"random\": {\"seed\": -1, \"min\": 0, \"max\": 1}}"),
             Catch::Contains(": buffers.x.init.random.seed: expected a non-negative integer"));
  CHECK_THAT(with("\"type\": \"f32\", \"count\": 64, \"init\": {\"fill\"", "\"type\": \"f16\", \"count\": 64, \"init\": {\"fill\""),
             Catch::Contains(": buffers.x.type: unknown type 'f16'"));
  CHECK_THAT(with("\"count\": 64, \"init\": {\"fill\"", "\"init\": {\"fill\""),
             Catch::Contains(": buffers.x.count: missing (only a file init may leave it out)"));
  CHECK_THAT(with("\"args\": [64, 2.0", "\"args\": [true, 2.0"),
             Catch::Contains(": args[0]: expected a number or a buffer name, got a boolean"));
  CHECK_THAT(with("\"launches\": [{\"grid\": [1]}, {\"kernel\": \"saxpy\", \"args\": [64, 0.0, \"x\", \"y\"]}]",
                  "\"launches\": []"),
             Catch::Contains(": launches: expected a non-empty array"));
}

TEST_CASE("launch_spec rejects an integer iota with a fractional step for an integer buffer", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("robust_iota");
  std::string text = valid_spec(dir);
  const std::string from = "\"type\": \"f32\", \"count\": 64, \"init\": {\"fill\": 1}";
  text.replace(text.find(from), from.size(), "\"type\": \"s32\", \"count\": 64, \"init\": {\"iota\": {\"step\": 0.5}}");
  write_text(dir + "/spec.json", text);
  Runtime rt;
  CHECK_THROWS_WITH(run_launch_spec(parse_launch_spec(dir + "/spec.json"), rt),
                    Catch::Contains("buffers.x.init.iota: start and step must be integers for s32"));
}
