// The optimal value of a sweep over a set of workloads (StudySpec::Optimum; the LAWS
// thesis' optimal MSHR size, 001 §5.4.1): computed by the report from its rows.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "study/study_spec.h"

namespace gputlm::study {

struct CellRow;

// The study's aggregate of values: "mean", or else the geometric mean (none when a value is
// not positive, where it is undefined); none for no values.
std::optional<double> aggregate_values(const std::vector<double>& v, const std::string& how);

// One optimum at one size: the aggregate of each sweep value over the scope's cells, and the
// value chosen; `reason` (and no choice) when a cell in scope lacks a sweep variant's value.
struct OptimumRow {
  const Optimum* optimum = nullptr;
  std::string size;
  std::vector<std::optional<double>> aggregates;  // per sweep value, in the sweep's order
  std::size_t cells = 0;                          // workloads the aggregates cover
  std::optional<std::size_t> chosen, best;        // indices into the sweep's values
  std::string reason;
};

// Per optimum and size: the aggregate (`aggregate`: geomean or mean) of each sweep variant's
// normalised metric over the rows of the scope's classes ("all": every single workload), over
// the same cells for every value: when any sweep variant of a cell in scope failed, is
// missing or did not resolve the metric, no value is chosen and `reason` names them (never
// an optimum of fewer cells). The best is the highest aggregate (the lowest when the metric
// is lower-is-better); the chosen value the first in the sweep's order within `within` of it:
// aggregate >= (1 - within) x best, or for a lower-is-better metric (1 - within) x aggregate
// <= best (cycles within 5 % picks what IPC within 5 % picks).
std::vector<OptimumRow> find_optima(const StudySpec& study, const std::vector<std::string>& sizes,
                                    const std::vector<CellRow>& rows);

nlohmann::json optima_json(const StudySpec& study, const std::vector<OptimumRow>& optima);
void optima_markdown(std::ostringstream& md, const StudySpec& study, const std::vector<OptimumRow>& optima);

}  // namespace gputlm::study
