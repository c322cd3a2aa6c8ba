// A launch spec with two independent vecadd launches on chosen streams (4 CTAs of 128
// threads each over 4096 elements), writing c0 = a + b and c1 = b + a, both expected to
// be 3i: the stream tests' workload, shared by the library and the CLI tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace gputlm::test {

inline constexpr int kStreamSpecElements = 4096;

// Writes <dir>/spec.json and its reference; returns the spec's path. The PTX is found
// from the working directory (the project root, as for every GPU test).
inline std::string write_two_stream_spec(const std::filesystem::path& dir, uint32_t stream0, uint32_t stream1) {
  std::filesystem::create_directories(dir);
  std::vector<float> ref(kStreamSpecElements);
  for (int i = 0; i < kStreamSpecElements; ++i) ref[static_cast<std::size_t>(i)] = static_cast<float>(3 * i);
  std::ofstream(dir / "c_ref.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(ref.data()), static_cast<std::streamsize>(ref.size() * 4));
  const std::string ptx = std::filesystem::absolute("workloads/vecadd/vecadd.ptx").string();
  const std::string n = std::to_string(kStreamSpecElements);
  std::ofstream(dir / "spec.json") << R"({"ptx": ")" << ptx << R"(", "kernel": "vecadd", "grid": [4], "block": [128],
    "buffers": {"a": {"type": "f32", "count": )" << n << R"(, "init": {"iota": {"start": 0, "step": 1}}},
                "b": {"type": "f32", "count": )" << n << R"(, "init": {"iota": {"start": 0, "step": 2}}},
                "c0": {"type": "f32", "count": )" << n << R"(, "init": {"fill": 0}},
                "c1": {"type": "f32", "count": )" << n << R"(, "init": {"fill": 0}}},
    "launches": [{"args": [)" << n << R"(, "a", "b", "c0"], "stream": )" << stream0 << R"(},
                 {"args": [)" << n << R"(, "b", "a", "c1"], "stream": )" << stream1 << R"(}],
    "outputs": {"c0": {"expect": {"file": "c_ref.bin"}}, "c1": {"expect": {"file": "c_ref.bin"}}}})";
  return (dir / "spec.json").string();
}

}  // namespace gputlm::test
