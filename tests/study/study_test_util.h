// Shared helpers of the study tests: a scratch folder per test process, study files
// written from JSON text with the repository's config, and fabricated job results.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "study/study_plan.h"
#include "study/study_results.h"

namespace study_test {

namespace fs = std::filesystem;

// A fresh folder for this test process (ctest runs test cases in parallel processes).
inline fs::path scratch(const std::string& name) {
  const fs::path p = fs::path(GPUTLM_STUDY_TEST_TMP) / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

inline std::string fermi_config() { return std::string(GPUTLM_SOURCE_DIR) + "/configs/fermi_gtx480.json"; }

// Writes `j` (with "config" defaulting to the Fermi config) as dir/<name>.json.
inline std::string write_study(const fs::path& dir, nlohmann::json j, const std::string& name = "study") {
  if (!j.contains("config")) j["config"] = fermi_config();
  const fs::path p = dir / (name + ".json");
  std::ofstream(p) << j.dump(1);
  return p.string();
}

// What reading study `j` (written to a scratch folder) throws; "no error" when it reads.
inline std::string study_error(const nlohmann::json& j) {
  try {
    gputlm::study::read_study(write_study(scratch("study_error"), j));
  } catch (const gputlm::study::StudyError& e) {
    return e.what();
  }
  return "no error";
}

// The plan's cell of workload `w` under variant `v`; a test failure when there is none.
inline const gputlm::study::Cell& cell(const gputlm::study::Plan& p, const std::string& w, const std::string& v) {
  for (const gputlm::study::Cell& c : p.cells)
    if (c.workload == w && c.variant == v) return c;
  FAIL("no cell " << w << "/" << v);
  return p.cells.front();
}

// Two small workloads x two scheduling policies.
inline nlohmann::json small_study(const std::string& name = "tiny") {
  return {{"name", name},
          {"variants",
           {{{"name", "lrr"}, {"overrides", {"sm.scheduler.policy=lrr"}}},
            {{"name", "gto"}, {"overrides", {"sm.scheduler.policy=gto"}}}}},
          {"workloads", {"vecadd", "scan"}},
          {"classes", {{"memory", {"vecadd"}}, {"compute", {"scan"}}}},
          {"metrics", {"ipc", "cycles", {{"name", "l1d_hit_rate"}, {"ratio", {"total.sm*.l1d.load_hits", "total.sm*.l1d.loads"}}}}},
          {"baseline", "lrr"}};
}

// Plan options over the build's workloads, results under dir/results, `exe` hashed as the binary.
inline gputlm::study::PlanOptions options(const fs::path& dir, const std::string& exe) {
  gputlm::study::PlanOptions o;
  o.workloads_dir = GPUTLM_WORKLOADS_BUILD_DIR;
  o.exe = exe;
  o.results_dir = (dir / "results").string();
  return o;
}

// Writes a finished job's result.json with the given metric values (nothing is simulated).
inline void fake_result(const gputlm::study::Plan& plan, const std::string& id, bool ok, const nlohmann::json& metrics) {
  using gputlm::study::job_dir;
  fs::create_directories(job_dir(plan.results_dir, id));
  nlohmann::json r{{"id", id}, {"ok", ok}, {"exit_status", ok ? 0 : 3}, {"host_seconds", 1.5}, {"metrics", metrics},
                   {"command", {"gputlm", "run"}}};
  if (!ok) r["error"] = "output out mismatches";
  gputlm::study::write_atomic(job_dir(plan.results_dir, id) + "/result.json", r.dump());
}

// A study over workloads w1..w4 whose specs are files of their own (nothing is simulated),
// generated at each of `sizes`, and its plan.
struct FakeStudy {
  fs::path dir;
  gputlm::study::StudySpec study;
  gputlm::study::Plan plan;
};
inline FakeStudy fake_study(const std::string& name, const nlohmann::json& j, std::initializer_list<const char*> sizes) {
  FakeStudy f;
  f.dir = scratch(name);
  const std::string exe = (f.dir / "exe").string();
  std::ofstream(exe) << "binary";
  gputlm::study::PlanOptions o = options(f.dir, exe);
  o.workloads_dir = (f.dir / "workloads").string();
  for (const char* w : {"w1", "w2", "w3", "w4"})
    for (const char* size : sizes) {
      fs::create_directories(f.dir / "workloads" / w / size);
      std::ofstream(f.dir / "workloads" / w / size / "spec.json") << "{\"w\": \"" << w << "/" << size << "\"}";
    }
  f.study = gputlm::study::read_study(write_study(f.dir, j));
  f.plan = gputlm::study::make_plan(f.study, o);
  return f;
}

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

#ifdef GPUTLM_CLI
struct CliResult {
  int exit_code = -1;
  std::string output;
};

// `gputlm ARGS` with stdout and stderr together.
inline CliResult run_cli(const fs::path& dir, const std::string& args) {
  const fs::path out = dir / ("cli_" + std::to_string(::getpid()) + ".txt");
  const std::string cmd = std::string(GPUTLM_CLI) + " " + args + " > " + out.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.output = slurp(out);
  return r;
}

// Jobs of a results folder that have a result.json.
inline std::size_t count_results(const fs::path& results) {
  std::size_t n = 0;
  if (!fs::exists(results / "jobs")) return 0;
  for (const auto& e : fs::directory_iterator(results / "jobs"))
    if (fs::exists(e.path() / "result.json")) ++n;
  return n;
}
#endif

}  // namespace study_test
