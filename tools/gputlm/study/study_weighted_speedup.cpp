#include "study/study_weighted_speedup.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "study/metrics.h"

namespace gputlm::study {

namespace fs = std::filesystem;

namespace {

std::optional<nlohmann::json> job_stats(const Plan& plan, const std::string& id) {
  std::ifstream f(fs::path(job_dir(plan.results_dir, id)) / "stats.json");
  if (!f) return std::nullopt;
  nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

// streams[i].ipc of the entry whose "stream" is `stream`.
std::optional<double> stream_ipc(const nlohmann::json& stats, uint32_t stream) {
  if (!stats.contains("streams") || !stats["streams"].is_array()) return std::nullopt;
  for (const auto& s : stats["streams"])
    if (s.value("stream", ~0u) == stream && s.contains("ipc") && s["ipc"].is_number()) return s["ipc"].get<double>();
  return std::nullopt;
}

}  // namespace

void add_weighted_speedups(const StudySpec& study, const Plan& plan,
                           std::map<std::string, std::optional<JobResult>>& results) {
  if (!study.weighted_speedup) return;
  const WeightedSpeedup& ws = *study.weighted_speedup;
  Metric ipc;
  ipc.name = "ipc";
  std::map<std::string, std::optional<double>> alone_ipc;  // by job id
  auto alone = [&](const std::string& workload, const std::string& size, const std::string& variant) -> std::optional<double> {
    for (const Cell& c : plan.cells) {
      if (c.workload != workload || c.size != size || c.variant != variant) continue;
      auto cached = alone_ipc.find(c.job_id);
      if (cached != alone_ipc.end()) return cached->second;
      std::optional<double> v;
      const auto r = results.find(c.job_id);
      if (r != results.end() && r->second && r->second->ok)
        if (auto stats = job_stats(plan, c.job_id)) v = evaluate(ipc, *stats, 0);
      alone_ipc[c.job_id] = v;
      return v;
    }
    return std::nullopt;  // the study does not run that workload alone in that variant at that size
  };
  for (const Job& j : plan.jobs) {
    const Pair* p = plan.pair(j.workload);
    auto r = results.find(j.id);
    if (!p || r == results.end() || !r->second || !r->second->ok) continue;
    const auto stats = job_stats(plan, j.id);
    if (!stats) continue;
    double sum = 0;
    bool resolved = true;
    for (const WeightedSpeedup::Component& c : ws.components) {
      const auto shared = stream_ipc(*stats, c.stream);
      const auto single = alone(p->workloads[c.stream], j.size, c.alone);
      if (!shared || !single || !(*single > 0)) {
        resolved = false;
        break;
      }
      sum += *shared / *single;
    }
    if (resolved) r->second->metrics[ws.name] = sum / static_cast<double>(ws.components.size());
  }
}

}  // namespace gputlm::study
