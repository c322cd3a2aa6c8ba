// workload-gen NAME SIZE OUTDIR [--workloads-dir DIR]
// (NAME may name a subfolder: micro/latency reads workloads/micro/latency/latency.ptx.)
// SIZE is small or medium (every workload), thesis_a .. thesis_e or ilp (only the workloads
// whose generator registers them; any other workload is an error naming both).
// Writes NAME's inputs and CPU-reference outputs into OUTDIR and copies the workload's
// spec_<size>.json (as spec.json), .ptx and .resources.json there, so the spec's relative
// paths resolve in OUTDIR.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>

#include "workload_gen.h"

#ifndef GPUTLM_WORKLOADS_DIR
#error "GPUTLM_WORKLOADS_DIR must name the workloads source folder"
#endif

namespace fs = std::filesystem;

namespace gputlm::workloads {

namespace {
struct SizeName {
  Size size;
  const char* name;
};
constexpr SizeName kSizeNames[] = {
    {Size::kSmall, "small"},       {Size::kMedium, "medium"},     {Size::kThesisA, "thesis_a"},
    {Size::kThesisB, "thesis_b"}, {Size::kThesisC, "thesis_c"}, {Size::kThesisD, "thesis_d"},
    {Size::kThesisE, "thesis_e"}, {Size::kIlp, "ilp"}};
}  // namespace

const char* size_name(Size size) {
  for (const SizeName& n : kSizeNames)
    if (n.size == size) return n.name;
  return "?";
}

bool parse_size(const std::string& name, Size* size) {
  for (const SizeName& n : kSizeNames)
    if (name == n.name) {
      *size = n.size;
      return true;
    }
  return false;
}

std::string all_size_names() {
  std::string s;
  for (const SizeName& n : kSizeNames) s += (s.empty() ? "" : ", ") + std::string(n.name);
  return s;
}

int thesis_index(Size size) {
  switch (size) {
    case Size::kThesisA: return 0;
    case Size::kThesisB: return 1;
    case Size::kThesisC: return 2;
    case Size::kThesisD: return 3;
    case Size::kThesisE: return 4;
    default: return -1;
  }
}

std::map<std::string, Generator>& generators() {
  static std::map<std::string, Generator> registry;
  return registry;
}

void OutDir::write_bytes(const std::string& name, const void* data, std::size_t bytes) const {
  fs::path p = dir_ / name;
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  if (!f) throw GenerateError("cannot open '" + p.string() + "' for writing");
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  if (!f) throw GenerateError("failed writing '" + p.string() + "'");
}

std::vector<float> random_f32(uint64_t seed, std::size_t n, double lo, double hi) {
  SplitMix64 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(rng.uniform(lo, hi));
  return v;
}
std::vector<double> random_f64(uint64_t seed, std::size_t n, double lo, double hi) {
  SplitMix64 rng(seed);
  std::vector<double> v(n);
  for (auto& x : v) x = rng.uniform(lo, hi);
  return v;
}
std::vector<uint32_t> random_u32(uint64_t seed, std::size_t n) {
  SplitMix64 rng(seed);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = static_cast<uint32_t>(rng.next() >> 32);
  return v;
}

}  // namespace gputlm::workloads

using namespace gputlm::workloads;

static std::string size_list(const std::vector<Size>& sizes) {
  std::string s;
  for (Size z : sizes) s += (s.empty() ? "" : ", ") + std::string(size_name(z));
  return s;
}

static int usage(FILE* out) {
  std::fprintf(out,
               "usage: workload-gen NAME SIZE OUTDIR [--workloads-dir DIR]\n"
               "       workload-gen --list\n\n"
               "SIZE: small or medium; thesis_a .. thesis_e (LAWS thesis Table 2.3 configs A-E) and\n"
               "ilp (004 Table 2's shapes) only for the workloads that list them below.\n\nworkloads:\n");
  for (const auto& [name, g] : generators()) {
    std::fprintf(out, "  %-10s %s\n", name.c_str(), g.summary.c_str());
    if (g.sizes != std::vector<Size>{Size::kSmall, Size::kMedium})
      std::fprintf(out, "  %-10s   sizes: %s\n", "", size_list(g.sizes).c_str());
  }
  return out == stdout ? 0 : 2;
}

static void copy_workload_file(const fs::path& from, const fs::path& to) {
  if (!fs::exists(from)) throw GenerateError("missing workload file '" + from.string() + "'");
  fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

int main(int argc, char** argv) {
  if (argc == 2 && (!std::strcmp(argv[1], "--list") || !std::strcmp(argv[1], "--help")))
    return usage(stdout);
  fs::path src_root = GPUTLM_WORKLOADS_DIR;
  if (argc == 6 && !std::strcmp(argv[4], "--workloads-dir")) {
    src_root = argv[5];
  } else if (argc != 4) {
    return usage(stderr);
  }
  std::string name = argv[1], size_arg = argv[2];
  fs::path out_dir = argv[3];
  try {
    auto it = generators().find(name);
    if (it == generators().end()) throw GenerateError("unknown workload '" + name + "'");
    Size size;
    if (!parse_size(size_arg, &size))
      throw GenerateError("unknown size '" + size_arg + "' (sizes: " + all_size_names() + ")");
    const std::vector<Size>& sizes = it->second.sizes;
    if (std::find(sizes.begin(), sizes.end(), size) == sizes.end())
      throw GenerateError("workload '" + name + "' has no size '" + size_arg +
                          "' (its sizes: " + size_list(sizes) + ")");
    fs::create_directories(out_dir);
    fs::path src = src_root / name;
    const std::string stem = fs::path(name).filename().string();  // "latency" of "micro/latency"
    copy_workload_file(src / ("spec_" + size_arg + ".json"), out_dir / "spec.json");
    copy_workload_file(src / (stem + ".ptx"), out_dir / (stem + ".ptx"));
    copy_workload_file(src / (stem + ".resources.json"), out_dir / (stem + ".resources.json"));
    it->second.fn(size, OutDir(out_dir));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "workload-gen %s %s: error: %s\n", name.c_str(), size_arg.c_str(),
                 e.what());
    return 1;
  }
  return 0;
}
