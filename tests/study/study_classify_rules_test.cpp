// A classifying chain of rules (the LAWS thesis' types 0/I/II/III): the first rule that
// holds decides; a spread rule compares every named variant with the classifying one; a rule
// whose runs are not all ok leaves the cell "other" with the run it lacked.
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>

#include "study/study_report.h"
#include "study/study_spec.h"
#include "study_test_util.h"

using namespace gputlm::study;
using namespace study_test;

namespace {

nlohmann::json rules_study() {
  nlohmann::json j = small_study();
  j.erase("classes");
  j["variants"] = {{{"name", "gto"}, {"overrides", {"sm.scheduler.policy=gto"}}},
                   {{"name", "lrr"}, {"overrides", {"sm.scheduler.policy=lrr"}}},
                   {{"name", "ccws"}, {"overrides", {"sm.scheduler.policy=ccws"}}}};
  j["baseline"] = "gto";
  j["metrics"] = {"ipc",
                  {{"name", "miss_rate"}, {"ratio", {"total.miss", "total.loads"}}, {"normalise", false}},
                  {{"name", "intra_over_inter"}, {"ratio", {"total.intra", "total.inter"}}, {"normalise", false}}};
  j["classify"] = {{"rules",
                    {{{"class", "type-0"}, {"spread", "ipc"}, {"below", 0.10}},
                     {{"class", "type-I"}, {"metric", "miss_rate"}, {"above", 0.95}},
                     {{"class", "type-II"}, {"metric", "intra_over_inter"}, {"above", 1}},
                     {{"class", "type-III"}}}}};
  return j;
}

}  // namespace

TEST_CASE("study file: a classify chain reads its rules in order", "[study]") {
  const fs::path dir = scratch("rules_spec");
  const StudySpec s = read_study(write_study(dir, rules_study()));
  REQUIRE(s.classify);
  const Classify& c = *s.classify;
  CHECK(c.variant == "gto");
  REQUIRE(c.rules.size() == 4);
  CHECK(c.rules[0].kind == ClassRule::Kind::SpreadBelow);
  CHECK(c.rules[0].variants == std::vector<std::string>{"lrr", "ccws"});  // every listed variant but gto
  CHECK(c.rules[0].text("gto") == "ipc / ipc(gto) within 1 ± 0.1 for every compared variant");
  CHECK(c.rules[1].kind == ClassRule::Kind::Above);
  CHECK(c.rules[1].text("gto") == "miss_rate > 0.95");
  CHECK(c.rules[3].kind == ClassRule::Kind::Otherwise);
  CHECK(s.class_order == std::vector<std::string>{"type-0", "type-I", "type-II", "type-III"});
}

TEST_CASE("study file: every classify chain mistake names the rule", "[study]") {
  nlohmann::json j = rules_study();
  j["classify"]["rules"] = nlohmann::json::array();
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules: must be a non-empty array of rules"));
  j = rules_study();
  j["classify"]["rules"][3] = {{"class", "type-III"}, {"metric", "ipc"}, {"below", 2}};
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[3]: the last rule must hold always"));
  j = rules_study();
  j["classify"]["rules"][1] = {{"class", "type-I"}};
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[1]: a rule without \"metric\" or \"spread\" holds always: it must be the last"));
  j = rules_study();
  j["classify"]["rules"][1]["below"] = 0.5;
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[1]: a metric rule takes one of \"above\" and \"below\""));
  j = rules_study();
  j["classify"]["rules"][0]["metric"] = "ipc";
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[0]: a rule tests \"metric\" or \"spread\", not both"));
  j = rules_study();
  j["classify"]["rules"][0]["variants"] = {"lrr", "oldest"};
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[0].variants: no variant named 'oldest'"));
  j = rules_study();
  j["classify"]["rules"][0]["below"] = 0;
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[0].below: must be > 0"));
  j = rules_study();
  j["classify"]["rules"][2]["class"] = "type-I";
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[2].class: class 'type-I' has two rules"));
  j = rules_study();
  j["classify"]["rules"][2]["class"] = "other";
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[2].class: class name 'other' is reserved"));
  j = rules_study();
  j["classify"]["rules"][1]["metric"] = "hit_rate";
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[1].metric: no metric named 'hit_rate' in \"metrics\""));
  j = rules_study();
  j["classify"]["rules"][1]["above"] = "high";
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[1].above: must be a number"));
  j = rules_study();
  j["classify"]["rules"][2]["typo"] = 1;
  CHECK_THAT(study_error(j), Catch::Contains("classify.rules[2].typo: unknown key"));
  j = rules_study();
  j["classify"]["metric"] = "ipc";
  CHECK_THAT(study_error(j), Catch::Contains("classify.metric: unknown key"));
}

TEST_CASE("study report: a classify chain takes the first rule that holds per workload and size", "[study]") {
  const fs::path dir = scratch("rules_report");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  const std::vector<std::string> ws{"w1", "w2", "w3", "w4", "w5", "w6"};
  PlanOptions o = options(dir, exe);
  o.workloads_dir = (dir / "workloads").string();
  for (const std::string& w : ws) {
    fs::create_directories(dir / "workloads" / w / "small");
    std::ofstream(dir / "workloads" / w / "small" / "spec.json") << "{\"w\": \"" << w << "\"}";
  }
  nlohmann::json j = rules_study();
  j["workloads"] = ws;
  const StudySpec s = read_study(write_study(dir, j));
  const Plan p = make_plan(s, o);
  auto job = [&](const std::string& w, const std::string& v) {
    for (const Cell& c : p.cells)
      if (c.workload == w && c.variant == v) return c.job_id;
    FAIL("no cell " << w << "/" << v);
    return std::string();
  };
  // gto's miss rate and intra/inter ratio decide types I-III; lrr's and ccws's never do.
  auto put = [&](const std::string& w, double lrr_ipc, double ccws_ipc, double miss, double intra_inter) {
    fake_result(p, job(w, "gto"), true, {{"ipc", 100.0}, {"miss_rate", miss}, {"intra_over_inter", intra_inter}});
    fake_result(p, job(w, "lrr"), true, {{"ipc", lrr_ipc}, {"miss_rate", 0.0}, {"intra_over_inter", 9.0}});
    fake_result(p, job(w, "ccws"), true, {{"ipc", ccws_ipc}, {"miss_rate", 0.0}, {"intra_over_inter", 9.0}});
  };
  put("w1", 95, 109, 0.99, 5);  // every policy within 10 %: type-0, whatever the rest says
  put("w2", 89, 100, 0.99, 5);  // lrr 11 % off: not type-0; miss rate > 0.95: type-I
  put("w3", 100, 150, 0.95, 3); // at the miss threshold: not type-I; intra > inter: type-II
  put("w4", 60, 100, 0.5, 1);   // intra/inter exactly 1: not type-II: type-III
  put("w5", 100, 130, 0.2, 0.5);
  fake_result(p, job("w5", "lrr"), false, {});  // a compared policy failed: no type-0 decision
  fake_result(p, job("w6", "lrr"), true, {{"ipc", 50.0}});
  fake_result(p, job("w6", "ccws"), true, {{"ipc", 50.0}});
  fake_result(p, job("w6", "gto"), true, {{"ipc", 100.0}});  // the spread says not type-0, miss_rate unresolved

  const Report r = make_report(s, p);
  CHECK(r.class_of("w1", "small") == "type-0");
  CHECK(r.class_of("w2", "small") == "type-I");
  CHECK(r.class_of("w3", "small") == "type-II");
  CHECK(r.class_of("w4", "small") == "type-III");
  CHECK(r.class_of("w5", "small") == "other");
  CHECK(r.class_of("w6", "small") == "other");
  const CellClass* w1 = r.cell_class("w1", "small");
  const CellClass* w4 = r.cell_class("w4", "small");
  const CellClass* w5 = r.cell_class("w5", "small");
  const CellClass* w6 = r.cell_class("w6", "small");
  REQUIRE((w1 && w4 && w5 && w6));
  CHECK(*w1->value == Approx(0.09));  // the largest spread (ccws)
  CHECK(w1->rule == "ipc / ipc(gto) within 1 ± 0.1 for every compared variant");
  CHECK(w4->rule == "otherwise");
  CHECK_FALSE(w4->value);
  CHECK(w5->status == "failed");
  CHECK(w5->rule == "lrr failed (ipc / ipc(gto) within 1 ± 0.1 for every compared variant)");
  CHECK(w6->status == "unresolved");
  CHECK(w6->rule == "gto unresolved (miss_rate > 0.95)");
  CHECK(r.classes == std::vector<std::string>{"type-0", "type-I", "type-II", "type-III", "other", "all"});

  const std::string md = slurp(write_report(r, s, p, (dir / "out").string(), false));
  CHECK_THAT(md, Catch::Contains("- `type-0`: ipc / ipc(gto) within 1 ± 0.1 for every compared variant\n- `type-I`: miss_rate > 0.95\n"
                                 "- `type-II`: intra_over_inter > 1\n- `type-III`: otherwise\n"));
  CHECK_THAT(md, Catch::Contains("| w2 | small | type-I | miss_rate > 0.95 | 0.99 |\n"));
  CHECK_THAT(md, Catch::Contains("| w5 | small | other (failed) | lrr failed (ipc / ipc(gto) within 1 ± 0.1 for every compared variant) | — |\n"));
  const std::string csv = slurp(dir / "out" / "report.csv");
  CHECK_THAT(csv, Catch::Contains("w3,type-II,small,gto," + job("w3", "gto") + ",ok,1.5,100,1,0.95,0.95,3,3,3,intra_over_inter > 1\n"));
  const nlohmann::json rj = nlohmann::json::parse(slurp(dir / "out" / "report.json"));
  REQUIRE(rj["classify"]["rules"].size() == 4);
  CHECK(rj["classify"]["rules"][1] == nlohmann::json({{"class", "type-I"}, {"rule", "miss_rate > 0.95"}}));
  CHECK(rj["classify"]["cells"][3]["rule"] == "otherwise");
  CHECK_FALSE(rj["classify"].contains("threshold"));
}
