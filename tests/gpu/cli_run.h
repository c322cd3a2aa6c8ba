// Running the gputlm executable from a test as a user would (the CLI tests): exit code
// and everything it printed; the workloads' small specs; reading a JSON file it wrote.
// The including target defines GPUTLM_CLI, GPUTLM_GPU_TEST_TMP and GPUTLM_WORKLOADS_BUILD_DIR.
#pragma once

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

namespace gputlm::test {

struct CliResult {
  int exit_code = -1;
  std::string output;
};

inline CliResult run_cli(const std::string& args) {
  std::filesystem::create_directories(GPUTLM_GPU_TEST_TMP);
  // One output file per test process: ctest runs tests of a file in parallel.
  const std::string out = std::string(GPUTLM_GPU_TEST_TMP) + "/cli_output_" + std::to_string(::getpid()) + ".txt";
  const std::string cmd = std::string(GPUTLM_CLI) + " " + args + " > " + out + " 2>&1";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(out);
  r.output.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return r;
}

inline std::string spec(const std::string& name) {
  return std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/" + name + "/small/spec.json";
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f);
  return nlohmann::json::parse(f);
}

}  // namespace gputlm::test
