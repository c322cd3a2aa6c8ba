// workload-gen: writes a workload's inputs, its CPU-reference outputs and its launch
// spec into one directory. Each workload registers a generator; the generator is the
// only place that knows a workload's sizes, and the committed specs repeat them (a
// mismatch is caught by the runtime's count-versus-file-size check).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/random/splitmix64.h"

namespace gputlm::workloads {

enum class Size { kSmall, kMedium };

// Where a generator writes its files.
class OutDir {
 public:
  explicit OutDir(std::filesystem::path dir) : dir_(std::move(dir)) {}

  template <class T>
  void write(const std::string& name, const std::vector<T>& data) const {
    write_bytes(name, data.data(), data.size() * sizeof(T));
  }
  void write_bytes(const std::string& name, const void* data, std::size_t bytes) const;
  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

using GenerateFn = void (*)(Size size, const OutDir& out);

struct Generator {
  GenerateFn fn;
  std::string summary;
};

std::map<std::string, Generator>& generators();

struct GeneratorRegistrar {
  GeneratorRegistrar(const char* name, const char* summary, GenerateFn fn) {
    generators()[name] = Generator{fn, summary};
  }
};

// Convenience: a vector of n values uniform in [lo, hi).
std::vector<float> random_f32(uint64_t seed, std::size_t n, double lo, double hi);
std::vector<double> random_f64(uint64_t seed, std::size_t n, double lo, double hi);
std::vector<uint32_t> random_u32(uint64_t seed, std::size_t n);

// A generator's own consistency check failed (e.g. a BFS deeper than the spec's launches).
struct GenerateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace gputlm::workloads

#define GPUTLM_WORKLOAD(name, summary, fn) \
  static ::gputlm::workloads::GeneratorRegistrar gputlm_workload_##fn(name, summary, fn)
