#include "test_support.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>

namespace gputlm::runtime::test {

namespace fs = std::filesystem;

std::string scratch_dir(const std::string& name) {
  fs::path p = fs::path(GPUTLM_RUNTIME_TEST_TMP) / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path);
}

void write_bytes(const std::string& path, const void* data, std::size_t bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  if (!f) throw std::runtime_error("cannot write " + path);
}

template <class T>
std::vector<T> read_vector(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw std::runtime_error("cannot read " + path);
  auto size = static_cast<std::size_t>(f.tellg());
  std::vector<T> v(size / sizeof(T));
  f.seekg(0);
  f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
  return v;
}
template std::vector<float> read_vector<float>(const std::string&);
template std::vector<uint32_t> read_vector<uint32_t>(const std::string&);
template std::vector<int32_t> read_vector<int32_t>(const std::string&);

CliResult run_cli(const std::string& args) {
  std::string cmd = std::string("\"") + GPUTLM_CLI + "\" " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + cmd);
  CliResult r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string saxpy_ptx() { return std::string(GPUTLM_WORKLOADS_SOURCE_DIR) + "/saxpy/saxpy.ptx"; }
std::string params_ptx() { return std::string(GPUTLM_RUNTIME_TEST_DATA) + "/params.ptx"; }

}  // namespace gputlm::runtime::test
