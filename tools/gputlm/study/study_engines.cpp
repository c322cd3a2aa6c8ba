#include "study/study_engines.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "study/study_results.h"

namespace gputlm::study {

namespace fs = std::filesystem;

namespace {

volatile sig_atomic_t g_stop = 0;
void on_stop(int sig) { g_stop = sig; }

// Installs on_stop for SIGINT/SIGTERM for the lifetime of the object.
class StopSignals {
 public:
  StopSignals() {
    g_stop = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

std::string duration(double s) {
  char b[32];
  if (s >= 3600) std::snprintf(b, sizeof b, "%dh%02dm", int(s / 3600), int(s / 60) % 60);
  else std::snprintf(b, sizeof b, "%dm%02ds", int(s / 60), int(s) % 60);
  return b;
}

// finished/total, failures, elapsed and ETA on stderr: redrawn in place on a terminal, a
// line per finished job otherwise (when asked for).
class Progress {
 public:
  Progress(std::size_t total, bool forced) : total_(total), tty_(isatty(STDERR_FILENO)), on_(tty_ || forced) {}
  void update(std::size_t done, std::size_t failed) {
    if (!on_) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
    const std::string eta = done ? duration(el / static_cast<double>(done) * static_cast<double>(total_ - done)) : "?";
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done / total_) : width;
    std::string bar(static_cast<std::size_t>(filled), '=');
    bar.resize(width, ' ');
    std::fprintf(stderr, "%s[%s] %zu/%zu jobs  %zu failed  elapsed %s  ETA %s%s", tty_ ? "\r" : "", bar.c_str(), done,
                 total_, failed, duration(el).c_str(), eta.c_str(), tty_ ? " " : "\n");
    std::fflush(stderr);
  }
  void finish() {
    if (on_ && tty_) std::fprintf(stderr, "\n");
  }

 private:
  std::size_t total_;
  bool tty_, on_;
  std::chrono::steady_clock::time_point begin_ = std::chrono::steady_clock::now();
};

std::vector<std::string> job_argv(const Plan& plan, const std::string& id) {
  return {plan.exe, "study", "job", plan.results_dir, id};
}

pid_t spawn(const std::vector<std::string>& argv, const std::string& out_file = "/dev/null") {
  const pid_t pid = fork();
  if (pid < 0) throw StudyError("fork failed");
  if (pid == 0) {
    FILE* f = std::freopen(out_file.c_str(), "a", stdout);
    if (!f || dup2(fileno(f), STDERR_FILENO) < 0) _exit(126);
    std::vector<char*> c;
    for (const std::string& a : argv) c.push_back(const_cast<char*>(a.c_str()));
    c.push_back(nullptr);
    execvp(c[0], c.data());
    std::fprintf(stderr, "cannot execute %s\n", c[0]);
    _exit(127);
  }
  return pid;
}

// Runs a command to completion; its standard output is returned, its exit code in *code.
std::string capture(const std::vector<std::string>& argv, int* code) {
  const std::string cmd = shell_join(argv) + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw StudyError("cannot run " + argv[0]);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  *code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  return out;
}

bool on_path(const std::string& tool) {
  int code = 0;
  capture({"sh", "-c", "command -v " + tool}, &code);
  return code == 0;
}

unsigned core_count() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1;
}

std::size_t count_finished(const Plan& plan, const std::vector<std::string>& ids, std::size_t* failed) {
  std::size_t done = 0;
  *failed = 0;
  for (const std::string& id : ids)
    if (auto r = read_result(plan.results_dir, id)) {
      ++done;
      if (!r->ok) ++*failed;
    }
  return done;
}

void run_local(const Plan& plan, const std::vector<std::string>& ids, const EngineOptions& o, RunOutcome& out) {
  const unsigned workers = o.workers ? o.workers : core_count();
  StopSignals stop;
  Progress bar(ids.size(), o.progress);
  std::map<pid_t, std::string> running;
  std::size_t next = 0, done = 0, failed = 0;
  bar.update(0, 0);
  while (done < ids.size()) {
    while (!g_stop && running.size() < workers && next < ids.size()) {
      const std::string& id = ids[next++];
      running[spawn(job_argv(plan, id))] = id;
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) {
        for (const auto& [p, id] : running) kill(p, g_stop ? g_stop : SIGTERM);
        continue;
      }
      throw StudyError("waiting for jobs failed");
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    running.erase(it);
    ++done;
    if (!ok) ++failed;
    bar.update(done, failed);
  }
  bar.finish();
  out.interrupted = g_stop != 0;
}

void run_parallel(const Plan& plan, const std::vector<std::string>& ids, const EngineOptions& o, RunOutcome& out) {
  if (!on_path("parallel")) throw StudyError("GNU parallel not found on PATH (Debian package 'parallel')");
  const fs::path dir = fs::path(plan.results_dir) / "parallel";
  fs::create_directories(dir);
  const std::string commands = (dir / "commands.txt").string();
  {
    std::ofstream f(commands);
    for (const std::string& id : ids) f << shell_join(job_argv(plan, id)) << "\n";
    if (!f) throw StudyError("cannot write '" + commands + "'");
  }
  std::vector<std::string> argv{"parallel", "--will-cite", "--halt", "never", "-j",
                                std::to_string(o.workers ? o.workers : core_count()), "--joblog",
                                (dir / "joblog").string()};
  if (o.progress || isatty(STDERR_FILENO)) argv.push_back("--bar");
  argv.insert(argv.end(), {"-a", commands});
  StopSignals stop;
  const pid_t pid = spawn(argv, (dir / "parallel.log").string());
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw StudyError("waiting for GNU parallel failed");
    kill(pid, SIGTERM);  // parallel passes it on to its jobs
  }
  out.interrupted = g_stop != 0;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 255)
    throw StudyError("GNU parallel failed: see " + (dir / "parallel.log").string());
}

void run_slurm(const Plan& plan, const std::vector<std::string>& ids, const EngineOptions& o, RunOutcome& out) {
  for (const char* tool : {"sbatch", "squeue"})
    if (!on_path(tool)) throw StudyError(std::string(tool) + " not found on PATH: is this a SLURM login node?");
  const fs::path root = fs::path(plan.results_dir) / "slurm";
  fs::create_directories(root);
  int n = 1;
  while (fs::exists(root / ("submit-" + std::to_string(n)))) ++n;
  const fs::path dir = root / ("submit-" + std::to_string(n));
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "ids.txt");
    for (const std::string& id : ids) f << id << "\n";
  }
  const fs::path script = dir / "array.sbatch";
  {
    std::ofstream f(script);
    f << "#!/bin/bash\n"
      << "#SBATCH --job-name=gputlm-" << plan.study << "\n"
      << "#SBATCH --array=0-" << ids.size() - 1 << (o.workers ? "%" + std::to_string(o.workers) : "") << "\n"
      << "#SBATCH --output=" << (dir / "task-%a.out").string() << "\n"
      << "#SBATCH --ntasks=1\n";
    for (const std::string& a : o.sbatch_args) f << "#SBATCH " << a << "\n";
    f << "# One array task per study job: the task's line of ids.txt names the job.\n"
      << "set -euo pipefail\n"
      << "id=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " << shell_join({(dir / "ids.txt").string()}) << ")\n"
      << "exec " << shell_join({plan.exe, "study", "job", plan.results_dir}) << " \"$id\"\n";
    if (!f) throw StudyError("cannot write '" + script.string() + "'");
  }
  int code = 0;
  std::string reply = capture({"sbatch", "--parsable", script.string()}, &code);
  if (code != 0) throw StudyError("sbatch refused " + script.string() + ": " + reply);
  out.slurm_job = reply.substr(0, reply.find_first_of(";\n"));
  std::fprintf(stderr, "gputlm study: submitted SLURM array job %s (%zu tasks, script %s)\n", out.slurm_job.c_str(),
               ids.size(), script.c_str());
  if (!o.wait) return;
  StopSignals stop;
  Progress bar(ids.size(), o.progress);
  int unreachable = 0;
  while (!g_stop) {
    std::string q = capture({"squeue", "-h", "-j", out.slurm_job, "-o", "%i"}, &code);
    std::size_t failed = 0;
    bar.update(count_finished(plan, ids, &failed), failed);
    // A job the controller has forgotten is over; a controller that does not answer is not.
    if (code != 0 && q.find("Invalid job id") == std::string::npos) {
      if (++unreachable == 30)
        throw StudyError("squeue keeps failing (" + q.substr(0, q.find('\n')) + "); the array job " + out.slurm_job +
                         " may still run: `gputlm study status` follows it");
    } else if (code != 0 || q.find_first_not_of(" \n") == std::string::npos) {
      break;
    } else {
      unreachable = 0;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(o.poll_seconds));
  }
  bar.finish();
  if (g_stop) {
    out.interrupted = true;
    std::fprintf(stderr, "gputlm study: stopped waiting; SLURM job %s keeps running (scancel %s to cancel it)\n",
                 out.slurm_job.c_str(), out.slurm_job.c_str());
    return;
  }
  // SLURM's own word on each task, kept beside the results: sacct where accounting is on,
  // else the controller's record (kept MinJobAge seconds after the job ends).
  std::string acct = capture({"sacct", "-j", out.slurm_job, "--format=JobID,State,ExitCode", "-P", "-n"}, &code);
  std::map<std::size_t, std::string> state;
  if (code == 0 && !acct.empty()) {
    std::ofstream(dir / "sacct.txt") << acct;
    std::istringstream in(acct);
    for (std::string line; std::getline(in, line);) {  // 12_3|FAILED|1:0 (steps "12_3.batch" skipped)
      const auto us = line.find('_'), sep = line.find('|');
      if (us == std::string::npos || sep == std::string::npos || line.find('.') < sep) continue;
      const std::string task = line.substr(us + 1, sep - us - 1);
      if (task.empty() || task.find_first_not_of("0123456789") != std::string::npos) continue;
      std::string rest = line.substr(sep + 1);
      const auto sep2 = rest.find('|');
      state[std::stoul(task)] = rest.substr(0, sep2) + ", exit " + (sep2 == std::string::npos ? "?" : rest.substr(sep2 + 1));
    }
  } else {
    acct = capture({"scontrol", "show", "job", "-o", out.slurm_job}, &code);
    std::ofstream(dir / "scontrol.txt") << acct;
    std::istringstream in(acct);
    auto field = [](const std::string& line, const std::string& key) {
      const auto at = line.find(" " + key + "=");
      if (at == std::string::npos) return std::string();
      const auto from = at + key.size() + 2;
      return line.substr(from, line.find(' ', from) - from);
    };
    for (std::string line; std::getline(in, line);) {
      const std::string task = field(line, "ArrayTaskId");
      if (task.empty() || task.find_first_not_of("0123456789") != std::string::npos) continue;
      state[std::stoul(task)] = field(line, "JobState") + ", exit " + field(line, "ExitCode");
    }
  }
  for (std::size_t i = 0; i < ids.size(); ++i)
    out.slurm_tasks[ids[i]] = "SLURM task " + std::to_string(i) + ": " +
                              (state.count(i) ? state[i] : std::string("state unknown")) + ", log " +
                              (dir / ("task-" + std::to_string(i) + ".out")).string();
}

}  // namespace

std::vector<Failure> collect_failures(const Plan& plan, const std::vector<std::string>& ids) {
  std::vector<Failure> out;
  for (const std::string& id : ids) {
    const auto r = read_result(plan.results_dir, id);
    if (r && r->ok) continue;
    Failure f;
    f.id = id;
    const Job& j = plan.job(id);
    f.command = shell_join(j.run_argv(plan.exe, (fs::path(job_dir(plan.results_dir, id)) / "stats.json").string()));
    f.log = (fs::path(job_dir(plan.results_dir, id)) / "log.txt").string();
    if (!r) f.error = "no result: the job did not finish (killed, cancelled or crashed before writing its result)";
    else f.error = "exit status " + std::to_string(r->exit_status) + (r->error.empty() ? "" : ": " + r->error);
    out.push_back(f);
  }
  return out;
}

RunOutcome run_plan(const Plan& plan, const StudySpec& study, const EngineOptions& opts) {
  RunOutcome out;
  out.total = plan.jobs.size();
  std::vector<std::string> pending;
  for (const Job& j : plan.jobs) {
    const auto r = read_result(plan.results_dir, j.id);
    if (r && r->ok) {
      ++out.skipped;
      continue;
    }
    if (r && r->corrupt) std::fprintf(stderr, "job %s: %s\n", j.id.c_str(), r->error.c_str());
    if (r) fs::remove(fs::path(job_dir(plan.results_dir, j.id)) / "result.json");  // a failed job runs again
    write_job_file(plan, j, study);
    pending.push_back(j.id);
  }
  out.ran = pending.size();
  if (pending.empty()) return out;
  if (opts.engine == "local") run_local(plan, pending, opts, out);
  else if (opts.engine == "parallel") run_parallel(plan, pending, opts, out);
  else if (opts.engine == "slurm") run_slurm(plan, pending, opts, out);
  else throw StudyError("unknown engine '" + opts.engine + "' (local, parallel, slurm)");
  if (opts.engine == "slurm" && !opts.wait) return out;
  out.failures = collect_failures(plan, pending);
  for (Failure& f : out.failures)
    if (out.slurm_tasks.count(f.id)) f.error += " [" + out.slurm_tasks[f.id] + "]";
  return out;
}

}  // namespace gputlm::study
