// `gputlm study` as a user runs it: local workers and GNU parallel, resume, failure
// reports, a killed run, the report's files and plots, errors in the study file.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <thread>

#include "study/study_results.h"
#include "study_test_util.h"

using namespace study_test;

namespace {

std::string python() { return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

}  // namespace

TEST_CASE("study: local engine runs every cell, a re-run skips them, report writes tables and plots of the CSV's data",
          "[study][cli]") {
  const fs::path dir = scratch("cli_local");
  const std::string study = write_study(dir, small_study());
  const std::string res = (dir / "results").string();
  CliResult plan = run_cli(dir, "study plan " + study + " --results " + res);
  INFO(plan.output);
  REQUIRE(plan.exit_code == 0);
  CHECK_THAT(plan.output, Catch::Contains("4 cells, 4 jobs") && Catch::Contains(" run ") &&
                              Catch::Contains("-p sm.scheduler.policy=gto --stats " + res + "/jobs/"));

  CliResult run = run_cli(dir, "study run " + study + " --results " + res + " -j 2 --progress");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.output, Catch::Contains("4 jobs: 0 already finished, 4 run, 0 failed"));
  CHECK_THAT(run.output, Catch::Contains("4/4 jobs  0 failed"));  // progress lines
  CHECK(count_results(res) == 4);
  for (const auto& e : fs::directory_iterator(fs::path(res) / "jobs")) {
    const auto r = gputlm::study::read_result(res, e.path().filename().string());
    REQUIRE(r);
    CHECK(r->ok);
    CHECK(r->exit_status == 0);
    CHECK(r->host_seconds > 0);
    CHECK(r->metrics.count("ipc"));
    CHECK(fs::exists(e.path() / "stats.json"));
    CHECK(fs::exists(e.path() / "log.txt"));
  }

  CliResult again = run_cli(dir, "study run " + study + " --results " + res);
  INFO(again.output);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.output, Catch::Contains("4 jobs: 4 already finished, 0 run, 0 failed"));

  CliResult rep = run_cli(dir, "study report " + study + " --results " + res + " --out " + (dir / "report").string());
  INFO(rep.output);
  REQUIRE(rep.exit_code == 0);
  for (const char* f : {"report.csv", "aggregates.csv", "report.json", "report.md", "plots/bars_ipc_small.png",
                        "plots/bars_ipc_small.svg", "plots/bars_ipc_small.data.json"})
    CHECK(fs::exists(dir / "report" / f));
  CHECK_THAT(slurp(dir / "report" / "report.md"), Catch::Contains("| **geomean (all)** | | | **1.000** |"));
  const std::string check = python() + " " + GPUTLM_SOURCE_DIR + "/tests/study/check_plots.py " + (dir / "report").string();
  CHECK(std::system(check.c_str()) == 0);
  // A second report of the same results is byte-identical, plots included (committed
  // reports then change only where the results do).
  CliResult rep2 = run_cli(dir, "study report " + study + " --results " + res + " --out " + (dir / "report2").string());
  REQUIRE(rep2.exit_code == 0);
  for (const char* f : {"report.csv", "aggregates.csv", "report.json", "report.md", "plots/bars_ipc_small.png",
                        "plots/bars_ipc_small.svg", "plots/bars_ipc_small.data.json"}) {
    INFO(f);
    CHECK(slurp(dir / "report" / f) == slurp(dir / "report2" / f));
  }
  CliResult status = run_cli(dir, "study status " + study + " --results " + res);
  CHECK_THAT(status.output, Catch::Contains("4 jobs: 4 finished, 0 failed, 0 not run"));
}

TEST_CASE("study: GNU parallel engine runs the jobs with its joblog", "[study][cli]") {
  const fs::path dir = scratch("cli_parallel");
  const std::string study = write_study(dir, small_study());
  const std::string res = (dir / "results").string();
  CliResult run = run_cli(dir, "study run " + study + " --results " + res + " --engine parallel -j 2");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.output, Catch::Contains("4 jobs: 0 already finished, 4 run, 0 failed"));
  CHECK(count_results(res) == 4);
  const std::string joblog = slurp(fs::path(res) / "parallel" / "joblog");
  CHECK(std::count(joblog.begin(), joblog.end(), '\n') == 5);  // header + one line per job
  CHECK_THAT(joblog, Catch::Contains(" study job " + res + " "));
}

TEST_CASE("study: a failing job is reported with its command and log, and a re-run runs it again", "[study][cli]") {
  const fs::path dir = scratch("cli_fail");
  // A copy of vecadd whose CPU reference is wrong: every run ends in an output mismatch.
  const fs::path wl = dir / "workloads";
  fs::create_directories(wl / "vecadd");
  fs::copy(fs::path(GPUTLM_WORKLOADS_BUILD_DIR) / "vecadd" / "small", wl / "vecadd" / "small", fs::copy_options::recursive);
  {
    std::ofstream bad(wl / "vecadd" / "small" / "c_ref.bin", std::ios::binary | std::ios::trunc);
    const std::string zeros(4096 * 4, '\x7f');
    bad << zeros;
  }
  nlohmann::json j = small_study();
  j["workloads"] = {"vecadd"};
  const std::string study = write_study(dir, j);
  const std::string res = (dir / "results").string();
  const std::string args = "study run " + study + " --results " + res + " --workloads " + wl.string();
  CliResult run = run_cli(dir, args);
  INFO(run.output);
  CHECK(run.exit_code == 3);
  CHECK_THAT(run.output, Catch::Contains("2 jobs: 0 already finished, 2 run, 2 failed"));
  CHECK_THAT(run.output, Catch::Contains("FAILED") && Catch::Contains("exit status 3") &&
                             Catch::Contains("command: ") && Catch::Contains("/log.txt"));
  CliResult again = run_cli(dir, args);
  CHECK_THAT(again.output, Catch::Contains("2 jobs: 0 already finished, 2 run, 2 failed"));
  CliResult rep = run_cli(dir, "study report " + study + " --results " + res + " --workloads " + wl.string() +
                                   " --no-plots --out " + (dir / "rep").string());
  CHECK(rep.exit_code == 3);
  CHECK_THAT(slurp(dir / "rep" / "report.md"), Catch::Contains("## Failed jobs") && Catch::Contains("exit status 3"));
}

TEST_CASE("study: a killed run keeps every finished result and the next run resumes", "[study][cli]") {
  const fs::path dir = scratch("cli_kill");
  nlohmann::json j = small_study();
  j["workloads"] = {"vecadd", "scan", "saxpy", "reduce", "histogram", "conv1d"};
  const std::string study = write_study(dir, j);
  const fs::path res = dir / "results";
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setpgid(0, 0);  // its own process group: the test kills the engine and its jobs at once
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    execl(GPUTLM_CLI, GPUTLM_CLI, "study", "run", study.c_str(), "--results", res.c_str(), "-j", "1", nullptr);
    _exit(127);
  }
  setpgid(pid, pid);
  const auto start = std::chrono::steady_clock::now();
  while (count_results(res) < 2 && std::chrono::steady_clock::now() - start < std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(-pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  const std::size_t kept = count_results(res);
  REQUIRE(kept >= 2);
  REQUIRE(kept < 12);
  for (const auto& e : fs::directory_iterator(res / "jobs")) {
    if (!fs::exists(e.path() / "result.json")) continue;
    const auto r = gputlm::study::read_result(res.string(), e.path().filename().string());  // parses: never half-written
    REQUIRE(r);
    CHECK(r->ok);
    CHECK(fs::exists(e.path() / "stats.json"));
  }
  CliResult resume = run_cli(dir, "study run " + study + " --results " + res.string());
  INFO(resume.output);
  CHECK(resume.exit_code == 0);
  CHECK_THAT(resume.output, Catch::Contains("12 jobs: " + std::to_string(kept) + " already finished, " +
                                            std::to_string(12 - kept) + " run, 0 failed"));
}

TEST_CASE("study: a broken study file or option is an error naming the cause", "[study][cli]") {
  const fs::path dir = scratch("cli_bad");
  nlohmann::json j = small_study();
  j["metrics"] = {"ipc", {{"name", "hits"}, {"path", "a.b"}, {"colour", "red"}}};
  const std::string study = write_study(dir, j);
  CliResult r = run_cli(dir, "study plan " + study);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("study.json: metrics[1]: colour: unknown key"));
  r = run_cli(dir, "study run " + write_study(dir, small_study(), "ok") + " --engine cloud");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("unknown engine 'cloud' (local, parallel, slurm)"));
  r = run_cli(dir, "study run " + write_study(dir, small_study(), "ok") + " -j zero");
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("-j needs a positive number"));
  r = run_cli(dir, "study report " + (dir / "missing.json").string());
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("missing.json: cannot open the study file"));
  r = run_cli(dir, "study");
  CHECK(r.exit_code == 2);
}

TEST_CASE("study: runs that sample a time series get time-series plots of exactly their samples", "[study][cli]") {
  const fs::path dir = scratch("cli_timeseries");
  nlohmann::json j = small_study();
  j["workloads"] = {"scan"};
  j["variants"] = {{{"name", "lrr"}, {"overrides", {"sm.scheduler.policy=lrr", "sample_period=500"}}},
                   {{"name", "gto"}, {"overrides", {"sm.scheduler.policy=gto"}}}};
  const std::string study = write_study(dir, j);
  const std::string res = (dir / "results").string();
  CliResult run = run_cli(dir, "study run " + study + " --results " + res);
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CliResult rep = run_cli(dir, "study report " + study + " --results " + res + " --out " + (dir / "rep").string());
  INFO(rep.output);
  REQUIRE(rep.exit_code == 0);
  const fs::path ts = dir / "rep" / "plots" / "timeseries";
  CHECK(fs::exists(ts / "scan_small_lrr.png"));
  CHECK(fs::exists(ts / "scan_small_lrr.svg"));
  CHECK_FALSE(fs::exists(ts / "scan_small_gto.png"));  // gto did not sample
  const nlohmann::json drawn = nlohmann::json::parse(slurp(ts / "scan_small_lrr.data.json"));
  const nlohmann::json report = nlohmann::json::parse(slurp(dir / "rep" / "report.json"));
  std::string stats_path;
  for (const auto& r : report["rows"])
    if (r["variant"] == "lrr") stats_path = r["stats"];
  const nlohmann::json sampled = nlohmann::json::parse(slurp(stats_path))["time_series"];
  CHECK(drawn["cycle"] == sampled["cycle"]);
  REQUIRE(drawn["series"].contains("ipc"));
  for (auto it = drawn["series"].begin(); it != drawn["series"].end(); ++it) CHECK(*it == sampled["series"][it.key()]);
}

TEST_CASE("study: a parameter sweep is run and drawn as lines whose points equal the CSV", "[study][cli]") {
  const fs::path dir = scratch("cli_sweep");
  nlohmann::json j = small_study();
  j.erase("variants");
  j.erase("baseline");
  j["sweep"] = {{"parameter", "sm.l1d.mshr.entries"}, {"values", {8, 32, 64}}, {"name", "mshr{}"}};
  const std::string study = write_study(dir, j);
  const std::string res = (dir / "results").string();
  CliResult run = run_cli(dir, "study run " + study + " --results " + res);
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.output, Catch::Contains("6 jobs: 0 already finished, 6 run, 0 failed"));
  CliResult rep = run_cli(dir, "study report " + study + " --results " + res + " --out " + (dir / "rep").string());
  INFO(rep.output);
  REQUIRE(rep.exit_code == 0);
  CHECK(fs::exists(dir / "rep" / "plots" / "sweep_ipc_small.png"));
  const nlohmann::json drawn = nlohmann::json::parse(slurp(dir / "rep" / "plots" / "sweep_ipc_small.data.json"));
  CHECK(drawn["x"] == nlohmann::json({8.0, 32.0, 64.0}));
  CHECK(drawn["series"].contains("vecadd"));
  CHECK(drawn["series"].contains("geomean(all)"));
  const std::string check = python() + " " + GPUTLM_SOURCE_DIR + "/tests/study/check_plots.py " + (dir / "rep").string();
  CHECK(std::system(check.c_str()) == 0);
}

TEST_CASE("study: several sweeps and a best-of variant are run and drawn per sweep with the CSV's values",
          "[study][cli]") {
  const fs::path dir = scratch("cli_sweeps");
  nlohmann::json j = small_study();
  j["variants"] = {{{"name", "lrr"}, {"overrides", {"sm.scheduler.policy=lrr"}}}};
  j["sweeps"] = {{{"parameter", "sm.l1d.mshr.entries"}, {"values", {8, 64}}, {"name", "mshr{}"}},
                 {{"parameter", "sm.scheduler.warp_limit"}, {"values", {2, 48}}, {"name", "swl_wl{}"},
                  {"overrides", {"sm.scheduler.policy=swl", "sm.scheduler.warp_limit_scope=sm"}}}};
  j["derived"] = {{{"name", "b_swl"}, {"best_of", "swl_wl{}"}, {"metric", "ipc"}}};
  const std::string study = write_study(dir, j);
  const std::string res = (dir / "results").string();
  CliResult run = run_cli(dir, "study run " + study + " --results " + res + " -j 2");
  INFO(run.output);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.output, Catch::Contains("10 jobs: 0 already finished, 10 run, 0 failed"));  // b_swl runs none
  CliResult rep = run_cli(dir, "study report " + study + " --results " + res + " --out " + (dir / "rep").string());
  INFO(rep.output);
  REQUIRE(rep.exit_code == 0);
  const fs::path plots = dir / "rep" / "plots";
  CHECK_FALSE(fs::exists(plots / "sweep_ipc_small.png"));  // several sweeps: a numbered figure each
  const nlohmann::json s1 = nlohmann::json::parse(slurp(plots / "sweep1_ipc_small.data.json"));
  const nlohmann::json s2 = nlohmann::json::parse(slurp(plots / "sweep2_ipc_small.data.json"));
  CHECK(s1["x"] == nlohmann::json({8.0, 64.0}));
  CHECK(s1["sweep"] == "mshr{}");
  CHECK(s2["x"] == nlohmann::json({2.0, 48.0}));
  CHECK(s2["variants"] == nlohmann::json({"swl_wl2", "swl_wl48"}));
  const nlohmann::json bars = nlohmann::json::parse(slurp(plots / "bars_ipc_small.data.json"));
  CHECK(bars["series"].contains("b_swl"));
  const std::string md = slurp(dir / "rep" / "report.md");
  CHECK_THAT(md, Catch::Contains("(plots/sweep1_ipc_small.png)") && Catch::Contains("(plots/sweep2_ipc_small.png)"));
  // b_swl is, per workload, the higher ipc of swl_wl2 and swl_wl48, and names it.
  const nlohmann::json report = nlohmann::json::parse(slurp(dir / "rep" / "report.json"));
  for (const char* w : {"vecadd", "scan"}) {
    std::map<std::string, nlohmann::json> row;
    for (const auto& r : report["rows"])
      if (r["workload"] == w) row[r["variant"].get<std::string>()] = r;
    INFO(w);
    REQUIRE(row.count("b_swl"));
    const double a = row["swl_wl2"]["value"]["ipc"], b = row["swl_wl48"]["value"]["ipc"];
    const std::string best = b > a ? "swl_wl48" : "swl_wl2";
    CHECK(row["b_swl"]["status"] == "ok");
    CHECK(row["b_swl"]["chosen_variant"] == best);
    CHECK(row["b_swl"]["value"]["ipc"].get<double>() == std::max(a, b));
    CHECK(row["b_swl"]["job_id"] == row[best]["job_id"]);
  }
  const std::string check = python() + " " + GPUTLM_SOURCE_DIR + "/tests/study/check_plots.py " + (dir / "rep").string();
  CHECK(std::system(check.c_str()) == 0);
}
