// A study's results folder: RESULTS/jobs/<id>/ holds job.json (what to run, written before
// the job is dispatched), log.txt, stats.json and result.json. result.json is written last,
// by rename, so a job is finished exactly when it exists, and a killed run loses no
// finished result. `gputlm study job RESULTS ID` (run_job) is what every engine starts.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "study/study_plan.h"

namespace gputlm::study {

struct JobResult {
  std::string id;
  bool ok = false;          // exited 0 (every output verified) with statistics written
  int exit_status = -1;     // of `gputlm run`; 128 + signal when killed by one
  bool timed_out = false;
  double host_seconds = 0;
  long max_rss_kb = 0;
  bool time_series = false;  // its statistics carry a sampled "time_series"
  std::map<std::string, double> metrics;
  std::string error;        // first error line of the log when not ok
  std::vector<std::string> command;
  bool corrupt = false;     // result.json or its stats.json is damaged: not ok, `error` says how
};

std::string job_dir(const std::string& results, const std::string& id);

// A JSON file's contents; errors name the file.
nlohmann::json read_json_file(const std::string& path);

// Writes `text` to `path` through a temporary file and a rename.
void write_atomic(const std::string& path, const std::string& text);

// job.json for `job` (its command, metrics and time limit).
void write_job_file(const Plan& plan, const Job& job, const StudySpec& study);

// A job's result; nullopt when it has none. A damaged result (result.json not valid JSON or
// not this job's, or the stats.json a successful job's result names missing or changed since
// the job wrote it: its hash is in result.json) comes back not ok and `corrupt`, so that every
// engine runs the job again.
std::optional<JobResult> read_result(const std::string& results, const std::string& id);

// Runs the job described by RESULTS/jobs/<id>/job.json; returns the process exit code
// (gputlm run's, or 1 when the job could not start).
int run_job(const std::string& results, const std::string& id);

}  // namespace gputlm::study
