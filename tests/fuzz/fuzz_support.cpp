#include "fuzz_support.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;

// libsystemc.so references sc_main; libFuzzer's main() (or the replay's) runs instead,
// so SystemC never starts.
extern "C" int sc_main(int, char**) { return 0; }

namespace gputlm::fuzz {

namespace {
struct Scratch {
  std::string path;
  Scratch() {
    path = (fs::temp_directory_path() / ("gputlm-fuzz-" + std::to_string(::getpid()))).string();
    fs::remove_all(path);
    fs::create_directories(path);
    fs::copy(fs::path(GPUTLM_SOURCE_DIR) / "configs", fs::path(path) / "configs", fs::copy_options::recursive);
    fs::create_directories(fs::path(path) / "experiments");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};
}  // namespace

const std::string& scratch() {
  static Scratch s;
  return s.path;
}

std::string write_scratch(const std::string& name, std::string_view bytes) {
  const std::string p = scratch() + "/" + name;
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) unexpected("fuzz support", ("cannot write " + p).c_str());
  return p;
}

std::string read_source(const std::string& relative) {
  std::ifstream f(fs::path(GPUTLM_SOURCE_DIR) / relative, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::pair<std::string_view, std::string_view> split_input(const uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = all.find("\n%%\n");
  if (cut == std::string_view::npos) return {all, {}};
  return {all.substr(0, cut), all.substr(cut + 4)};
}

void unexpected(const char* target, const char* what) {
  std::fprintf(stderr, "%s: unexpected exception: %s\n", target, what);
  std::abort();
}

}  // namespace gputlm::fuzz
