// Studies survive faults (issue 18 point 5): a damaged result is noticed and its job runs
// again; a job that runs out of memory or past its time limit is reported with its
// command and log while the other jobs finish. (A study killed mid-run and resumed:
// study_cli_test.cpp.)
#include <catch2/catch.hpp>

#include <fstream>

#include "study/study_results.h"
#include "study_test_util.h"

using namespace study_test;
using gputlm::study::read_result;

// AddressSanitizer reserves terabytes of shadow address space: a sanitized gputlm cannot
// start under a study's memory_limit_mb (RLIMIT_AS), so that part is for plain builds.
#if defined(__SANITIZE_ADDRESS__)
#define GPUTLM_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUTLM_TEST_ASAN 1
#endif
#endif

namespace {
std::vector<std::string> job_ids(const fs::path& results) {
  std::vector<std::string> ids;
  for (const auto& e : fs::directory_iterator(results / "jobs")) ids.push_back(e.path().filename().string());
  std::sort(ids.begin(), ids.end());
  return ids;
}
}  // namespace

TEST_CASE("study: a damaged result.json or stats.json is noticed and its job runs again", "[study][cli]") {
  const fs::path dir = scratch("faults_corrupt");
  const std::string study = write_study(dir, small_study());
  const fs::path res = dir / "results";
  const std::string args = "study run " + study + " --results " + res.string() + " -j 2";
  CliResult first = run_cli(dir, args);
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  const std::vector<std::string> ids = job_ids(res);
  REQUIRE(ids.size() == 4);
  const fs::path jobs = res / "jobs";
  std::ofstream(jobs / ids[0] / "result.json", std::ios::trunc) << "{\"id\": \"" << ids[0] << "\", \"ok\": tr";
  std::ofstream(jobs / ids[1] / "result.json", std::ios::trunc) << "{\"id\": \"someone-else\", \"ok\": true}";
  {
    std::ofstream stats(jobs / ids[2] / "stats.json", std::ios::app);
    stats << " ";  // still valid JSON, but not what the job wrote
  }
  for (int i = 0; i < 3; ++i) {
    const auto r = read_result(res.string(), ids[static_cast<std::size_t>(i)]);
    REQUIRE(r);
    CHECK_FALSE(r->ok);
    CHECK(r->corrupt);
    CHECK_THAT(r->error, Catch::Contains("corrupt result"));
  }
  const auto intact = read_result(res.string(), ids[3]);
  REQUIRE(intact);
  CHECK(intact->ok);
  CHECK_FALSE(intact->corrupt);

  CliResult again = run_cli(dir, args);
  INFO(again.output);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.output, Catch::Contains("4 jobs: 1 already finished, 3 run, 0 failed"));
  CHECK_THAT(again.output, Catch::Contains("result.json: ") && Catch::Contains("not this job's result") &&
                               Catch::Contains("stats.json changed since the job wrote it"));
  for (const std::string& id : ids) {
    const auto r = read_result(res.string(), id);
    REQUIRE(r);
    CHECK(r->ok);
  }
}

TEST_CASE("study: a job out of memory or out of time is reported with its command and log, the others finish",
          "[study][cli]") {
  const fs::path dir = scratch("faults_limits");
#ifndef GPUTLM_TEST_ASAN
  // A workload folder: vecadd as built, and "bigbuf", vecadd with one more buffer of 1 GiB.
  const fs::path wl = dir / "workloads";
  for (const char* w : {"vecadd", "bigbuf"}) {
    fs::create_directories(wl / w);
    fs::copy(fs::path(GPUTLM_WORKLOADS_BUILD_DIR) / "vecadd" / "small", wl / w / "small", fs::copy_options::recursive);
  }
  {
    const fs::path spec = wl / "bigbuf" / "small" / "spec.json";
    nlohmann::json j = nlohmann::json::parse(slurp(spec));
    j["buffers"]["big"] = {{"type", "u8"}, {"count", uint64_t{1} << 30}, {"init", {{"fill", 1}}}};
    std::ofstream(spec, std::ios::trunc) << j.dump(1);
  }
  nlohmann::json j = small_study();
  j["workloads"] = {"vecadd", "bigbuf"};
  j.erase("classes");
  j["memory_limit_mb"] = 256;  // vecadd small runs in under 150 MB of address space
  const std::string study = write_study(dir, j);
  const std::string res = (dir / "results").string();
  CliResult run = run_cli(dir, "study run " + study + " --results " + res + " --workloads " + wl.string() + " -j 2");
  INFO(run.output);
  CHECK(run.exit_code == 3);
  CHECK_THAT(run.output, Catch::Contains("4 jobs: 0 already finished, 4 run, 2 failed"));
  CHECK_THAT(run.output, Catch::Contains("buffers.big: 1073741824 bytes: out of host memory") &&
                             Catch::Contains("(memory_limit_mb = 256)") && Catch::Contains("command: ") &&
                             Catch::Contains("/log.txt"));
#endif

  // A time limit the slowest small workload cannot meet: killed, reported, not retried forever.
  nlohmann::json t = small_study("slow");
  t["workloads"] = {"vecadd", "kmeans"};
  t.erase("classes");
  t["variants"] = {{{"name", "gto"}, {"overrides", {"sm.scheduler.policy=gto"}}}};
  t["baseline"] = "gto";
  t["timeout_seconds"] = 0.3;
  const std::string slow = write_study(dir, t, "slow");
  CliResult timed = run_cli(dir, "study run " + slow + " --results " + (dir / "slow").string() + " -j 2");
  INFO(timed.output);
  CHECK(timed.exit_code == 3);
  CHECK_THAT(timed.output, Catch::Contains("2 jobs: 0 already finished, 2 run, 1 failed") &&
                               Catch::Contains("timed out after 0.3"));
}
