// The engines that run a plan's unfinished jobs: `local` (worker processes on this
// machine, with a progress bar), `parallel` (GNU parallel with its joblog) and `slurm`
// (one `sbatch --array` script, waited for with squeue, task states from sacct). Each
// only starts `gputlm study job RESULTS ID` processes; results are read back from files.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "study/study_plan.h"

namespace gputlm::study {

struct EngineOptions {
  std::string engine = "local";
  unsigned workers = 0;  // local/parallel: concurrent jobs (0: the core count); slurm: %throttle (0: none)
  bool progress = false; // draw the progress bar even when stderr is not a terminal
  std::vector<std::string> sbatch_args;  // extra #SBATCH lines' options (--partition=..., --time=...)
  bool wait = true;      // slurm: wait for the array to finish
  double poll_seconds = 2;
};

struct Failure {
  std::string id, command, log, error;
};

struct RunOutcome {
  std::size_t total = 0, skipped = 0, ran = 0;
  std::vector<Failure> failures;
  std::string slurm_job;  // the array's job id (slurm)
  std::map<std::string, std::string> slurm_tasks;  // job id -> "task N: STATE, exit C:S, log FILE"
  bool interrupted = false;
};

// Runs every job of `plan` that has no successful result (failed ones run again).
RunOutcome run_plan(const Plan& plan, const StudySpec& study, const EngineOptions& opts);

// The failures among `ids` after an engine ran them (a job without result.json failed too).
std::vector<Failure> collect_failures(const Plan& plan, const std::vector<std::string>& ids);

}  // namespace gputlm::study
