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
#include <utility>
#include <vector>

#include "core/random/splitmix64.h"

namespace gputlm::workloads {

// small (tests) and medium (experiments) exist for every workload. ilp is seed 004's Table 2
// shapes (grid, CTA, CTAs per SM on configs/ilp_baseline.json), only for the workloads that
// stand for Table 2's (GPUTLM_WORKLOAD_SIZES with sizes_with_ilp()). thesis_a .. thesis_e
// are the LAWS thesis' input configurations A-E (001 Table 2.3), only for the workloads
// the thesis varies (montecarlo, streamcluster, laplace3d): a generator takes them only
// when it registers them (GPUTLM_WORKLOAD_SIZES), and workload-gen refuses them for any
// other workload before writing anything.
enum class Size { kSmall, kMedium, kThesisA, kThesisB, kThesisC, kThesisD, kThesisE, kIlp };

// The name workload-gen, the specs (spec_<name>.json) and the build folders use.
const char* size_name(Size size);
// The Size named `name`; false when no size has that name.
bool parse_size(const std::string& name, Size* size);
// "small, medium, thesis_a, ..., thesis_e, ilp".
std::string all_size_names();
// 0..4 for thesis_a..thesis_e, -1 for small and medium.
int thesis_index(Size size);
// small, medium and thesis_a..thesis_e: the sizes of the workloads the thesis varies.
inline std::vector<Size> sizes_with_thesis() {
  return {Size::kSmall,   Size::kMedium,  Size::kThesisA, Size::kThesisB,
          Size::kThesisC, Size::kThesisD, Size::kThesisE};
}
// small, medium and ilp: the sizes of the workloads that stand for 004 Table 2's.
inline std::vector<Size> sizes_with_ilp() { return {Size::kSmall, Size::kMedium, Size::kIlp}; }

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
  std::vector<Size> sizes;  // the sizes fn accepts; workload-gen refuses the others
};

std::map<std::string, Generator>& generators();

struct GeneratorRegistrar {
  GeneratorRegistrar(const char* name, const char* summary, GenerateFn fn,
                     std::vector<Size> sizes = {Size::kSmall, Size::kMedium}) {
    generators()[name] = Generator{fn, summary, std::move(sizes)};
  }
};

// Convenience: a vector of n values uniform in [lo, hi).
std::vector<float> random_f32(uint64_t seed, std::size_t n, double lo, double hi);
std::vector<double> random_f64(uint64_t seed, std::size_t n, double lo, double hi);
std::vector<uint32_t> random_u32(uint64_t seed, std::size_t n);

// nqueen's reference: the completions counted from each of the n^3 three-row prefixes
// (thread t's), shared by nqueen and nqueen_ilp (integer.cpp).
std::vector<uint32_t> nqueen_counts(int n);

// scan's input (n random 16-bit values from `seed`, in.bin) and inclusive prefix sum
// (out_ref.bin), shared by scan and scan_ilp (integer.cpp).
void write_scan_input(const OutDir& out, uint64_t seed, std::size_t n);

// storegpu's chunk digest (MurmurHash3-style mixing of `words` words, the kernel's order),
// shared by storegpu and storegpu_ilp (integer.cpp).
uint32_t storegpu_digest(const uint32_t* chunk, int words, uint32_t seed);

// A generator's own consistency check failed (e.g. a BFS deeper than the spec's launches).
struct GenerateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A generator's value for a size it has only small and medium of (any other: GenerateError).
template <class T>
T by_size(Size size, T small, T medium) {
  if (size == Size::kSmall) return small;
  if (size == Size::kMedium) return medium;
  throw GenerateError(std::string("no size '") + size_name(size) + "'");
}

}  // namespace gputlm::workloads

#define GPUTLM_WORKLOAD(name, summary, fn) \
  static ::gputlm::workloads::GeneratorRegistrar gputlm_workload_##fn(name, summary, fn)
// A workload with sizes beyond small and medium: GPUTLM_WORKLOAD_SIZES("x", "...", fn,
// sizes_with_thesis()).
#define GPUTLM_WORKLOAD_SIZES(name, summary, fn, ...) \
  static ::gputlm::workloads::GeneratorRegistrar gputlm_workload_##fn(name, summary, fn, __VA_ARGS__)
