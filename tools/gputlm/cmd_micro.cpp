// `gputlm micro [NAME]... [--config GPU.json] [-p key=value]... [--dir DIR]`: runs the
// microbenchmarks (workloads/micro/, docs/platforms/fermi_micro.md) on the timing GPU and
// prints their figures (latencies, bytes/cycle, operations/cycle). One benchmark runs in
// this process; several run one process each (SystemC elaborates one GPU per process).
// Exit status 0 when every checked output matched, 3 on a mismatch, 1 on errors.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.h"
#include "micro/micro_bench.h"
#include "options.h"
#include "platforms/gpu_platform.h"

namespace {

namespace fs = std::filesystem;

int micro_usage() {
  std::printf(
      "usage: gputlm micro [NAME]... [--config GPU.json] [-p key=value]... [--dir DIR]\n\n"
      "Runs microbenchmarks on the timing GPU and prints their figures; NAME is one of\n"
      "latency, bandwidth, shared, sfu, atomic, divergence (default: all, one process each).\n"
      "  --config FILE  GPU config (default configs/fermi_gtx480.json)\n"
      "  -p key=value   override a config parameter\n"
      "  --dir DIR      generated microbenchmarks (default: <build>/workloads/micro)\n"
      "Cycles are core cycles (%%clock); docs/platforms/fermi_micro.md compares them with GTX480\n"
      "measurements. Exit status: 0 ok, 3 an output mismatches its CPU reference, 1 error.\n");
  return 0;
}

int run_child(const std::vector<std::string>& args) {
  std::fflush(stdout);
  const std::string exe = gputlm::cli::self_exe();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(exe.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) throw std::runtime_error("wait failed");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int cmd_micro(int argc, char** argv) {
  std::string dir;
  std::vector<char*> rest;  // argv without --dir, for parse_common
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--dir") {
      if (i + 1 >= argc) throw std::invalid_argument("--dir needs a folder");
      dir = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  auto opts = gputlm::cli::parse_common(static_cast<int>(rest.size()), rest.data(), "configs/fermi_gtx480.json");
  if (opts.help) return micro_usage();
  if (dir.empty()) dir = (fs::path(gputlm::cli::self_exe()).parent_path() / "workloads" / "micro").string();
  std::vector<std::string> names = opts.positional;
  if (names.empty()) names = gputlm::micro::bench_names();

  if (names.size() == 1) {
    const auto cfg = gputlm::platforms::read_gpu_config(gputlm::cli::load_config(opts));
    const fs::path spec = fs::path(dir) / names[0] / "spec.json";
    if (!fs::is_regular_file(spec))
      throw std::runtime_error("no generated microbenchmark '" + spec.string() + "' (build target workloads_micro)");
    const auto r = gputlm::micro::run_bench(names[0], spec.string(), cfg);
    std::printf("%s", gputlm::micro::format_figures(r).c_str());
    return r.ok ? 0 : 3;
  }
  std::printf("%-11s %-58s %10s %s\n", "bench", "figure", "value", "unit");
  int worst = 0;
  for (const auto& n : names) {
    std::vector<std::string> args{"micro", n, "--dir", dir, "--config", opts.config_file};
    for (const auto& o : opts.overrides) {
      args.push_back("-p");
      args.push_back(o);
    }
    const int rc = run_child(args);
    if (rc != 0) std::fprintf(stderr, "gputlm micro: %s failed (exit status %d)\n", n.c_str(), rc);
    worst = std::max(worst, rc);
  }
  return worst;
}

}  // namespace

GPUTLM_CLI_COMMAND("micro", "run the microbenchmarks (latency, bandwidth, ...) and print their figures", cmd_micro);
