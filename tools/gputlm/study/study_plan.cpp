#include "study/study_plan.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/config/config_source.h"
#include "runtime/concurrent_spec.h"
#include "platforms/gpu_platform.h"
#include "study/study_results.h"

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

std::string spec_content_hash(const std::string& path, const std::string& text) {
  if (!runtime::is_concurrent_spec_text(text)) return hash_hex(text);
  nlohmann::json j = nlohmann::json::parse(text);
  if (j["concurrent"].is_array())
    for (auto& c : j["concurrent"])
      if (c.is_object() && c.contains("spec") && c["spec"].is_string()) {
        fs::path p(c["spec"].get<std::string>());
        if (p.is_relative()) p = fs::path(path).parent_path() / p;
        c["spec"] = "hash:" + hash_hex(read_text(p.string()));
      }
  j.erase("description");
  return hash_hex("concurrent|" + j.dump());
}

std::string pair_spec_text(const Pair& pair, const std::string& workloads_dir, const std::string& size) {
  nlohmann::json j;
  j["description"] = "pair " + pair.name + " (" + size + "), written by gputlm study";
  for (std::size_t k = 0; k < pair.workloads.size(); ++k) {
    nlohmann::json c = {
        {"spec", fs::absolute(fs::path(workloads_dir) / pair.workloads[k] / size / "spec.json").lexically_normal().string()},
        {"stream", k},
        {"repeat", pair.repeat[k]}};
    if (pair.loop) c["loop"] = true;  // absent otherwise: job ids of pairs without loops stay
    j["concurrent"].push_back(std::move(c));
  }
  return j.dump(1) + "\n";
}

const Pair* Plan::pair(const std::string& name) const {
  for (const Pair& p : pair_specs)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> Plan::row_workloads() const {
  std::vector<std::string> out = workloads;
  out.insert(out.end(), pairs.begin(), pairs.end());
  return out;
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

  for (const Pair& p : study.pairs) {
    plan.pairs.push_back(p.name);
    plan.pair_specs.push_back(p);
  }

  std::map<std::string, std::size_t> job_index;
  // One cell per variant of `variants`; a job per distinct id. `spec` is the workload's spec
  // file, or (a pair) empty: its job's spec is `spec_text`, written into the job's folder.
  auto add_cells = [&](const std::string& w, const std::string& size, const fs::path& spec, const std::string& spec_hash,
                       const std::string& spec_text, const std::vector<const Variant*>& variants) {
    for (const Variant* v : variants) {
      const std::string id =
          hash_hex(config_hash[v->name] + "|" + spec_hash + "|" + w + "|" + size + "|" + plan.binary_hash);
      plan.cells.push_back({w, size, v->name, id});
      auto it = job_index.find(id);
      if (it != job_index.end()) {
        plan.jobs[it->second].variants.push_back(v->name);
        continue;
      }
      job_index[id] = plan.jobs.size();
      Job j;
      j.id = id;
      j.workload = w;
      j.size = size;
      j.spec = spec_text.empty() ? fs::absolute(spec).lexically_normal().string()
                                 : (fs::path(job_dir(plan.results_dir, id)) / "spec.json").string();
      j.spec_text = spec_text;
      j.config = v->config;
      j.overrides = v->overrides;
      j.variants = {v->name};
      plan.jobs.push_back(j);
    }
  };
  auto skipped = [&](const std::string& w, const std::string& size) {
    const auto sk = study.skip.find(opts.size_set);
    return sk != study.skip.end() && std::find(sk->second.begin(), sk->second.end(), w + "/" + size) != sk->second.end();
  };
  auto spec_path = [&](const std::string& w, const std::string& size) {
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
    return spec;
  };
  std::vector<const Variant*> all_variants, pair_variants;
  for (const Variant& v : study.variants) {
    all_variants.push_back(&v);
    if (study.pair_variants.empty() ||
        std::find(study.pair_variants.begin(), study.pair_variants.end(), v.name) != study.pair_variants.end())
      pair_variants.push_back(&v);
  }
  for (const std::string& w : plan.workloads)
    for (const std::string& size : plan.sizes) {
      if (skipped(w, size)) continue;
      const fs::path spec = spec_path(w, size);
      add_cells(w, size, spec, spec_content_hash(spec.string(), read_text(spec.string())), "", all_variants);
    }
  for (const Pair& p : study.pairs)
    for (const std::string& size : plan.sizes) {
      if (skipped(p.name, size)) continue;
      for (const std::string& w : p.workloads) (void)spec_path(w, size);
      const std::string text = pair_spec_text(p, opts.workloads_dir, size);
      add_cells(p.name, size, "", spec_content_hash(opts.workloads_dir + "/pair.json", text), text, pair_variants);
    }
  return plan;
}

}  // namespace gputlm::study
