#include "study/study_results.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "study/metrics.h"

namespace gputlm::study {

namespace fs = std::filesystem;

namespace {

volatile sig_atomic_t g_child = 0;

// A signal that ends the job runner ends its simulation too, and no result is written.
void forward_signal(int sig) {
  if (g_child > 0) kill(g_child, sig);
  _exit(128 + sig);
}

std::string first_error_line(const std::string& log) {
  std::ifstream f(log);
  std::string line, first;
  while (std::getline(f, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.find("error") != std::string::npos || line.find("MISMATCH") != std::string::npos ||
        line.find("mismatch") != std::string::npos)
      return line;
  }
  return first;
}

}  // namespace

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw StudyError("cannot read '" + path + "'");
  try {
    return nlohmann::json::parse(f);
  } catch (const std::exception& e) {
    throw StudyError("'" + path + "' is not valid JSON: " + e.what());
  }
}

std::string job_dir(const std::string& results, const std::string& id) { return (fs::path(results) / "jobs" / id).string(); }

void write_atomic(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw StudyError("cannot write '" + tmp + "'");
    f << text;
    f.flush();
    if (!f) throw StudyError("failed writing '" + tmp + "'");
  }
  int fd = ::open(tmp.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw StudyError("cannot rename '" + tmp + "' to '" + path + "'");
}

void write_job_file(const Plan& plan, const Job& job, const StudySpec& study) {
  const std::string dir = job_dir(plan.results_dir, job.id);
  fs::create_directories(dir);
  if (!job.spec_text.empty()) write_atomic(job.spec, job.spec_text);  // a pair's concurrent spec
  nlohmann::json j;
  j["id"] = job.id;
  j["study"] = study.name;
  j["workload"] = job.workload;
  j["size"] = job.size;
  j["variants"] = job.variants;
  j["command"] = job.run_argv(plan.exe, (fs::path(dir) / "stats.json.part").string());
  j["metrics"] = nlohmann::json::array();
  for (const Metric& m : study.metrics)  // a weighted speedup is the report's, from several jobs
    if (!m.weighted_speedup) j["metrics"].push_back(m.to_json());
  j["timeout_seconds"] = study.timeout_seconds;
  j["memory_limit_mb"] = study.memory_limit_mb;
  write_atomic((fs::path(dir) / "job.json").string(), j.dump(1) + "\n");
}

std::optional<JobResult> read_result(const std::string& results, const std::string& id) {
  const fs::path dir = job_dir(results, id);
  const fs::path p = dir / "result.json";
  if (!fs::exists(p)) return std::nullopt;
  JobResult r;
  r.id = id;
  auto corrupt = [&](const std::string& why) {
    r.ok = false;
    r.corrupt = true;
    r.error = "corrupt result (" + why + "): the job runs again";
    return r;
  };
  nlohmann::json j;
  try {
    j = read_json_file(p.string());
    if (!j.is_object() || j.value("id", std::string()) != id || !j.contains("ok") || !j["ok"].is_boolean())
      return corrupt("result.json is not this job's result");
    r.ok = j.value("ok", false);
    r.exit_status = j.value("exit_status", -1);
    r.timed_out = j.value("timed_out", false);
    r.host_seconds = j.value("host_seconds", 0.0);
    r.max_rss_kb = j.value("max_rss_kb", 0L);
    r.error = j.value("error", "");
    r.time_series = j.value("time_series", false);
    if (j.contains("command")) r.command = j["command"].get<std::vector<std::string>>();
    if (j.contains("metrics"))
      for (auto it = j["metrics"].begin(); it != j["metrics"].end(); ++it)
        if (it->is_number()) r.metrics[it.key()] = it->get<double>();
  } catch (const std::exception& e) {  // invalid JSON, or a field of the wrong type
    return corrupt(std::string("result.json: ") + e.what());
  }
  if (r.ok && j.contains("stats")) {  // a result that names its statistics file
    const fs::path stats = dir / "stats.json";
    if (!fs::is_regular_file(stats)) return corrupt("stats.json is missing");
    if (j.contains("stats_hash") && hash_file(stats.string()) != j.value("stats_hash", std::string()))
      return corrupt("stats.json changed since the job wrote it");
  }
  return r;
}

int run_job(const std::string& results, const std::string& id) {
  const std::string dir = job_dir(results, id);
  const nlohmann::json job = read_json_file((fs::path(dir) / "job.json").string());
  const std::vector<std::string> argv = job.at("command").get<std::vector<std::string>>();
  const double timeout = job.value("timeout_seconds", 0.0);
  const uint64_t memory_limit_mb = job.value("memory_limit_mb", uint64_t{0});
  const std::string log = (fs::path(dir) / "log.txt").string();
  const std::string part = (fs::path(dir) / "stats.json.part").string();
  fs::remove(part);

  signal(SIGTERM, forward_signal);
  signal(SIGINT, forward_signal);
  const auto begin = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw StudyError("fork failed");
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(126);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    if (memory_limit_mb > 0) {  // the simulation's allocations fail beyond it (gputlm reports that)
      const rlim_t bytes = static_cast<rlim_t>(memory_limit_mb) << 20;
      const rlimit lim{bytes, bytes};
      setrlimit(RLIMIT_AS, &lim);
    }
    std::vector<char*> c;
    for (const std::string& a : argv) c.push_back(const_cast<char*>(a.c_str()));
    c.push_back(nullptr);
    execv(c[0], c.data());
    std::fprintf(stderr, "gputlm study job: cannot execute %s\n", c[0]);
    _exit(127);
  }
  g_child = pid;
  int status = 0;
  bool timed_out = false;
  rusage ru{};
  while (true) {
    const pid_t w = wait4(pid, &status, timeout > 0 ? WNOHANG : 0, &ru);
    if (w == pid) break;
    if (w < 0) throw StudyError("waiting for the simulation failed");
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (!timed_out && elapsed > timeout) {
      kill(pid, SIGKILL);
      timed_out = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  g_child = 0;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

  nlohmann::json r;
  r["id"] = id;
  r["workload"] = job.at("workload");
  r["size"] = job.at("size");
  r["variants"] = job.at("variants");
  r["command"] = argv;
  r["exit_status"] = code;
  r["timed_out"] = timed_out;
  r["host_seconds"] = seconds;
  r["max_rss_kb"] = ru.ru_maxrss;
  r["log"] = "log.txt";
  bool ok = code == 0 && fs::exists(part);
  if (ok) {
    const std::string stats_path = (fs::path(dir) / "stats.json").string();
    fs::rename(part, stats_path);
    r["stats"] = "stats.json";
    r["stats_hash"] = hash_file(stats_path);  // read_result notices a damaged stats.json
    const nlohmann::json stats = read_json_file(stats_path);
    r["time_series"] = stats.contains("time_series");
    r["metrics"] = nlohmann::json::object();
    for (const auto& mj : job.at("metrics")) {
      const Metric m = Metric::from_json(mj, "job.json");
      if (auto v = evaluate(m, stats, seconds)) r["metrics"][m.name] = *v;
    }
  } else {
    if (timed_out) r["error"] = "timed out after " + std::to_string(timeout) + " s";
    else if (WIFSIGNALED(status))
      r["error"] = std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" +
                   strsignal(WTERMSIG(status)) + ")" +
                   (WTERMSIG(status) == SIGKILL ? ": out of memory (the kernel's OOM killer) or killed from outside" : "") +
                   "; log: " + first_error_line(log);
    else r["error"] = first_error_line(log);
    if (memory_limit_mb > 0 && r["error"].get<std::string>().find("out of host memory") != std::string::npos)
      r["error"] = r["error"].get<std::string>() + " (memory_limit_mb = " + std::to_string(memory_limit_mb) + ")";
  }
  r["ok"] = ok;
  write_atomic((fs::path(dir) / "result.json").string(), r.dump(1) + "\n");
  return code;
}

}  // namespace gputlm::study
