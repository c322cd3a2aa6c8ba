// workload-gen NAME small|medium OUTDIR [--workloads-dir DIR]
// (NAME may name a subfolder: micro/latency reads workloads/micro/latency/latency.ptx.)
// Writes NAME's inputs and CPU-reference outputs into OUTDIR and copies the workload's
// spec_<size>.json (as spec.json), .ptx and .resources.json there, so the spec's relative
// paths resolve in OUTDIR.
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

static int usage(FILE* out) {
  std::fprintf(out,
               "usage: workload-gen NAME small|medium OUTDIR [--workloads-dir DIR]\n"
               "       workload-gen --list\n\nworkloads:\n");
  for (const auto& [name, g] : generators())
    std::fprintf(out, "  %-10s %s\n", name.c_str(), g.summary.c_str());
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
  std::string name = argv[1], size_name = argv[2];
  fs::path out_dir = argv[3];
  try {
    auto it = generators().find(name);
    if (it == generators().end()) throw GenerateError("unknown workload '" + name + "'");
    Size size;
    if (size_name == "small") size = Size::kSmall;
    else if (size_name == "medium") size = Size::kMedium;
    else throw GenerateError("size must be 'small' or 'medium', not '" + size_name + "'");
    fs::create_directories(out_dir);
    fs::path src = src_root / name;
    const std::string stem = fs::path(name).filename().string();  // "latency" of "micro/latency"
    copy_workload_file(src / ("spec_" + size_name + ".json"), out_dir / "spec.json");
    copy_workload_file(src / (stem + ".ptx"), out_dir / (stem + ".ptx"));
    copy_workload_file(src / (stem + ".resources.json"), out_dir / (stem + ".resources.json"));
    it->second.fn(size, OutDir(out_dir));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "workload-gen %s %s: error: %s\n", name.c_str(), size_name.c_str(),
                 e.what());
    return 1;
  }
  return 0;
}
