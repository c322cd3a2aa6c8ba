// `gputlm study report`: a pure function of a plan's result files. One row per cell
// (workload x size x variant, derived variants after the ones that run) with each metric
// and its value normalised to the baseline variant, aggregates (geomean or mean) per
// workload class and over all workloads, the papers' figures beside ours, and plots
// (tools/study/plot_study.py, matplotlib).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "study/study_engines.h"
#include "study/study_optimum.h"
#include "study/study_plan.h"

namespace gputlm::study {

struct CellRow {
  Cell cell;
  std::string cls, status;  // status: ok, failed, missing (derived rows also: unresolved)
  double host_seconds = 0;
  bool time_series = false;
  std::map<std::string, double> value, norm;
  // A derived variant's row (StudySpec::Derived): when ok, the sweep variant chosen (its
  // values, job id and host seconds are the row's); otherwise `reason` names the sweep's
  // variants that failed, are missing or did not resolve the metric.
  bool derived = false;
  std::string chosen_variant, chosen_value, reason;
};

struct Aggregate {
  std::string size, variant, metric, cls;  // cls "all" for every workload
  double value = 0;
  std::size_t n = 0;
};

struct ReferenceRow {
  Reference ref;
  std::string size;
  std::optional<double> ours;
};

// The class of one (workload, size): the static "classes", or measured ("classify"): then
// `value` is the raw classifying metric and `status` says why a cell is "other" (the
// classifying variant's job failed, is missing, the size set skips it, or the metric is
// unresolved).
struct CellClass {
  std::string workload, size, cls;
  std::string status;  // classify only: ok, failed, missing, skipped, unresolved
  std::optional<double> value;  // the deciding rule's value (a chain's "otherwise": none)
  std::string rule;             // a chain: the rule that decided, or the run it lacked
};

struct Report {
  std::vector<CellClass> cell_classes;  // every workload x size of the plan, in plan order
  std::vector<CellRow> rows;
  std::vector<Aggregate> aggregates;
  std::vector<ReferenceRow> references;
  std::vector<OptimumRow> optima;  // StudySpec::optima per size (study_optimum.h)
  std::vector<Failure> failures;
  std::vector<std::string> classes;  // aggregation classes in order, "all" last
  const CellClass* cell_class(const std::string& workload, const std::string& size) const;  // nullptr: not in the plan
  std::string class_of(const std::string& workload, const std::string& size) const;        // "other" when unknown
};

Report make_report(const StudySpec& study, const Plan& plan);

// Writes report.csv, aggregates.csv, report.json and report.md into out_dir, and the plots
// into out_dir/plots unless `plots` is false. Returns the Markdown path.
std::string write_report(const Report& report, const StudySpec& study, const Plan& plan, const std::string& out_dir,
                         bool plots);

// `v` with `digits` decimals, as the reports print figures.
std::string fixed(double v, int digits = 3);

// Where the plot script is: $GPUTLM_PLOT_SCRIPT, else beside the sources or the install.
std::string plot_script();

}  // namespace gputlm::study
