// Study files: what they mean once read, and that every mistake is an error naming the
// file and the key path.
#include <catch2/catch.hpp>

#include "study/metrics.h"
#include "study/study_spec.h"
#include "study_test_util.h"

using namespace gputlm::study;
using namespace study_test;

namespace {
std::string error_of(const nlohmann::json& j) {
  const fs::path dir = scratch("spec_err");
  const std::string file = write_study(dir, j);
  try {
    read_study(file);
  } catch (const StudyError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

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
  CHECK_THAT(error_of(j), Catch::Contains("study.json: variantz: unknown key"));
  j = small_study();
  j["variants"][1]["overides"] = {"a=1"};
  CHECK_THAT(error_of(j), Catch::Contains("variants[1].overides: unknown key"));
  j = small_study();
  j["variants"][1]["name"] = "lrr";
  CHECK_THAT(error_of(j), Catch::Contains("variants[1].name: variant 'lrr' is defined twice"));
  j = small_study();
  j["variants"][0]["overrides"] = {"nonsense"};
  CHECK_THAT(error_of(j), Catch::Contains("override 'nonsense' is not KEY=VALUE"));
  j = small_study();
  j["config"] = "/no/such/config.json";
  CHECK_THAT(error_of(j), Catch::Contains("config: config file '/no/such/config.json' not found"));
  j = small_study();
  j["baseline"] = "two_level";
  CHECK_THAT(error_of(j), Catch::Contains("baseline: no variant named 'two_level'"));
  j = small_study();
  j["metrics"] = {"ipcc"};
  CHECK_THAT(error_of(j), Catch::Contains("metrics[0]: unknown metric 'ipcc'"));
  j = small_study();
  j["metrics"] = {{{"name", "x"}}};
  CHECK_THAT(error_of(j), Catch::Contains("metric 'x' needs exactly one of \"path\" or \"ratio\""));
  j = small_study();
  j["sizes"] = {{"default", {"large"}}};
  CHECK_THAT(error_of(j), Catch::Contains("sizes.default: unknown size 'large'"));
  j = small_study();
  j["sizes"] = {{"full", {"small"}}};
  CHECK_THAT(error_of(j), Catch::Contains("sizes: needs a \"default\" size set"));
  j = small_study();
  j["reference"] = {{{"variant", "oldest"}, {"metric", "ipc"}, {"value", 1.0}, {"source", "s"}, {"section", "x"}}};
  CHECK_THAT(error_of(j), Catch::Contains("reference[0].variant: no variant named 'oldest'"));
  j = small_study();
  j["reference"] = {{{"variant", "gto"}, {"metric", "ipc"}, {"value", "1.1"}, {"source", "s"}, {"section", "x"}}};
  CHECK_THAT(error_of(j), Catch::Contains("reference[0].value: must be a number"));
  j = small_study();
  j["sweep"] = {{"parameter", "sm.l1d.mshr.entries"}, {"values", {16}}, {"name", "mshr"}};
  CHECK_THAT(error_of(j), Catch::Contains("sweep.name: must contain {}"));
  j = small_study();
  j["workloads"] = nlohmann::json::array();
  CHECK_THAT(error_of(j), Catch::Contains("workloads: must be \"all\" or a non-empty array"));
  j = small_study();
  j["timeout_seconds"] = -1;
  CHECK_THAT(error_of(j), Catch::Contains("timeout_seconds: must be >= 0"));
  j = small_study();
  j["classes"] = {{"a", {"vecadd"}}, {"b", {"vecadd"}}};
  CHECK_THAT(error_of(j), Catch::Contains("workload 'vecadd' is in two classes"));

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
  CHECK_THAT(error_of(j), Catch::Contains("study.json: classify: a study takes its classes from \"classes\" or from "
                                          "\"classify\", not both"));
  j = classifying_study();
  j["classify"] = 30;
  CHECK_THAT(error_of(j), Catch::Contains("study.json: classify: must be an object"));
  j = classifying_study();
  j["classify"].erase("metric");
  CHECK_THAT(error_of(j), Catch::Contains("study.json: classify.metric: missing (required)"));
  j = classifying_study();
  j["classify"]["metric"] = "l1_misses";
  CHECK_THAT(error_of(j), Catch::Contains("classify.metric: no metric named 'l1_misses' in \"metrics\""));
  j = classifying_study();
  j["classify"]["variant"] = "oldest";
  CHECK_THAT(error_of(j), Catch::Contains("classify.variant: no variant named 'oldest'"));
  j = classifying_study();
  j["classify"].erase("threshold");
  CHECK_THAT(error_of(j), Catch::Contains("classify.threshold: missing (required)"));
  j = classifying_study();
  j["classify"]["threshold"] = "30";
  CHECK_THAT(error_of(j), Catch::Contains("classify.threshold: must be a number"));
  j = classifying_study();
  j["classify"].erase("above");
  CHECK_THAT(error_of(j), Catch::Contains("classify.above: missing (required)"));
  j = classifying_study();
  j["classify"]["above"] = "compute intensive";
  CHECK_THAT(error_of(j), Catch::Contains("classify.above: class name must be letters, digits, _ - . +"));
  j = classifying_study();
  j["classify"]["below"] = 1;
  CHECK_THAT(error_of(j), Catch::Contains("classify.below: must be a string"));
  j = classifying_study();
  j["classify"]["below"] = "all";
  CHECK_THAT(error_of(j), Catch::Contains("classify.below: class name 'all' is reserved (all, other)"));
  j = classifying_study();
  j["classify"]["above"] = "other";
  CHECK_THAT(error_of(j), Catch::Contains("classify.above: class name 'other' is reserved"));
  j = classifying_study();
  j["classify"]["below"] = "compute";
  CHECK_THAT(error_of(j), Catch::Contains("classify.below: must differ from \"above\" ('compute')"));
  j = classifying_study();
  j["classify"]["treshold"] = 31;
  CHECK_THAT(error_of(j), Catch::Contains("classify.treshold: unknown key"));
  // References name a class of the study: classify's, or the static ones.
  j = classifying_study();
  j["reference"] = {{{"variant", "gto"}, {"metric", "ipc"}, {"scope", "class:compute-bound"}, {"value", 1.0},
                     {"source", "s"}, {"section", "x"}}};
  CHECK_THAT(error_of(j), Catch::Contains("reference[0].scope: no class named 'compute-bound' (classes: memory, compute)"));
  j["classes"] = small_study()["classes"];
  j.erase("classify");
  CHECK_THAT(error_of(j), Catch::Contains("reference[0].scope: no class named 'compute-bound' (classes: compute, memory)"));
  j.erase("classes");
  CHECK_THAT(error_of(j), Catch::Contains("reference[0].scope: no class named 'compute-bound' (the study has no classes)"));
  // A threshold beyond a double is not JSON gputlm can read: an error naming the file.
  const fs::path dir = scratch("spec_classify_inf");
  std::string text = classifying_study().dump();
  text.replace(text.find("\"threshold\":30"), 14, "\"threshold\":1e999");
  std::ofstream(dir / "inf.json") << text;
  CHECK_THROWS_WITH(read_study((dir / "inf.json").string()), Catch::Contains("inf.json: not valid JSON"));
}
