#include "study/study_report.h"

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <sstream>

#include "study/metrics.h"
#include "study/study_results.h"
#include "study/study_weighted_speedup.h"

namespace gputlm::study {

namespace fs = std::filesystem;

namespace {

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

using Results = std::map<std::string, std::optional<JobResult>>;

// A cell's raw metric value in one variant's run, or why there is none (classify_cells).
struct CellValue {
  std::string status;  // ok, failed, missing, skipped, unresolved
  double value = 0;
};
CellValue cell_value(const Plan& plan, const Results& results, const std::string& workload, const std::string& size,
                     const std::string& variant, const std::string& metric) {
  const Cell* cell = nullptr;
  for (const Cell& c : plan.cells)
    if (c.workload == workload && c.size == size && c.variant == variant) cell = &c;
  if (!cell) return {"skipped"};
  auto r = results.find(cell->job_id);
  if (r == results.end() || !r->second) return {"missing"};
  if (!r->second->ok) return {"failed"};
  auto v = r->second->metrics.find(metric);
  if (v == r->second->metrics.end() || std::isnan(v->second)) return {"unresolved"};
  return {"ok", v->second};
}

// A chain of rules (Classify::rules): the first that holds decides; a rule whose runs are
// not all ok leaves the cell "other" with the run it lacked.
void classify_by_rules(const Classify& c, const Plan& plan, const Results& results, CellClass& cc) {
  for (const ClassRule& rule : c.rules) {
    if (rule.kind == ClassRule::Kind::Otherwise) {
      cc.cls = rule.cls;
      cc.rule = rule.text(c.variant);
      cc.status = "ok";
      return;
    }
    const CellValue base = cell_value(plan, results, cc.workload, cc.size, c.variant, rule.metric);
    if (base.status != "ok") {
      cc.status = base.status;
      if (base.status != "skipped") cc.rule = c.variant + " " + base.status + " (" + rule.text(c.variant) + ")";
      return;
    }
    bool holds = false;
    double value = base.value;
    if (rule.kind == ClassRule::Kind::SpreadBelow) {
      double spread = 0;
      for (const std::string& v : rule.variants) {
        const CellValue other = cell_value(plan, results, cc.workload, cc.size, v, rule.metric);
        if (other.status != "ok") {
          cc.status = other.status;
          cc.rule = v + " " + other.status + " (" + rule.text(c.variant) + ")";
          return;
        }
        spread = std::max(spread, base.value != 0 ? std::fabs(other.value / base.value - 1) : HUGE_VAL);
      }
      value = spread;
      holds = spread < rule.threshold;
    } else {
      holds = rule.kind == ClassRule::Kind::Above ? base.value > rule.threshold : base.value < rule.threshold;
    }
    if (holds) {
      cc.cls = rule.cls;
      cc.value = value;
      cc.rule = rule.text(c.variant);
      cc.status = "ok";
      return;
    }
  }
}

// The class of every workload x size of the plan (StudySpec::Classify for measured classes).
std::vector<CellClass> classify_cells(const StudySpec& study, const Plan& plan, const Results& results) {
  std::vector<CellClass> out;
  for (const std::string& w : plan.workloads)
    for (const std::string& size : plan.sizes) {
      CellClass cc{w, size, study.class_of(w), "", std::nullopt, ""};
      if (study.classify && !study.classify->rules.empty()) {
        cc.cls = "other";
        classify_by_rules(*study.classify, plan, results, cc);
      } else if (study.classify) {
        const Classify& rule = *study.classify;
        cc.cls = "other";
        const CellValue v = cell_value(plan, results, w, size, rule.variant, rule.metric);
        cc.status = v.status;
        if (v.status == "ok") {
          cc.value = v.value;
          cc.cls = v.value > rule.threshold ? rule.above : rule.below;
        }
      }
      out.push_back(cc);
    }
  return out;
}

// Derived variant `d`'s row for one workload and size, from that cell's rows by variant:
// the sweep variant whose raw metric is best (ties: the first in the sweep's order), and
// only when every variant of the sweep is ok with the metric resolved; otherwise the row
// says which are not (never a best of fewer).
CellRow best_of(const StudySpec& study, const Derived& d, const std::map<std::string, const CellRow*>& by_variant,
                const std::string& workload, const std::string& size, const std::string& cls) {
  const Sweep& sw = study.sweeps[d.sweep];
  const Metric& m = study.metric(d.metric);
  CellRow row;
  row.cell = {workload, size, d.name, ""};
  row.cls = cls;
  row.derived = true;
  std::map<std::string, std::vector<std::string>> bad;  // failed, missing, unresolved -> variants
  const CellRow* best = nullptr;
  std::size_t best_at = 0;
  for (std::size_t i = 0; i < sw.variants.size(); ++i) {
    auto it = by_variant.find(sw.variants[i]);
    const CellRow* r = it == by_variant.end() ? nullptr : it->second;
    if (!r || r->status != "ok") {
      bad[r ? r->status : "missing"].push_back(sw.variants[i]);
      continue;
    }
    auto v = r->value.find(m.name);
    if (v == r->value.end() || std::isnan(v->second)) {
      bad["unresolved"].push_back(sw.variants[i]);
      continue;
    }
    const double b = best ? best->value.at(m.name) : 0;
    if (!best || (m.higher_is_better ? v->second > b : v->second < b)) {
      best = r;
      best_at = i;
    }
  }
  if (bad.empty()) {
    row.status = "ok";
    row.cell.job_id = best->cell.job_id;
    row.host_seconds = best->host_seconds;
    row.value = best->value;
    row.norm = best->norm;
    row.chosen_variant = best->cell.variant;
    row.chosen_value = sw.values[best_at];
    return row;
  }
  row.status = bad.count("failed") ? "failed" : bad.count("missing") ? "missing" : "unresolved";
  for (const char* kind : {"failed", "missing", "unresolved"}) {
    auto it = bad.find(kind);
    if (it == bad.end()) continue;
    const std::vector<std::string>& names = it->second;
    row.reason += (row.reason.empty() ? "" : "; ") + std::string(kind) + " " + std::to_string(names.size()) + " of " +
                  std::to_string(sw.variants.size()) + ":";
    for (std::size_t i = 0; i < names.size() && i < 3; ++i) row.reason += (i ? ", " : " ") + names[i];
    if (names.size() > 3) row.reason += ", ...";
  }
  if (row.status == "unresolved") row.reason += " (" + m.name + ")";
  return row;
}

}  // namespace

const CellClass* Report::cell_class(const std::string& workload, const std::string& size) const {
  for (const CellClass& c : cell_classes)
    if (c.workload == workload && c.size == size) return &c;
  return nullptr;
}

std::string Report::class_of(const std::string& workload, const std::string& size) const {
  const CellClass* c = cell_class(workload, size);
  return c ? c->cls : "other";
}

std::string plot_script() {
  if (const char* e = std::getenv("GPUTLM_PLOT_SCRIPT")) return e;
  for (const std::string& p : {std::string(GPUTLM_SOURCE_DIR) + "/tools/study/plot_study.py",
                               std::string(GPUTLM_INSTALL_DATADIR) + "/plot_study.py"})
    if (fs::exists(p)) return p;
  throw StudyError("the plot script plot_study.py is not found (set GPUTLM_PLOT_SCRIPT, or use --no-plots)");
}

Report make_report(const StudySpec& study, const Plan& plan) {
  Report rep;
  Results results;
  for (const Job& j : plan.jobs) {
    results[j.id] = read_result(plan.results_dir, j.id);
    auto& r = results[j.id];
    if (!r || !r->ok) continue;
    // A metric added to the study after the job ran is read from its statistics now.
    nlohmann::json stats;
    for (const Metric& m : study.metrics) {
      if (r->metrics.count(m.name) || m.weighted_speedup) continue;
      if (stats.is_null()) {
        std::ifstream f(fs::path(job_dir(plan.results_dir, j.id)) / "stats.json");
        if (!f) break;
        stats = nlohmann::json::parse(f, nullptr, false);
        if (stats.is_discarded()) break;
      }
      if (auto v = evaluate(m, stats, r->host_seconds)) r->metrics[m.name] = *v;
    }
  }
  add_weighted_speedups(study, plan, results);
  std::vector<std::string> failed_ids;
  for (const Job& j : plan.jobs)
    if (!results[j.id] || !results[j.id]->ok) failed_ids.push_back(j.id);
  rep.failures = collect_failures(plan, failed_ids);

  // Baseline values per (workload, size).
  std::map<std::pair<std::string, std::string>, const JobResult*> base;
  for (const Cell& c : plan.cells)
    if (c.variant == study.baseline && results[c.job_id] && results[c.job_id]->ok)
      base[{c.workload, c.size}] = &*results[c.job_id];

  rep.cell_classes = classify_cells(study, plan, results);
  std::set<std::string> used_classes;
  std::map<std::string, const CellRow*> by_variant;  // the current workload and size's rows
  std::vector<CellRow> group;
  // Plan cells come grouped by workload and size; each group's derived rows follow it.
  auto end_group = [&]() {
    if (group.empty()) return;
    by_variant.clear();
    for (const CellRow& r : group) by_variant[r.cell.variant] = &r;
    rep.rows.insert(rep.rows.end(), group.begin(), group.end());
    for (const Derived& d : study.derived)  // by_variant points into `group`: not appended to it
      rep.rows.push_back(best_of(study, d, by_variant, group.front().cell.workload, group.front().cell.size, group.front().cls));
    group.clear();
  };
  for (const Cell& c : plan.cells) {
    if (!group.empty() && (group.front().cell.workload != c.workload || group.front().cell.size != c.size)) end_group();
    CellRow row;
    row.cell = c;
    row.cls = plan.pair(c.workload) ? kPairsClass : rep.class_of(c.workload, c.size);
    used_classes.insert(row.cls);
    const auto& r = results[c.job_id];
    row.status = !r ? "missing" : r->ok ? "ok" : "failed";
    if (r) {
      row.host_seconds = r->host_seconds;
      row.time_series = r->time_series;
    }
    if (r && r->ok) {
      row.value = r->metrics;
      auto b = base.find({c.workload, c.size});
      for (const auto& [m, v] : r->metrics) {
        const Metric* spec = study.find_metric(m);
        if (spec && !spec->normalise) row.norm[m] = v;  // shown raw
        else if (b != base.end() && b->second->metrics.count(m) && b->second->metrics.at(m) != 0)
          row.norm[m] = v / b->second->metrics.at(m);
      }
    }
    group.push_back(row);
  }
  end_group();
  for (const std::string& c : study.class_order)
    if (used_classes.count(c)) rep.classes.push_back(c);
  if (used_classes.count("other") && (!study.workload_class.empty() || study.classify)) rep.classes.push_back("other");
  if (used_classes.count(kPairsClass)) rep.classes.push_back(kPairsClass);
  rep.classes.push_back("all");

  const std::vector<std::string> variants = study.variant_names();
  for (const std::string& size : plan.sizes)
    for (const std::string& v : variants)
      for (const Metric& m : study.metrics)
        for (const std::string& cls : rep.classes) {
          std::vector<double> vals;
          for (const CellRow& row : rep.rows)
            // "all": the single workloads; pair cells aggregate in their own class.
            if (row.cell.size == size && row.cell.variant == v &&
                (cls == "all" ? row.cls != kPairsClass : row.cls == cls) &&
                row.norm.count(m.name))
              vals.push_back(row.norm.at(m.name));
          if (auto a = aggregate_values(vals, m.normalise ? study.aggregate : "mean"))
            rep.aggregates.push_back({size, v, m.name, cls, *a, vals.size()});
        }

  rep.optima = find_optima(study, plan.sizes, rep.rows);

  // Ours beside each reference: per cell in scope the variant's metric normalised to the
  // study baseline (row.norm), or divided by the reference's own baseline variant's value in
  // the same cell; a workload scope is its one cell, a class or "all" the aggregate (as the
  // aggregates table: geomean/mean, raw metrics by mean).
  std::map<std::tuple<std::string, std::string, std::string>, const CellRow*> row_of;
  for (const CellRow& row : rep.rows) row_of[{row.cell.workload, row.cell.size, row.cell.variant}] = &row;
  for (const Reference& ref : study.references)
    for (const std::string& size : plan.sizes) {
      if (!ref.size.empty() && ref.size != size) continue;
      ReferenceRow rr{ref, size, std::nullopt};
      const Metric& m = study.metric(ref.metric);
      const std::vector<std::string> classes = ref.scope_classes();
      const std::string workload = ref.scope.rfind("workload:", 0) == 0 ? ref.scope.substr(9) : "";
      std::vector<double> vals;
      for (const CellRow& row : rep.rows) {
        if (row.cell.size != size || row.cell.variant != ref.variant) continue;
        if (!workload.empty() ? row.cell.workload != workload
            : classes.empty()  ? row.cls == kPairsClass
                               : std::find(classes.begin(), classes.end(), row.cls) == classes.end())
          continue;
        if (ref.baseline.empty()) {
          if (row.norm.count(m.name)) vals.push_back(row.norm.at(m.name));
          continue;
        }
        auto b = row_of.find({row.cell.workload, size, ref.baseline});
        if (row.status != "ok" || !row.value.count(m.name) || b == row_of.end() || b->second->status != "ok" ||
            !b->second->value.count(m.name) || b->second->value.at(m.name) == 0)
          continue;
        vals.push_back(row.value.at(m.name) / b->second->value.at(m.name));
      }
      if (!workload.empty()) {
        if (vals.size() == 1) rr.ours = vals.front();
      } else if (auto a = aggregate_values(vals, m.normalise ? study.aggregate : "mean")) {
        rr.ours = *a;
      }
      rep.references.push_back(rr);
    }
  return rep;
}

std::string fixed(double v, int digits) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

namespace {

nlohmann::json report_json(const Report& rep, const StudySpec& study, const Plan& plan) {
  nlohmann::json j;
  j["study"] = study.name;
  j["description"] = study.description;
  j["size_set"] = plan.size_set;
  j["sizes"] = plan.sizes;
  j["baseline"] = study.baseline;
  j["aggregate"] = study.aggregate;
  j["binary"] = plan.binary_hash;
  j["classes"] = rep.classes;
  for (const Variant& v : study.variants)
    j["variants"].push_back({{"name", v.name}, {"overrides", v.overrides}, {"sweep_value", v.sweep_value}});
  for (const Derived& d : study.derived)
    j["variants"].push_back({{"name", d.name}, {"derived", true}, {"best_of", study.sweeps[d.sweep].name_format},
                             {"parameter", study.sweeps[d.sweep].parameter}, {"metric", d.metric}});
  // One sweep keeps the single "sweep" object of studies before "sweeps" (their reports
  // stay byte-identical); several are a list, each with its variants in value order.
  if (study.sweeps.size() == 1) j["sweep"] = {{"parameter", study.sweeps[0].parameter}, {"values", study.sweeps[0].values}};
  for (const Sweep& sw : study.sweeps)
    if (study.sweeps.size() > 1)
      j["sweeps"].push_back(
          {{"name", sw.name_format}, {"parameter", sw.parameter}, {"values", sw.values}, {"variants", sw.variants}});
  if (study.classify) {
    const Classify& c = *study.classify;
    const bool chain = !c.rules.empty();
    if (chain) {
      j["classify"] = {{"variant", c.variant}, {"rules", nlohmann::json::array()}, {"cells", nlohmann::json::array()}};
      for (const ClassRule& rule : c.rules)
        j["classify"]["rules"].push_back({{"class", rule.cls}, {"rule", rule.text(c.variant)}});
    } else {
      j["classify"] = {{"metric", c.metric}, {"variant", c.variant}, {"threshold", c.threshold},
                       {"above", c.above},   {"below", c.below},     {"cells", nlohmann::json::array()}};
    }
    for (const CellClass& cc : rep.cell_classes) {
      nlohmann::json e{{"workload", cc.workload}, {"size", cc.size}, {"class", cc.cls},
                       {"status", cc.status}, {"value", cc.value ? nlohmann::json(*cc.value) : nlohmann::json()}};
      if (chain) e["rule"] = cc.rule;
      j["classify"]["cells"].push_back(e);
    }
  }
  for (const Metric& m : study.metrics) j["metrics"].push_back(m.to_json());
  j["plots"] = nlohmann::json::array();
  for (const PlotSpec& p : study.plots) j["plots"].push_back({{"kind", p.kind}, {"metric", p.metric}});
  j["rows"] = nlohmann::json::array();
  for (const CellRow& r : rep.rows) {
    nlohmann::json e{{"workload", r.cell.workload}, {"class", r.cls},       {"size", r.cell.size},
                     {"variant", r.cell.variant},   {"job_id", r.cell.job_id}, {"status", r.status},
                     {"host_seconds", r.host_seconds}, {"value", r.value}, {"norm", r.norm}};
    if (r.status == "ok" && !r.derived)
      e["stats"] = (fs::path(job_dir(plan.results_dir, r.cell.job_id)) / "stats.json").string();
    e["time_series"] = r.time_series;
    if (r.derived) {
      const bool chosen = !r.chosen_variant.empty();
      e["chosen_variant"] = chosen ? nlohmann::json(r.chosen_variant) : nlohmann::json();
      e["chosen_value"] = chosen ? nlohmann::json(r.chosen_value) : nlohmann::json();
      if (!r.reason.empty()) e["reason"] = r.reason;
    }
    j["rows"].push_back(e);
  }
  j["aggregates"] = nlohmann::json::array();
  for (const Aggregate& a : rep.aggregates)
    j["aggregates"].push_back({{"size", a.size}, {"variant", a.variant}, {"metric", a.metric}, {"class", a.cls},
                               {"value", a.value}, {"n", a.n}});
  j["references"] = nlohmann::json::array();
  for (const ReferenceRow& r : rep.references) {
    nlohmann::json e{{"variant", r.ref.variant}, {"metric", r.ref.metric}, {"scope", r.ref.scope}, {"size", r.size},
                     {"paper", r.ref.value},     {"source", r.ref.source}, {"section", r.ref.section},
                     {"note", r.ref.note},       {"baseline", r.ref.baseline.empty() ? study.baseline : r.ref.baseline}};
    if (r.ours) {
      e["ours"] = *r.ours;
      e["ratio"] = *r.ours / r.ref.value;
    }
    j["references"].push_back(e);
  }
  if (!study.optima.empty()) j["optima"] = optima_json(study, rep.optima);
  j["failures"] = nlohmann::json::array();
  for (const Failure& f : rep.failures)
    j["failures"].push_back({{"id", f.id}, {"command", f.command}, {"log", f.log}, {"error", f.error}});
  return j;
}

// Each derived variant's rule and, per workload and size, the sweep value it chose (or
// why it chose none).
void best_of_section(std::ostringstream& md, const Report& rep, const StudySpec& study, const Plan& plan) {
  md << "\n## Best of a sweep\n\nA derived variant runs no job: per workload and size it is the variant of a sweep "
        "whose raw metric is best (ties: the first in the sweep's order), and it is failed, missing or unresolved "
        "when any variant of the sweep is (they are named), never a best of fewer.\n\n";
  for (const Derived& d : study.derived) {
    const Sweep& sw = study.sweeps[d.sweep];
    md << "- `" << d.name << "`: the best of `" << sw.name_format << "` (`" << sw.parameter << "` over "
       << sw.values.size() << " values: ";
    for (std::size_t i = 0; i < sw.values.size(); ++i) {
      if (sw.values.size() > 6 && i == 3) {
        md << ", …";
        i = sw.values.size() - 1;
      }
      md << (i ? ", " : "") << sw.values[i];
    }
    md << ") by the " << (study.metric(d.metric).higher_is_better ? "highest" : "lowest") << " `" << d.metric << "`\n";
  }
  md << "\n| workload | size |";
  for (const Derived& d : study.derived) md << " " << d.name << ": " << study.sweeps[d.sweep].parameter << " |";
  md << "\n|---|---|";
  for (std::size_t i = 0; i < study.derived.size(); ++i) md << "---|";
  md << "\n";
  for (const std::string& w : plan.row_workloads())
    for (const std::string& size : plan.sizes) {
      std::ostringstream cells;
      bool any = false;
      for (const Derived& d : study.derived)
        for (const CellRow& r : rep.rows)
          if (r.cell.workload == w && r.cell.size == size && r.cell.variant == d.name) {
            any = true;
            cells << " " << (r.status == "ok" ? r.chosen_value : r.status + " (" + r.reason + ")") << " |";
          }
      if (any) md << "| " << w << " | " << size << " |" << cells.str() << "\n";  // none: skipped by the size set
    }
}

std::string markdown(const Report& rep, const StudySpec& study, const Plan& plan, bool plots) {
  std::ostringstream md;
  md << "# Study: " << study.name << "\n\n";
  if (!study.description.empty()) md << study.description << "\n\n";
  std::size_t ok = 0;
  for (const Job& j : plan.jobs)
    if (auto r = read_result(plan.results_dir, j.id); r && r->ok) ++ok;
  md << "Size set `" << plan.size_set << "` (";
  for (std::size_t i = 0; i < plan.sizes.size(); ++i) md << (i ? ", " : "") << plan.sizes[i];
  md << "), " << plan.workloads.size() << " workloads";
  if (!plan.pairs.empty()) md << " (+ " << plan.pairs.size() << " concurrent pairs, class `" << kPairsClass << "`)";
  md << ", " << study.variants.size() << " variants";
  if (!study.derived.empty()) md << " (+ " << study.derived.size() << " derived: the best of a sweep)";
  md << ": " << ok << " of "
     << plan.jobs.size() << " jobs finished with verified outputs. Values are normalised to `" << study.baseline
     << "` (" << study.aggregate << " over workloads). Made by `gputlm study report` from the results of gputlm binary "
     << plan.binary_hash << ".\n";
  if (study.skip.count(plan.size_set)) {
    md << "\nCells this size set leaves out (the \"skip\" of the study file; other size sets run them):";
    for (const std::string& c : study.skip.at(plan.size_set)) md << " `" << c << "`";
    md << ".\n";
  }
  if (study.classify && !study.classify->rules.empty()) {
    const Classify& c = *study.classify;
    md << "\n## Classes\n\nMeasured per workload and size from the runs of `" << c.variant
       << "` (and, for a spread, of the variants it names): the first rule that holds decides.\n\n";
    for (const ClassRule& rule : c.rules) md << "- `" << rule.cls << "`: " << rule.text(c.variant) << "\n";
    md << "\n`other`: a run a rule needs failed, is missing or skipped, or its metric did not resolve.\n\n"
       << "| workload | size | class | by | value |\n|---|---|---|---|---|\n";
    for (const CellClass& cc : rep.cell_classes)
      md << "| " << cc.workload << " | " << cc.size << " | " << cc.cls << (cc.status == "ok" ? "" : " (" + cc.status + ")")
         << " | " << cc.rule << " | " << (cc.value ? num(*cc.value) : "—") << " |\n";
  } else if (study.classify) {
    const Classify& c = *study.classify;
    md << "\n## Classes\n\nMeasured per workload and size: `" << c.above << "` when the raw `" << c.metric
       << "` of variant `" << c.variant << "` is > " << num(c.threshold) << ", otherwise (<= " << num(c.threshold)
       << ") `" << c.below << "`; `other` when that job failed, is missing or skipped, or the metric did not resolve.\n\n"
       << "| workload | size | " << c.variant << " " << c.metric << " | class |\n|---|---|---|---|\n";
    for (const CellClass& cc : rep.cell_classes)
      md << "| " << cc.workload << " | " << cc.size << " | " << (cc.value ? num(*cc.value) : "—") << " | " << cc.cls
         << (cc.status == "ok" ? "" : " (" + cc.status + ")") << " |\n";
  }
  if (!study.derived.empty()) best_of_section(md, rep, study, plan);
  optima_markdown(md, study, rep.optima);
  const std::vector<std::string> variants = study.variant_names();
  for (const std::string& size : plan.sizes)
    for (const Metric& m : study.metrics) {
      if (m.normalise) md << "\n## " << m.name << " normalised to " << study.baseline << " (" << size << ")\n\n";
      else md << "\n## " << m.name << " (" << size << "; raw values, not normalised; mean)\n\n";
      md << "| workload | class | " << study.baseline << " " << m.name << " |";
      for (const std::string& v : variants) md << " " << v << " |";
      md << "\n|---|---|---|";
      for (std::size_t i = 0; i < variants.size(); ++i) md << "---|";
      md << "\n";
      for (const std::string& w : plan.row_workloads()) {
        std::string cls = plan.pair(w) ? kPairsClass : rep.class_of(w, size), base = "—";
        std::ostringstream cells;
        for (const std::string& v : variants) {
          std::string cell = "—";
          for (const CellRow& r : rep.rows)
            if (r.cell.workload == w && r.cell.size == size && r.cell.variant == v) {
              if (r.status != "ok") cell = r.status;
              else if (r.norm.count(m.name)) cell = fixed(r.norm.at(m.name));
              if (v == study.baseline && r.value.count(m.name)) base = num(r.value.at(m.name));
            }
          cells << " " << cell << " |";
        }
        md << "| " << w << " | " << cls << " | " << base << " |" << cells.str() << "\n";
      }
      for (const std::string& cls : rep.classes) {
        md << "| **" << (m.normalise ? study.aggregate : std::string("mean")) << " (" << cls << ")** | | |";
        for (const std::string& v : variants) {
          std::string cell = "—";
          for (const Aggregate& a : rep.aggregates)
            if (a.size == size && a.variant == v && a.metric == m.name && a.cls == cls) cell = "**" + fixed(a.value) + "**";
          md << " " << cell << " |";
        }
        md << "\n";
      }
    }
  if (!rep.references.empty()) {
    md << "\n## Beside the papers\n\n| variant | metric (normalised unless raw) | scope | size | ours | paper | ours / paper | source |\n"
       << "|---|---|---|---|---|---|---|---|\n";
    for (const ReferenceRow& r : rep.references) {
      // A reference with a baseline of its own says so beside its note.
      std::string note = r.ref.note;
      if (!r.ref.baseline.empty()) note += (note.empty() ? "" : "; ") + std::string("normalised to ") + r.ref.baseline;
      md << "| " << r.ref.variant << " | " << r.ref.metric
         << (study.find_metric(r.ref.metric) && !study.find_metric(r.ref.metric)->normalise ? " (raw)" : "") << " | "
         << r.ref.scope << " | " << r.size << " | "
         << (r.ours ? fixed(*r.ours) : "—") << " | " << fixed(r.ref.value) << " | "
         << (r.ours ? fixed(*r.ours / r.ref.value, 2) : "—") << " | " << r.ref.source << ", " << r.ref.section
         << (note.empty() ? "" : " (" + note + ")") << " |\n";
    }
  }
  if (plots) {
    md << "\n## Plots\n\n";
    for (const PlotSpec& p : study.plots)
      for (const std::string& size : plan.sizes) {
        // Several sweeps: a figure per sweep, numbered from 1 in the study's order
        // (plot_study.py names them so).
        const std::size_t figures = p.kind == "sweep" && study.sweeps.size() > 1 ? study.sweeps.size() : 1;
        for (std::size_t k = 0; k < figures; ++k) {
          const std::string kind = figures > 1 ? p.kind + std::to_string(k + 1) : p.kind;
          const std::string base = kind + "_" + p.metric + "_" + size;
          md << "![" << p.kind << " " << p.metric << " " << size
             << (figures > 1 ? " " + study.sweeps[k].parameter + " (" + study.sweeps[k].name_format + ")" : "")
             << "](plots/" << base << ".png) ([SVG](plots/" << base << ".svg))\n\n";
        }
      }
  }
  if (!rep.failures.empty()) {
    md << "\n## Failed jobs\n\n";
    for (const Failure& f : rep.failures)
      md << "- `" << f.id << "`: " << f.error << "\n  - command: `" << f.command << "`\n  - log: `" << f.log << "`\n";
  }
  if (!study.discussion.empty()) {
    std::ifstream d(study.discussion);
    md << "\n" << d.rdbuf();
  }
  return md.str();
}

}  // namespace

std::string write_report(const Report& rep, const StudySpec& study, const Plan& plan, const std::string& out_dir,
                         bool plots) {
  fs::create_directories(out_dir);
  std::ostringstream csv;
  csv << "workload,class,size,variant,job_id,status,host_seconds";
  for (const Metric& m : study.metrics) csv << "," << m.name << "," << m.name << "_norm";
  // A classifying study: per row the classifying value of its workload and size, and the rule.
  std::string rule;
  if (const auto& c = study.classify) {
    csv << ",classify_value,classify_rule";
    if (c->rules.empty())
      rule = c->above + " if " + c->metric + " of " + c->variant + " > " + num(c->threshold) + " else " + c->below;
  }
  // Derived variants: per row the sweep variant and value chosen, or why none was.
  if (!study.derived.empty()) csv << ",chosen_variant,chosen_value,derived_note";
  csv << "\n";
  for (const CellRow& r : rep.rows) {
    csv << csv_field(r.cell.workload) << "," << csv_field(r.cls) << "," << r.cell.size << "," << csv_field(r.cell.variant)
        << "," << r.cell.job_id << "," << r.status << "," << num(r.host_seconds);
    for (const Metric& m : study.metrics) {
      csv << "," << (r.value.count(m.name) ? num(r.value.at(m.name)) : "");
      csv << "," << (r.norm.count(m.name) ? num(r.norm.at(m.name)) : "");
    }
    if (study.classify) {
      const CellClass* cc = rep.cell_class(r.cell.workload, r.cell.size);
      csv << "," << (cc && cc->value ? num(*cc->value) : "") << ","
          << csv_field(study.classify->rules.empty() ? rule : (cc ? cc->rule : ""));
    }
    if (!study.derived.empty())
      csv << "," << csv_field(r.chosen_variant) << "," << csv_field(r.chosen_value) << "," << csv_field(r.reason);
    csv << "\n";
  }
  write_atomic((fs::path(out_dir) / "report.csv").string(), csv.str());
  std::ostringstream agg;
  agg << "size,variant,metric,class,aggregation,value,n\n";
  for (const Aggregate& a : rep.aggregates)
    agg << a.size << "," << csv_field(a.variant) << "," << a.metric << "," << csv_field(a.cls) << "," << study.aggregate
        << "," << num(a.value) << "," << a.n << "\n";
  write_atomic((fs::path(out_dir) / "aggregates.csv").string(), agg.str());
  const std::string json_path = (fs::path(out_dir) / "report.json").string();
  write_atomic(json_path, report_json(rep, study, plan).dump(1) + "\n");
  if (plots) {
    // Debian's interpreter, which has python3-matplotlib, even when another python3 (pyenv,
    // a virtualenv) comes first on PATH; GPUTLM_PYTHON chooses another.
    const char* py = std::getenv("GPUTLM_PYTHON");
    const std::string python = py ? py : fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
    const std::string cmd = shell_join({python, plot_script(), json_path, (fs::path(out_dir) / "plots").string()});
    const int st = std::system(cmd.c_str());
    if (st != 0)
      throw StudyError("plotting failed (" + cmd +
                       "): it needs python3 and python3-matplotlib; --no-plots writes the tables without plots");
  }
  const std::string md = (fs::path(out_dir) / "report.md").string();
  write_atomic(md, markdown(rep, study, plan, plots));
  return md;
}

}  // namespace gputlm::study
