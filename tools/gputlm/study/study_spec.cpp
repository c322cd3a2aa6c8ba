#include "study/study_spec.h"
#include "study/study_json_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <set>
#include <system_error>

namespace gputlm::study {

namespace fs = std::filesystem;

namespace {

// A regular file; false also for a name the file system refuses (too long, a loop of
// links), where the throwing overload would escape as a filesystem_error (fuzzing).
bool is_file(const std::string& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

const char* const kBuiltinMetrics[] = {"cycles", "ipc", "warp_ipc", "warp_instructions", "thread_instructions",
                                       "host_seconds"};

std::string resolve(const std::string& study_file, const std::string& p) {
  fs::path path(p);
  if (path.is_relative()) path = fs::path(study_file).parent_path() / path;
  std::error_code ec;  // a name the file system refuses stays as written (is_file() says no)
  const fs::path canonical = fs::weakly_canonical(path, ec);
  return (ec ? path.lexically_normal() : canonical).string();
}

bool valid_name(const std::string& s, const char* extra = "") {
  return !s.empty() && std::all_of(s.begin(), s.end(), [extra](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+' ||
           (c != '\0' && std::strchr(extra, c) != nullptr);
  });
}

void check_override(const Reader& r, const std::string& key, const std::string& o) {
  const auto eq = o.find('=');
  if (eq == std::string::npos || eq == 0) r.fail("override '" + o + "' is not KEY=VALUE", key);
}

// One sweep object (r: "sweep" or "sweeps[i]"): a variant per value, named by the name
// format, with the sweep's overrides and then PARAMETER=VALUE (the value's JSON text).
void read_sweep(Reader& r, StudySpec& s, std::set<std::string>& names) {
  Sweep sw;
  sw.parameter = r.str("parameter");
  sw.name_format = r.str("name", sw.parameter.substr(sw.parameter.rfind('.') + 1) + "={}");
  for (std::size_t k = 0; k < s.sweeps.size(); ++k)
    if (s.sweeps[k].name_format == sw.name_format)
      r.fail("'" + sw.name_format + "' is sweeps[" + std::to_string(k) + "]'s name too (\"best_of\" names a sweep by it)",
             "name");
  const nlohmann::json& vals = r.get("values");
  if (!vals.is_array() || vals.empty()) r.fail("must be a non-empty array", "values");
  std::vector<std::string> base = r.strings("overrides");
  for (const std::string& o : base) check_override(r, "overrides", o);
  std::string config = s.config;
  if (r.has("config")) {
    config = resolve(s.file, r.str("config"));
    if (!is_file(config)) r.fail("config file '" + config + "' not found", "config");
  }
  r.done();
  for (const auto& v : vals) {
    if (!v.is_number() && !v.is_string() && !v.is_boolean()) r.fail("values must be numbers, strings or booleans", "values");
    std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    Variant var;
    var.name = sw.name_format;
    const auto at = var.name.find("{}");
    if (at == std::string::npos) r.fail("must contain {} (replaced by each value)", "name");
    var.name.replace(at, 2, text);
    // '=' too: the default name format is "PARAMETER={}".
    if (!valid_name(var.name, "=")) r.fail("variant name '" + var.name + "' must be letters, digits, _ - . + =", "name");
    if (!names.insert(var.name).second) r.fail("variant '" + var.name + "' is defined twice");
    var.config = config;
    var.overrides = base;
    var.overrides.push_back(sw.parameter + "=" + v.dump());
    var.sweep_value = text;
    sw.values.push_back(text);
    sw.variants.push_back(var.name);
    s.variants.push_back(var);
  }
  s.sweeps.push_back(sw);
}

}  // namespace

nlohmann::json Metric::to_json() const {
  if (weighted_speedup) return {{"name", name}, {"weighted_speedup", true}};
  if (path.empty() && numerator.empty()) return name;  // a built-in
  nlohmann::json j{{"name", name}, {"higher_is_better", higher_is_better}};
  if (!path.empty()) j["path"] = path;
  if (!numerator.empty()) j["ratio"] = {numerator, denominator};
  if (!normalise) j["normalise"] = false;
  return j;
}

Metric Metric::from_json(const nlohmann::json& j, const std::string& where) {
  Metric m;
  if (j.is_string()) {
    m.name = j.get<std::string>();
    bool builtin = std::find(std::begin(kBuiltinMetrics), std::end(kBuiltinMetrics), m.name) != std::end(kBuiltinMetrics);
    if (!builtin)
      throw StudyError(where + ": unknown metric '" + m.name +
                       "' (built-in: cycles, ipc, warp_ipc, warp_instructions, thread_instructions, host_seconds; "
                       "others need {\"name\", \"path\"} or {\"name\", \"ratio\": [A, B]})");
    m.higher_is_better = m.name != "cycles" && m.name != "host_seconds";
    return m;
  }
  if (!j.is_object()) throw StudyError(where + ": must be a built-in metric name or an object");
  Reader r(where, j, "");
  m.name = r.str("name");
  m.path = r.str("path", "");
  if (r.has("ratio")) {
    std::vector<std::string> p = r.strings("ratio");
    if (p.size() != 2) r.fail("must be [numerator path, denominator path]", "ratio");
    m.numerator = p[0];
    m.denominator = p[1];
  }
  if (r.has("higher_is_better")) {
    if (!j.at("higher_is_better").is_boolean()) r.fail("must be true or false", "higher_is_better");
    m.higher_is_better = j.at("higher_is_better").get<bool>();
  }
  if (r.has("normalise")) {
    if (!j.at("normalise").is_boolean()) r.fail("must be true or false", "normalise");
    m.normalise = j.at("normalise").get<bool>();
  }
  r.done();
  if (m.path.empty() == m.numerator.empty())
    throw StudyError(where + ": metric '" + m.name + "' needs exactly one of \"path\" or \"ratio\"");
  if (!valid_name(m.name)) throw StudyError(where + ": metric name '" + m.name + "' must be letters, digits, _ - . +");
  return m;
}

const Metric* StudySpec::find_metric(const std::string& n) const {
  for (const Metric& m : metrics)
    if (m.name == n) return &m;
  return nullptr;
}

const Variant& StudySpec::variant(const std::string& n) const {
  for (const Variant& v : variants)
    if (v.name == n) return v;
  if (find_derived(n)) throw StudyError(file + ": '" + n + "' is a derived variant (best of a sweep): it runs no job");
  throw StudyError(file + ": no variant named '" + n + "'");
}

const Derived* StudySpec::find_derived(const std::string& n) const {
  for (const Derived& d : derived)
    if (d.name == n) return &d;
  return nullptr;
}

std::vector<std::string> StudySpec::variant_names() const {
  std::vector<std::string> out;
  for (const Variant& v : variants) out.push_back(v.name);
  for (const Derived& d : derived) out.push_back(d.name);
  return out;
}

const Metric& StudySpec::metric(const std::string& n) const {
  for (const Metric& m : metrics)
    if (m.name == n) return m;
  throw StudyError(file + ": no metric named '" + n + "'");
}

std::string ClassRule::text(const std::string& variant) const {
  std::ostringstream t;
  t << std::setprecision(6);
  switch (kind) {
    case Kind::Above: t << metric << " > " << threshold; break;
    case Kind::Below: t << metric << " < " << threshold; break;
    case Kind::SpreadBelow:  // no '|': the text goes into Markdown tables
      t << metric << " / " << metric << "(" << variant << ") within 1 ± " << threshold << " for every compared variant";
      break;
    case Kind::Otherwise: t << "otherwise"; break;
  }
  return t.str();
}

std::vector<std::string> Reference::scope_classes() const {
  std::vector<std::string> out;
  if (scope.rfind("class:", 0) != 0) return out;
  std::string rest = scope.substr(6);
  for (std::size_t at = 0;;) {
    const std::size_t comma = rest.find(',', at);
    out.push_back(rest.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

std::string StudySpec::class_of(const std::string& workload) const {
  auto it = workload_class.find(workload);
  return it == workload_class.end() ? "other" : it->second;
}

const std::vector<std::string>& workload_sizes() {
  static const std::vector<std::string> sizes = {"small",    "medium",   "thesis_a", "thesis_b",
                                                 "thesis_c", "thesis_d", "thesis_e", "ilp"};
  return sizes;
}

bool is_workload_size(const std::string& size) {
  const auto& z = workload_sizes();
  return std::find(z.begin(), z.end(), size) != z.end();
}

// Each class of a "class:" scope (several: comma-separated, no repeats) is a class of
// "classes" or "classify", or "other" (unclassified) when there are classes, or "pairs" (the
// pair cells, alone) when there are pairs.
static void check_scope_classes(Reader& rr, const StudySpec& s, const std::vector<std::string>& classes) {
  std::set<std::string> scoped;
  for (const std::string& cls : classes) {
    const auto& order = s.class_order;
    if (std::find(order.begin(), order.end(), cls) == order.end() && !(cls == "other" && !order.empty()) &&
        !(cls == kPairsClass && !s.pairs.empty())) {
      std::string listed;
      for (const std::string& o : order) listed += (listed.empty() ? "" : ", ") + o;
      listed = listed.empty() ? "the study has no classes" : "classes: " + listed;
      rr.fail("no class named '" + cls + "' (" + listed + ")", "scope");
    }
    if (!scoped.insert(cls).second) rr.fail("class '" + cls + "' is named twice", "scope");
  }
  if (scoped.count(kPairsClass) && scoped.size() > 1)
    rr.fail("the pair cells (class pairs) do not aggregate with single workloads", "scope");
}

static void read_optima(Reader& r, StudySpec& s, const std::string& path) {
  if (!r.has("optima")) return;
  const nlohmann::json& os = r.get("optima");
  if (!os.is_array()) r.fail("must be an array of {\"name\", \"sweep\", \"metric\", \"within\", \"scope\"?}", "optima");
  for (std::size_t i = 0; i < os.size(); ++i) {
    Reader orr(path, os[i], "optima[" + std::to_string(i) + "]");
    Optimum o;
    o.name = orr.str("name");
    if (!valid_name(o.name)) orr.fail("must be letters, digits, _ - . +", "name");
    for (const Optimum& x : s.optima)
      if (x.name == o.name) orr.fail("optimum '" + o.name + "' is defined twice", "name");
    const std::string of = orr.str("sweep");
    auto sw = std::find_if(s.sweeps.begin(), s.sweeps.end(), [&](const Sweep& x) { return x.name_format == of; });
    if (sw == s.sweeps.end()) {
      std::string known;
      for (const Sweep& x : s.sweeps) known += (known.empty() ? "" : ", ") + x.name_format;
      orr.fail("no sweep named '" + of + "' (" + (known.empty() ? "the study has no sweep" : "sweeps: " + known) + ")",
               "sweep");
    }
    o.sweep = static_cast<std::size_t>(sw - s.sweeps.begin());
    o.metric = orr.str("metric");
    const Metric* m = s.find_metric(o.metric);
    if (!m) orr.fail("no metric named '" + o.metric + "' in \"metrics\"", "metric");
    if (!m->normalise || m->weighted_speedup)
      orr.fail("metric '" + o.metric + "' must be a normalised metric of single runs", "metric");
    const nlohmann::json& w = orr.get("within");
    if (!w.is_number() || !std::isfinite(w.get<double>())) orr.fail("must be a finite number", "within");
    o.within = w.get<double>();
    if (o.within < 0 || o.within >= 1) orr.fail("must be a fraction in [0, 1) (0.01: within 1 % of the best)", "within");
    o.scope = orr.str("scope", "all");
    if (o.scope != "all" && o.scope.rfind("class:", 0) != 0) orr.fail("must be \"all\" or \"class:NAME[,NAME...]\"", "scope");
    Reference as_ref;
    as_ref.scope = o.scope;
    o.scope_classes = as_ref.scope_classes();
    check_scope_classes(orr, s, o.scope_classes);
    orr.done();
    s.optima.push_back(o);
  }
}

StudySpec read_study(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw StudyError(path + ": cannot open the study file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number out of range (1e999)
    throw StudyError(path + ": not valid JSON: " + e.what());
  }
  StudySpec s;
  s.file = fs::weakly_canonical(fs::absolute(path)).string();
  Reader r(path, j, "");
  s.name = r.str("name");
  if (!valid_name(s.name)) r.fail("must be letters, digits, _ - . +", "name");
  s.description = r.str("description", "");
  s.config = resolve(s.file, r.str("config"));
  if (!is_file(s.config)) r.fail("config file '" + s.config + "' not found", "config");

  std::set<std::string> names;
  if (r.has("variants")) {
    const nlohmann::json& vs = r.get("variants");
    if (!vs.is_array()) r.fail("must be an array of {\"name\", \"config\"?, \"overrides\"?}", "variants");
    for (std::size_t i = 0; i < vs.size(); ++i) {
      Reader vr(path, vs[i], "variants[" + std::to_string(i) + "]");
      Variant v;
      v.name = vr.str("name");
      if (!valid_name(v.name)) vr.fail("must be letters, digits, _ - . +", "name");
      if (!names.insert(v.name).second) vr.fail("variant '" + v.name + "' is defined twice", "name");
      v.config = vr.has("config") ? resolve(s.file, vr.str("config")) : s.config;
      if (!is_file(v.config)) vr.fail("config file '" + v.config + "' not found", "config");
      v.overrides = vr.strings("overrides");
      for (const std::string& o : v.overrides) check_override(vr, "overrides", o);
      vr.done();
      s.variants.push_back(v);
    }
  }
  // "sweep" (one) or "sweeps" (several): the old single "sweep" reads as a one-element list,
  // so its variants, their overrides and hence the job ids stay what they were.
  if (r.has("sweep") && r.has("sweeps")) r.fail("a study has \"sweep\" or \"sweeps\", not both", "sweeps");
  if (r.has("sweep")) {
    Reader sr = r.child("sweep");
    read_sweep(sr, s, names);
  }
  if (r.has("sweeps")) {
    const nlohmann::json& ss = r.get("sweeps");
    if (!ss.is_array() || ss.empty())
      r.fail("must be a non-empty array of {\"parameter\", \"values\", \"name\"?, \"overrides\"?, \"config\"?}", "sweeps");
    for (std::size_t i = 0; i < ss.size(); ++i) {
      Reader sr(path, ss[i], "sweeps[" + std::to_string(i) + "]");
      read_sweep(sr, s, names);
    }
  }
  if (s.variants.empty()) r.fail("a study needs \"variants\", a \"sweep\" or \"sweeps\"");

  const nlohmann::json& w = r.get("workloads");
  if (w.is_string() && w.get<std::string>() == "all") {
    s.all_workloads = true;
  } else {
    s.workloads = r.strings("workloads");
    if (s.workloads.empty()) r.fail("must be \"all\" or a non-empty array of workload names", "workloads");
  }
  s.exclude = r.strings("exclude");

  if (r.has("sizes")) {
    Reader zr = r.child("sizes");
    for (const auto& [set, list] : r.get("sizes").items()) {
      std::vector<std::string> sizes = zr.strings(set);
      if (sizes.empty()) zr.fail("must list at least one size", set);
      for (const std::string& z : sizes)
        if (!is_workload_size(z)) {
          std::string known;
          for (const std::string& k : workload_sizes()) known += (known.empty() ? "" : ", ") + k;
          zr.fail("unknown size '" + z + "' (" + known + ")", set);
        }
      s.size_sets[set] = sizes;
    }
    zr.done();
    if (!s.size_sets.count("default")) r.fail("needs a \"default\" size set", "sizes");
  } else {
    s.size_sets["default"] = {"small"};
  }

  if (r.has("skip")) {
    Reader kr = r.child("skip");
    for (const auto& [set, list] : r.get("skip").items()) {
      if (!s.size_sets.count(set)) kr.fail("no size set '" + set + "' in \"sizes\"", set);
      for (const std::string& cell : kr.strings(set)) {
        const auto slash = cell.find('/');
        const std::string size = slash == std::string::npos ? "" : cell.substr(slash + 1);
        if (slash == 0 || !is_workload_size(size))
          kr.fail("'" + cell + "' is not WORKLOAD/SIZE (e.g. kmeans/medium)", set);
        s.skip[set].push_back(cell);
      }
    }
    kr.done();
  }

  if (r.has("classes")) {
    Reader cr = r.child("classes");
    for (const auto& [cls, list] : r.get("classes").items()) {
      if (!valid_name(cls)) cr.fail("class name must be letters, digits, _ - . +", cls);
      for (const std::string& wl : cr.strings(cls)) {
        if (s.workload_class.count(wl)) cr.fail("workload '" + wl + "' is in two classes", cls);
        s.workload_class[wl] = cls;
      }
      s.class_order.push_back(cls);
    }
    cr.done();
  }

  const nlohmann::json& ms = r.get("metrics");
  if (!ms.is_array() || ms.empty()) r.fail("must be a non-empty array", "metrics");
  for (std::size_t i = 0; i < ms.size(); ++i) {
    Metric m = Metric::from_json(ms[i], path + ": metrics[" + std::to_string(i) + "]");
    for (const Metric& o : s.metrics)
      if (o.name == m.name) r.fail("metric '" + m.name + "' is defined twice", "metrics");
    s.metrics.push_back(m);
  }

  if (r.has("derived")) {
    const nlohmann::json& ds = r.get("derived");
    if (!ds.is_array()) r.fail("must be an array of {\"name\", \"best_of\", \"metric\"}", "derived");
    for (std::size_t i = 0; i < ds.size(); ++i) {
      Reader dr(path, ds[i], "derived[" + std::to_string(i) + "]");
      Derived d;
      d.name = dr.str("name");
      if (!valid_name(d.name)) dr.fail("must be letters, digits, _ - . +", "name");
      if (!names.insert(d.name).second) dr.fail("variant '" + d.name + "' is defined twice", "name");
      const std::string of = dr.str("best_of");
      auto sw = std::find_if(s.sweeps.begin(), s.sweeps.end(), [&](const Sweep& x) { return x.name_format == of; });
      if (sw == s.sweeps.end()) {
        std::string known;
        for (const Sweep& x : s.sweeps) known += (known.empty() ? "" : ", ") + x.name_format;
        dr.fail("no sweep named '" + of + "' (" + (known.empty() ? "the study has no sweep" : "sweeps: " + known) + ")",
                "best_of");
      }
      d.sweep = static_cast<std::size_t>(sw - s.sweeps.begin());
      d.metric = dr.str("metric");
      if (!s.find_metric(d.metric)) dr.fail("no metric named '" + d.metric + "' in \"metrics\"", "metric");
      dr.done();
      s.derived.push_back(d);
    }
  }
  read_pairs(r, s);
  // A derived variant has no job of its own to normalise to or to classify by.
  auto runs = [&](Reader& rd, const std::string& key, const std::string& v) {
    if (s.find_derived(v))
      rd.fail("'" + v + "' is a derived variant (best of a sweep, no job of its own): name a variant that runs", key);
    if (!names.count(v)) rd.fail("no variant named '" + v + "'", key);
  };
  s.baseline = r.str("baseline", s.variants.front().name);
  runs(r, "baseline", s.baseline);
  if (r.has("classify")) {
    if (r.has("classes"))
      r.fail("a study takes its classes from \"classes\" or from \"classify\", not both", "classify");
    Reader cr = r.child("classify");
    Classify c;
    c.variant = cr.str("variant", s.baseline);
    runs(cr, "variant", c.variant);
    auto class_name = [](Reader& rd, const std::string& key) {
      std::string cls = rd.str(key);
      if (!valid_name(cls)) rd.fail("class name must be letters, digits, _ - . +", key);
      if (cls == "all" || cls == "other") rd.fail("class name '" + cls + "' is reserved (all, other)", key);
      return cls;
    };
    auto metric_name = [&s](Reader& rd, const std::string& key) {
      std::string m = rd.str(key);
      if (!s.find_metric(m)) rd.fail("no metric named '" + m + "' in \"metrics\"", key);
      return m;
    };
    auto finite = [](Reader& rd, const std::string& key) {
      const nlohmann::json& t = rd.get(key);
      if (!t.is_number()) rd.fail("must be a number", key);
      if (!std::isfinite(t.get<double>())) rd.fail("must be a finite number", key);
      return t.get<double>();
    };
    if (cr.has("rules")) {
      const nlohmann::json& rs = cr.get("rules");
      if (!rs.is_array() || rs.empty()) cr.fail("must be a non-empty array of rules", "rules");
      for (std::size_t i = 0; i < rs.size(); ++i) {
        Reader rr(path, rs[i], "classify.rules[" + std::to_string(i) + "]");
        ClassRule rule;
        rule.cls = class_name(rr, "class");
        for (const ClassRule& o : c.rules)
          if (o.cls == rule.cls) rr.fail("class '" + rule.cls + "' has two rules", "class");
        const bool spread = rr.has("spread"), metric = rr.has("metric");
        if (spread && metric) rr.fail("a rule tests \"metric\" or \"spread\", not both");
        if (spread) {
          rule.kind = ClassRule::Kind::SpreadBelow;
          rule.metric = metric_name(rr, "spread");
          if (rr.has("above")) rr.fail("a spread rule takes \"below\" only", "above");
          rule.threshold = finite(rr, "below");
          if (rule.threshold <= 0) rr.fail("must be > 0", "below");
          rule.variants = rr.strings("variants");
          if (rule.variants.empty())  // every listed (not swept) variant
            for (const Variant& v : s.variants)
              if (v.sweep_value.empty() && v.name != c.variant) rule.variants.push_back(v.name);
          for (const std::string& v : rule.variants) runs(rr, "variants", v);
          if (rule.variants.empty()) rr.fail("no variant to compare with '" + c.variant + "'", "variants");
        } else if (metric) {
          rule.metric = metric_name(rr, "metric");
          const bool above = rr.has("above"), below = rr.has("below");
          if (above == below) rr.fail("a metric rule takes one of \"above\" and \"below\"");
          rule.kind = above ? ClassRule::Kind::Above : ClassRule::Kind::Below;
          rule.threshold = finite(rr, above ? "above" : "below");
        } else {
          rule.kind = ClassRule::Kind::Otherwise;
        }
        const bool last = i + 1 == rs.size();
        if (rule.kind == ClassRule::Kind::Otherwise && !last)
          rr.fail("a rule without \"metric\" or \"spread\" holds always: it must be the last");
        if (rule.kind != ClassRule::Kind::Otherwise && last)
          rr.fail("the last rule must hold always (no \"metric\" or \"spread\"), so that every cell gets a class");
        rr.done();
        c.rules.push_back(rule);
        s.class_order.push_back(rule.cls);
      }
    } else {
      c.metric = metric_name(cr, "metric");
      c.threshold = finite(cr, "threshold");
      c.above = class_name(cr, "above");
      c.below = class_name(cr, "below");
      if (c.above == c.below) cr.fail("must differ from \"above\" ('" + c.above + "')", "below");
      s.class_order = {c.below, c.above};
    }
    cr.done();
    s.classify = c;
  }
  read_optima(r, s, path);
  s.aggregate = r.str("aggregate", "geomean");
  if (s.aggregate != "geomean" && s.aggregate != "mean") r.fail("must be \"geomean\" or \"mean\"", "aggregate");
  s.timeout_seconds = r.number("timeout_seconds", 0);
  if (s.timeout_seconds < 0) r.fail("must be >= 0 (0: no limit)", "timeout_seconds");
  const double memory_limit = r.number("memory_limit_mb", 0);
  if (!(memory_limit >= 0 && memory_limit <= static_cast<double>(uint64_t{1} << 40)) ||
      memory_limit != std::floor(memory_limit))
    r.fail("must be a whole number of MiB >= 0 (0: no limit)", "memory_limit_mb");
  s.memory_limit_mb = static_cast<uint64_t>(memory_limit);
  if (r.has("discussion")) {
    s.discussion = resolve(s.file, r.str("discussion"));
    if (!is_file(s.discussion)) r.fail("file '" + s.discussion + "' not found", "discussion");
  }

  if (r.has("reference")) {
    const nlohmann::json& rs = r.get("reference");
    if (!rs.is_array()) r.fail("must be an array", "reference");
    for (std::size_t i = 0; i < rs.size(); ++i) {
      Reader rr(path, rs[i], "reference[" + std::to_string(i) + "]");
      Reference ref;
      ref.variant = rr.str("variant");
      if (!names.count(ref.variant)) rr.fail("no variant named '" + ref.variant + "'", "variant");
      ref.metric = rr.str("metric");
      bool known = std::any_of(s.metrics.begin(), s.metrics.end(), [&](const Metric& m) { return m.name == ref.metric; });
      if (!known) rr.fail("no metric named '" + ref.metric + "' in \"metrics\"", "metric");
      ref.scope = rr.str("scope", "all");
      if (ref.scope != "all" && ref.scope.rfind("class:", 0) != 0 && ref.scope.rfind("workload:", 0) != 0)
        rr.fail("must be \"all\", \"class:NAME\" or \"workload:NAME\"", "scope");
      check_scope_classes(rr, s, ref.scope_classes());
      ref.baseline = rr.str("baseline", "");
      if (!ref.baseline.empty()) {
        if (!names.count(ref.baseline)) rr.fail("no variant named '" + ref.baseline + "'", "baseline");
        if (!s.find_metric(ref.metric)->normalise)
          rr.fail("metric '" + ref.metric + "' is raw (\"normalise\": false): it has no baseline", "baseline");
      }
      ref.size = rr.str("size", "");
      if (!rr.has("value") || !rs[i].at("value").is_number()) rr.fail("must be a number", "value");
      ref.value = rs[i].at("value").get<double>();
      ref.source = rr.str("source");
      ref.section = rr.str("section");
      ref.note = rr.str("note", "");
      rr.done();
      s.references.push_back(ref);
    }
  }

  if (r.has("plots")) {
    const nlohmann::json& ps = r.get("plots");
    if (!ps.is_array()) r.fail("must be an array", "plots");
    for (std::size_t i = 0; i < ps.size(); ++i) {
      Reader pr(path, ps[i], "plots[" + std::to_string(i) + "]");
      PlotSpec p;
      p.kind = pr.str("kind");
      if (p.kind != "bars" && p.kind != "sweep") pr.fail("must be \"bars\" or \"sweep\"", "kind");
      if (p.kind == "sweep" && s.sweeps.empty()) pr.fail("a sweep plot needs a \"sweep\" or \"sweeps\" in the study", "kind");
      p.metric = pr.str("metric");
      bool known = std::any_of(s.metrics.begin(), s.metrics.end(), [&](const Metric& m) { return m.name == p.metric; });
      if (!known) pr.fail("no metric named '" + p.metric + "' in \"metrics\"", "metric");
      pr.done();
      s.plots.push_back(p);
    }
  } else {
    s.plots.push_back({"bars", s.metrics.front().name});
    if (!s.sweeps.empty()) s.plots.push_back({"sweep", s.metrics.front().name});
  }
  r.done();
  return s;
}

}  // namespace gputlm::study
