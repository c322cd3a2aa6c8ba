#include "study/study_report.h"

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "study/metrics.h"
#include "study/study_results.h"

namespace gputlm::study {

namespace fs = std::filesystem;

namespace {

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

std::string fixed(double v, int digits = 3) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

std::optional<double> combine(const std::vector<double>& v, const std::string& how) {
  if (v.empty()) return std::nullopt;
  double acc = 0;
  if (how == "mean") {
    for (double x : v) acc += x;
    return acc / static_cast<double>(v.size());
  }
  for (double x : v) {
    if (!(x > 0)) return std::nullopt;  // a geomean of a non-positive value is undefined
    acc += std::log(x);
  }
  return std::exp(acc / static_cast<double>(v.size()));
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

using Results = std::map<std::string, std::optional<JobResult>>;

// The class of every workload x size of the plan (StudySpec::Classify for measured classes).
std::vector<CellClass> classify_cells(const StudySpec& study, const Plan& plan, const Results& results) {
  std::vector<CellClass> out;
  for (const std::string& w : plan.workloads)
    for (const std::string& size : plan.sizes) {
      CellClass cc{w, size, study.class_of(w), "", std::nullopt};
      if (study.classify) {
        const Classify& rule = *study.classify;
        cc.cls = "other";
        const Cell* cell = nullptr;
        for (const Cell& c : plan.cells)
          if (c.workload == w && c.size == size && c.variant == rule.variant) cell = &c;
        if (!cell) {
          cc.status = "skipped";
        } else if (auto r = results.find(cell->job_id); r == results.end() || !r->second) {
          cc.status = "missing";
        } else if (!r->second->ok) {
          cc.status = "failed";
        } else if (auto v = r->second->metrics.find(rule.metric); v == r->second->metrics.end() || std::isnan(v->second)) {
          cc.status = "unresolved";
        } else {
          cc.status = "ok";
          cc.value = v->second;
          cc.cls = v->second > rule.threshold ? rule.above : rule.below;
        }
      }
      out.push_back(cc);
    }
  return out;
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
      if (r->metrics.count(m.name)) continue;
      if (stats.is_null()) {
        std::ifstream f(fs::path(job_dir(plan.results_dir, j.id)) / "stats.json");
        if (!f) break;
        stats = nlohmann::json::parse(f, nullptr, false);
        if (stats.is_discarded()) break;
      }
      if (auto v = evaluate(m, stats, r->host_seconds)) r->metrics[m.name] = *v;
    }
  }
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
  for (const Cell& c : plan.cells) {
    CellRow row;
    row.cell = c;
    row.cls = rep.class_of(c.workload, c.size);
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
    rep.rows.push_back(row);
  }
  for (const std::string& c : study.class_order)
    if (used_classes.count(c)) rep.classes.push_back(c);
  if (used_classes.count("other") && (!study.workload_class.empty() || study.classify)) rep.classes.push_back("other");
  rep.classes.push_back("all");

  for (const std::string& size : plan.sizes)
    for (const Variant& v : study.variants)
      for (const Metric& m : study.metrics)
        for (const std::string& cls : rep.classes) {
          std::vector<double> vals;
          for (const CellRow& row : rep.rows)
            if (row.cell.size == size && row.cell.variant == v.name && (cls == "all" || row.cls == cls) &&
                row.norm.count(m.name))
              vals.push_back(row.norm.at(m.name));
          if (auto a = combine(vals, m.normalise ? study.aggregate : "mean"))
            rep.aggregates.push_back({size, v.name, m.name, cls, *a, vals.size()});
        }

  for (const Reference& ref : study.references)
    for (const std::string& size : plan.sizes) {
      if (!ref.size.empty() && ref.size != size) continue;
      ReferenceRow rr{ref, size, std::nullopt};
      if (ref.scope.rfind("workload:", 0) == 0) {
        const std::string w = ref.scope.substr(9);
        for (const CellRow& row : rep.rows)
          if (row.cell.workload == w && row.cell.size == size && row.cell.variant == ref.variant && row.norm.count(ref.metric))
            rr.ours = row.norm.at(ref.metric);
      } else {
        const std::string cls = ref.scope == "all" ? "all" : ref.scope.substr(6);
        for (const Aggregate& a : rep.aggregates)
          if (a.size == size && a.variant == ref.variant && a.metric == ref.metric && a.cls == cls) rr.ours = a.value;
      }
      rep.references.push_back(rr);
    }
  return rep;
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
  if (study.has_sweep) j["sweep"] = {{"parameter", study.sweep.parameter}, {"values", study.sweep.values}};
  if (study.classify) {
    const Classify& c = *study.classify;
    j["classify"] = {{"metric", c.metric}, {"variant", c.variant}, {"threshold", c.threshold},
                     {"above", c.above},   {"below", c.below},     {"cells", nlohmann::json::array()}};
    for (const CellClass& cc : rep.cell_classes)
      j["classify"]["cells"].push_back({{"workload", cc.workload}, {"size", cc.size}, {"class", cc.cls},
                                        {"status", cc.status}, {"value", cc.value ? nlohmann::json(*cc.value) : nlohmann::json()}});
  }
  for (const Metric& m : study.metrics) j["metrics"].push_back(m.to_json());
  j["plots"] = nlohmann::json::array();
  for (const PlotSpec& p : study.plots) j["plots"].push_back({{"kind", p.kind}, {"metric", p.metric}});
  j["rows"] = nlohmann::json::array();
  for (const CellRow& r : rep.rows) {
    nlohmann::json e{{"workload", r.cell.workload}, {"class", r.cls},       {"size", r.cell.size},
                     {"variant", r.cell.variant},   {"job_id", r.cell.job_id}, {"status", r.status},
                     {"host_seconds", r.host_seconds}, {"value", r.value}, {"norm", r.norm}};
    if (r.status == "ok") e["stats"] = (fs::path(job_dir(plan.results_dir, r.cell.job_id)) / "stats.json").string();
    e["time_series"] = r.time_series;
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
                     {"note", r.ref.note}};
    if (r.ours) {
      e["ours"] = *r.ours;
      e["ratio"] = *r.ours / r.ref.value;
    }
    j["references"].push_back(e);
  }
  j["failures"] = nlohmann::json::array();
  for (const Failure& f : rep.failures)
    j["failures"].push_back({{"id", f.id}, {"command", f.command}, {"log", f.log}, {"error", f.error}});
  return j;
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
  md << "), " << plan.workloads.size() << " workloads, " << study.variants.size() << " variants: " << ok << " of "
     << plan.jobs.size() << " jobs finished with verified outputs. Values are normalised to `" << study.baseline
     << "` (" << study.aggregate << " over workloads). Made by `gputlm study report` from the results of gputlm binary "
     << plan.binary_hash << ".\n";
  if (study.skip.count(plan.size_set)) {
    md << "\nCells this size set leaves out (the \"skip\" of the study file; other size sets run them):";
    for (const std::string& c : study.skip.at(plan.size_set)) md << " `" << c << "`";
    md << ".\n";
  }
  if (study.classify) {
    const Classify& c = *study.classify;
    md << "\n## Classes\n\nMeasured per workload and size: `" << c.above << "` when the raw `" << c.metric
       << "` of variant `" << c.variant << "` is > " << num(c.threshold) << ", otherwise (<= " << num(c.threshold)
       << ") `" << c.below << "`; `other` when that job failed, is missing or skipped, or the metric did not resolve.\n\n"
       << "| workload | size | " << c.variant << " " << c.metric << " | class |\n|---|---|---|---|\n";
    for (const CellClass& cc : rep.cell_classes)
      md << "| " << cc.workload << " | " << cc.size << " | " << (cc.value ? num(*cc.value) : "—") << " | " << cc.cls
         << (cc.status == "ok" ? "" : " (" + cc.status + ")") << " |\n";
  }
  for (const std::string& size : plan.sizes)
    for (const Metric& m : study.metrics) {
      if (m.normalise) md << "\n## " << m.name << " normalised to " << study.baseline << " (" << size << ")\n\n";
      else md << "\n## " << m.name << " (" << size << "; raw values, not normalised; mean)\n\n";
      md << "| workload | class | " << study.baseline << " " << m.name << " |";
      for (const Variant& v : study.variants) md << " " << v.name << " |";
      md << "\n|---|---|---|";
      for (std::size_t i = 0; i < study.variants.size(); ++i) md << "---|";
      md << "\n";
      for (const std::string& w : plan.workloads) {
        std::string cls = rep.class_of(w, size), base = "—";
        std::ostringstream cells;
        for (const Variant& v : study.variants) {
          std::string cell = "—";
          for (const CellRow& r : rep.rows)
            if (r.cell.workload == w && r.cell.size == size && r.cell.variant == v.name) {
              if (r.status != "ok") cell = r.status;
              else if (r.norm.count(m.name)) cell = fixed(r.norm.at(m.name));
              if (v.name == study.baseline && r.value.count(m.name)) base = num(r.value.at(m.name));
            }
          cells << " " << cell << " |";
        }
        md << "| " << w << " | " << cls << " | " << base << " |" << cells.str() << "\n";
      }
      for (const std::string& cls : rep.classes) {
        md << "| **" << (m.normalise ? study.aggregate : std::string("mean")) << " (" << cls << ")** | | |";
        for (const Variant& v : study.variants) {
          std::string cell = "—";
          for (const Aggregate& a : rep.aggregates)
            if (a.size == size && a.variant == v.name && a.metric == m.name && a.cls == cls) cell = "**" + fixed(a.value) + "**";
          md << " " << cell << " |";
        }
        md << "\n";
      }
    }
  if (!rep.references.empty()) {
    md << "\n## Beside the papers\n\n| variant | metric (normalised unless raw) | scope | size | ours | paper | ours / paper | source |\n"
       << "|---|---|---|---|---|---|---|---|\n";
    for (const ReferenceRow& r : rep.references)
      md << "| " << r.ref.variant << " | " << r.ref.metric
         << (study.find_metric(r.ref.metric) && !study.find_metric(r.ref.metric)->normalise ? " (raw)" : "") << " | " << r.ref.scope << " | " << r.size << " | "
         << (r.ours ? fixed(*r.ours) : "—") << " | " << fixed(r.ref.value) << " | "
         << (r.ours ? fixed(*r.ours / r.ref.value, 2) : "—") << " | " << r.ref.source << ", " << r.ref.section
         << (r.ref.note.empty() ? "" : " (" + r.ref.note + ")") << " |\n";
  }
  if (plots) {
    md << "\n## Plots\n\n";
    for (const PlotSpec& p : study.plots)
      for (const std::string& size : plan.sizes) {
        const std::string base = p.kind + "_" + p.metric + "_" + size;
        md << "![" << p.kind << " " << p.metric << " " << size << "](plots/" << base << ".png) ([SVG](plots/" << base
           << ".svg))\n\n";
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
    rule = c->above + " if " + c->metric + " of " + c->variant + " > " + num(c->threshold) + " else " + c->below;
  }
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
      csv << "," << (cc && cc->value ? num(*cc->value) : "") << "," << csv_field(rule);
    }
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
