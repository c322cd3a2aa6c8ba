// `gputlm study plan|run|report|status STUDY.json` and `gputlm study job RESULTS ID`:
// design-space studies over the workload suite (docs/experiments.md).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli.h"
#include "options.h"
#include "study/study_engines.h"
#include "study/study_plan.h"
#include "study/study_report.h"
#include "study/study_results.h"
#include "study/study_spec.h"

namespace {

namespace fs = std::filesystem;
using namespace gputlm::study;

constexpr int kExitJobsFailed = 3;

int study_usage(FILE* out) {
  std::fprintf(out,
               "usage: gputlm study plan   STUDY.json [--sizes SET] [--results DIR] [--workloads DIR]\n"
               "       gputlm study run    STUDY.json [--engine local|parallel|slurm] [-j N] [--sizes SET]\n"
               "                           [--results DIR] [--workloads DIR] [--progress]\n"
               "                           [--sbatch-arg ARG]... [--no-wait]\n"
               "       gputlm study report STUDY.json [--sizes SET] [--results DIR] [--out DIR] [--no-plots]\n"
               "       gputlm study status STUDY.json [--sizes SET] [--results DIR]\n"
               "       gputlm study job    RESULTS_DIR JOB_ID   (what every engine runs for one job)\n\n"
               "A study (docs/experiments.md) runs every workload x size x variant cell as one `gputlm run`.\n"
               "  --sizes SET      the study's size set (default: \"default\"; e.g. \"full\" on a cluster)\n"
               "  --results DIR    results folder (default: studies/<study name>)\n"
               "  --workloads DIR  generated workloads (default: the build's workloads/)\n"
               "  --engine E       local: worker processes here; parallel: GNU parallel (joblog under\n"
               "                   RESULTS/parallel); slurm: one sbatch --array (scripts under RESULTS/slurm)\n"
               "  -j N             local/parallel: concurrent jobs (default: core count);\n"
               "                   slurm: array throttle %%N (default: none)\n"
               "  --sbatch-arg A   an extra #SBATCH option, e.g. --sbatch-arg=--partition=long (repeatable)\n"
               "  --no-wait        slurm: submit and return; `study status`/`report` later\n"
               "  --progress       progress lines even when stderr is not a terminal\n"
               "  --out DIR        report folder (default: RESULTS/report)\n"
               "  --no-plots       tables only (no python3-matplotlib needed)\n"
               "A re-run skips jobs with a verified result and runs failed ones again.\n"
               "Exit status: 0 success, 3 some job failed (listed with command and log), 1 error, 2 usage.\n");
  return out == stdout ? 0 : 2;
}

struct Args {
  std::string verb, study_file, sizes = "default", results, workloads, out;
  EngineOptions engine;
  bool plots = true;
};

bool parse(int argc, char** argv, Args& a) {
  if (argc < 2) return false;
  a.verb = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string s = argv[i];
    std::string inline_value;
    if (s.rfind("--", 0) == 0 && s.find('=') != std::string::npos) {
      inline_value = s.substr(s.find('=') + 1);
      s = s.substr(0, s.find('='));
    }
    auto value = [&]() -> std::string {
      if (!inline_value.empty()) return inline_value;
      if (i + 1 >= argc) throw StudyError(s + " needs a value");
      return argv[++i];
    };
    if (s == "--sizes") a.sizes = value();
    else if (s == "--results") a.results = value();
    else if (s == "--workloads") a.workloads = value();
    else if (s == "--out") a.out = value();
    else if (s == "--engine") a.engine.engine = value();
    else if (s == "-j") {
      const std::string v = value();
      if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || std::stoul(v) == 0)
        throw StudyError("-j needs a positive number, not '" + v + "'");
      a.engine.workers = static_cast<unsigned>(std::stoul(v));
    } else if (s == "--sbatch-arg") a.engine.sbatch_args.push_back(value());
    else if (s == "--no-wait") a.engine.wait = false;
    else if (s == "--progress") a.engine.progress = true;
    else if (s == "--no-plots") a.plots = false;
    else if (s == "--help" || s == "-h") return false;
    else if (!s.empty() && s[0] == '-') throw StudyError("unknown option '" + s + "'");
    else if (a.study_file.empty()) a.study_file = s;
    else if (a.verb == "job" && a.out.empty()) a.out = s;  // job RESULTS ID: ID
    else throw StudyError("unexpected argument '" + s + "'");
  }
  if (a.engine.engine != "local" && a.engine.engine != "parallel" && a.engine.engine != "slurm")
    throw StudyError("unknown engine '" + a.engine.engine + "' (local, parallel, slurm)");
  return !a.study_file.empty();
}

Plan plan_of(const StudySpec& study, const Args& a) {
  PlanOptions o;
  o.size_set = a.sizes;
  o.exe = gputlm::cli::self_exe();
  o.workloads_dir = a.workloads.empty() ? (fs::path(o.exe).parent_path() / "workloads").string() : a.workloads;
  o.results_dir = fs::absolute(a.results.empty() ? fs::path("studies") / study.name : fs::path(a.results))
                      .lexically_normal()
                      .string();
  return make_plan(study, o);
}

void print_failures(const std::vector<Failure>& failures) {
  for (const Failure& f : failures)
    std::fprintf(stderr, "  FAILED %s: %s\n    command: %s\n    log: %s\n", f.id.c_str(), f.error.c_str(),
                 f.command.c_str(), f.log.c_str());
}

int cmd_study(int argc, char** argv) {
  Args a;
  if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) return study_usage(stdout);
  if (!parse(argc, argv, a)) return study_usage(stderr);
  if (a.verb == "job") {
    if (a.out.empty()) return study_usage(stderr);
    return run_job(a.study_file, a.out);
  }
  const StudySpec study = read_study(a.study_file);
  const Plan plan = plan_of(study, a);
  if (a.verb == "plan") {
    std::printf("# study %s: %zu cells, %zu jobs (sizes %s), results in %s\n", study.name.c_str(), plan.cells.size(),
                plan.jobs.size(), plan.size_set.c_str(), plan.results_dir.c_str());
    for (const Job& j : plan.jobs)
      std::printf("%s\t%s\n", j.id.c_str(),
                  shell_join(j.run_argv(plan.exe, job_dir(plan.results_dir, j.id) + "/stats.json")).c_str());
    return 0;
  }
  if (a.verb == "status") {
    std::size_t done = 0, failed = 0;
    for (const Job& j : plan.jobs)
      if (auto r = read_result(plan.results_dir, j.id)) ++(r->ok ? done : failed);
    std::printf("%s: %zu jobs: %zu finished, %zu failed, %zu not run (results in %s)\n", study.name.c_str(),
                plan.jobs.size(), done, failed, plan.jobs.size() - done - failed, plan.results_dir.c_str());
    return failed ? kExitJobsFailed : 0;
  }
  if (a.verb == "run") {
    const RunOutcome out = run_plan(plan, study, a.engine);
    if (a.engine.engine == "slurm" && !a.engine.wait) {
      std::printf("%s: submitted SLURM job %s for %zu jobs (%zu already finished); `gputlm study status` follows it\n",
                  study.name.c_str(), out.slurm_job.c_str(), out.ran, out.skipped);
      return 0;
    }
    std::printf("%s: %zu jobs: %zu already finished, %zu run, %zu failed (results in %s)\n", study.name.c_str(),
                out.total, out.skipped, out.ran, out.failures.size(), plan.results_dir.c_str());
    print_failures(out.failures);
    if (out.interrupted) {
      std::fprintf(stderr, "%s: interrupted; finished results are kept, a re-run continues\n", study.name.c_str());
      return 130;
    }
    return out.failures.empty() ? 0 : kExitJobsFailed;
  }
  if (a.verb == "report") {
    const Report rep = make_report(study, plan);
    const std::string out = a.out.empty() ? plan.results_dir + "/report" : a.out;
    const std::string md = write_report(rep, study, plan, out, a.plots);
    std::printf("%s: report of %zu cells in %s\n", study.name.c_str(), rep.rows.size(), md.c_str());
    print_failures(rep.failures);
    return rep.failures.empty() ? 0 : kExitJobsFailed;
  }
  std::fprintf(stderr, "gputlm study: unknown action '%s'\n", a.verb.c_str());
  return study_usage(stderr);
}

}  // namespace

GPUTLM_CLI_COMMAND("study", "plan, run (local, GNU parallel, SLURM) and report a design-space study", cmd_study);
