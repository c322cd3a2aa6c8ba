// `gputlm suite [--config GPU.json] [--size small|medium|ilp] [--workloads DIR] [-j N]
// [--bench] [--only NAME]... [-p KEY=VALUE]...`: runs every workload's generated launch spec
// (DIR/<name>/<size>/spec.json, DIR = <build>/workloads) on the timing GPU, each in
// its own process (SystemC elaborates once per process), and prints a table of
// workloads with cycles, IPC and verification status. --bench adds simulation speed
// (warp instructions/s, cycles/s), peak memory (ru_maxrss of the run) and the speed of
// the functional executor on the same spec. Exit status 0 when every workload passed.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli.h"
#include "options.h"

namespace {

namespace fs = std::filesystem;

struct Job {
  std::string workload, spec;
  std::vector<std::string> args;
  fs::path stats, log;
  pid_t pid = 0;
  int exit_code = -1;
  long max_rss_kb = 0;
};

struct Row {
  std::string workload, status, detail;
  uint64_t launches = 0, cycles = 0, warp_instr = 0, thread_instr = 0;
  double host_s = 0, wips = 0, cps = 0, functional_wips = 0;
  long rss_kb = 0;
};

int suite_usage(FILE* out) {
  std::fprintf(out,
               "usage: gputlm suite [--config GPU.json] [--size small|medium|ilp] [--workloads DIR] [-j N] [--bench]\n"
               "                    [--only NAME]... [-p KEY=VALUE]... [--out DIR]\n\n"
               "Runs every workload (DIR/<name>/<size>/spec.json; DIR defaults to the build's workloads/)\n"
               "on the timing GPU, one process each,\n"
               "and prints cycles, IPC and verification status per workload.\n"
               "  --config FILE  GPU config (default configs/fermi_gtx480.json)\n"
               "  --size S       input size: small (default), medium, or ilp (004 Table 2's shapes, the\n"
               "                 workloads that have them)\n"
               "  -j N           workloads run in parallel (default 1)\n"
               "  --bench        also report simulation speed, peak memory and functional speed\n"
               "  --only NAME    run only this workload (repeatable)\n"
               "  -p KEY=VALUE   config override for every timing run (repeatable; as gputlm run -p)\n"
               "  --out DIR      keep each run's statistics JSON and log here (default: a temp dir)\n");
  return out == stdout ? 0 : 2;
}

void start(Job& j, const std::string& exe) {
  std::vector<std::string> argv{exe};
  argv.insert(argv.end(), j.args.begin(), j.args.end());
  j.pid = fork();
  if (j.pid < 0) throw std::runtime_error("gputlm suite: fork failed");
  if (j.pid == 0) {
    FILE* log = std::freopen(j.log.c_str(), "w", stderr);
    if (!log || !std::freopen(j.log.c_str(), "a", stdout)) _exit(126);
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    execv(exe.c_str(), cargv.data());
    _exit(127);
  }
}

void run_all(std::vector<Job>& jobs, unsigned parallel, const std::string& exe) {
  std::size_t next = 0, running = 0, done = 0;
  std::map<pid_t, Job*> by_pid;
  while (done < jobs.size()) {
    while (running < parallel && next < jobs.size()) {
      start(jobs[next], exe);
      by_pid[jobs[next].pid] = &jobs[next];
      ++next;
      ++running;
    }
    int status = 0;
    rusage ru{};
    pid_t pid = wait4(-1, &status, 0, &ru);
    if (pid < 0) throw std::runtime_error("gputlm suite: wait failed");
    auto it = by_pid.find(pid);
    if (it == by_pid.end()) continue;
    Job& j = *it->second;
    j.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    j.max_rss_kb = ru.ru_maxrss;
    --running;
    ++done;
  }
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream f(p);
  if (!f) return nullptr;
  try {
    return nlohmann::json::parse(f);
  } catch (const std::exception&) {
    return nullptr;
  }
}

std::string first_error_line(const fs::path& log) {
  std::ifstream f(log);
  std::string line, first;
  while (std::getline(f, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error") != std::string::npos || line.find("mismatch") != std::string::npos) return line;
  }
  return first;
}

double num(const nlohmann::json& j, const char* a, const char* b = nullptr) {
  const nlohmann::json* p = &j;
  if (!p->contains(a)) return 0;
  p = &(*p)[a];
  if (b) {
    if (!p->contains(b)) return 0;
    p = &(*p)[b];
  }
  return p->is_number() ? p->get<double>() : 0;
}

int cmd_suite(int argc, char** argv) {
  std::string config = "configs/fermi_gtx480.json", size = "small", dir, out;
  unsigned parallel = 1;
  bool bench = false;
  std::vector<std::string> only, overrides;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error("gputlm suite: " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") return suite_usage(stdout);
    if (a == "--config") config = value();
    else if (a == "--size") size = value();
    else if (a == "--workloads") dir = value();
    else if (a == "--out") out = value();
    else if (a == "--only") only.push_back(value());
    else if (a == "--bench") bench = true;
    else if (a == "-p") overrides.push_back(value());
    else if (a == "-j") parallel = static_cast<unsigned>(std::max(1, std::atoi(value().c_str())));
    else {
      std::fprintf(stderr, "gputlm suite: unknown argument '%s'\n", a.c_str());
      return suite_usage(stderr);
    }
  }
  if (size != "small" && size != "medium" && size != "ilp")
    throw std::runtime_error("gputlm suite: --size must be small, medium or ilp");
  if (!fs::is_regular_file(config)) throw std::runtime_error("gputlm suite: config '" + config + "' not found");
  // workload-gen writes <build>/workloads/<name>/<size>/spec.json; gputlm lives in <build>.
  if (dir.empty()) dir = (fs::path(gputlm::cli::self_exe()).parent_path() / "workloads").string();
  if (!fs::is_directory(dir)) throw std::runtime_error("gputlm suite: workloads directory '" + dir + "' not found");

  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && fs::is_regular_file(e.path() / size / "spec.json"))
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  for (const auto& o : only)
    if (std::find(names.begin(), names.end(), o) == names.end())
      throw std::runtime_error("gputlm suite: no workload '" + o + "' with " + size + " inputs in " + dir);
  if (!only.empty())
    names.erase(std::remove_if(names.begin(), names.end(),
                               [&](const std::string& n) { return std::find(only.begin(), only.end(), n) == only.end(); }),
                names.end());
  if (names.empty()) throw std::runtime_error("gputlm suite: no workload has " + size + " inputs in " + dir +
                             (size == "small" ? "" : " (generate them: cmake --build BUILD --target workloads_" + size + ")"));

  fs::path outdir = out.empty() ? fs::temp_directory_path() / ("gputlm_suite_" + std::to_string(getpid())) : fs::path(out);
  fs::create_directories(outdir);
  std::vector<Job> timing, functional;
  for (const auto& n : names) {
    Job j;
    j.workload = n;
    j.spec = (fs::path(dir) / n / size / "spec.json").string();
    j.stats = outdir / (n + ".timing.json");
    j.log = outdir / (n + ".timing.log");
    j.args = {"run", j.spec, "--config", config, "--quiet", "--stats", j.stats.string()};
    for (const std::string& o : overrides) j.args.insert(j.args.end(), {"-p", o});
    timing.push_back(j);
    if (bench) {
      j.stats = outdir / (n + ".functional.json");
      j.log = outdir / (n + ".functional.log");
      j.args = {"run", j.spec, "--functional", "--quiet", "--stats", j.stats.string()};
      functional.push_back(j);
    }
  }
  const std::string exe = gputlm::cli::self_exe();
  std::printf("gputlm suite: %zu workloads (%s inputs) on %s%s\n", names.size(), size.c_str(), config.c_str(),
              bench ? ", with speed" : "");
  std::fflush(stdout);
  // Speed figures are measured one process at a time when benchmarking (-j would share the cores).
  run_all(timing, bench ? 1 : parallel, exe);
  if (bench) run_all(functional, 1, exe);

  std::vector<Row> rows;
  bool all_ok = true;
  for (std::size_t i = 0; i < timing.size(); ++i) {
    const Job& j = timing[i];
    Row r;
    r.workload = j.workload;
    r.rss_kb = j.max_rss_kb;
    const nlohmann::json s = read_json(j.stats);
    if (j.exit_code == 0 && s.is_object()) r.status = "PASS";
    else if (j.exit_code == 3) r.status = "MISMATCH";
    else r.status = "ERROR";
    if (r.status != "PASS") {
      r.detail = j.exit_code >= 128 ? "killed by signal " + std::to_string(j.exit_code - 128) +
                                          (j.exit_code - 128 == SIGSEGV ? " (segmentation fault)" : "")
                                    : first_error_line(j.log);
      all_ok = false;
    }
    if (s.is_object()) {
      r.cycles = static_cast<uint64_t>(num(s, "cycles"));
      for (const auto& l : s["launches"]) {
        ++r.launches;
        r.warp_instr += l.value("warp_instructions", uint64_t{0});
        r.thread_instr += l.value("thread_instructions", uint64_t{0});
      }
      r.host_s = num(s, "host", "seconds");
      r.wips = num(s, "host", "warp_instructions_per_second");
      r.cps = num(s, "host", "cycles_per_second");
    }
    if (bench) r.functional_wips = num(read_json(functional[i].stats), "total", "warp_instructions_per_second");
    rows.push_back(r);
  }

  if (bench)
    std::printf("%-12s %-8s %8s %12s %8s %14s %10s %12s %10s %9s %14s\n", "workload", "status", "launches", "cycles",
                "IPC", "warp instr", "host s", "warp instr/s", "cycles/s", "peak MB", "functional w/s");
  else
    std::printf("%-12s %-8s %8s %12s %8s %14s\n", "workload", "status", "launches", "cycles", "IPC", "warp instr");
  for (const Row& r : rows) {
    const double ipc = r.cycles ? static_cast<double>(r.thread_instr) / static_cast<double>(r.cycles) : 0;
    if (bench)
      std::printf("%-12s %-8s %8llu %12llu %8.2f %14llu %10.2f %12.0f %10.0f %9.1f %14.0f\n", r.workload.c_str(),
                  r.status.c_str(), static_cast<unsigned long long>(r.launches), static_cast<unsigned long long>(r.cycles),
                  ipc, static_cast<unsigned long long>(r.warp_instr), r.host_s, r.wips, r.cps, r.rss_kb / 1024.0,
                  r.functional_wips);
    else
      std::printf("%-12s %-8s %8llu %12llu %8.2f %14llu\n", r.workload.c_str(), r.status.c_str(),
                  static_cast<unsigned long long>(r.launches), static_cast<unsigned long long>(r.cycles), ipc,
                  static_cast<unsigned long long>(r.warp_instr));
    if (!r.detail.empty()) std::printf("    %s\n", r.detail.c_str());
  }
  std::printf("%s: %zu of %zu workloads passed (statistics in %s)\n", all_ok ? "PASS" : "FAIL",
              static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.status == "PASS"; })),
              rows.size(), outdir.c_str());
  return all_ok ? 0 : 1;
}

}  // namespace

GPUTLM_CLI_COMMAND("suite", "run the workload suite on a timing GPU and print a table", cmd_suite);
