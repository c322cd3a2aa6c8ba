// launch_spec: every malformed spec is a SpecError naming the spec file and JSON key path;
// inits (file, fill, iota, random) produce the documented bytes; expectation mismatches
// name the buffer, first bad index, expected and actual values and the count.
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

// A valid saxpy spec body (x from x.bin, y filled) with `extra` spliced in at the top level
// and `args` as given.
std::string saxpy_spec(const std::string& dir, const std::string& args = "[256, 2.0, \"x\", \"y\"]",
                       const std::string& extra = "", const std::string& x_init = "{\"file\": \"x.bin\"}") {
  std::vector<float> x(256);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f;
  write_vector(dir + "/x.bin", x);
  std::filesystem::copy_file(saxpy_ptx(), dir + "/saxpy.ptx", std::filesystem::copy_options::overwrite_existing);
  return "{\"ptx\": \"saxpy.ptx\", \"kernel\": \"saxpy\", \"grid\": [1], \"block\": [256],"
         " \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": 256, \"init\": " + x_init + "},"
         "              \"y\": {\"type\": \"f32\", \"count\": 256, \"init\": {\"fill\": 1}}},"
         " \"args\": " + args + extra + "}";
}

// Parses and runs `text` as <dir>/spec.json; returns the error message ("" if none).
std::string spec_error(const std::string& dir, const std::string& text) {
  std::string path = dir + "/spec.json";
  write_text(path, text);
  try {
    LaunchSpec spec = parse_launch_spec(path);
    Runtime rt;
    run_launch_spec(spec, rt);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

void require_names(const std::string& msg, const std::string& dir, const std::string& key,
                   const std::string& detail) {
  INFO("message: " << msg);
  REQUIRE_THAT(msg, Catch::Contains(dir + "/spec.json"));
  REQUIRE_THAT(msg, Catch::Contains(": " + key + ": "));
  REQUIRE_THAT(msg, Catch::Contains(detail));
}

}  // namespace

TEST_CASE("launch_spec runs a valid saxpy spec and writes its output", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_valid");
  REQUIRE(spec_error(dir, saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]",
                                     ", \"outputs\": {\"y\": {\"file\": \"y_out.bin\"}}")) == "");
  auto y = read_vector<float>(dir + "/y_out.bin");
  REQUIRE(y.size() == 256);
  for (std::size_t i = 0; i < y.size(); ++i) REQUIRE(y[i] == 2.0f * (static_cast<float>(i) * 0.5f) + 1.0f);
}

TEST_CASE("launch_spec rejects an unknown top-level key", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_unknown_key");
  require_names(spec_error(dir, saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]", ", \"girdd\": [1]")), dir, "girdd",
                "unknown key");
}

TEST_CASE("launch_spec rejects an unknown nested key with its full path", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_unknown_nested");
  require_names(spec_error(dir, saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]", "",
                                           "{\"random\": {\"seed\": 1, \"min\": 0, \"max\": 1, \"sed\": 2}}")),
                dir, "buffers.x.init.random.sed", "unknown key");
}

TEST_CASE("launch_spec rejects a value of the wrong type", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_wrong_type");
  std::string text = saxpy_spec(dir);
  text.replace(text.find("\"grid\": [1]"), 11, "\"grid\": \"1\"");
  require_names(spec_error(dir, text), dir, "grid", "expected an array");
  std::string text2 = saxpy_spec(dir);
  text2.replace(text2.find("\"count\": 256"), 12, "\"count\": \"256\"");
  require_names(spec_error(dir, text2), dir, "buffers.x.count", "expected a number, got a string");
}

TEST_CASE("launch_spec rejects a missing init file", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_missing_file");
  require_names(spec_error(dir, saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]", "", "{\"file\": \"nope.bin\"}")),
                dir, "buffers.x.init.file", "'nope.bin' not found");
}

TEST_CASE("launch_spec rejects a missing PTX file", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_missing_ptx");
  std::string text = saxpy_spec(dir);
  text.replace(text.find("saxpy.ptx"), 9, "other.ptx");
  require_names(spec_error(dir, text), dir, "ptx", "'other.ptx' not found");
}

TEST_CASE("launch_spec rejects an argument naming no buffer", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_bad_buffer_ref");
  require_names(spec_error(dir, saxpy_spec(dir, "[256, 2.0, \"x\", \"z\"]")), dir, "args[3]",
                "no buffer named 'z'");
  require_names(spec_error(dir, saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]",
                                           ", \"outputs\": {\"w\": {\"file\": \"w.bin\"}}")),
                dir, "outputs.w", "no buffer named 'w'");
}

TEST_CASE("launch_spec rejects arguments that do not fit their parameter", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_arg_range");
  std::filesystem::copy_file(params_ptx(), dir + "/params.ptx");
  auto spec = [&](const std::string& args) {
    return "{\"ptx\": \"params.ptx\", \"kernel\": \"store_params\", \"grid\": [1], \"block\": [32],"
           " \"buffers\": {\"out\": {\"type\": \"u64\", \"count\": 6, \"init\": {\"fill\": 0}}},"
           " \"args\": " + args + "}";
  };
  require_names(spec_error(dir, spec("[300, 1, 2, 3, 4.0, 5.0, \"out\"]")), dir, "args[0]",
                "300 is out of range for u8");
  require_names(spec_error(dir, spec("[1, 1, 2.5, 3, 4.0, 5.0, \"out\"]")), dir, "args[2]",
                "2.5 is not an integer");
  require_names(spec_error(dir, spec("[1, 1, \"out\", 3, 4.0, 5.0, \"out\"]")), dir, "args[2]",
                "needs a 64-bit integer parameter");
  require_names(spec_error(dir, spec("[1, 2, 3]")), dir, "args", "takes 7 parameters, but 3");
}

TEST_CASE("launch_spec rejects a count that does not match the init file", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_count_mismatch");
  std::string text = saxpy_spec(dir);
  text.replace(text.find("\"count\": 256"), 12, "\"count\": 200");
  require_names(spec_error(dir, text), dir, "buffers.x.init.file", "has 1024 bytes, but count 200 x f32 needs 800");
}

TEST_CASE("launch_spec rejects an unknown kernel with the launch's key path", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_unknown_kernel");
  std::string text = saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]",
                                ", \"launches\": [{}, {\"kernel\": \"saxpz\"}]");
  require_names(spec_error(dir, text), dir, "launches[1].kernel", "saxpz");
}

TEST_CASE("launch_spec requires kernel, grid and block per launch", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_missing_block");
  std::string text = saxpy_spec(dir);
  text.replace(text.find("\"block\": [256],"), 15, "");
  require_names(spec_error(dir, text), dir, "block", "missing");
}

TEST_CASE("launch_spec rejects blocks over 1024 threads and fill values out of range", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_limits");
  std::string text = saxpy_spec(dir);
  text.replace(text.find("\"block\": [256]"), 14, "\"block\": [64, 32]");
  require_names(spec_error(dir, text), dir, "block", "at most 1024 threads");
  std::filesystem::copy_file(params_ptx(), dir + "/params.ptx");
  std::string t2 =
      "{\"ptx\": \"params.ptx\", \"kernel\": \"use_symbols\", \"grid\": [1], \"block\": [32],"
      " \"buffers\": {\"out\": {\"type\": \"s32\", \"count\": 4, \"init\": {\"fill\": 0}}},"
      " \"symbols\": {\"kTable\": {\"type\": \"u8\", \"count\": 4, \"init\": {\"fill\": 256}}},"
      " \"args\": [\"out\"]}";
  require_names(spec_error(dir, t2), dir, "symbols.kTable.init.fill", "256 is out of range for u8");
  std::string t3 = t2;
  t3.replace(t3.find("kTable"), 6, "kTabel");
  require_names(spec_error(dir, t3), dir, "symbols.kTabel", "no symbol 'kTabel'");
}

TEST_CASE("launch_spec reports invalid JSON with line and column", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_bad_json");
  std::string msg = spec_error(dir, "{\"ptx\": \"a.ptx\",\n \"grid\": [1,]\n}");
  INFO(msg);
  REQUIRE_THAT(msg, Catch::Contains(dir + "/spec.json:2:"));
  REQUIRE_THAT(msg, Catch::Contains("invalid JSON"));
}

TEST_CASE("launch_spec expectation mismatch names buffer, index, values and count", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_mismatch");
  std::vector<float> ref(256);
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = 2.0f * (static_cast<float>(i) * 0.5f) + 1.0f;
  ref[17] = 99.0f;
  ref[200] = -1.0f;
  write_vector(dir + "/y_ref.bin", ref);
  std::string path = dir + "/spec.json";
  write_text(path, saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]",
                              ", \"outputs\": {\"y\": {\"expect\": {\"file\": \"y_ref.bin\", \"rtol\": 1e-6}}}"));
  Runtime rt;
  SpecReport rep = run_launch_spec(parse_launch_spec(path), rt);
  REQUIRE_FALSE(rep.ok());
  REQUIRE(rep.outputs.size() == 1);
  const OutputReport& o = rep.outputs[0];
  CHECK(o.compare.mismatches == 2);
  CHECK(o.compare.first_bad == 17);
  std::string msg = o.message();
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("buffer 'y'"));
  CHECK_THAT(msg, Catch::Contains("2 of 256 elements differ"));
  CHECK_THAT(msg, Catch::Contains("index 17: expected 99, actual 18"));
}

TEST_CASE("launch_spec integer outputs compare exactly and NaN equals only NaN", "[runtime][launch_spec]") {
  std::vector<int32_t> a{1, 2, 3}, b{1, 2, 4};
  CompareResult r = compare_elements(a.data(), b.data(), ElemType::S32, 3, 0.5, 0.5, false);
  CHECK(r.mismatches == 1);
  CHECK(r.first_bad == 2);
  r = compare_elements(a.data(), b.data(), ElemType::S32, 3, 0.5, 0.5, true);  // tolerances given
  CHECK(r.ok());
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x{nan, 1.0f, nan}, y{nan, nan, 1.0f};
  r = compare_elements(x.data(), y.data(), ElemType::F32, 3, 1.0, 1.0, true);
  CHECK(r.mismatches == 2);
  CHECK(r.first_bad == 1);
}

TEST_CASE("launch_spec random and iota inits follow the documented SplitMix64 definition", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_random");
  std::string text = saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]",
                                ", \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": 256,"
                                "   \"init\": {\"random\": {\"seed\": 42, \"min\": -1, \"max\": 3}}},"
                                " \"y\": {\"type\": \"f32\", \"count\": 256, \"init\": {\"iota\": {\"start\": 10, \"step\": -0.5}}},"
                                " \"u\": {\"type\": \"u32\", \"count\": 8, \"init\": {\"random\": {\"seed\": 5, \"min\": 10, \"max\": 20}}}},"
                                " \"outputs\": {\"x\": {\"file\": \"x_out.bin\"}, \"y\": {\"file\": \"y_out.bin\"},"
                                " \"u\": {\"file\": \"u_out.bin\"}}");
  // The spliced "buffers" replaces the first one (JSON objects keep the last duplicate).
  REQUIRE(spec_error(dir, text) == "");
  gputlm::SplitMix64 rng(42);
  auto x = read_vector<float>(dir + "/x_out.bin");
  auto y = read_vector<float>(dir + "/y_out.bin");
  for (std::size_t i = 0; i < 256; ++i) {
    float xi = static_cast<float>(-1.0 + 4.0 * (static_cast<double>(rng.next() >> 11) * 0x1.0p-53));
    REQUIRE(x[i] == xi);
    REQUIRE(y[i] == 2.0f * xi + static_cast<float>(10.0 - 0.5 * static_cast<double>(i)));
  }
  auto u = read_vector<uint32_t>(dir + "/u_out.bin");
  gputlm::SplitMix64 r2(5);
  for (uint32_t v : u) {
    __extension__ typedef unsigned __int128 U128;
    uint64_t want = 10 + static_cast<uint64_t>((static_cast<U128>(r2.next()) * 11) >> 64);
    REQUIRE(v == want);
  }
}

TEST_CASE("launch_spec carries each launch's stream, top-level stream as the default", "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_stream");
  std::string body = saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]",
                                ", \"stream\": 2, \"launches\": [{}, {\"stream\": 0}, {\"stream\": 1023}, {\"stream\": 5.0}]");
  write_text(dir + "/spec.json", body);
  const LaunchSpec spec = parse_launch_spec(dir + "/spec.json");
  REQUIRE(spec.launches.size() == 4);
  CHECK(spec.launches[0].stream == 2);
  CHECK(spec.launches[1].stream == 0);
  CHECK(spec.launches[2].stream == 1023);
  CHECK(spec.launches[3].stream == 5);
  // The functional backend runs them in spec order and reports each launch's stream.
  Runtime rt;
  const SpecReport rep = run_launch_spec(spec, rt);
  REQUIRE(rep.launches.size() == 4);
  CHECK(rep.launches[0].stream == 2);
  CHECK(rep.launches[2].stream == 1023);
  CHECK(rep.launches[2].label == "launches[2]");
}

TEST_CASE("launch_spec rejects a negative, fractional, huge or non-number stream naming the key",
          "[runtime][launch_spec]") {
  std::string dir = scratch_dir("spec_bad_stream");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-1", "expected a non-negative integer, got -1"},
      {"1.5", "expected a non-negative integer, got 1.5"},
      {"1024", "1024 is out of range [0, 1023]"},
      {"18446744073709551616", "expected a non-negative integer"},
      {"\"1\"", "expected a number, got a string"},
  };
  for (const auto& [value, detail] : cases) {
    const std::string msg =
        spec_error(dir, saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]", ", \"launches\": [{}, {\"stream\": " + value + "}]"));
    require_names(msg, dir, "launches[1].stream", detail);
  }
  require_names(spec_error(dir, saxpy_spec(dir, "[256, 2.0, \"x\", \"y\"]", ", \"stream\": -3")), dir, "stream",
                "non-negative");
}
