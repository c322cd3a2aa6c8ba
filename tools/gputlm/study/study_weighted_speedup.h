// The weighted speedup of a study's pair cells (StudySpec::weighted_speedup, 004 §V,
// digest §Z41): computed by the report from the pair job's per-stream IPCs and the alone
// jobs' IPCs, never by a job itself.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "study/study_plan.h"
#include "study/study_results.h"

namespace gputlm::study {

// Adds the weighted speedup to the metrics of every finished pair job of `results` (by job
// id) whose streams and alone runs all resolve: (1/n) sum_k ipc(streams[stream k]) /
// ipc(alone run of the pair's workload k, same size, variant `alone` of component k). The
// IPCs come from the runs' statistics (stats.json; the alone run's built-in ipc).
void add_weighted_speedups(const StudySpec& study, const Plan& plan,
                           std::map<std::string, std::optional<JobResult>>& results);

}  // namespace gputlm::study
