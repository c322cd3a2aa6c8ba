// Plans (stable job ids, shared jobs, errors before any job runs) and reports (normalised
// metrics, class aggregates, the papers' figures, failures) built from result files.
#include <catch2/catch.hpp>

#include <cmath>

#include "study/study_plan.h"
#include "study/study_report.h"
#include "study/study_results.h"
#include "study_test_util.h"

using namespace gputlm::study;
using namespace study_test;

TEST_CASE("study plan: job ids are stable and change with config, overrides, spec and binary", "[study]") {
  const fs::path dir = scratch("plan_ids");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary v1";
  nlohmann::json j = small_study();
  j["variants"].push_back({{"name", "gto_again"}, {"overrides", {"sm.scheduler.policy=gto"}}});
  const StudySpec s = read_study(write_study(dir, j));
  const Plan a = make_plan(s, options(dir, exe)), b = make_plan(s, options(dir, exe));
  REQUIRE(a.cells.size() == 6);
  REQUIRE(a.jobs.size() == 4);  // gto_again resolves to gto's config: one job serves both cells
  for (std::size_t i = 0; i < a.cells.size(); ++i) CHECK(a.cells[i].job_id == b.cells[i].job_id);
  CHECK(cell(a, "vecadd", "gto").job_id == cell(a, "vecadd", "gto_again").job_id);
  CHECK(cell(a, "vecadd", "gto").job_id != cell(a, "vecadd", "lrr").job_id);
  CHECK(cell(a, "vecadd", "gto").job_id != cell(a, "scan", "gto").job_id);
  const Job& job = a.job(cell(a, "vecadd", "gto").job_id);
  CHECK(job.variants == std::vector<std::string>{"gto", "gto_again"});
  const std::vector<std::string> argv = job.run_argv("gputlm", "/r/stats.json");
  CHECK(shell_join(argv) == "gputlm run " + job.spec + " --config " + job.config +
                                " -p sm.scheduler.policy=gto --stats /r/stats.json --quiet");

  std::ofstream(exe) << "binary v2";
  const Plan c = make_plan(s, options(dir, exe));
  CHECK(cell(c, "vecadd", "gto").job_id != cell(a, "vecadd", "gto").job_id);
  j["variants"][1]["overrides"] = {"sm.scheduler.policy=gto", "sm.l1d.mshr.entries=16"};
  const Plan d = make_plan(read_study(write_study(dir, j)), options(dir, exe));
  CHECK(cell(d, "vecadd", "gto").job_id != cell(c, "vecadd", "gto").job_id);
  CHECK(cell(d, "vecadd", "lrr").job_id == cell(c, "vecadd", "lrr").job_id);
}

TEST_CASE("study plan: a bad variant, a missing workload or size is an error before any job runs", "[study]") {
  const fs::path dir = scratch("plan_err");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  nlohmann::json j = small_study();
  j["variants"][1]["overrides"] = {"sm.scheduler.policy=fastest"};
  CHECK_THROWS_WITH(make_plan(read_study(write_study(dir, j)), options(dir, exe)),
                    Catch::Contains("variant 'gto'") && Catch::Contains("fastest"));
  j = small_study();
  j["variants"][1]["overrides"] = {"sm.no_such_key=1"};
  CHECK_THROWS_WITH(make_plan(read_study(write_study(dir, j)), options(dir, exe)),
                    Catch::Contains("variant 'gto'") && Catch::Contains("no_such_key"));
  j = small_study();
  j["workloads"] = {"vecadd", "nosuch"};
  CHECK_THROWS_WITH(make_plan(read_study(write_study(dir, j)), options(dir, exe)),
                    Catch::Contains("workload 'nosuch' has no small spec"));
  PlanOptions o = options(dir, exe);
  o.size_set = "huge";
  CHECK_THROWS_WITH(make_plan(read_study(write_study(dir, small_study())), o), Catch::Contains("no size set 'huge'"));
  o = options(dir, exe);
  o.workloads_dir = (dir / "nowhere").string();
  CHECK_THROWS_WITH(make_plan(read_study(write_study(dir, small_study())), o),
                    Catch::Contains("workloads directory") && Catch::Contains("not found"));
}

TEST_CASE("study report: normalised metrics, class geomeans, references and failures", "[study]") {
  const fs::path dir = scratch("report");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  nlohmann::json j = small_study();
  j["variants"].push_back({{"name", "oldest"}, {"overrides", {"sm.scheduler.policy=oldest"}}});
  j["reference"] = {{{"variant", "gto"}, {"metric", "ipc"}, {"scope", "class:memory"}, {"value", 1.25}, {"source", "002"},
                     {"section", "V"}},
                    {{"variant", "gto"}, {"metric", "ipc"}, {"scope", "workload:scan"}, {"value", 2.0}, {"source", "003"},
                     {"section", "4"}}};
  const StudySpec s = read_study(write_study(dir, j));
  const Plan p = make_plan(s, options(dir, exe));
  fake_result(p, cell(p, "vecadd", "lrr").job_id, true, {{"ipc", 100.0}, {"cycles", 1000}});
  fake_result(p, cell(p, "vecadd", "gto").job_id, true, {{"ipc", 125.0}, {"cycles", 800}});
  fake_result(p, cell(p, "scan", "lrr").job_id, true, {{"ipc", 50.0}, {"cycles", 400}});
  fake_result(p, cell(p, "scan", "gto").job_id, true, {{"ipc", 200.0}, {"cycles", 100}});
  fake_result(p, cell(p, "vecadd", "oldest").job_id, false, {});
  // scan/oldest never ran

  const Report r = make_report(s, p);
  auto row = [&](const std::string& w, const std::string& v) -> const CellRow& {
    for (const CellRow& x : r.rows)
      if (x.cell.workload == w && x.cell.variant == v) return x;
    FAIL("no row");
    return r.rows.front();
  };
  CHECK(row("vecadd", "gto").norm.at("ipc") == Approx(1.25));
  CHECK(row("scan", "gto").norm.at("cycles") == Approx(0.25));
  CHECK(row("vecadd", "oldest").status == "failed");
  CHECK(row("scan", "oldest").status == "missing");
  CHECK(r.classes == std::vector<std::string>{"compute", "memory", "all"});  // JSON object order
  auto agg = [&](const std::string& v, const std::string& cls) {
    for (const Aggregate& a : r.aggregates)
      if (a.variant == v && a.cls == cls && a.metric == "ipc") return a.value;
    return -1.0;
  };
  CHECK(agg("gto", "all") == Approx(std::sqrt(1.25 * 4.0)));  // geomean of 1.25 and 4
  CHECK(agg("gto", "memory") == Approx(1.25));
  CHECK(agg("oldest", "all") == -1.0);  // no verified result: no aggregate
  REQUIRE(r.references.size() == 2);
  CHECK(*r.references[0].ours == Approx(1.25));
  CHECK(*r.references[1].ours == Approx(4.0));
  REQUIRE(r.failures.size() == 2);
  CHECK_THAT(r.failures[0].error + r.failures[1].error,
             Catch::Contains("exit status 3: output out mismatches") && Catch::Contains("no result: the job did not finish"));

  const std::string md = write_report(r, s, p, (dir / "out").string(), false);
  const std::string csv = slurp(dir / "out" / "report.csv");
  CHECK_THAT(csv, Catch::StartsWith("workload,class,size,variant,job_id,status,host_seconds,ipc,ipc_norm,cycles,cycles_norm,"));
  CHECK_THAT(csv, Catch::Contains("vecadd,memory,small,gto," + cell(p, "vecadd", "gto").job_id + ",ok,1.5,125,1.25,800,0.8,,"));
  CHECK_THAT(csv, Catch::Contains("scan,compute,small,oldest," + cell(p, "scan", "oldest").job_id + ",missing,0,,,,,,"));
  CHECK_THAT(slurp(dir / "out" / "aggregates.csv"), Catch::Contains("small,gto,ipc,memory,geomean,1.25,1"));
  const std::string text = slurp(md);
  CHECK_THAT(text, Catch::Contains("| gto | ipc | class:memory | small | 1.250 | 1.250 | 1.00 | 002, V |"));
  CHECK_THAT(text, Catch::Contains("| **geomean (all)** | | | **1.000** | **2.236** | — |"));
  CHECK_THAT(text, Catch::Contains("## Failed jobs"));
  const nlohmann::json rj = nlohmann::json::parse(slurp(dir / "out" / "report.json"));
  CHECK(rj["rows"].size() == 6);
  CHECK(rj["references"][1]["ratio"].get<double>() == Approx(2.0));
}

TEST_CASE("study report: a metric added after the jobs ran is read from their statistics", "[study]") {
  const fs::path dir = scratch("report_late_metric");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  const StudySpec s = read_study(write_study(dir, small_study()));
  const Plan p = make_plan(s, options(dir, exe));
  for (const Cell& c : p.cells) {
    fake_result(p, c.job_id, true, {{"ipc", 10.0}});  // result.json without cycles and l1d_hit_rate
    const nlohmann::json stats = {{"cycles", c.variant == "lrr" ? 1000 : 500},
                                  {"total", {{"sm0", {{"l1d", {{"loads", 8}, {"load_hits", 2}}}}}}}};
    std::ofstream(job_dir(p.results_dir, c.job_id) + "/stats.json") << stats.dump();
  }
  const Report r = make_report(s, p);
  for (const CellRow& row : r.rows) {
    CHECK(row.value.at("cycles") == (row.cell.variant == "lrr" ? 1000 : 500));
    CHECK(row.value.at("l1d_hit_rate") == Approx(0.25));
    if (row.cell.variant == "gto") CHECK(row.norm.at("cycles") == Approx(0.5));
  }
}

TEST_CASE("study report: a metric with normalise false is shown raw with a mean and compared raw", "[study]") {
  const fs::path dir = scratch("report_raw_metric");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  nlohmann::json j = small_study();
  // A counter only the gto variant has (as ELF's recalculations): normalising to lrr is impossible.
  j["metrics"].push_back({{"name", "share"}, {"path", "total.share"}, {"normalise", false}, {"higher_is_better", false}});
  j["reference"] = {{{"variant", "gto"}, {"metric", "share"}, {"scope", "all"}, {"value", 0.2}, {"source", "000"},
                     {"section", "Fig. 8"}}};
  const StudySpec s = read_study(write_study(dir, j));
  REQUIRE(s.find_metric("share"));
  CHECK_FALSE(s.find_metric("share")->normalise);
  CHECK(s.find_metric("ipc")->normalise);
  CHECK(s.find_metric("nothing") == nullptr);
  const Plan p = make_plan(s, options(dir, exe));
  fake_result(p, cell(p, "vecadd", "lrr").job_id, true, {{"ipc", 100.0}});
  fake_result(p, cell(p, "vecadd", "gto").job_id, true, {{"ipc", 125.0}, {"share", 0.1}});
  fake_result(p, cell(p, "scan", "lrr").job_id, true, {{"ipc", 50.0}});
  fake_result(p, cell(p, "scan", "gto").job_id, true, {{"ipc", 50.0}, {"share", 0.4}});
  const Report r = make_report(s, p);
  for (const CellRow& row : r.rows)
    if (row.cell.variant == "gto") CHECK(row.norm.at("share") == row.value.at("share"));
  double all = -1;
  for (const Aggregate& a : r.aggregates)
    if (a.variant == "gto" && a.metric == "share" && a.cls == "all") all = a.value;
  CHECK(all == Approx(0.25));  // arithmetic mean of 0.1 and 0.4 (the geomean would be 0.2)
  REQUIRE(r.references.size() == 1);
  CHECK(*r.references[0].ours == Approx(0.25));
  const std::string text = slurp(write_report(r, s, p, (dir / "out").string(), false));
  CHECK_THAT(text, Catch::Contains("## share (small; raw values, not normalised; mean)"));
  CHECK_THAT(text, Catch::Contains("| **mean (all)** | | | — | **0.250** |"));
  CHECK_THAT(text, Catch::Contains("| gto | share (raw) | all | small | 0.250 | 0.200 | 1.25 |"));
  // The key must be a boolean.
  j["metrics"].back()["normalise"] = "no";
  CHECK_THROWS_WITH(read_study(write_study(dir, j)), Catch::Contains("normalise") && Catch::Contains("true or false"));
}

TEST_CASE("study plan: a size set's skip leaves out those cells only in that set", "[study]") {
  const fs::path dir = scratch("plan_skip");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  nlohmann::json j = small_study();
  j["sizes"] = {{"default", {"small"}}, {"other", {"small"}}};
  j["skip"] = {{"default", {"scan/small"}}};
  const StudySpec s = read_study(write_study(dir, j));
  Plan p = make_plan(s, options(dir, exe));
  CHECK(p.cells.size() == 2);
  for (const Cell& c : p.cells) CHECK(c.workload == "vecadd");
  PlanOptions o = options(dir, exe);
  o.size_set = "other";
  CHECK(make_plan(s, o).cells.size() == 4);
  j["skip"] = {{"default", {"scan"}}};
  CHECK_THROWS_WITH(read_study(write_study(dir, j)), Catch::Contains("skip.default: 'scan' is not WORKLOAD/SIZE"));
  j["skip"] = {{"huge", {"scan/small"}}};
  CHECK_THROWS_WITH(read_study(write_study(dir, j)), Catch::Contains("skip.huge: no size set 'huge'"));
}

TEST_CASE("study plan: thesis_a .. thesis_e are sizes; a workload without them is an error naming workloads_thesis",
          "[study]") {
  const fs::path dir = scratch("plan_thesis");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  // A workloads folder with montecarlo's thesis_a and thesis_e only (the plan hashes spec text).
  for (const char* size : {"thesis_a", "thesis_e"}) {
    fs::create_directories(dir / "wl" / "montecarlo" / size);
    std::ofstream(dir / "wl" / "montecarlo" / size / "spec.json") << "{\"size\": \"" << size << "\"}";
  }
  nlohmann::json j = small_study();
  j["workloads"] = {"montecarlo"};
  j["sizes"] = {{"default", {"thesis_a", "thesis_e"}}, {"c", {"thesis_c"}}};
  j["skip"] = {{"default", {"montecarlo/thesis_e"}}};
  const StudySpec s = read_study(write_study(dir, j));
  CHECK(s.size_sets.at("default") == std::vector<std::string>{"thesis_a", "thesis_e"});
  PlanOptions o = options(dir, exe);
  o.workloads_dir = (dir / "wl").string();
  Plan p = make_plan(s, o);
  REQUIRE(p.cells.size() == 2);  // lrr and gto on montecarlo/thesis_a; thesis_e skipped
  for (const Cell& c : p.cells) CHECK(c.size == "thesis_a");
  REQUIRE(p.jobs.size() == 2);
  CHECK(p.jobs[0].spec == fs::absolute(dir / "wl" / "montecarlo" / "thesis_a" / "spec.json").lexically_normal().string());
  o.size_set = "c";
  CHECK_THROWS_WITH(make_plan(s, o), Catch::Contains("workload 'montecarlo' has no thesis_c spec") &&
                                         Catch::Contains("--target workloads_thesis"));
  j["workloads"] = {"vecadd"};
  CHECK_THROWS_WITH(make_plan(read_study(write_study(dir, j)), options(dir, exe)),
                    Catch::Contains("workload 'vecadd' has no thesis_a spec") &&
                        Catch::Contains("montecarlo, streamcluster and laplace3d only"));
  j["sizes"] = {{"default", {"thesis_f"}}};
  j.erase("skip");
  CHECK_THROWS_WITH(read_study(write_study(dir, j)),
                    Catch::Contains("sizes.default: unknown size 'thesis_f' (small, medium, thesis_a"));
  j["sizes"] = {{"default", {"thesis_a"}}};
  j["skip"] = {{"default", {"vecadd/thesis_f"}}};
  CHECK_THROWS_WITH(read_study(write_study(dir, j)), Catch::Contains("skip.default: 'vecadd/thesis_f' is not WORKLOAD/SIZE"));
}

TEST_CASE("study plan: ilp is a size and a workload without it is an error naming workloads_ilp", "[study]") {
  const fs::path dir = scratch("plan_ilp");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  fs::create_directories(dir / "wl" / "ray" / "ilp");
  std::ofstream(dir / "wl" / "ray" / "ilp" / "spec.json") << "{\"size\": \"ilp\"}";
  nlohmann::json j = small_study();
  j["workloads"] = {"ray"};
  j["sizes"] = {{"default", {"ilp"}}};
  PlanOptions o = options(dir, exe);
  o.workloads_dir = (dir / "wl").string();
  Plan p = make_plan(read_study(write_study(dir, j)), o);
  REQUIRE(p.cells.size() == 2);  // lrr and gto on ray/ilp
  for (const Cell& c : p.cells) CHECK(c.size == "ilp");
  j["workloads"] = {"vecadd"};
  CHECK_THROWS_WITH(make_plan(read_study(write_study(dir, j)), o),
                    Catch::Contains("workload 'vecadd' has no ilp spec") && Catch::Contains("004 Table 2") &&
                        Catch::Contains("--target workloads_ilp"));
}

TEST_CASE("study report: classify puts each workload and size in the class its measured metric says", "[study]") {
  const fs::path dir = scratch("report_classify");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  // Five workloads with small and medium specs of their own (nothing is simulated).
  const std::vector<std::string> ws{"w1", "w2", "w3", "w4", "w5"};
  PlanOptions o = options(dir, exe);
  o.workloads_dir = (dir / "workloads").string();
  for (const std::string& w : ws)
    for (const char* size : {"small", "medium"}) {
      fs::create_directories(dir / "workloads" / w / size);
      std::ofstream(dir / "workloads" / w / size / "spec.json") << "{\"w\": \"" << w << "/" << size << "\"}";
    }
  nlohmann::json j = small_study();
  j.erase("classes");
  j["workloads"] = ws;
  j["sizes"] = {{"default", {"small", "medium"}}};
  j["metrics"] = {"ipc", {{"name", "insts_per_l1_miss"}, {"ratio", {"total.insts", "total.l1_misses"}}, {"normalise", false}}};
  j["classify"] = {{"metric", "insts_per_l1_miss"}, {"variant", "lrr"}, {"threshold", 30}, {"above", "compute"},
                   {"below", "memory"}};
  j["reference"] = {{{"variant", "gto"}, {"metric", "ipc"}, {"scope", "class:compute"}, {"value", 2.0},
                     {"source", "Mascar"}, {"section", "Fig. 11"}}};
  const StudySpec s = read_study(write_study(dir, j));
  const Plan p = make_plan(s, o);
  REQUIRE(p.cells.size() == 20);
  auto job = [&](const std::string& w, const std::string& size, const std::string& v) {
    for (const Cell& c : p.cells)
      if (c.workload == w && c.size == size && c.variant == v) return c.job_id;
    FAIL("no cell " << w << "/" << size << "/" << v);
    return std::string();
  };
  // lrr ipc 100 everywhere, so gto's normalised ipc is gto's ipc / 100. gto's own
  // insts_per_l1_miss (1000) must not decide anything: the rule reads lrr's.
  auto put = [&](const std::string& w, const std::string& size, std::optional<double> ipl, double gto_ipc) {
    nlohmann::json m{{"ipc", 100.0}};
    if (ipl) m["insts_per_l1_miss"] = *ipl;
    fake_result(p, job(w, size, "lrr"), true, m);
    fake_result(p, job(w, size, "gto"), true, {{"ipc", gto_ipc}, {"insts_per_l1_miss", 1000.0}});
  };
  put("w1", "small", 100, 200);   // compute
  put("w1", "medium", 10, 300);   // memory: the same workload, another class at another size
  put("w2", "small", 30, 50);     // exactly at the threshold: memory
  put("w2", "medium", 50, 120);   // compute
  put("w3", "small", 5, 150);
  fake_result(p, job("w3", "small", "lrr"), false, {});  // lrr failed: other
  fake_result(p, job("w3", "medium", "gto"), true, {{"ipc", 100.0}, {"insts_per_l1_miss", 1000.0}});  // lrr never ran
  put("w4", "small", 5, 400);              // memory
  put("w4", "medium", std::nullopt, 90);   // the metric did not resolve (no statistics to read it from): other
  put("w5", "small", 31, 800);             // compute
  put("w5", "medium", 0.5, 25);            // memory

  const Report r = make_report(s, p);
  CHECK(r.class_of("w1", "small") == "compute");
  CHECK(r.class_of("w1", "medium") == "memory");
  CHECK(r.class_of("w2", "small") == "memory");
  CHECK(r.class_of("w2", "medium") == "compute");
  CHECK(r.class_of("w3", "small") == "other");
  CHECK(r.class_of("w3", "medium") == "other");
  CHECK(r.class_of("w4", "small") == "memory");
  CHECK(r.class_of("w4", "medium") == "other");
  CHECK(r.class_of("w5", "small") == "compute");
  CHECK(r.class_of("w5", "medium") == "memory");
  const CellClass* w3s = r.cell_class("w3", "small");
  const CellClass* w3m = r.cell_class("w3", "medium");
  const CellClass* w4m = r.cell_class("w4", "medium");
  const CellClass* w2s = r.cell_class("w2", "small");
  REQUIRE((w3s && w3m && w4m && w2s));
  CHECK(w3s->status == "failed");
  CHECK_FALSE(w3s->value);
  CHECK(w3m->status == "missing");
  CHECK(w4m->status == "unresolved");
  CHECK(w2s->status == "ok");
  CHECK(*w2s->value == 30);
  for (const CellRow& row : r.rows) CHECK(row.cls == r.class_of(row.cell.workload, row.cell.size));
  CHECK(r.classes == std::vector<std::string>{"memory", "compute", "other", "all"});

  auto agg = [&](const std::string& size, const std::string& cls, const std::string& metric = "ipc") {
    for (const Aggregate& a : r.aggregates)
      if (a.size == size && a.variant == "gto" && a.cls == cls && a.metric == metric) return std::make_pair(a.value, a.n);
    return std::make_pair(-1.0, std::size_t(0));
  };
  using P = std::pair<double, std::size_t>;
  auto near = [](P got, double v, std::size_t n) { return got.second == n && got.first == Approx(v); };
  CHECK(near(agg("small", "compute"), std::sqrt(2.0 * 8.0), 2));  // w1, w5
  CHECK(near(agg("small", "memory"), std::sqrt(0.5 * 4.0), 2));   // w2 (at the threshold), w4
  CHECK(agg("small", "other").second == 0);                       // w3: no lrr, nothing normalised
  CHECK(near(agg("small", "all"), std::pow(2.0 * 0.5 * 4.0 * 8.0, 0.25), 4));
  CHECK(near(agg("medium", "compute"), 1.2, 1));                  // w2
  CHECK(near(agg("medium", "memory"), std::sqrt(3.0 * 0.25), 2)); // w1, w5
  CHECK(near(agg("medium", "other"), 0.9, 1));                    // w4 (w3 has no lrr to normalise to)
  CHECK(near(agg("medium", "all"), std::pow(3.0 * 1.2 * 0.9 * 0.25, 0.25), 4));
  CHECK(near(agg("small", "compute", "insts_per_l1_miss"), 1000, 2));  // raw, a mean

  REQUIRE(r.references.size() == 2);  // class:compute, per size
  CHECK(r.references[0].size == "small");
  CHECK(*r.references[0].ours == Approx(4.0));
  CHECK(r.references[1].size == "medium");
  CHECK(*r.references[1].ours == Approx(1.2));

  const std::string md = slurp(write_report(r, s, p, (dir / "out").string(), false));
  CHECK_THAT(md, Catch::Contains("## Classes\n\nMeasured per workload and size: `compute` when the raw "
                                 "`insts_per_l1_miss` of variant `lrr` is > 30, otherwise (<= 30) `memory`"));
  CHECK_THAT(md, Catch::Contains("| workload | size | lrr insts_per_l1_miss | class |\n|---|---|---|---|\n"
                                 "| w1 | small | 100 | compute |\n| w1 | medium | 10 | memory |\n"
                                 "| w2 | small | 30 | memory |\n"));
  CHECK_THAT(md, Catch::Contains("| w3 | small | — | other (failed) |\n| w3 | medium | — | other (missing) |\n"));
  CHECK_THAT(md, Catch::Contains("| w4 | medium | — | other (unresolved) |\n"));
  CHECK_THAT(md, Catch::Contains("## ipc normalised to lrr (small)\n\n| workload | class | lrr ipc | lrr | gto |\n"
                                 "|---|---|---|---|---|\n| w1 | compute | 100 | 1.000 | 2.000 |\n"));
  CHECK_THAT(md, Catch::Contains("## ipc normalised to lrr (medium)\n\n| workload | class | lrr ipc | lrr | gto |\n"
                                 "|---|---|---|---|---|\n| w1 | memory | 100 | 1.000 | 3.000 |\n"));
  CHECK_THAT(md, Catch::Contains("| **geomean (compute)** | | | **1.000** | **4.000** |"));
  CHECK_THAT(md, Catch::Contains("| gto | ipc | class:compute | medium | 1.200 | 2.000 | 0.60 | Mascar, Fig. 11 |"));

  const std::string csv = slurp(dir / "out" / "report.csv");
  CHECK_THAT(csv, Catch::StartsWith("workload,class,size,variant,job_id,status,host_seconds,ipc,ipc_norm,"
                                    "insts_per_l1_miss,insts_per_l1_miss_norm,classify_value,classify_rule\n"));
  const std::string rule = "compute if insts_per_l1_miss of lrr > 30 else memory";
  CHECK_THAT(csv, Catch::Contains("w2,memory,small,gto," + job("w2", "small", "gto") + ",ok,1.5,50,0.5,1000,1000,30," + rule + "\n"));
  CHECK_THAT(csv, Catch::Contains("w2,compute,medium,lrr," + job("w2", "medium", "lrr") + ",ok,1.5,100,1,50,50,50," + rule + "\n"));
  CHECK_THAT(csv, Catch::Contains("w3,other,small,lrr," + job("w3", "small", "lrr") + ",failed,1.5,,,,,," + rule + "\n"));
  CHECK_THAT(slurp(dir / "out" / "aggregates.csv"), Catch::Contains("medium,gto,ipc,compute,geomean,1.2,1\n"));

  const nlohmann::json rj = nlohmann::json::parse(slurp(dir / "out" / "report.json"));
  CHECK(rj["classes"] == nlohmann::json({"memory", "compute", "other", "all"}));
  const nlohmann::json& c = rj["classify"];
  CHECK(c["metric"] == "insts_per_l1_miss");
  CHECK(c["variant"] == "lrr");
  CHECK(c["threshold"].get<double>() == 30);
  CHECK(c["above"] == "compute");
  CHECK(c["below"] == "memory");
  REQUIRE(c["cells"].size() == 10);
  CHECK(c["cells"][2] == nlohmann::json({{"workload", "w2"}, {"size", "small"}, {"class", "memory"}, {"status", "ok"}, {"value", 30.0}}));
  CHECK(c["cells"][4] == nlohmann::json({{"workload", "w3"}, {"size", "small"}, {"class", "other"}, {"status", "failed"}, {"value", nullptr}}));
}

TEST_CASE("study report: without classify the report has no classification", "[study]") {
  const fs::path dir = scratch("report_no_classify");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  const StudySpec s = read_study(write_study(dir, small_study()));
  const Plan p = make_plan(s, options(dir, exe));
  const Report r = make_report(s, p);
  CHECK(r.class_of("vecadd", "small") == "memory");
  CHECK(r.cell_class("vecadd", "small")->status.empty());
  write_report(r, s, p, (dir / "out").string(), false);
  CHECK_FALSE(nlohmann::json::parse(slurp(dir / "out" / "report.json")).contains("classify"));
  CHECK_THAT(slurp(dir / "out" / "report.csv"), !Catch::Contains("classify"));
  CHECK_THAT(slurp(dir / "out" / "report.md"), !Catch::Contains("## Classes"));
}
