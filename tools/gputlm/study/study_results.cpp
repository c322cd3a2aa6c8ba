#include "study/study_results.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
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
  write_atomic((fs::path(dir) / "job.json").string(), j.dump(1) + "\n");
}

std::optional<JobResult> read_result(const std::string& results, const std::string& id) {
  const fs::path p = fs::path(job_dir(results, id)) / "result.json";
  if (!fs::exists(p)) return std::nullopt;
  const nlohmann::json j = read_json_file(p.string());
  JobResult r;
  r.id = j.value("id", id);
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
  return r;
}

int run_job(const std::string& results, const std::string& id) {
  const std::string dir = job_dir(results, id);
  const nlohmann::json job = read_json_file((fs::path(dir) / "job.json").string());
  const std::vector<std::string> argv = job.at("command").get<std::vector<std::string>>();
  const double timeout = job.value("timeout_seconds", 0.0);
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
    const nlohmann::json stats = read_json_file(stats_path);
    r["time_series"] = stats.contains("time_series");
    r["metrics"] = nlohmann::json::object();
    for (const auto& mj : job.at("metrics")) {
      const Metric m = Metric::from_json(mj, "job.json");
      if (auto v = evaluate(m, stats, seconds)) r["metrics"][m.name] = *v;
    }
  } else {
    r["error"] = timed_out ? "timed out after " + std::to_string(timeout) + " s" : first_error_line(log);
  }
  r["ok"] = ok;
  write_atomic((fs::path(dir) / "result.json").string(), r.dump(1) + "\n");
  return code;
}

}  // namespace gputlm::study
