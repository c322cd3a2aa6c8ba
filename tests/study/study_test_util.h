// Shared helpers of the study tests: a scratch folder per test process and study files
// written from JSON text with the repository's config.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace study_test {

namespace fs = std::filesystem;

// A fresh folder for this test process (ctest runs test cases in parallel processes).
inline fs::path scratch(const std::string& name) {
  const fs::path p = fs::path(GPUTLM_STUDY_TEST_TMP) / (name + "_" + std::to_string(::getpid()));
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

inline std::string fermi_config() { return std::string(GPUTLM_SOURCE_DIR) + "/configs/fermi_gtx480.json"; }

// Writes `j` (with "config" defaulting to the Fermi config) as dir/<name>.json.
inline std::string write_study(const fs::path& dir, nlohmann::json j, const std::string& name = "study") {
  if (!j.contains("config")) j["config"] = fermi_config();
  const fs::path p = dir / (name + ".json");
  std::ofstream(p) << j.dump(1);
  return p.string();
}

// Two small workloads x two scheduling policies.
inline nlohmann::json small_study(const std::string& name = "tiny") {
  return {{"name", name},
          {"variants",
           {{{"name", "lrr"}, {"overrides", {"sm.scheduler.policy=lrr"}}},
            {{"name", "gto"}, {"overrides", {"sm.scheduler.policy=gto"}}}}},
          {"workloads", {"vecadd", "scan"}},
          {"classes", {{"memory", {"vecadd"}}, {"compute", {"scan"}}}},
          {"metrics", {"ipc", "cycles", {{"name", "l1d_hit_rate"}, {"ratio", {"total.sm*.l1d.load_hits", "total.sm*.l1d.loads"}}}}},
          {"baseline", "lrr"}};
}

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace study_test
