// A study expanded into cells (workload x size x variant) and jobs: one `gputlm run` per
// distinct simulation, named by a stable id hashed from everything that determines its
// result (resolved config after overrides, launch spec, workload, size, gputlm binary).
// Two cells whose variants resolve to the same config share one job. A pair of workloads
// (StudySpec::pairs) is a cell too: its job runs a concurrent spec the plan writes.
#pragma once

#include <string>
#include <vector>

#include "study/study_spec.h"

namespace gputlm::study {

struct Cell {
  std::string workload, size, variant, job_id;
};

struct Job {
  std::string id, workload, size, spec, config;
  std::vector<std::string> overrides;
  std::vector<std::string> variants;  // the cells it serves
  // A pair's job: the concurrent spec written to `spec` (in the job's folder) before it runs.
  std::string spec_text;
  // `gputlm run` command line (argv[0] = exe) writing its statistics to `stats_path`.
  std::vector<std::string> run_argv(const std::string& exe, const std::string& stats_path) const;
};

struct PlanOptions {
  std::string size_set = "default";
  std::string workloads_dir;  // <dir>/<workload>/<size>/spec.json
  std::string exe;            // the gputlm binary the jobs run
  std::string results_dir;    // absolute
};

struct Plan {
  std::string study, size_set, binary_hash, results_dir, exe;
  std::vector<std::string> sizes, workloads;
  std::vector<std::string> pairs;  // names of the study's pairs ("a+b"), their cells after the workloads'
  const Pair* pair(const std::string& name) const;  // nullptr: a single workload
  std::vector<Cell> cells;
  std::vector<Job> jobs;
  std::vector<Pair> pair_specs;  // the study's pairs, for pair()
  const Job& job(const std::string& id) const;
  // The workloads, then the pairs: the rows of the report's tables.
  std::vector<std::string> row_workloads() const;
};

Plan make_plan(const StudySpec& study, const PlanOptions& opts);

// FNV-1a 64 of a byte string / of a file's contents, as 16 hex digits.
std::string hash_hex(const std::string& bytes);
std::string hash_file(const std::string& path);

// What a job id hashes of a spec file: its text; for a concurrent spec, its text with each
// component's path replaced by that component's own hash (so the id changes when a
// component changes, and not when the files move). `text` is the file's contents.
std::string spec_content_hash(const std::string& path, const std::string& text);

// The concurrent spec of `pair` at `size` over `workloads_dir` (workload k on stream k).
std::string pair_spec_text(const Pair& pair, const std::string& workloads_dir, const std::string& size);

// One shell-quoted command line.
std::string shell_join(const std::vector<std::string>& argv);

}  // namespace gputlm::study
