// Study files: what they mean once read, and that every mistake is an error naming the
// file and the key path.
#include <catch2/catch.hpp>

#include "study/metrics.h"
#include "study/study_spec.h"
#include "study_test_util.h"

using namespace gputlm::study;
using namespace study_test;

TEST_CASE("study file: variants, a sweep, classes, size sets, metrics and references are read", "[study]") {
  nlohmann::json j = small_study();
  j["sweep"] = {{"parameter", "sm.l1d.mshr.entries"}, {"values", {16, 32}}, {"name", "mshr{}"}};
  j["sizes"] = {{"default", {"small"}}, {"full", {"small", "medium"}}};
  j["reference"] = {{{"variant", "gto"}, {"metric", "ipc"}, {"scope", "class:memory"}, {"value", 1.13},
                     {"source", "002"}, {"section", "V"}}};
  j["aggregate"] = "mean";
  const fs::path dir = scratch("spec_ok");
  const StudySpec s = read_study(write_study(dir, j));
  REQUIRE(s.variants.size() == 4);
  CHECK(s.variants[2].name == "mshr16");
  CHECK(s.variants[3].overrides.back() == "sm.l1d.mshr.entries=32");
  CHECK(s.variants[3].sweep_value == "32");
  CHECK(s.variants[0].config == fs::weakly_canonical(fermi_config()).string());
  CHECK(s.size_sets.at("full") == std::vector<std::string>{"small", "medium"});
  CHECK(s.class_of("vecadd") == "memory");
  CHECK(s.class_of("bfs") == "other");
  CHECK(s.metric("cycles").higher_is_better == false);
  CHECK(s.metric("l1d_hit_rate").numerator == "total.sm*.l1d.load_hits");
  CHECK(s.references.at(0).scope == "class:memory");
  CHECK(s.aggregate == "mean");
  CHECK(s.plots.size() == 2);  // bars and, with a sweep, the sweep line plot
}

TEST_CASE("study file: relative paths are relative to the study file", "[study]") {
  const fs::path dir = scratch("spec_rel");
  fs::create_directories(dir / "cfg");
  fs::copy_file(fermi_config(), dir / "cfg" / "f.json");
  nlohmann::json j = small_study();
  j["config"] = "cfg/f.json";
  const StudySpec s = read_study(write_study(dir, j));
  CHECK(s.config == fs::weakly_canonical(dir / "cfg" / "f.json").string());
}

TEST_CASE("study file: every mistake names the file and the key path", "[study]") {
  nlohmann::json j = small_study();
  j["variantz"] = 1;
  CHECK_THAT(study_error(j), Catch::Contains("study.json: variantz: unknown key"));
  j = small_study();
  j["variants"][1]["overides"] = {"a=1"};
  CHECK_THAT(study_error(j), Catch::Contains("variants[1].overides: unknown key"));
  j = small_study();
  j["variants"][1]["name"] = "lrr";
  CHECK_THAT(study_error(j), Catch::Contains("variants[1].name: variant 'lrr' is defined twice"));
  j = small_study();
  j["variants"][0]["overrides"] = {"nonsense"};
  CHECK_THAT(study_error(j), Catch::Contains("override 'nonsense' is not KEY=VALUE"));
  j = small_study();
  j["config"] = "/no/such/config.json";
  CHECK_THAT(study_error(j), Catch::Contains("config: config file '/no/such/config.json' not found"));
  j = small_study();
  j["baseline"] = "two_level";
  CHECK_THAT(study_error(j), Catch::Contains("baseline: no variant named 'two_level'"));
  j = small_study();
  j["metrics"] = {"ipcc"};
  CHECK_THAT(study_error(j), Catch::Contains("metrics[0]: unknown metric 'ipcc'"));
  j = small_study();
  j["metrics"] = {{{"name", "x"}}};
  CHECK_THAT(study_error(j), Catch::Contains("metric 'x' needs exactly one of \"path\" or \"ratio\""));
  j = small_study();
  j["sizes"] = {{"default", {"large"}}};
  CHECK_THAT(study_error(j), Catch::Contains("sizes.default: unknown size 'large'"));
  j = small_study();
  j["sizes"] = {{"full", {"small"}}};
  CHECK_THAT(study_error(j), Catch::Contains("sizes: needs a \"default\" size set"));
  j = small_study();
  j["reference"] = {{{"variant", "oldest"}, {"metric", "ipc"}, {"value", 1.0}, {"source", "s"}, {"section", "x"}}};
  CHECK_THAT(study_error(j), Catch::Contains("reference[0].variant: no variant named 'oldest'"));
  j = small_study();
  j["reference"] = {{{"variant", "gto"}, {"metric", "ipc"}, {"value", "1.1"}, {"source", "s"}, {"section", "x"}}};
  CHECK_THAT(study_error(j), Catch::Contains("reference[0].value: must be a number"));
  j = small_study();
  j["sweep"] = {{"parameter", "sm.l1d.mshr.entries"}, {"values", {16}}, {"name", "mshr"}};
  CHECK_THAT(study_error(j), Catch::Contains("sweep.name: must contain {}"));
  j = small_study();
  j["workloads"] = nlohmann::json::array();
  CHECK_THAT(study_error(j), Catch::Contains("workloads: must be \"all\" or a non-empty array"));
  j = small_study();
  j["timeout_seconds"] = -1;
  CHECK_THAT(study_error(j), Catch::Contains("timeout_seconds: must be >= 0"));
  j = small_study();
  j["classes"] = {{"a", {"vecadd"}}, {"b", {"vecadd"}}};
  CHECK_THAT(study_error(j), Catch::Contains("workload 'vecadd' is in two classes"));

  const fs::path dir = scratch("spec_badjson");
  std::ofstream(dir / "bad.json") << "{\"name\": ";
  CHECK_THROWS_WITH(read_study((dir / "bad.json").string()), Catch::Contains("bad.json: not valid JSON"));
  CHECK_THROWS_WITH(read_study((dir / "none.json").string()), Catch::Contains("none.json: cannot open the study file"));
}

TEST_CASE("study metrics: dotted paths with globs sum, ratios divide, built-ins read the run", "[study]") {
  const nlohmann::json stats = {
      {"cycles", 100},
      {"launches", {{{"thread_instructions", 300}, {"warp_instructions", 10}}, {{"thread_instructions", 100}, {"warp_instructions", 5}}}},
      {"total", {{"sm0", {{"l1d", {{"loads", 10}, {"load_hits", 4}}}}}, {"sm1", {{"l1d", {{"loads", 30}, {"load_hits", 6}}}}}, {"icnt", 1}}}};
  CHECK(*sum_path(stats, "total.sm*.l1d.loads") == 40);
  CHECK(*sum_path(stats, "total.sm1.l1d.load_hits") == 6);
  CHECK(*sum_path(stats, "launches.1.thread_instructions") == 100);
  CHECK_FALSE(sum_path(stats, "total.sm*.l2.loads"));
  CHECK(*sum_path(stats, "total.sm*.l1d.loads+total.icnt") == 41);
  CHECK(*sum_path(stats, "total.sm*.l2.loads+total.sm0.l1d.*") == 14);
  CHECK(*sum_path(stats, "cycles+launches.*.warp_instructions+total.icnt") == 116);
  CHECK_FALSE(sum_path(stats, "total.sm*.l2.loads+total.none"));
  CHECK_FALSE(sum_path(stats, "launches.7.thread_instructions"));
  Metric ratio;
  ratio.name = "hit";
  ratio.numerator = "total.sm*.l1d.load_hits";
  ratio.denominator = "total.sm*.l1d.loads";
  CHECK(*evaluate(ratio, stats, 0) == Approx(0.25));
  auto builtin = [](const char* n) { return Metric::from_json(n, "t"); };
  CHECK(*evaluate(builtin("ipc"), stats, 0) == Approx(4.0));
  CHECK(*evaluate(builtin("warp_ipc"), stats, 0) == Approx(0.15));
  CHECK(*evaluate(builtin("cycles"), stats, 0) == 100);
  CHECK(*evaluate(builtin("host_seconds"), stats, 2.5) == 2.5);
  ratio.denominator = "total.icnt.missing";
  CHECK_FALSE(evaluate(ratio, stats, 0));
}

namespace {
// small_study with its classes measured: compute above 30 instructions per L1 miss (Mascar).
nlohmann::json classifying_study() {
  nlohmann::json j = small_study();
  j.erase("classes");
  j["metrics"].push_back({{"name", "insts_per_l1_miss"},
                          {"ratio", {"total.sm*.warp_instructions", "total.sm*.l1d.load_misses"}},
                          {"normalise", false}});
  j["classify"] = {{"metric", "insts_per_l1_miss"}, {"threshold", 30}, {"above", "compute"}, {"below", "memory"}};
  return j;
}
}  // namespace

TEST_CASE("study file: classify derives classes from a measured metric", "[study]") {
  nlohmann::json j = classifying_study();
  j["reference"] = {{{"variant", "gto"}, {"metric", "ipc"}, {"scope", "class:compute"}, {"value", 1.1},
                     {"source", "Mascar"}, {"section", "Fig. 11"}},
                    {{"variant", "gto"}, {"metric", "ipc"}, {"scope", "class:other"}, {"value", 1.0},
                     {"source", "Mascar"}, {"section", "Fig. 11"}}};
  const fs::path dir = scratch("spec_classify");
  StudySpec s = read_study(write_study(dir, j));
  REQUIRE(s.classify);
  CHECK(s.classify->metric == "insts_per_l1_miss");
  CHECK(s.classify->variant == "lrr");  // the baseline when not given
  CHECK(s.classify->threshold == 30);
  CHECK(s.classify->above == "compute");
  CHECK(s.classify->below == "memory");
  CHECK(s.class_order == std::vector<std::string>{"memory", "compute"});  // below, then above
  CHECK(s.workload_class.empty());
  CHECK(s.class_of("vecadd") == "other");  // no static class: the report measures it
  CHECK(s.references.at(0).scope == "class:compute");
  j["classify"]["variant"] = "gto";
  j["classify"]["threshold"] = 12.5;
  s = read_study(write_study(dir, j));
  CHECK(s.classify->variant == "gto");
  CHECK(s.classify->threshold == 12.5);
  CHECK_FALSE(read_study(write_study(dir, small_study())).classify);
}

TEST_CASE("study file: every classify mistake names the key", "[study]") {
  nlohmann::json j = classifying_study();
  j["classes"] = {{"memory", {"vecadd"}}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: classify: a study takes its classes from \"classes\" or from "
                                          "\"classify\", not both"));
  j = classifying_study();
  j["classify"] = 30;
  CHECK_THAT(study_error(j), Catch::Contains("study.json: classify: must be an object"));
  j = classifying_study();
  j["classify"].erase("metric");
  CHECK_THAT(study_error(j), Catch::Contains("study.json: classify.metric: missing (required)"));
  j = classifying_study();
  j["classify"]["metric"] = "l1_misses";
  CHECK_THAT(study_error(j), Catch::Contains("classify.metric: no metric named 'l1_misses' in \"metrics\""));
  j = classifying_study();
  j["classify"]["variant"] = "oldest";
  CHECK_THAT(study_error(j), Catch::Contains("classify.variant: no variant named 'oldest'"));
  j = classifying_study();
  j["classify"].erase("threshold");
  CHECK_THAT(study_error(j), Catch::Contains("classify.threshold: missing (required)"));
  j = classifying_study();
  j["classify"]["threshold"] = "30";
  CHECK_THAT(study_error(j), Catch::Contains("classify.threshold: must be a number"));
  j = classifying_study();
  j["classify"].erase("above");
  CHECK_THAT(study_error(j), Catch::Contains("classify.above: missing (required)"));
  j = classifying_study();
  j["classify"]["above"] = "compute intensive";
  CHECK_THAT(study_error(j), Catch::Contains("classify.above: class name must be letters, digits, _ - . +"));
  j = classifying_study();
  j["classify"]["below"] = 1;
  CHECK_THAT(study_error(j), Catch::Contains("classify.below: must be a string"));
  j = classifying_study();
  j["classify"]["below"] = "all";
  CHECK_THAT(study_error(j), Catch::Contains("classify.below: class name 'all' is reserved (all, other)"));
  j = classifying_study();
  j["classify"]["above"] = "other";
  CHECK_THAT(study_error(j), Catch::Contains("classify.above: class name 'other' is reserved"));
  j = classifying_study();
  j["classify"]["below"] = "compute";
  CHECK_THAT(study_error(j), Catch::Contains("classify.below: must differ from \"above\" ('compute')"));
  j = classifying_study();
  j["classify"]["treshold"] = 31;
  CHECK_THAT(study_error(j), Catch::Contains("classify.treshold: unknown key"));
  // References name a class of the study: classify's, or the static ones.
  j = classifying_study();
  j["reference"] = {{{"variant", "gto"}, {"metric", "ipc"}, {"scope", "class:compute-bound"}, {"value", 1.0},
                     {"source", "s"}, {"section", "x"}}};
  CHECK_THAT(study_error(j), Catch::Contains("reference[0].scope: no class named 'compute-bound' (classes: memory, compute)"));
  j["classes"] = small_study()["classes"];
  j.erase("classify");
  CHECK_THAT(study_error(j), Catch::Contains("reference[0].scope: no class named 'compute-bound' (classes: compute, memory)"));
  j.erase("classes");
  CHECK_THAT(study_error(j), Catch::Contains("reference[0].scope: no class named 'compute-bound' (the study has no classes)"));
  // A threshold beyond a double is not JSON gputlm can read: an error naming the file.
  const fs::path dir = scratch("spec_classify_inf");
  std::string text = classifying_study().dump();
  text.replace(text.find("\"threshold\":30"), 14, "\"threshold\":1e999");
  std::ofstream(dir / "inf.json") << text;
  CHECK_THROWS_WITH(read_study((dir / "inf.json").string()), Catch::Contains("inf.json: not valid JSON"));
}

namespace {
// small_study with two sweeps (LAWS study of 001, ch. 3: a static warp limit per SM under
// swl, LAWS's miss counter ceiling) and B-SWL, the best warp limit per cell by ipc.
nlohmann::json sweeps_study() {
  nlohmann::json j = small_study();
  j["sweeps"] = {{{"parameter", "sm.scheduler.warp_limit"}, {"values", {1, 2, 48}}, {"name", "swl_wl{}"},
                  {"overrides", {"sm.scheduler.warp_limit_scope=sm", "sm.scheduler.policy=swl"}}},
                 {{"parameter", "sm.scheduler.laws.miss_cnt_max"}, {"values", {4, 127}}, {"name", "laws_m{}"},
                  {"overrides", {"sm.scheduler.policy=laws"}}}};
  j["derived"] = {{{"name", "b_swl"}, {"best_of", "swl_wl{}"}, {"metric", "ipc"}}};
  return j;
}
}  // namespace

TEST_CASE("study file: several sweeps give one variant per value each after the listed variants", "[study]") {
  const fs::path dir = scratch("spec_sweeps");
  fs::copy_file(fermi_config(), dir / "other.json");
  nlohmann::json j = sweeps_study();
  j["sweeps"][1]["config"] = "other.json";
  // No "name": PARAMETER_LAST_SEGMENT={} ('=' is allowed in a sweep's variant names).
  j["sweeps"].push_back({{"parameter", "sm.l1d.mshr.entries"}, {"values", {16, "32"}}});
  const StudySpec s = read_study(write_study(dir, j));
  REQUIRE(s.sweeps.size() == 3);
  CHECK(s.sweeps[0].name_format == "swl_wl{}");
  CHECK(s.sweeps[0].parameter == "sm.scheduler.warp_limit");
  CHECK(s.sweeps[0].values == std::vector<std::string>{"1", "2", "48"});
  CHECK(s.sweeps[0].variants == std::vector<std::string>{"swl_wl1", "swl_wl2", "swl_wl48"});
  CHECK(s.sweeps[1].variants == std::vector<std::string>{"laws_m4", "laws_m127"});
  CHECK(s.sweeps[2].name_format == "entries={}");
  CHECK(s.sweeps[2].variants == std::vector<std::string>{"entries=16", "entries=32"});
  std::vector<std::string> names;
  for (const Variant& v : s.variants) names.push_back(v.name);
  CHECK(names == std::vector<std::string>{"lrr", "gto", "swl_wl1", "swl_wl2", "swl_wl48", "laws_m4", "laws_m127",
                                          "entries=16", "entries=32"});
  const Variant& wl2 = s.variant("swl_wl2");
  CHECK(wl2.overrides == std::vector<std::string>{"sm.scheduler.warp_limit_scope=sm", "sm.scheduler.policy=swl",
                                                  "sm.scheduler.warp_limit=2"});
  CHECK(wl2.sweep_value == "2");
  CHECK(wl2.config == fs::weakly_canonical(fermi_config()).string());
  CHECK(s.variant("laws_m127").config == fs::weakly_canonical(dir / "other.json").string());
  CHECK(s.variant("laws_m127").overrides ==
        std::vector<std::string>{"sm.scheduler.policy=laws", "sm.scheduler.laws.miss_cnt_max=127"});
  CHECK(s.variant("entries=32").overrides == std::vector<std::string>{"sm.l1d.mshr.entries=\"32\""});  // a string stays JSON
  CHECK(s.variant("entries=32").sweep_value == "32");
  CHECK(s.variant("gto").sweep_value.empty());
  REQUIRE(s.plots.size() == 2);  // bars and one sweep plot (a figure per sweep)
  CHECK(s.plots[1].kind == "sweep");
}

TEST_CASE("study file: an old single sweep reads as a one-element sweeps list", "[study]") {
  const fs::path dir = scratch("spec_sweep_compat");
  nlohmann::json one = small_study();
  one["sweep"] = {{"parameter", "sm.l1d.mshr.entries"}, {"values", {16, 32}}, {"name", "mshr{}"},
                  {"overrides", {"sm.scheduler.policy=gto"}}};
  nlohmann::json list = small_study();
  list["sweeps"] = nlohmann::json::array({one["sweep"]});  // `{x}` alone is x itself under clang
  const StudySpec a = read_study(write_study(dir, one, "one")), b = read_study(write_study(dir, list, "list"));
  REQUIRE(a.sweeps.size() == 1);
  REQUIRE(b.sweeps.size() == 1);
  CHECK(a.sweeps[0].name_format == b.sweeps[0].name_format);
  CHECK(a.sweeps[0].values == b.sweeps[0].values);
  CHECK(a.sweeps[0].variants == b.sweeps[0].variants);
  REQUIRE(a.variants.size() == 4);
  REQUIRE(b.variants.size() == 4);
  for (std::size_t i = 0; i < a.variants.size(); ++i) {
    CHECK(a.variants[i].name == b.variants[i].name);
    CHECK(a.variants[i].config == b.variants[i].config);
    CHECK(a.variants[i].overrides == b.variants[i].overrides);
    CHECK(a.variants[i].sweep_value == b.variants[i].sweep_value);
  }
  // What the single sweep always produced: the sweep's overrides, then PARAMETER=VALUE.
  CHECK(a.variants[3].overrides == std::vector<std::string>{"sm.scheduler.policy=gto", "sm.l1d.mshr.entries=32"});
  CHECK(a.derived.empty());
}

TEST_CASE("study file: a derived variant is the best of a named sweep by a metric", "[study]") {
  const fs::path dir = scratch("spec_derived");
  nlohmann::json j = sweeps_study();
  j["derived"].push_back({{"name", "fastest_laws"}, {"best_of", "laws_m{}"}, {"metric", "cycles"}});
  j["reference"] = {{{"variant", "b_swl"}, {"metric", "ipc"}, {"scope", "class:memory"}, {"value", 1.2},
                     {"source", "001"}, {"section", "3.4"}}};
  const StudySpec s = read_study(write_study(dir, j));
  REQUIRE(s.derived.size() == 2);
  CHECK(s.derived[0].name == "b_swl");
  CHECK(s.derived[0].sweep == 0);
  CHECK(s.derived[0].metric == "ipc");
  CHECK(s.derived[1].sweep == 1);
  CHECK(s.derived[1].metric == "cycles");
  CHECK(s.find_derived("b_swl") == &s.derived[0]);
  CHECK(s.find_derived("swl_wl1") == nullptr);
  CHECK(s.variant_names() == std::vector<std::string>{"lrr", "gto", "swl_wl1", "swl_wl2", "swl_wl48", "laws_m4",
                                                      "laws_m127", "b_swl", "fastest_laws"});
  CHECK(s.variants.size() == 7);  // a derived variant runs no job: not among the variants that run
  CHECK(s.references.at(0).variant == "b_swl");
  CHECK_THROWS_WITH(s.variant("b_swl"), Catch::Contains("'b_swl' is a derived variant (best of a sweep): it runs no job"));
}

TEST_CASE("study file: every sweeps and derived mistake names the key path", "[study]") {
  nlohmann::json j = sweeps_study();
  j["sweeps"] = nlohmann::json::array();
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps: must be a non-empty array of {\"parameter\""));
  j["sweeps"] = {{"parameter", "a.b"}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps: must be a non-empty array of"));
  j = sweeps_study();
  j["sweep"] = j["sweeps"][0];
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps: a study has \"sweep\" or \"sweeps\", not both"));
  j = sweeps_study();
  j["sweeps"][1] = 5;
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1]: must be an object"));
  j = sweeps_study();
  j["sweeps"][1]["values"] = nlohmann::json::array();
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1].values: must be a non-empty array"));
  j = sweeps_study();
  j["sweeps"][1]["values"] = {4, {{"x", 1}}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1].values: values must be numbers, strings or booleans"));
  j = sweeps_study();
  j["sweeps"][1].erase("parameter");
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1].parameter: missing (required)"));
  j = sweeps_study();
  j["sweeps"][1]["name"] = "laws_m";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1].name: must contain {}"));
  j = sweeps_study();
  j["sweeps"][1]["name"] = "swl_wl{}";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1].name: 'swl_wl{}' is sweeps[0]'s name too"));
  j = sweeps_study();
  j["sweeps"][1]["name"] = "{}";
  j["sweeps"][1]["values"] = {"gto"};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1]: variant 'gto' is defined twice"));
  j = sweeps_study();
  j["sweeps"][1]["name"] = "m/{}";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1].name: variant name 'm/4' must be letters"));
  j = sweeps_study();
  j["sweeps"][1]["config"] = "nowhere.json";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[1].config: config file '") &&
                              Catch::Contains("nowhere.json' not found"));
  j = sweeps_study();
  j["sweeps"][0]["overrides"] = {"sm.scheduler.policy"};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[0].overrides: override 'sm.scheduler.policy' is not KEY=VALUE"));
  j = sweeps_study();
  j["sweeps"][0]["valus"] = {1};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweeps[0].valus: unknown key"));
  // The single "sweep" keeps its own key path.
  j = small_study();
  j["sweep"] = {{"parameter", "sm.l1d.mshr.entries"}, {"values", nlohmann::json::array()}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweep.values: must be a non-empty array"));
  j = small_study();
  j["sweep"] = {{"parameter", "sm.l1d.mshr.entries"}, {"values", {8}}, {"name", "gto{}"}, {"config", "none.json"}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: sweep.config: config file '"));
  j = small_study();
  j.erase("variants");
  j.erase("baseline");
  CHECK_THAT(study_error(j), Catch::Contains("study.json: a study needs \"variants\", a \"sweep\" or \"sweeps\""));

  j = sweeps_study();
  j["derived"] = {{"name", "b_swl"}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived: must be an array of {\"name\", \"best_of\", \"metric\"}"));
  j = sweeps_study();
  j["derived"] = {"b_swl"};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0]: must be an object"));
  j = sweeps_study();
  j["derived"][0].erase("name");
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].name: missing (required)"));
  j = sweeps_study();
  j["derived"][0]["name"] = "b swl";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].name: must be letters, digits, _ - . +"));
  j = sweeps_study();
  j["derived"][0]["name"] = "swl_wl2";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].name: variant 'swl_wl2' is defined twice"));
  j = sweeps_study();
  j["derived"].push_back(j["derived"][0]);
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[1].name: variant 'b_swl' is defined twice"));
  j = sweeps_study();
  j["derived"][0].erase("best_of");
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].best_of: missing (required)"));
  j = sweeps_study();
  j["derived"][0]["best_of"] = "swl";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].best_of: no sweep named 'swl' (sweeps: swl_wl{}, laws_m{})"));
  j = small_study();
  j["derived"] = {{{"name", "best"}, {"best_of", "gto"}, {"metric", "ipc"}}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].best_of: no sweep named 'gto' (the study has no sweep)"));
  j = sweeps_study();
  j["derived"][0].erase("metric");
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].metric: missing (required)"));
  j = sweeps_study();
  j["derived"][0]["metric"] = "warp_ipc";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].metric: no metric named 'warp_ipc' in \"metrics\""));
  j = sweeps_study();
  j["derived"][0]["by"] = "max";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: derived[0].by: unknown key"));
  j = sweeps_study();
  j["baseline"] = "b_swl";
  CHECK_THAT(study_error(j), Catch::Contains("study.json: baseline: 'b_swl' is a derived variant (best of a sweep, no job "
                                          "of its own): name a variant that runs"));
  j = sweeps_study();
  j.erase("classes");
  j["classify"] = {{"metric", "ipc"}, {"variant", "b_swl"}, {"threshold", 1}, {"above", "hi"}, {"below", "lo"}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: classify.variant: 'b_swl' is a derived variant"));
  j = sweeps_study();
  j["reference"] = {{{"variant", "b_swl2"}, {"metric", "ipc"}, {"value", 1.0}, {"source", "s"}, {"section", "x"}}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: reference[0].variant: no variant named 'b_swl2'"));
  j = small_study();
  j["plots"] = {{{"kind", "sweep"}, {"metric", "ipc"}}};
  CHECK_THAT(study_error(j), Catch::Contains("study.json: plots[0].kind: a sweep plot needs a \"sweep\" or \"sweeps\""));
}
