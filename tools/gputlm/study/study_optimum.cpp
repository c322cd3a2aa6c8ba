#include "study/study_optimum.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "study/study_report.h"

namespace gputlm::study {

namespace {

bool in_scope(const Optimum& o, const CellRow& row) {
  if (row.cls == kPairsClass) return false;
  return o.scope_classes.empty() ||
         std::find(o.scope_classes.begin(), o.scope_classes.end(), row.cls) != o.scope_classes.end();
}

}  // namespace

std::optional<double> aggregate_values(const std::vector<double>& v, const std::string& how) {
  if (v.empty()) return std::nullopt;
  double acc = 0;
  if (how == "mean") {
    for (double x : v) acc += x;
    return acc / static_cast<double>(v.size());
  }
  for (double x : v) {
    if (!(x > 0)) return std::nullopt;
    acc += std::log(x);
  }
  return std::exp(acc / static_cast<double>(v.size()));
}

std::vector<OptimumRow> find_optima(const StudySpec& study, const std::vector<std::string>& sizes,
                                    const std::vector<CellRow>& rows) {
  std::vector<OptimumRow> out;
  for (const Optimum& o : study.optima) {
    const Sweep& sw = study.sweeps[o.sweep];
    const Metric& m = study.metric(o.metric);
    for (const std::string& size : sizes) {
      OptimumRow r;
      r.optimum = &o;
      r.size = size;
      // Per workload in scope: its normalised value in each sweep variant.
      std::map<std::string, std::map<std::string, const CellRow*>> by_workload;
      for (const CellRow& row : rows)
        if (row.cell.size == size && in_scope(o, row) &&
            std::find(sw.variants.begin(), sw.variants.end(), row.cell.variant) != sw.variants.end())
          by_workload[row.cell.workload][row.cell.variant] = &row;
      std::vector<std::string> lacking;
      for (const auto& [w, vs] : by_workload)
        for (const std::string& v : sw.variants) {
          auto it = vs.find(v);
          if (it == vs.end() || !it->second->norm.count(m.name))
            lacking.push_back(w + ": " + v + " " + (it == vs.end() ? "skipped" : it->second->status == "ok" ? "unresolved" : it->second->status));
        }
      r.cells = by_workload.size();
      if (!lacking.empty()) {
        r.reason = std::to_string(lacking.size()) + " runs lack " + m.name + " (" + lacking.front() +
                   (lacking.size() > 1 ? ", ..." : "") + ")";
        r.aggregates.assign(sw.variants.size(), std::nullopt);
        out.push_back(r);
        continue;
      }
      if (by_workload.empty()) {
        r.reason = "no cell in scope";
        r.aggregates.assign(sw.variants.size(), std::nullopt);
        out.push_back(r);
        continue;
      }
      for (const std::string& v : sw.variants) {
        std::vector<double> vals;
        for (const auto& [w, vs] : by_workload) vals.push_back(vs.at(v)->norm.at(m.name));
        r.aggregates.push_back(aggregate_values(vals, study.aggregate));
      }
      for (std::size_t i = 0; i < r.aggregates.size(); ++i) {
        if (!r.aggregates[i]) {
          r.reason = "the " + study.aggregate + " of " + sw.variants[i] + " is undefined (a value <= 0)";
          break;
        }
        if (!r.best || (m.higher_is_better ? *r.aggregates[i] > *r.aggregates[*r.best]
                                           : *r.aggregates[i] < *r.aggregates[*r.best]))
          r.best = i;
      }
      if (!r.reason.empty()) {
        r.best.reset();
      } else {
        const double best = *r.aggregates[*r.best];
        for (std::size_t i = 0; i < r.aggregates.size() && !r.chosen; ++i)
          if (m.higher_is_better ? *r.aggregates[i] >= best * (1 - o.within) : *r.aggregates[i] * (1 - o.within) <= best)
            r.chosen = i;
      }
      out.push_back(r);
    }
  }
  return out;
}

nlohmann::json optima_json(const StudySpec& study, const std::vector<OptimumRow>& optima) {
  nlohmann::json a = nlohmann::json::array();
  for (const OptimumRow& r : optima) {
    const Sweep& sw = study.sweeps[r.optimum->sweep];
    nlohmann::json values = nlohmann::json::array();
    for (std::size_t i = 0; i < sw.values.size(); ++i)
      values.push_back({{"value", sw.values[i]},
                        {"variant", sw.variants[i]},
                        {"aggregate", r.aggregates[i] ? nlohmann::json(*r.aggregates[i]) : nlohmann::json()}});
    a.push_back({{"name", r.optimum->name},
                 {"sweep", sw.name_format},
                 {"parameter", sw.parameter},
                 {"metric", r.optimum->metric},
                 {"scope", r.optimum->scope},
                 {"within", r.optimum->within},
                 {"size", r.size},
                 {"cells", r.cells},
                 {"values", values},
                 {"best_value", r.best ? nlohmann::json(sw.values[*r.best]) : nlohmann::json()},
                 {"chosen_value", r.chosen ? nlohmann::json(sw.values[*r.chosen]) : nlohmann::json()},
                 {"chosen_variant", r.chosen ? nlohmann::json(sw.variants[*r.chosen]) : nlohmann::json()},
                 {"reason", r.reason}});
  }
  return a;
}

void optima_markdown(std::ostringstream& md, const StudySpec& study, const std::vector<OptimumRow>& optima) {
  if (optima.empty()) return;
  md << "\n## Optimal values of sweeps\n\nPer size, the " << study.aggregate
     << " over the scope's workloads of each sweep value's normalised metric (the same workloads for every "
        "value); the optimum is the first value in the sweep's order within the stated fraction of the best "
        "(**bold**), none when a run in scope failed, is missing or did not resolve the metric.\n";
  for (const OptimumRow& r : optima) {
    const Optimum& o = *r.optimum;
    const Sweep& sw = study.sweeps[o.sweep];
    md << "\n### " << o.name << " (" << r.size << ")\n\n" << sw.parameter << " over `" << sw.name_format << "`, "
       << o.metric << " within " << fixed(o.within * 100, 1) << " % of the best, scope " << o.scope << ", "
       << r.cells << " workloads: ";
    if (r.chosen)
      md << "**" << sw.values[*r.chosen] << "** (" << sw.variants[*r.chosen] << "; best " << sw.values[*r.best] << ")\n\n";
    else
      md << "none (" << r.reason << ")\n\n";
    md << "| " << sw.parameter << " | variant | " << o.metric << " (" << study.aggregate << ") |\n|---|---|---|\n";
    for (std::size_t i = 0; i < sw.values.size(); ++i) {
      const bool pick = r.chosen && *r.chosen == i;
      md << "| " << (pick ? "**" + sw.values[i] + "**" : sw.values[i]) << " | " << sw.variants[i] << " | "
         << (r.aggregates[i] ? fixed(*r.aggregates[i]) : "—") << " |\n";
    }
  }
}

}  // namespace gputlm::study
