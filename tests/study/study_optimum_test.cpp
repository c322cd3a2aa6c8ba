// A sweep's optimal value over a set of workloads ("optima": the LAWS thesis' optimal MSHR
// size, 001 §5.4.1) and references normalised to a variant of their own ("baseline") over
// one or several classes (issue 17: 001 ch. 4's speedups at each thread count, ch. 5's
// figures over the MSHR-sensitive types): reports on fabricated results, and the study
// file's errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "study/study_plan.h"
#include "study/study_report.h"
#include "study/study_results.h"
#include "study_test_util.h"

using namespace gputlm::study;
using namespace study_test;

namespace {

// lrr and a warp-limit sweep wl1, wl2, wl4 over w1..w4 (memory: w1, w4; compute: w2, w3), small.
nlohmann::json sweep_study() {
  nlohmann::json j = small_study();
  j["variants"] = {{{"name", "lrr"}, {"overrides", {"sm.scheduler.policy=lrr"}}},
                   {{"name", "gto"}, {"overrides", {"sm.scheduler.policy=gto"}}}};
  j["sweeps"] = {{{"parameter", "sm.scheduler.warp_limit"}, {"values", {1, 2, 4}}, {"name", "wl{}"},
                  {"overrides", {"sm.scheduler.warp_limit_scope=sm", "sm.scheduler.policy=swl"}}}};
  j["workloads"] = {"w1", "w2", "w3", "w4"};
  j["classes"] = {{"memory", {"w1", "w4"}}, {"compute", {"w2", "w3"}}};
  j["sizes"] = {{"default", {"small"}}};
  return j;
}

FakeStudy fixture(const std::string& name, const nlohmann::json& j) { return fake_study(name, j, {"small"}); }

std::string job_of(const Plan& p, const std::string& w, const std::string& v) {
  for (const Cell& c : p.cells)
    if (c.workload == w && c.variant == v) return c.job_id;
  FAIL("no cell " << w << "/" << v);
  return "";
}

void put(const Plan& p, const std::string& w, const std::string& v, double ipc) {
  fake_result(p, job_of(p, w, v), true, {{"ipc", ipc}, {"cycles", 1000.0 / ipc}});
}

const OptimumRow& optimum(const Report& r, const std::string& name) {
  for (const OptimumRow& o : r.optima)
    if (o.optimum->name == name) return o;
  FAIL("no optimum " << name);
  return r.optima.front();
}

}  // namespace

TEST_CASE("study report: an optimum is the first sweep value within a fraction of the best aggregate", "[study]") {
  nlohmann::json j = sweep_study();
  j["optima"] = {{{"name", "wl_all"}, {"sweep", "wl{}"}, {"metric", "ipc"}, {"within", 0.05}},
                 {{"name", "wl_exact"}, {"sweep", "wl{}"}, {"metric", "ipc"}, {"within", 0}},
                 {{"name", "wl_memory"}, {"sweep", "wl{}"}, {"metric", "ipc"}, {"within", 0.05}, {"scope", "class:memory"}},
                 {{"name", "wl_cycles"}, {"sweep", "wl{}"}, {"metric", "cycles"}, {"within", 0.05}}};
  const FakeStudy f = fixture("optimum", j);
  const Plan& p = f.plan;
  // lrr 100 everywhere; geomeans over w1..w4 of wl1, wl2, wl4: 1.0, 1.58..., 1.6 (saturated).
  for (const char* w : {"w1", "w2", "w3", "w4"}) put(p, w, "lrr", 100);
  for (const char* w : {"w1", "w2", "w3", "w4"}) put(p, w, "gto", 100);
  put(p, "w1", "wl1", 100); put(p, "w1", "wl2", 200); put(p, "w1", "wl4", 200);
  put(p, "w2", "wl1", 100); put(p, "w2", "wl2", 150); put(p, "w2", "wl4", 160);
  put(p, "w3", "wl1", 100); put(p, "w3", "wl2", 150); put(p, "w3", "wl4", 150);
  put(p, "w4", "wl1", 100); put(p, "w4", "wl2", 140); put(p, "w4", "wl4", 160);
  const Report r = make_report(f.study, p);
  REQUIRE(r.optima.size() == 4);
  const OptimumRow& all = optimum(r, "wl_all");
  const double g2 = std::pow(2.0 * 1.5 * 1.5 * 1.4, 0.25), g4 = std::pow(2.0 * 1.6 * 1.5 * 1.6, 0.25);
  CHECK(all.cells == 4);
  CHECK(*all.aggregates[0] == Approx(1.0));
  CHECK(*all.aggregates[1] == Approx(g2));
  CHECK(*all.aggregates[2] == Approx(g4));
  REQUIRE(all.best);
  CHECK(*all.best == 2);
  REQUIRE(all.chosen);
  CHECK(*all.chosen == 1);  // g2 / g4 = 0.952: within 5 %
  CHECK(*optimum(r, "wl_exact").chosen == 2);
  // Memory (w1, w4): wl2 sqrt(2 * 1.4) = 1.673, wl4 sqrt(2 * 1.6) = 1.789: 0.935, not within 5 %.
  const OptimumRow& mem = optimum(r, "wl_memory");
  CHECK(mem.cells == 2);
  CHECK(*mem.chosen == 2);
  // Lower is better: cycles are 1000 / ipc, so the same choice as ipc.
  CHECK(*optimum(r, "wl_cycles").chosen == 1);
  CHECK(*optimum(r, "wl_cycles").best == 2);
  // JSON and Markdown carry the choice.
  const std::string md = slurp(write_report(r, f.study, p, (f.dir / "report").string(), false));
  CHECK_THAT(md, Catch::Contains("### wl_all (small)") && Catch::Contains("**2** (wl2; best 4)"));
  const nlohmann::json js = nlohmann::json::parse(slurp(f.dir / "report" / "report.json"));
  REQUIRE(js.at("optima").size() == 4);
  CHECK(js["optima"][0]["chosen_value"] == "2");
  CHECK(js["optima"][0]["chosen_variant"] == "wl2");
  CHECK(js["optima"][0]["best_value"] == "4");
  CHECK(js["optima"][0]["values"][2]["aggregate"].get<double>() == Approx(g4));
}

TEST_CASE("study report: an optimum with a failed or missing run in scope chooses nothing and says why", "[study]") {
  nlohmann::json j = sweep_study();
  j["optima"] = {{{"name", "wl_all"}, {"sweep", "wl{}"}, {"metric", "ipc"}, {"within", 0.05}},
                 {{"name", "wl_compute"}, {"sweep", "wl{}"}, {"metric", "ipc"}, {"within", 0.05}, {"scope", "class:compute"}}};
  const FakeStudy f = fixture("optimum_failed", j);
  const Plan& p = f.plan;
  for (const char* w : {"w1", "w2", "w3", "w4"})
    for (const char* v : {"lrr", "gto", "wl1", "wl2"}) put(p, w, v, 100);
  for (const char* w : {"w2", "w3"}) put(p, w, "wl4", 120);
  fake_result(p, job_of(p, "w1", "wl4"), false, {});  // w4's wl4 never ran
  const Report r = make_report(f.study, p);
  const OptimumRow& all = optimum(r, "wl_all");
  CHECK_FALSE(all.chosen);
  CHECK_FALSE(all.best);
  CHECK_THAT(all.reason, Catch::Contains("2 runs lack ipc") && Catch::Contains("w1: wl4 failed"));
  // The compute class (w2, w3) is whole: wl4 is 1.2, wl1 and wl2 1.0.
  const OptimumRow& comp = optimum(r, "wl_compute");
  REQUIRE(comp.chosen);
  CHECK(*comp.chosen == 2);
  const std::string md = slurp(write_report(r, f.study, p, (f.dir / "report").string(), false));
  CHECK_THAT(md, Catch::Contains("none (2 runs lack ipc"));
}

TEST_CASE("study report: a reference with its own baseline divides per cell and may span several classes", "[study]") {
  nlohmann::json j = sweep_study();
  j["reference"] = {
      {{"variant", "wl4"}, {"baseline", "wl1"}, {"metric", "ipc"}, {"scope", "all"}, {"value", 1.5}, {"source", "001"}, {"section", "4.4"}},
      {{"variant", "wl4"}, {"metric", "ipc"}, {"scope", "class:memory,compute"}, {"value", 2.0}, {"source", "001"}, {"section", "4.4"}},
      {{"variant", "wl4"}, {"baseline", "wl2"}, {"metric", "ipc"}, {"scope", "class:compute"}, {"value", 1.0}, {"source", "001"}, {"section", "4.4"}},
      {{"variant", "wl4"}, {"baseline", "wl1"}, {"metric", "ipc"}, {"scope", "workload:w3"}, {"value", 1.0}, {"source", "001"}, {"section", "4.4"}}};
  const FakeStudy f = fixture("ref_baseline", j);
  const Plan& p = f.plan;
  // lrr (the study baseline) 50; wl1 100; wl2 150; wl4 = 300, 200, 150, 400 for w1..w4.
  const double wl4[] = {300, 200, 150, 400};
  for (int i = 0; i < 4; ++i) {
    const std::string w = "w" + std::to_string(i + 1);
    put(p, w, "lrr", 50);
    put(p, w, "gto", 50);
    put(p, w, "wl1", 100);
    put(p, w, "wl2", 150);
    put(p, w, "wl4", wl4[i]);
  }
  const Report r = make_report(f.study, p);
  REQUIRE(r.references.size() == 4);
  // wl4 / wl1 per cell: 3, 2, 1.5, 4 (not wl4 / lrr: 6, 4, 3, 8).
  CHECK(*r.references[0].ours == Approx(std::pow(3.0 * 2 * 1.5 * 4, 0.25)));
  // Both classes = every workload, normalised to lrr.
  CHECK(*r.references[1].ours == Approx(std::pow(6.0 * 4 * 3 * 8, 0.25)));
  // compute = w2, w3: 200 / 150, 150 / 150.
  CHECK(*r.references[2].ours == Approx(std::sqrt(200.0 / 150)));
  CHECK(*r.references[3].ours == Approx(1.5));
  const std::string md = slurp(write_report(r, f.study, p, (f.dir / "report").string(), false));
  CHECK_THAT(md, Catch::Contains("| wl4 | ipc | all | small | 2.449 | 1.500 | 1.63 | 001, 4.4 (normalised to wl1) |"));
  CHECK_THAT(md, Catch::Contains("| wl4 | ipc | class:memory,compute | small | 4.899 | 2.000 | 2.45 | 001, 4.4 |"));
  const nlohmann::json js = nlohmann::json::parse(slurp(f.dir / "report" / "report.json"));
  CHECK(js["references"][0]["baseline"] == "wl1");
  CHECK(js["references"][1]["baseline"] == "lrr");
  // A baseline cell that failed leaves that cell out of the reference's aggregate.
  fake_result(p, job_of(p, "w1", "wl1"), false, {});
  const Report r2 = make_report(f.study, p);
  CHECK(*r2.references[0].ours == Approx(std::pow(2.0 * 1.5 * 4, 1.0 / 3)));
}

TEST_CASE("study file: optima and reference baselines and class lists are checked and named", "[study]") {
  const fs::path dir = scratch("optimum_errors");
  auto err = [&](const std::function<void(nlohmann::json&)>& edit, const std::string& expected) {
    nlohmann::json j = sweep_study();
    j["optima"] = {{{"name", "o"}, {"sweep", "wl{}"}, {"metric", "ipc"}, {"within", 0.01}}};
    j["reference"] = {{{"variant", "wl4"}, {"metric", "ipc"}, {"value", 1.1}, {"source", "s"}, {"section", "x"}}};
    edit(j);
    CHECK_THROWS_WITH(read_study(write_study(dir, j)), Catch::Contains(expected));
  };
  err([](nlohmann::json& j) { j["optima"][0]["sweep"] = "m{}"; }, "optima[0].sweep: no sweep named 'm{}' (sweeps: wl{})");
  err([](nlohmann::json& j) { j["optima"][0]["metric"] = "hits"; }, "optima[0].metric: no metric named 'hits'");
  err([](nlohmann::json& j) {
        j["metrics"].push_back({{"name", "share"}, {"ratio", {"a", "b"}}, {"normalise", false}});
        j["optima"][0]["metric"] = "share";
      },
      "optima[0].metric: metric 'share' must be a normalised metric");
  err([](nlohmann::json& j) { j["optima"][0]["within"] = 1; }, "optima[0].within: must be a fraction in [0, 1)");
  err([](nlohmann::json& j) { j["optima"][0]["within"] = "1%"; }, "optima[0].within: must be a finite number");
  err([](nlohmann::json& j) { j["optima"][0]["scope"] = "workload:w1"; }, "optima[0].scope: must be \"all\" or \"class:NAME");
  err([](nlohmann::json& j) { j["optima"][0]["scope"] = "class:memory,io"; }, "optima[0].scope: no class named 'io'");
  err([](nlohmann::json& j) { j["optima"].push_back(j["optima"][0]); }, "optima[1].name: optimum 'o' is defined twice");
  err([](nlohmann::json& j) { j["optima"][0]["within"] = 0.01; j["optima"][0]["extra"] = 1; }, "optima[0].extra: unknown key");
  err([](nlohmann::json& j) { j["reference"][0]["baseline"] = "nocache"; }, "reference[0].baseline: no variant named 'nocache'");
  err([](nlohmann::json& j) {
        j["metrics"].push_back({{"name", "share"}, {"ratio", {"a", "b"}}, {"normalise", false}});
        j["reference"][0]["metric"] = "share";
        j["reference"][0]["baseline"] = "wl1";
      },
      "reference[0].baseline: metric 'share' is raw");
  err([](nlohmann::json& j) { j["reference"][0]["scope"] = "class:memory,memory"; }, "reference[0].scope: class 'memory' is named twice");
  err([](nlohmann::json& j) { j["reference"][0]["scope"] = "class:memory,"; }, "reference[0].scope: no class named ''");
}
