#include "study/study_plan.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/config/config_source.h"
#include "platforms/gpu_platform.h"

namespace gputlm::study {

namespace fs = std::filesystem;

namespace {

constexpr uint64_t kFnvOffset = 1469598103934665603ull, kFnvPrime = 1099511628211ull;

uint64_t fnv(uint64_t h, const char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(p[i])) * kFnvPrime;
  return h;
}

std::string hex16(uint64_t h) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
  return b;
}

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw StudyError("cannot read '" + path + "'");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

std::string hash_hex(const std::string& bytes) { return hex16(fnv(kFnvOffset, bytes.data(), bytes.size())); }

std::string hash_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw StudyError("cannot read '" + path + "'");
  std::vector<char> buf(1 << 20);
  uint64_t h = kFnvOffset;
  while (f) {
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    h = fnv(h, buf.data(), static_cast<std::size_t>(f.gcount()));
  }
  return hex16(h);
}

std::string shell_join(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                          "0123456789_-./=:,+@%") == std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::vector<std::string> Job::run_argv(const std::string& exe, const std::string& stats_path) const {
  std::vector<std::string> a{exe, "run", spec, "--config", config};
  for (const std::string& o : overrides) {
    a.push_back("-p");
    a.push_back(o);
  }
  a.insert(a.end(), {"--stats", stats_path, "--quiet"});
  return a;
}

const Job& Plan::job(const std::string& id) const {
  for (const Job& j : jobs)
    if (j.id == id) return j;
  throw StudyError("no job " + id + " in the plan");
}

Plan make_plan(const StudySpec& study, const PlanOptions& opts) {
  Plan plan;
  plan.study = study.name;
  plan.size_set = opts.size_set;
  plan.exe = opts.exe;
  plan.results_dir = opts.results_dir;
  auto set = study.size_sets.find(opts.size_set);
  if (set == study.size_sets.end()) {
    std::string known;
    for (const auto& [name, sizes] : study.size_sets) known += (known.empty() ? "" : ", ") + name;
    throw StudyError(study.file + ": no size set '" + opts.size_set + "' (the study has: " + known + ")");
  }
  plan.sizes = set->second;
  if (!fs::is_directory(opts.workloads_dir))
    throw StudyError("workloads directory '" + opts.workloads_dir + "' not found (build gputlm, or pass --workloads DIR)");
  if (study.all_workloads) {
    for (const auto& e : fs::directory_iterator(opts.workloads_dir))
      if (e.is_directory() && fs::exists(e.path() / "small" / "spec.json")) plan.workloads.push_back(e.path().filename());
    std::sort(plan.workloads.begin(), plan.workloads.end());
  } else {
    plan.workloads = study.workloads;
  }
  for (const std::string& x : study.exclude) plan.workloads.erase(std::remove(plan.workloads.begin(), plan.workloads.end(), x), plan.workloads.end());
  if (plan.workloads.empty()) throw StudyError(study.file + ": no workloads to run");

  // Each variant's config is read and validated once (an unknown key or impossible value is
  // an error naming the variant before any job starts) and hashed after its overrides.
  std::map<std::string, std::string> config_hash;
  for (const Variant& v : study.variants) {
    try {
      config::ConfigSource src = config::ConfigSource::from_file(v.config);
      for (const std::string& o : v.overrides) src.apply_override(o);
      (void)platforms::read_gpu_config(src);
      config_hash[v.name] = hash_hex(src.root().dump());
    } catch (const std::exception& e) {
      throw StudyError(study.file + ": variant '" + v.name + "': " + e.what());
    }
  }
  plan.binary_hash = hash_file(opts.exe);

  std::map<std::string, std::size_t> job_index;
  for (const std::string& w : plan.workloads) {
    for (const std::string& size : plan.sizes) {
      const auto skipped = study.skip.find(opts.size_set);
      if (skipped != study.skip.end() &&
          std::find(skipped->second.begin(), skipped->second.end(), w + "/" + size) != skipped->second.end())
        continue;
      const fs::path spec = fs::path(opts.workloads_dir) / w / size / "spec.json";
      if (!fs::is_regular_file(spec))
        throw StudyError("workload '" + w + "' has no " + size + " spec (" + spec.string() + ")" +
                         (size == "medium" ? ": generate medium inputs with cmake --build BUILD --target workloads_medium"
                          : size.rfind("thesis_", 0) == 0
                              ? ": thesis sizes exist for montecarlo, streamcluster and laplace3d only; generate them "
                                "with cmake --build BUILD --target workloads_thesis"
                          : size == "ilp"
                              ? ": the ilp size exists for the workloads of 004 Table 2 only (docs/workloads.md); "
                                "generate them with cmake --build BUILD --target workloads_ilp"
                              : ": is the workload name right?"));
      const std::string spec_hash = hash_hex(read_text(spec.string()));
      for (const Variant& v : study.variants) {
        const std::string id =
            hash_hex(config_hash[v.name] + "|" + spec_hash + "|" + w + "|" + size + "|" + plan.binary_hash);
        plan.cells.push_back({w, size, v.name, id});
        auto it = job_index.find(id);
        if (it != job_index.end()) {
          plan.jobs[it->second].variants.push_back(v.name);
          continue;
        }
        job_index[id] = plan.jobs.size();
        Job j;
        j.id = id;
        j.workload = w;
        j.size = size;
        j.spec = fs::absolute(spec).lexically_normal().string();
        j.config = v.config;
        j.overrides = v.overrides;
        j.variants = {v.name};
        plan.jobs.push_back(j);
      }
    }
  }
  return plan;
}

}  // namespace gputlm::study
