// runtime: `gputlm run` end to end, including the acceptance check of issue 4 (a kernel
// never seen by the project, from a spec in exactly the documented format).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "test_support.h"

using namespace gputlm::runtime::test;

TEST_CASE("runtime cli: gputlm run --functional passes the unseen acceptance kernel", "[runtime][cli]") {
  std::string dir = scratch_dir("cli_unseen");
  std::string stats = dir + "/stats.json";
  CliResult r = run_cli(std::string("run ") + GPUTLM_UNSEEN_SPEC + " --functional --stats " + stats);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("transpose_scale"));
  CHECK_THAT(r.output, Catch::Contains("PASS"));
  std::ifstream f(stats);
  nlohmann::json j = nlohmann::json::parse(f);
  CHECK(j["ok"] == true);
  REQUIRE(j["launches"].size() == 1);
  CHECK(j["launches"][0]["grid"] == nlohmann::json::array({5, 7, 1}));
  CHECK(j["launches"][0]["warp_instructions"].get<uint64_t>() > 0);
  CHECK(j["launches"][0]["thread_instructions"].get<uint64_t>() > 0);
  CHECK(j["outputs"][0]["buffer"] == "out");
  CHECK(j["outputs"][0]["ok"] == true);
  CHECK(j["outputs"][0]["elements"] == 27200);
}

TEST_CASE("runtime cli: an expectation mismatch exits 3 naming buffer, index and values", "[runtime][cli]") {
  std::string dir = scratch_dir("cli_mismatch");
  std::filesystem::copy_file(saxpy_ptx(), dir + "/saxpy.ptx");
  std::vector<float> ref(64, 5.0f);  // y = 2 * 1 + 3 = 5 everywhere but index 9
  ref[9] = 4.0f;
  write_vector(dir + "/y_ref.bin", ref);
  write_text(dir + "/spec.json",
             "{\"ptx\": \"saxpy.ptx\", \"kernel\": \"saxpy\", \"grid\": [1], \"block\": [64],"
             " \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": 64, \"init\": {\"fill\": 1}},"
             "              \"y\": {\"type\": \"f32\", \"count\": 64, \"init\": {\"fill\": 3}}},"
             " \"args\": [64, 2.0, \"x\", \"y\"],"
             " \"outputs\": {\"y\": {\"file\": \"y_out.bin\", \"expect\": {\"file\": \"y_ref.bin\"}}}}");
  CliResult r = run_cli("run " + dir + "/spec.json --functional --quiet");
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.output, Catch::Contains("buffer 'y'"));
  CHECK_THAT(r.output, Catch::Contains("1 of 64 elements differ; first at index 9: expected 4, actual 5"));
  CHECK(std::filesystem::file_size(dir + "/y_out.bin") == 64 * 4);
}

TEST_CASE("runtime cli: a malformed spec exits 1 naming file and key", "[runtime][cli]") {
  std::string dir = scratch_dir("cli_bad_spec");
  write_text(dir + "/spec.json", "{\"ptx\": \"missing.ptx\", \"kernel\": \"k\", \"grid\": [1], \"block\": [1]}");
  CliResult r = run_cli("run " + dir + "/spec.json --functional");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains(dir + "/spec.json: ptx: file 'missing.ptx' not found"));
}

// Without --functional (and, once issue 5 lands, without a timing config) the command must
// stop with an error that says how to choose a model: never fall back silently.
TEST_CASE("runtime cli: run without a model choice is an error, not a silent fallback", "[runtime][cli]") {
  CliResult r = run_cli(std::string("run ") + GPUTLM_UNSEEN_SPEC);
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("--functional"));
  CHECK_THAT(r.output, !Catch::Contains("PASS"));
}

TEST_CASE("runtime cli: a bad stream value exits 1 naming file and key path", "[runtime][cli]") {
  std::string dir = scratch_dir("cli_bad_stream");
  std::filesystem::copy_file(saxpy_ptx(), dir + "/saxpy.ptx");
  write_text(dir + "/spec.json",
             "{\"ptx\": \"saxpy.ptx\", \"kernel\": \"saxpy\", \"grid\": [1], \"block\": [64],"
             " \"buffers\": {\"x\": {\"type\": \"f32\", \"count\": 64, \"init\": {\"fill\": 1}},"
             "              \"y\": {\"type\": \"f32\", \"count\": 64, \"init\": {\"fill\": 3}}},"
             " \"args\": [64, 2.0, \"x\", \"y\"],"
             " \"launches\": [{\"stream\": 0}, {\"stream\": -2}]}");
  CliResult r = run_cli("run " + dir + "/spec.json --functional");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains(dir + "/spec.json: launches[1].stream: expected a non-negative integer, got -2"));
  CHECK_THAT(r.output, !Catch::Contains("PASS"));
}
