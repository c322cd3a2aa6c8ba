// Replays fuzz inputs without libFuzzer (the CI step of docs/testing.md, "Fuzzing"): runs
// every file under the folders or files given through the target's LLVMFuzzerTestOneInput,
// in name order. A finding aborts (the target's own check) or trips a sanitizer.
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

namespace {
char g_current[4096];  // the input being run, named when it aborts
void name_input(int sig) {
  const char* head = "fuzz replay: finding in input ";
  (void)!::write(2, head, std::strlen(head));
  (void)!::write(2, g_current, std::strlen(g_current));
  (void)!::write(2, "\n", 1);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p(argv[i]);
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (fs::is_regular_file(p)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "fuzz replay: '%s' is neither a file nor a folder\n", argv[i]);
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "fuzz replay: no inputs (usage: %s DIR_OR_FILE...)\n", argv[0]);
    return 2;
  }
  std::sort(files.begin(), files.end());
  std::signal(SIGABRT, name_input);
  std::signal(SIGSEGV, name_input);
  for (const fs::path& f : files) {
    std::snprintf(g_current, sizeof g_current, "%s", f.c_str());
    std::ifstream in(f, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("fuzz replay: %zu inputs, no finding\n", files.size());
  return 0;
}
