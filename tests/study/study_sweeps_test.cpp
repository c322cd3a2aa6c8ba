// Several sweeps in one study and derived best-of variants (issue 14, the LAWS study of 001
// ch. 3): their plans (job ids as hand-written variants would have) and their reports on
// fabricated results (the choice per cell, ties, failed or missing members, aggregates,
// the chosen value in CSV, JSON and Markdown).
#include <catch2/catch.hpp>

#include <cmath>

#include "study/study_plan.h"
#include "study/study_report.h"
#include "study/study_results.h"
#include "study_test_util.h"

using namespace gputlm::study;
using namespace study_test;

namespace {

std::string job_of(const Plan& p, const std::string& w, const std::string& size, const std::string& v) {
  for (const Cell& c : p.cells)
    if (c.workload == w && c.size == size && c.variant == v) return c.job_id;
  FAIL("no cell " << w << "/" << size << "/" << v);
  return "";
}

// lrr, a warp-limit sweep under swl and a LAWS miss-counter sweep.
nlohmann::json two_sweeps() {
  nlohmann::json j = small_study();
  j["variants"] = {{{"name", "lrr"}, {"overrides", {"sm.scheduler.policy=lrr"}}}};
  j["sweeps"] = {{{"parameter", "sm.scheduler.warp_limit"}, {"values", {1, 2, 4}}, {"name", "wl{}"},
                  {"overrides", {"sm.scheduler.warp_limit_scope=sm", "sm.scheduler.policy=swl"}}},
                 {{"parameter", "sm.scheduler.laws.miss_cnt_max"}, {"values", {4, 8}}, {"name", "m{}"},
                  {"overrides", {"sm.scheduler.policy=laws"}}}};
  return j;
}

}  // namespace

TEST_CASE("study plan: two sweeps plan the cells and job ids their variants written out would", "[study]") {
  const fs::path dir = scratch("plan_sweeps");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  nlohmann::json j = two_sweeps();
  j["derived"] = {{{"name", "b_swl"}, {"best_of", "wl{}"}, {"metric", "ipc"}}};
  const Plan p = make_plan(read_study(write_study(dir, j, "sweeps")), options(dir, exe));
  // Each variant by hand: the sweep's overrides, then PARAMETER=VALUE.
  nlohmann::json hand = small_study();
  hand["variants"] = {{{"name", "lrr"}, {"overrides", {"sm.scheduler.policy=lrr"}}}};
  for (int wl : {1, 2, 4})
    hand["variants"].push_back({{"name", "wl" + std::to_string(wl)},
                                {"overrides", {"sm.scheduler.warp_limit_scope=sm", "sm.scheduler.policy=swl",
                                               "sm.scheduler.warp_limit=" + std::to_string(wl)}}});
  for (int m : {4, 8})
    hand["variants"].push_back({{"name", "m" + std::to_string(m)},
                                {"overrides", {"sm.scheduler.policy=laws", "sm.scheduler.laws.miss_cnt_max=" + std::to_string(m)}}});
  const Plan h = make_plan(read_study(write_study(dir, hand, "hand")), options(dir, exe));
  REQUIRE(p.cells.size() == 12);  // 2 workloads x 6 variants; b_swl runs nothing
  REQUIRE(p.jobs.size() == 12);
  REQUIRE(h.cells.size() == p.cells.size());
  for (std::size_t i = 0; i < p.cells.size(); ++i) {
    CHECK(p.cells[i].variant == h.cells[i].variant);
    CHECK(p.cells[i].job_id == h.cells[i].job_id);
  }
  std::vector<std::string> vecadd;
  for (const Cell& c : p.cells)
    if (c.workload == "vecadd") vecadd.push_back(c.variant);
  CHECK(vecadd == std::vector<std::string>{"lrr", "wl1", "wl2", "wl4", "m4", "m8"});
  CHECK(p.job(job_of(p, "vecadd", "small", "m8")).overrides ==
        std::vector<std::string>{"sm.scheduler.policy=laws", "sm.scheduler.laws.miss_cnt_max=8"});
  // A sweep's values are validated with its variants' configs before any job runs.
  j["sweeps"][0]["overrides"][0] = "sm.scheduler.warp_limit_scope=gpu";
  CHECK_THROWS_WITH(make_plan(read_study(write_study(dir, j, "bad")), options(dir, exe)),
                    Catch::Contains("variant 'wl1'") && Catch::Contains("warp_limit_scope"));
}

TEST_CASE("study plan: a single sweep plans to the same job ids as sweep or as a one-element sweeps", "[study]") {
  const fs::path dir = scratch("plan_sweep_compat");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  nlohmann::json one = small_study();
  one["sweep"] = {{"parameter", "sm.l1d.mshr.entries"}, {"values", {16, 32}}, {"name", "mshr{}"},
                  {"overrides", {"sm.scheduler.policy=gto"}}};
  nlohmann::json list = small_study();
  list["sweeps"] = nlohmann::json::array({one["sweep"]});  // `{x}` alone is x itself under clang
  nlohmann::json hand = small_study();
  for (int e : {16, 32})
    hand["variants"].push_back({{"name", "mshr" + std::to_string(e)},
                                {"overrides", {"sm.scheduler.policy=gto", "sm.l1d.mshr.entries=" + std::to_string(e)}}});
  const Plan a = make_plan(read_study(write_study(dir, one, "one")), options(dir, exe));
  const Plan b = make_plan(read_study(write_study(dir, list, "list")), options(dir, exe));
  const Plan c = make_plan(read_study(write_study(dir, hand, "hand")), options(dir, exe));
  REQUIRE(a.cells.size() == 8);
  REQUIRE(b.cells.size() == 8);
  REQUIRE(c.cells.size() == 8);
  for (std::size_t i = 0; i < a.cells.size(); ++i) {
    CHECK(a.cells[i].variant == c.cells[i].variant);
    CHECK(a.cells[i].job_id == b.cells[i].job_id);
    CHECK(a.cells[i].job_id == c.cells[i].job_id);
  }
  CHECK(a.jobs.size() == c.jobs.size());
}

namespace {

// Four workloads in two classes, at small and medium (w4 skipped at medium).
FakeStudy best_of_fixture(const std::string& name, nlohmann::json j) {
  j["workloads"] = {"w1", "w2", "w3", "w4"};
  j["classes"] = {{"memory", {"w1", "w4"}}, {"compute", {"w2", "w3"}}};
  j["sizes"] = {{"default", {"small", "medium"}}};
  j["skip"] = {{"default", {"w4/medium"}}};
  return fake_study(name, j, {"small", "medium"});
}

const CellRow& row_of(const Report& r, const std::string& w, const std::string& size, const std::string& v) {
  for (const CellRow& x : r.rows)
    if (x.cell.workload == w && x.cell.size == size && x.cell.variant == v) return x;
  FAIL("no row " << w << "/" << size << "/" << v);
  return r.rows.front();
}

}  // namespace

TEST_CASE("study report: a derived variant takes per cell the best sweep variant or is failed with its members",
          "[study]") {
  nlohmann::json j = two_sweeps();
  j["derived"] = {{{"name", "b_swl"}, {"best_of", "wl{}"}, {"metric", "ipc"}},
                  {{"name", "fast_laws"}, {"best_of", "m{}"}, {"metric", "cycles"}}};
  j["reference"] = {{{"variant", "b_swl"}, {"metric", "ipc"}, {"scope", "all"}, {"size", "small"}, {"value", 1.5},
                     {"source", "001"}, {"section", "3.4"}},
                    {{"variant", "b_swl"}, {"metric", "ipc"}, {"scope", "workload:w2"}, {"size", "small"}, {"value", 2.0},
                     {"source", "001"}, {"section", "3.4"}}};
  const FakeStudy f = best_of_fixture("report_best_of", j);
  const Plan& p = f.plan;
  REQUIRE(p.cells.size() == 7 * 6);  // 4 workloads x 2 sizes, w4/medium skipped; 6 variants that run
  auto put = [&](const std::string& w, const std::string& size, const std::string& v, std::optional<double> ipc,
                 double cycles) {
    nlohmann::json m{{"cycles", cycles}};
    if (ipc) m["ipc"] = *ipc;
    fake_result(p, job_of(p, w, size, v), true, m);
  };
  auto laws = [&](const std::string& w, const std::string& size, double c4, double c8) {
    put(w, size, "m4", 100, c4);
    put(w, size, "m8", 100, c8);
  };
  // lrr ipc 100 everywhere: a variant's normalised ipc is its ipc / 100.
  for (const char* w : {"w1", "w2", "w3", "w4"})
    for (const char* size : {"small", "medium"})
      if (std::string(w) != "w4" || std::string(size) != "medium") put(w, size, "lrr", 100, 1000);
  // w1 small: the highest ipc is wl2's (cycles do not matter to b_swl).
  put("w1", "small", "wl1", 120, 500);
  put("w1", "small", "wl2", 150, 900);
  put("w1", "small", "wl4", 130, 700);
  laws("w1", "small", 800, 600);  // the lowest cycles: m8
  // w2 small: wl2 and wl4 tie on the best ipc: the first in the sweep's order (wl2).
  put("w2", "small", "wl1", 150, 1);
  put("w2", "small", "wl2", 200, 1);
  put("w2", "small", "wl4", 200, 1);
  laws("w2", "small", 700, 700);  // a tie on the lowest: m4
  // w3 small: wl4 failed and wl1 never ran: failed, naming both (never a best of wl2 alone).
  put("w3", "small", "wl2", 300, 1);
  fake_result(p, job_of(p, "w3", "small", "wl4"), false, {});
  laws("w3", "small", 900, 800);
  // w4 small: every member ok.
  put("w4", "small", "wl1", 90, 1);
  put("w4", "small", "wl2", 80, 1);
  put("w4", "small", "wl4", 70, 1);
  laws("w4", "small", 500, 600);
  // w1 medium: wl4 missing only; m8 missing too.
  put("w1", "medium", "wl1", 110, 1);
  put("w1", "medium", "wl2", 120, 1);
  put("w1", "medium", "m4", 100, 400);
  // w2 medium: wl1's ipc did not resolve: unresolved.
  put("w2", "medium", "wl1", std::nullopt, 1);
  put("w2", "medium", "wl2", 140, 1);
  put("w2", "medium", "wl4", 160, 1);
  laws("w2", "medium", 300, 200);
  // w3 medium: every member ok, the best is the last.
  put("w3", "medium", "wl1", 100, 1);
  put("w3", "medium", "wl2", 105, 1);
  put("w3", "medium", "wl4", 250, 1);
  laws("w3", "medium", 100, 50);

  const Report r = make_report(f.study, p);
  const CellRow& w1s = row_of(r, "w1", "small", "b_swl");
  CHECK(w1s.status == "ok");
  CHECK(w1s.derived);
  CHECK(w1s.chosen_variant == "wl2");
  CHECK(w1s.chosen_value == "2");
  CHECK(w1s.cell.job_id == job_of(p, "w1", "small", "wl2"));
  CHECK(w1s.value.at("ipc") == 150);
  CHECK(w1s.value.at("cycles") == 900);  // the chosen run's other metrics
  CHECK(w1s.norm.at("ipc") == Approx(1.5));
  CHECK(w1s.norm.at("cycles") == Approx(0.9));
  CHECK(w1s.cls == "memory");
  CHECK(w1s.reason.empty());
  CHECK(row_of(r, "w1", "small", "fast_laws").chosen_variant == "m8");  // lower cycles is better
  CHECK(row_of(r, "w2", "small", "b_swl").chosen_variant == "wl2");     // a tie: the first value
  CHECK(row_of(r, "w2", "small", "fast_laws").chosen_value == "4");     // a tie on the lowest: the first
  CHECK(row_of(r, "w4", "small", "b_swl").chosen_value == "1");
  CHECK(row_of(r, "w3", "medium", "b_swl").chosen_value == "4");
  CHECK(row_of(r, "w3", "medium", "fast_laws").chosen_value == "8");
  const CellRow& w3s = row_of(r, "w3", "small", "b_swl");
  CHECK(w3s.status == "failed");
  CHECK(w3s.reason == "failed 1 of 3: wl4; missing 1 of 3: wl1");
  CHECK(w3s.chosen_variant.empty());
  CHECK(w3s.cell.job_id.empty());
  CHECK(w3s.value.empty());
  CHECK(w3s.norm.empty());
  CHECK(row_of(r, "w3", "small", "fast_laws").status == "ok");  // its own sweep is whole
  const CellRow& w1m = row_of(r, "w1", "medium", "b_swl");
  CHECK(w1m.status == "missing");
  CHECK(w1m.reason == "missing 1 of 3: wl4");
  CHECK(row_of(r, "w1", "medium", "fast_laws").reason == "missing 1 of 2: m8");
  const CellRow& w2m = row_of(r, "w2", "medium", "b_swl");
  CHECK(w2m.status == "unresolved");
  CHECK(w2m.reason == "unresolved 1 of 3: wl1 (ipc)");
  for (const CellRow& x : r.rows)  // w4/medium is skipped: no derived row either
    CHECK_FALSE((x.cell.workload == "w4" && x.cell.size == "medium"));
  // Each workload and size's derived rows follow its variants' rows.
  std::vector<std::string> order;
  for (const CellRow& x : r.rows)
    if (x.cell.workload == "w1" && x.cell.size == "small") order.push_back(x.cell.variant);
  CHECK(order == std::vector<std::string>{"lrr", "wl1", "wl2", "wl4", "m4", "m8", "b_swl", "fast_laws"});
  CHECK(r.rows.size() == 7 * 8);

  // Aggregated as any variant over its ok cells only: small 1.5, 2, 0.9 (w3 failed).
  auto agg = [&](const std::string& size, const std::string& cls, const std::string& v = "b_swl") {
    for (const Aggregate& a : r.aggregates)
      if (a.size == size && a.variant == v && a.cls == cls && a.metric == "ipc") return std::make_pair(a.value, a.n);
    return std::make_pair(-1.0, std::size_t(0));
  };
  CHECK(agg("small", "all").first == Approx(std::cbrt(1.5 * 2.0 * 0.9)));
  CHECK(agg("small", "all").second == 3);
  CHECK(agg("small", "memory").first == Approx(std::sqrt(1.5 * 0.9)));
  CHECK(agg("small", "compute").second == 1);
  CHECK(agg("medium", "all").first == Approx(2.5));  // w3 only
  CHECK(agg("medium", "all").second == 1);
  REQUIRE(r.references.size() == 2);
  CHECK(*r.references[0].ours == Approx(std::cbrt(1.5 * 2.0 * 0.9)));
  CHECK(*r.references[1].ours == Approx(2.0));
  // Failures are the jobs': the derived variant adds none.
  CHECK(r.failures.size() == 1 + 3);  // w3/small wl4 failed; w3/small wl1, w1/medium wl4 and m8 missing

  const fs::path out = f.dir / "out";
  const std::string md = slurp(write_report(r, f.study, p, out.string(), false));
  const std::string csv = slurp(out / "report.csv");
  CHECK_THAT(csv, Catch::StartsWith("workload,class,size,variant,job_id,status,host_seconds,ipc,ipc_norm,cycles,"
                                    "cycles_norm,l1d_hit_rate,l1d_hit_rate_norm,chosen_variant,chosen_value,derived_note\n"));
  CHECK_THAT(csv, Catch::Contains("\nw1,memory,small,b_swl," + job_of(p, "w1", "small", "wl2") +
                                  ",ok,1.5,150,1.5,900,0.9,,,wl2,2,\n"));
  CHECK_THAT(csv, Catch::Contains("\nw1,memory,small,fast_laws," + job_of(p, "w1", "small", "m8") +
                                  ",ok,1.5,100,1,600,0.6,,,m8,8,\n"));
  CHECK_THAT(csv, Catch::Contains("\nw3,compute,small,b_swl,,failed,0,,,,,,,,,failed 1 of 3: wl4; missing 1 of 3: wl1\n"));
  CHECK_THAT(csv, Catch::Contains("\nw1,memory,small,wl2," + job_of(p, "w1", "small", "wl2") + ",ok,1.5,150,1.5,900,0.9,,,,,\n"));
  CHECK_THAT(slurp(out / "aggregates.csv"), Catch::Contains("\nmedium,b_swl,ipc,all,geomean,2.5,1\n"));

  const nlohmann::json rj = nlohmann::json::parse(slurp(out / "report.json"));
  CHECK_FALSE(rj.contains("sweep"));
  REQUIRE(rj["sweeps"].size() == 2);
  CHECK(rj["sweeps"][0] == nlohmann::json({{"name", "wl{}"}, {"parameter", "sm.scheduler.warp_limit"},
                                            {"values", {"1", "2", "4"}}, {"variants", {"wl1", "wl2", "wl4"}}}));
  CHECK(rj["sweeps"][1]["variants"] == nlohmann::json({"m4", "m8"}));
  REQUIRE(rj["variants"].size() == 8);
  CHECK(rj["variants"][6] == nlohmann::json({{"name", "b_swl"}, {"derived", true}, {"best_of", "wl{}"},
                                             {"parameter", "sm.scheduler.warp_limit"}, {"metric", "ipc"}}));
  nlohmann::json ok_row, failed_row, plain_row;
  for (const auto& x : rj["rows"]) {
    if (x["workload"] == "w1" && x["size"] == "small" && x["variant"] == "b_swl") ok_row = x;
    if (x["workload"] == "w3" && x["size"] == "small" && x["variant"] == "b_swl") failed_row = x;
    if (x["workload"] == "w1" && x["size"] == "small" && x["variant"] == "wl2") plain_row = x;
  }
  CHECK(ok_row["chosen_variant"] == "wl2");
  CHECK(ok_row["chosen_value"] == "2");
  CHECK(ok_row["norm"]["ipc"].get<double>() == Approx(1.5));
  CHECK_FALSE(ok_row.contains("reason"));
  CHECK_FALSE(ok_row.contains("stats"));  // its statistics are the chosen variant's row's
  CHECK(failed_row["status"] == "failed");
  CHECK(failed_row["chosen_variant"].is_null());
  CHECK(failed_row["chosen_value"].is_null());
  CHECK(failed_row["reason"] == "failed 1 of 3: wl4; missing 1 of 3: wl1");
  CHECK_FALSE(plain_row.contains("chosen_variant"));
  CHECK(plain_row.contains("stats"));

  CHECK_THAT(md, Catch::Contains("4 workloads, 6 variants (+ 2 derived: the best of a sweep): "));
  CHECK_THAT(md, Catch::Contains("- `b_swl`: the best of `wl{}` (`sm.scheduler.warp_limit` over 3 values: 1, 2, 4) by "
                                 "the highest `ipc`\n- `fast_laws`: the best of `m{}` (`sm.scheduler.laws.miss_cnt_max` "
                                 "over 2 values: 4, 8) by the lowest `cycles`\n"));
  CHECK_THAT(md, Catch::Contains("| workload | size | b_swl: sm.scheduler.warp_limit | fast_laws: "
                                 "sm.scheduler.laws.miss_cnt_max |\n|---|---|---|---|\n| w1 | small | 2 | 8 |\n"
                                 "| w1 | medium | missing (missing 1 of 3: wl4) | missing (missing 1 of 2: m8) |\n"
                                 "| w2 | small | 2 | 4 |\n| w2 | medium | unresolved (unresolved 1 of 3: wl1 (ipc)) | 8 |\n"
                                 "| w3 | small | failed (failed 1 of 3: wl4; missing 1 of 3: wl1) | 8 |\n"
                                 "| w3 | medium | 4 | 8 |\n| w4 | small | 1 | 4 |\n\n"));
  CHECK_THAT(md, Catch::Contains("## ipc normalised to lrr (small)\n\n| workload | class | lrr ipc | lrr | wl1 | wl2 | wl4 "
                                 "| m4 | m8 | b_swl | fast_laws |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
                                 "| w1 | memory | 100 | 1.000 | 1.200 | 1.500 | 1.300 | 1.000 | 1.000 | 1.500 | 1.000 |\n"));
  CHECK_THAT(md, Catch::Contains("| w3 | compute | 100 | 1.000 | missing | 3.000 | failed | 1.000 | 1.000 | failed | 1.000 |\n"));
  CHECK_THAT(md, Catch::Contains("| b_swl | ipc | workload:w2 | small | 2.000 | 2.000 | 1.00 | 001, 3.4 |"));
}

TEST_CASE("study report: a long sweep's values are elided in the best-of rule", "[study]") {
  nlohmann::json j = two_sweeps();
  j["sweeps"][0]["values"] = {1, 2, 3, 4, 8, 16, 48};
  j["derived"] = {{{"name", "b_swl"}, {"best_of", "wl{}"}, {"metric", "ipc"}}};
  const FakeStudy f = best_of_fixture("report_best_of_long", j);
  const Report r = make_report(f.study, f.plan);  // nothing ran: every derived cell is missing
  CHECK(row_of(r, "w1", "small", "b_swl").status == "missing");
  CHECK(row_of(r, "w1", "small", "b_swl").reason == "missing 7 of 7: wl1, wl2, wl3, ...");
  const std::string md = slurp(write_report(r, f.study, f.plan, (f.dir / "out").string(), false));
  CHECK_THAT(md, Catch::Contains("(`sm.scheduler.warp_limit` over 7 values: 1, 2, 3, …, 48) by the highest `ipc`\n"));
}

TEST_CASE("study report: a study with one sweep and no derived variant reports as before", "[study]") {
  const fs::path dir = scratch("report_one_sweep");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  nlohmann::json j = small_study();
  j["sweeps"] = {{{"parameter", "sm.l1d.mshr.entries"}, {"values", {16, 32}}, {"name", "mshr{}"}}};
  const StudySpec s = read_study(write_study(dir, j));
  const Plan p = make_plan(s, options(dir, exe));
  for (const Cell& c : p.cells) fake_result(p, c.job_id, true, {{"ipc", c.variant == "lrr" ? 10.0 : 20.0}});
  const Report r = make_report(s, p);
  CHECK(r.rows.size() == 8);
  for (const CellRow& row : r.rows) CHECK_FALSE(row.derived);
  const std::string md = slurp(write_report(r, s, p, (dir / "out").string(), false));
  const nlohmann::json rj = nlohmann::json::parse(slurp(dir / "out" / "report.json"));
  CHECK(rj["sweep"] == nlohmann::json({{"parameter", "sm.l1d.mshr.entries"}, {"values", {"16", "32"}}}));
  CHECK_FALSE(rj.contains("sweeps"));
  CHECK(rj["variants"][2] == nlohmann::json({{"name", "mshr16"}, {"overrides", {"sm.l1d.mshr.entries=16"}}, {"sweep_value", "16"}}));
  for (const auto& row : rj["rows"]) CHECK_FALSE(row.contains("chosen_variant"));
  CHECK_THAT(slurp(dir / "out" / "report.csv"), Catch::StartsWith("workload,class,size,variant,job_id,status,host_seconds,"
                                                                  "ipc,ipc_norm,cycles,cycles_norm,l1d_hit_rate,l1d_hit_rate_norm\n"));
  CHECK_THAT(md, !Catch::Contains("derived") && !Catch::Contains("Best of a sweep"));
  CHECK_THAT(md, Catch::Contains("2 workloads, 4 variants: 8 of 8 jobs finished"));
}
