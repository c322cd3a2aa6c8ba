// Helpers of the runtime tests: a fresh scratch folder per test, file writers, and a way
// to run the gputlm CLI and capture its exit status and output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gputlm::runtime::test {

// A fresh, empty folder named after `name` under the test build folder.
std::string scratch_dir(const std::string& name);
void write_text(const std::string& path, const std::string& text);
void write_bytes(const std::string& path, const void* data, std::size_t bytes);
template <class T>
void write_vector(const std::string& path, const std::vector<T>& v) {
  write_bytes(path, v.data(), v.size() * sizeof(T));
}
template <class T>
std::vector<T> read_vector(const std::string& path);

struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
CliResult run_cli(const std::string& args);

// The saxpy PTX of the workload suite (a known-good kernel for API tests).
std::string saxpy_ptx();
std::string params_ptx();

}  // namespace gputlm::runtime::test
