// `gputlm correlate REF.csv (--suite DIR | --study STUDY.json --variant V | --stats W=FILE...)
// [--out DIR] [--no-plot]`: our cycles beside a reference's per workload or kernel, with
// Pearson r, mean and median absolute error and a log-log scatter plot (docs/experiments.md).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli.h"
#include "options.h"
#include "study/correlate.h"
#include "study/study_plan.h"
#include "study/study_report.h"
#include "study/study_results.h"
#include "study/study_spec.h"

namespace {

namespace fs = std::filesystem;
using namespace gputlm::study;

int correlate_usage(FILE* out) {
  std::fprintf(out,
               "usage: gputlm correlate REF.csv (--suite DIR | --study STUDY.json --variant V [--size S]\n"
               "                        [--results DIR] [--workloads DIR] | --stats WORKLOAD=FILE...)\n"
               "                        [--out DIR] [--no-plot]\n\n"
               "Puts our cycles (and warp/thread instruction counts) beside a reference's: another\n"
               "simulator's or hardware profiles'. REF.csv has a header with `workload`, optional `kernel`\n"
               "(empty: the whole workload; else a kernel name or launch label, summed over its launches),\n"
               "`cycles` or `ref_cycles`, optional `warp_instructions`/`ref_warp_insn`, `thread_instructions`.\n"
               "  --suite DIR      a `gputlm suite --out DIR` folder (<workload>.timing.json)\n"
               "  --study FILE     a study's results: the cells of --variant at --size (default: the first size)\n"
               "  --stats W=FILE   one run's statistics for workload W (repeatable)\n"
               "  --out DIR        correlation.csv, correlation.json and the scatter plot (default: correlation)\n"
               "Exit status: 0, 1 error (nothing matched, a bad file), 2 usage.\n");
  return out == stdout ? 0 : 2;
}

int cmd_correlate(int argc, char** argv) {
  std::string ref, suite, study_file, variant, size, results, workloads, out = "correlation";
  std::map<std::string, std::string> stats_of;
  bool plot = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw StudyError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") return correlate_usage(stdout);
    if (a == "--suite") suite = value();
    else if (a == "--study") study_file = value();
    else if (a == "--variant") variant = value();
    else if (a == "--size") size = value();
    else if (a == "--results") results = value();
    else if (a == "--workloads") workloads = value();
    else if (a == "--out") out = value();
    else if (a == "--no-plot") plot = false;
    else if (a == "--stats") {
      const std::string v = value();
      const auto eq = v.find('=');
      if (eq == std::string::npos || eq == 0) throw StudyError("--stats needs WORKLOAD=FILE, not '" + v + "'");
      stats_of[v.substr(0, eq)] = v.substr(eq + 1);
    } else if (!a.empty() && a[0] == '-') throw StudyError("unknown option '" + a + "'");
    else if (ref.empty()) ref = a;
    else throw StudyError("unexpected argument '" + a + "'");
  }
  if (ref.empty() || (suite.empty() && study_file.empty() && stats_of.empty())) return correlate_usage(stderr);
  if (!study_file.empty()) {
    const StudySpec s = read_study(study_file);
    if (variant.empty()) throw StudyError("--study needs --variant (one of the study's variants)");
    (void)s.variant(variant);
    PlanOptions o;
    o.exe = gputlm::cli::self_exe();
    o.workloads_dir = workloads.empty() ? (fs::path(o.exe).parent_path() / "workloads").string() : workloads;
    o.results_dir = fs::absolute(results.empty() ? fs::path("studies") / s.name : fs::path(results)).string();
    for (const auto& [set, sizes] : s.size_sets)
      if (std::find(sizes.begin(), sizes.end(), size.empty() ? s.size_sets.at("default").front() : size) != sizes.end()) {
        o.size_set = set;
        break;
      }
    const Plan p = make_plan(s, o);
    const std::string want = size.empty() ? p.sizes.front() : size;
    for (const Cell& c : p.cells)
      if (c.variant == variant && c.size == want) {
        const auto r = read_result(p.results_dir, c.job_id);
        if (r && r->ok) stats_of[c.workload] = job_dir(p.results_dir, c.job_id) + "/stats.json";
      }
  }
  const std::vector<RefRow> refs = read_reference_csv(ref);
  std::vector<CorrRow> rows;
  std::vector<std::string> unmatched, failed;
  for (const RefRow& r : refs) {
    if (r.reference_failed) {
      failed.push_back(r.workload + (r.kernel.empty() ? "" : "/" + r.kernel));
      continue;
    }
    std::string path = stats_of.count(r.workload) ? stats_of[r.workload] : "";
    if (path.empty() && !suite.empty()) {
      const fs::path p = fs::path(suite) / (r.workload + ".timing.json");
      if (fs::exists(p)) path = p.string();
    }
    std::optional<CorrRow> m;
    if (!path.empty()) m = match(r, read_json_file(path));
    if (m) rows.push_back(*m);
    else unmatched.push_back(r.workload + (r.kernel.empty() ? "" : "/" + r.kernel));
  }
  if (rows.empty()) throw StudyError("no reference row matched a run (first: " + unmatched.front() + ")");

  std::printf("%-14s %-22s %14s %14s %8s\n", "workload", "kernel", "reference", "gputlm", "ratio");
  for (const CorrRow& r : rows)
    std::printf("%-14s %-22s %14.0f %14.0f %8.3f\n", r.workload.c_str(), r.kernel.empty() ? "(all)" : r.kernel.c_str(),
                r.ref.at("cycles"), r.ours.count("cycles") ? r.ours.at("cycles") : 0.0,
                r.ours.count("cycles") && r.ref.at("cycles") > 0 ? r.ours.at("cycles") / r.ref.at("cycles") : 0.0);
  nlohmann::json j;
  j["reference"] = fs::absolute(ref).string();
  for (const CorrRow& r : rows) j["rows"].push_back({{"workload", r.workload}, {"kernel", r.kernel}, {"reference", r.ref}, {"gputlm", r.ours}});
  for (const char* q : {"cycles", "warp_instructions", "thread_instructions"}) {
    const CorrStats s = correlation(rows, q);
    if (s.n == 0) continue;
    std::printf("%-20s n %zu, Pearson r %.3f, mean |error| %.1f%%, median |error| %.1f%%\n", q, s.n, s.pearson_r,
                100 * s.mean_abs_error, 100 * s.median_abs_error);
    j["summary"][q] = {{"n", s.n}, {"pearson_r", s.pearson_r}, {"mean_abs_error", s.mean_abs_error},
                       {"median_abs_error", s.median_abs_error}};
  }
  j["unmatched"] = unmatched;
  j["reference_failed"] = failed;
  if (!failed.empty())
    std::printf("the reference failed %zu rows, left out (first: %s)\n", failed.size(), failed.front().c_str());
  if (!unmatched.empty()) std::printf("no run for %zu reference rows (first: %s)\n", unmatched.size(), unmatched.front().c_str());
  fs::create_directories(out);
  std::string csv = "workload,kernel,ref_cycles,cycles,ratio\n";
  for (const CorrRow& r : rows) {
    const double ours = r.ours.count("cycles") ? r.ours.at("cycles") : 0;
    char line[512];
    std::snprintf(line, sizeof line, "%s,%s,%.10g,%.10g,%.10g\n", r.workload.c_str(), r.kernel.c_str(), r.ref.at("cycles"),
                  ours, r.ref.at("cycles") > 0 ? ours / r.ref.at("cycles") : 0.0);
    csv += line;
  }
  write_atomic((fs::path(out) / "correlation.csv").string(), csv);
  const std::string json_path = (fs::path(out) / "correlation.json").string();
  write_atomic(json_path, j.dump(1) + "\n");
  if (plot) {
    const char* py = std::getenv("GPUTLM_PYTHON");
    const std::string python = py ? py : fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    const std::string script = (fs::path(plot_script()).parent_path() / "plot_correlation.py").string();
    const std::string cmd = shell_join({python, script, json_path, (fs::path(out) / "correlation").string()});
    if (std::system(cmd.c_str()) != 0)
      throw StudyError("plotting failed (" + cmd + "): it needs python3-matplotlib; --no-plot skips the plot");
  }
  std::printf("written: %s/correlation.{csv,json%s}\n", out.c_str(), plot ? ",png,svg" : "");
  return 0;
}

}  // namespace

GPUTLM_CLI_COMMAND("correlate", "our cycles beside a reference CSV: ratios, Pearson r, errors, scatter plot",
                   cmd_correlate);
