// A study's concurrent pairs and their weighted speedup (study_spec.h: Pair,
// WeightedSpeedup; docs/experiments.md, "Concurrent pairs").
#include <algorithm>
#include <set>

#include "runtime/concurrent_spec.h"
#include "study/study_json_reader.h"

namespace gputlm::study {

namespace {

// A variant that runs a job: pair cells and alone runs need one (not a derived variant).
void require_running_variant(Reader& r, const StudySpec& s, const std::string& key, const std::string& v) {
  if (s.find_derived(v)) r.fail("'" + v + "' is a derived variant (no job of its own): name a variant that runs", key);
  if (std::none_of(s.variants.begin(), s.variants.end(), [&](const Variant& x) { return x.name == v; }))
    r.fail("no variant named '" + v + "'", key);
}

bool read_bool(Reader& r, const std::string& key, bool def) {
  if (!r.has(key)) return def;
  const nlohmann::json& v = r.get(key);
  if (!v.is_boolean()) r.fail("must be true or false", key);
  return v.get<bool>();
}

Pair read_pair(Reader& r, const StudySpec& s, const nlohmann::json& e, const std::string& key, bool loop) {
  Pair p;
  p.loop = loop;
  std::vector<nlohmann::json> repeat;
  auto workload_list = [&](const nlohmann::json& list, Reader& at, const std::string& k) {
    if (!list.is_array() || list.size() < 2) at.fail("must be an array of two or more workload names", k);
    for (const auto& w : list) {
      if (!w.is_string()) at.fail("must be an array of two or more workload names", k);
      p.workloads.push_back(w.get<std::string>());
    }
  };
  if (e.is_array()) {
    workload_list(e, r, key);
  } else {
    Reader pr(r.file(), e, r.sub(key));
    workload_list(pr.get("workloads"), pr, "workloads");
    if (pr.has("repeat")) {
      const nlohmann::json& rep = pr.get("repeat");
      if (!rep.is_array() || rep.size() != p.workloads.size())
        pr.fail("must list one repeat count per workload (" + std::to_string(p.workloads.size()) + ")", "repeat");
      for (const auto& n : rep) {
        if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > runtime::kMaxSpecRepeat)
          pr.fail("repeat counts must be integers in [1, " + std::to_string(runtime::kMaxSpecRepeat) + "]", "repeat");
        p.repeat.push_back(static_cast<uint32_t>(n.get<int64_t>()));
      }
    }
    p.loop = read_bool(pr, "loop", loop);
    pr.done();
  }
  if (p.repeat.empty()) p.repeat.assign(p.workloads.size(), 1);
  for (std::size_t i = 0; i < p.workloads.size(); ++i) {
    const std::string& w = p.workloads[i];
    if (std::count(p.workloads.begin(), p.workloads.end(), w) > 1)
      r.fail("workload '" + w + "' is twice in one pair", key);
    if (!s.all_workloads && std::find(s.workloads.begin(), s.workloads.end(), w) == s.workloads.end())
      r.fail("workload '" + w + "' is not in \"workloads\" (a pair's workloads also run alone, for the weighted speedup)",
             key);
    p.name += (i ? "+" : "") + w;
  }
  return p;
}

}  // namespace

void read_pairs(Reader& r, StudySpec& s) {
  const bool loop = read_bool(r, "pair_loop", false);
  if (r.has("pair_loop") && !r.has("pairs")) r.fail("needs \"pairs\"", "pair_loop");
  if (r.has("pairs")) {
    const nlohmann::json& ps = r.get("pairs");
    if (!ps.is_array() || ps.empty())
      r.fail("must be a non-empty array of [\"a\", \"b\"] or {\"workloads\": [...], \"repeat\": [...], \"loop\": bool}",
             "pairs");
    for (std::size_t i = 0; i < ps.size(); ++i) {
      Pair p = read_pair(r, s, ps[i], "pairs[" + std::to_string(i) + "]", loop);
      for (const Pair& o : s.pairs)
        if (o.name == p.name) r.fail("pair '" + p.name + "' is listed twice", "pairs[" + std::to_string(i) + "]");
      s.pairs.push_back(std::move(p));
    }
  }
  if (!s.pairs.empty() && std::count(s.class_order.begin(), s.class_order.end(), kPairsClass))
    r.fail(std::string("class name '") + kPairsClass + "' is the pair cells' class: rename the study's class", "pairs");
  if (r.has("pair_variants")) {
    if (s.pairs.empty()) r.fail("needs \"pairs\"", "pair_variants");
    s.pair_variants = r.strings("pair_variants");
    if (s.pair_variants.empty()) r.fail("must list at least one variant", "pair_variants");
    for (const std::string& v : s.pair_variants) require_running_variant(r, s, "pair_variants", v);
  }
  if (!r.has("weighted_speedup")) return;
  if (s.pairs.empty()) r.fail("needs \"pairs\" (it is a metric of pair cells)", "weighted_speedup");
  Reader wr = r.child("weighted_speedup");
  WeightedSpeedup ws;
  ws.name = wr.str("name");
  if (s.find_metric(ws.name)) wr.fail("metric '" + ws.name + "' is defined twice (here and in \"metrics\")", "name");
  const nlohmann::json& cs = wr.get("components");
  if (!cs.is_array() || cs.empty()) wr.fail("must be a non-empty array of {\"stream\", \"alone\"}", "components");
  for (std::size_t i = 0; i < cs.size(); ++i) {
    Reader cr(r.file(), cs[i], wr.sub("components[" + std::to_string(i) + "]"));
    WeightedSpeedup::Component c;
    const nlohmann::json& st = cr.get("stream");
    if (!st.is_number_integer() || st.get<int64_t>() < 0) cr.fail("must be a non-negative integer", "stream");
    c.stream = static_cast<uint32_t>(st.get<int64_t>());
    for (const Pair& p : s.pairs)
      if (c.stream >= p.workloads.size())
        cr.fail("pair '" + p.name + "' has no stream " + std::to_string(c.stream) + " (its workload k runs on stream k)",
                "stream");
    for (const auto& o : ws.components)
      if (o.stream == c.stream) cr.fail("stream " + std::to_string(c.stream) + " is listed twice", "stream");
    c.alone = cr.str("alone");
    require_running_variant(cr, s, "alone", c.alone);
    cr.done();
    ws.components.push_back(c);
  }
  wr.done();
  Metric m;
  m.name = ws.name;
  m.weighted_speedup = true;
  s.metrics.push_back(m);
  s.weighted_speedup = ws;
}

}  // namespace gputlm::study
