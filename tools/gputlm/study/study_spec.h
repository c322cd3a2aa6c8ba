// A study file (experiments/<name>.json, docs/experiments.md): a base config, named
// variants (config file and/or -p overrides, or parameter sweeps), variants derived from a
// sweep's results (its best variant per cell), workloads and size sets, metrics, the
// baseline variant, the aggregation, workload classes (listed, or measured: "classify")
// and the papers' figures for the same cells. Read into typed structs; every error names
// the file and the key path, as config errors do.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gputlm::study {

class StudyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Variant {
  std::string name;
  std::string config;                  // absolute path; the study's base config when not given
  std::vector<std::string> overrides;  // "key.path=value", applied after the config
  std::string sweep_value;             // the swept parameter's value (sweep variants only)
};

// A metric read from a run's statistics JSON. Built-ins: cycles, ipc (thread instructions
// per busy cycle), warp_ipc, warp_instructions, thread_instructions, host_seconds. `path`
// sums every value a dotted path matches ('*' in a segment matches any key:
// "total.sm*.l1d.load_hits"); `ratio` divides two such sums.
struct Metric {
  std::string name;
  std::string path;                          // one sum, or empty
  std::string numerator, denominator;        // ratio, or empty
  bool higher_is_better = true;
  // false: shown and aggregated as raw values (arithmetic mean), e.g. shares of cycles or a
  // counter only some variants have; references then compare raw values too.
  bool normalise = true;
  // The study's "weighted_speedup" (WeightedSpeedup): computed by the report for pair cells
  // from several runs, never read from one run's statistics.
  bool weighted_speedup = false;
  nlohmann::json to_json() const;
  static Metric from_json(const nlohmann::json& j, const std::string& where);
};

// A paper's figure for a cell of this study: variant's `metric` normalised to the
// baseline, over one workload, one class (or several: "class:type-I,type-II") or all
// workloads. `baseline`, when given, is the variant the paper normalised this figure to
// (e.g. the same GPU at another thread count): ours is then the aggregate over the scope's
// cells of metric(variant) / metric(baseline), not of the study baseline's normalisation.
struct Reference {
  std::string variant, metric;
  std::string scope;  // "all", "class:<name>[,<name>...]" or "workload:<name>"
  std::string size;   // empty: every size
  std::string baseline;  // empty: the study's baseline
  double value = 0;
  std::string source, section, note;
  // The classes of a "class:" scope (one or several), else empty.
  std::vector<std::string> scope_classes() const;
};

// One parameter swept over values: one variant per value. name_format ("mshr{}", "{}" is
// replaced by the value) also names the sweep, e.g. in a derived variant's "best_of".
struct Sweep {
  std::string parameter, name_format;
  std::vector<std::string> values;     // text of each value (a string's, or the JSON of others)
  std::vector<std::string> variants;   // the variant of each value, in the same order
};

// A variant that runs no job: per cell (workload, size) the variant of sweep `sweep` whose
// raw `metric` is best (highest when the metric's higher_is_better, else lowest; ties: the
// first in the sweep's order), e.g. B-SWL, the best static warp limit per workload. The
// report (Report) makes its rows; a cell where any of the sweep's variants failed, is
// missing or did not resolve the metric is not ok.
struct Derived {
  std::string name;
  std::size_t sweep = 0;  // index in StudySpec::sweeps
  std::string metric;
};

// The optimal value of a sweep over a set of workloads (the LAWS thesis' optimal MSHR size,
// 001 §5.4.1: "the performance increases up to (48, U), then it saturates"): per size, the
// aggregate (the study's) over the scope's cells of each sweep variant's normalised `metric`,
// and the first value in the sweep's order whose aggregate is within `within` (a fraction)
// of the best value's. The report computes it (study_optimum.h); it runs no job.
struct Optimum {
  std::string name;
  std::size_t sweep = 0;  // index in StudySpec::sweeps
  std::string metric;     // a normalised metric of `metrics`
  double within = 0;      // 0 <= within < 1
  std::string scope = "all";  // "all" or "class:<name>[,<name>...]"
  std::vector<std::string> scope_classes;  // empty for "all"
};

struct PlotSpec {
  std::string kind;    // "bars" (normalised metric per workload + aggregate) or "sweep"
  std::string metric;
};

// One rule of a classifying chain: the cell is `cls` when
//  Above / Below: the raw `metric` of the classifying variant is > / < threshold;
//  SpreadBelow: every one of `variants` is within threshold of the classifying variant in
//    `metric` (max |value / classifying value - 1| < threshold: "no policy changes it by
//    10 % or more", the LAWS thesis' type-0);
//  Otherwise: always (the chain's last rule).
struct ClassRule {
  enum class Kind { Above, Below, SpreadBelow, Otherwise };
  std::string cls;
  Kind kind = Kind::Otherwise;
  std::string metric;
  double threshold = 0;
  std::vector<std::string> variants;  // SpreadBelow
  // "ipc / ipc(gto) within 1 ± 0.1 for every compared variant", "primary_miss_rate > 0.95", "otherwise"
  std::string text(const std::string& variant) const;
};

// Classes measured in the study itself. Two forms:
//  * one threshold (Mascar, HPCA'15, Table III: instructions per L1 miss > 30 is
//    compute-intensive): a cell (workload, size) is `above` when the raw value of `metric`
//    in `variant`'s run of that workload and size is > threshold, `below` when it is <=;
//  * a chain of `rules`, the first that holds deciding (the LAWS thesis' types 0/I/II/III).
// A cell is "other" when a run a rule needs failed, is missing or skipped, or its metric did
// not resolve. Applied by the report (Report::class_of), which has the results.
struct Classify {
  std::string metric, variant;  // variant: the baseline when not given
  double threshold = 0;
  std::string above, below;
  std::vector<ClassRule> rules;  // the chain form (metric, threshold, above, below unused)
};

// Workloads run together as one job (a concurrent spec, docs/launch-spec.md, that the plan
// writes from the workloads' own specs at each size): workload k on stream k, its launch
// sequence repeated repeat[k] times. Its cells are named "a+b" and form the class "pairs".
struct Pair {
  std::string name;                    // "nqueen+sgemm"
  std::vector<std::string> workloads;  // two or more
  std::vector<uint32_t> repeat;        // per workload (default 1 each)
  // Each workload runs again while another has not finished its repeats (004 §V: "loop
  // until the longer kernel finishes one run"); the study's "pair_loop" or the pair's "loop".
  bool loop = false;
};

// A derived metric of pair cells (004 §V, digest §Z41): WS = (1/n) sum_k IPC(pair, stream k)
// / IPC(workload k alone in variant `alone`), at the pair cell's size. The pair's IPC of
// stream k is its "streams" entry's ipc; the alone IPC is the built-in ipc of that cell.
struct WeightedSpeedup {
  std::string name;  // the metric's name (it joins "metrics")
  struct Component {
    uint32_t stream = 0;  // the pair's workload on this stream (its position)
    std::string alone;    // the variant (one that runs) whose run of that workload alone divides
  };
  std::vector<Component> components;
};

struct StudySpec {
  std::string file;  // absolute path of the study file
  std::string name, description;
  std::string config;  // absolute path
  std::vector<Variant> variants;  // the ones that run: listed ones, then each sweep's
  std::vector<Sweep> sweeps;      // "sweep" is read as a one-element list
  std::vector<Derived> derived;
  std::vector<Optimum> optima;
  std::vector<std::string> workloads;  // empty with all_workloads
  bool all_workloads = false;
  std::vector<std::string> exclude;
  std::map<std::string, std::vector<std::string>> size_sets;  // "default" always present
  // Per size set, cells left out ("kmeans/medium"): what keeps a set's wall time in bounds.
  std::map<std::string, std::vector<std::string>> skip;
  std::map<std::string, std::string> workload_class;          // workload -> class ("classes")
  std::optional<Classify> classify;                           // or measured classes
  std::vector<std::string> class_order;                       // with classify: below, above
  std::vector<Metric> metrics;
  std::string baseline;
  std::string aggregate = "geomean";  // or "mean"
  std::vector<Reference> references;
  std::vector<PlotSpec> plots;
  double timeout_seconds = 0;  // per job, 0 = none
  uint64_t memory_limit_mb = 0;  // per job (address space), 0 = none
  std::string discussion;      // absolute path of a Markdown file the report ends with, or empty
  std::vector<Pair> pairs;
  std::vector<std::string> pair_variants;  // the variants pair cells run in (default: every variant that runs)
  std::optional<WeightedSpeedup> weighted_speedup;

  const Variant& variant(const std::string& name) const;  // a variant that runs
  const Derived* find_derived(const std::string& name) const;  // nullptr if not derived
  // The names of the variants that run, then of the derived ones: the report's columns.
  std::vector<std::string> variant_names() const;
  const Metric* find_metric(const std::string& name) const;  // nullptr if not in `metrics`
  const Metric& metric(const std::string& name) const;
  // The static class of "classes" ("other" when unclassified, and for every workload of a
  // classifying study: its classes depend on the results, see Report::class_of).
  std::string class_of(const std::string& workload) const;
};

StudySpec read_study(const std::string& path);

// The class of pair cells; "all" aggregates the single workloads only.
inline constexpr const char* kPairsClass = "pairs";

// The input sizes workload-gen writes (workloads/gen/main.cpp): small and medium for every
// workload; thesis_a .. thesis_e (the LAWS thesis' configs A-E, 001 Table 2.3) only for
// montecarlo, streamcluster and laplace3d; ilp (004 Table 2's shapes) only for the eleven
// workloads that stand for Table 2's (a study naming these sizes lists those workloads).
const std::vector<std::string>& workload_sizes();
bool is_workload_size(const std::string& size);

}  // namespace gputlm::study
