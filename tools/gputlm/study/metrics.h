// Evaluates a study metric on one run's statistics JSON (`gputlm run --stats`).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "study/study_spec.h"

namespace gputlm::study {

// Sum of every number the dotted path matches; '*' and '?' in a segment match object keys
// (fnmatch), and "*" or a number match array elements; "A+B" sums several paths (e.g.
// stalled plus issuing scheduler-cycles). nullopt when nothing matches.
std::optional<double> sum_path(const nlohmann::json& j, const std::string& path);

// The metric's value; nullopt when a path matches nothing or a denominator is 0.
std::optional<double> evaluate(const Metric& m, const nlohmann::json& stats, double host_seconds);

}  // namespace gputlm::study
