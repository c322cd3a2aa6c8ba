// Concurrent pairs in a study (issue 16 point 5): pair cells and the concurrent specs their
// jobs run, job ids that follow the component specs' contents, the weighted speedup's
// golden value from hand-made result files, and every bad "pairs" / "weighted_speedup".
#include <catch2/catch.hpp>

#include <functional>
#include <tuple>

#include "study/study_plan.h"
#include "study/study_report.h"
#include "study/study_results.h"
#include "study_test_util.h"

using namespace gputlm::study;
using namespace study_test;

namespace {

// A "pairs" array (braces alone would make nlohmann build {"vecadd": "scan"}).
nlohmann::json pair_list(std::initializer_list<std::vector<std::string>> pairs) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& p : pairs) a.push_back(p);
  return a;
}

nlohmann::json pair_object(const std::vector<std::string>& workloads, const nlohmann::json& repeat,
                           const char* repeat_key = "repeat") {
  return nlohmann::json::array({nlohmann::json{{"workloads", workloads}, {repeat_key, repeat}}});
}

// vecadd and scan alone; their pair; variants lrr and gto; WS with vecadd's denominator
// from gto and scan's from lrr (different variants, as 004's GPU-I / GPU-T).
nlohmann::json pair_study() {
  nlohmann::json j = small_study("pairs");
  j["pairs"] = pair_list({{"vecadd", "scan"}});
  j["weighted_speedup"] = {{"name", "ws"},
                           {"components", {{{"stream", 0}, {"alone", "gto"}}, {{"stream", 1}, {"alone", "lrr"}}}}};
  j["reference"] = {{{"variant", "gto"}, {"metric", "ws"}, {"scope", "class:pairs"}, {"value", 1.2},
                     {"source", "004"}, {"section", "V"}}};
  return j;
}

void write_stats(const Plan& plan, const std::string& id, const nlohmann::json& stats) {
  fs::create_directories(job_dir(plan.results_dir, id));
  std::ofstream(job_dir(plan.results_dir, id) + "/stats.json") << stats.dump();
}

// A run alone: `thread` thread instructions in `cycles` cycles (built-in ipc = thread / cycles).
nlohmann::json alone_stats(double thread, double cycles) {
  return {{"cycles", cycles}, {"launches", {{{"thread_instructions", thread}, {"warp_instructions", thread / 32}}}}};
}

nlohmann::json pair_stats(double ipc0, double ipc1) {
  return {{"cycles", 1000},
          {"launches", {{{"thread_instructions", 1000}, {"warp_instructions", 40}}}},
          {"streams", {{{"stream", 0}, {"ipc", ipc0}}, {{"stream", 1}, {"ipc", ipc1}}}}};
}

std::string read_error(const fs::path& dir, const nlohmann::json& j) {
  try {
    (void)read_study(write_study(dir, j));
  } catch (const StudyError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("study pairs: a pair is a cell per variant whose job runs a concurrent spec of both workloads", "[study]") {
  const fs::path dir = scratch("pairs_plan");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  nlohmann::json j = pair_study();
  j["pairs"] = pair_object({"vecadd", "scan"}, {3, 1});
  j["pair_variants"] = {"gto"};
  const StudySpec s = read_study(write_study(dir, j));
  REQUIRE(s.pairs.size() == 1);
  CHECK(s.pairs[0].name == "vecadd+scan");
  CHECK(s.pairs[0].repeat == std::vector<uint32_t>{3, 1});
  REQUIRE(s.find_metric("ws"));
  CHECK(s.find_metric("ws")->weighted_speedup);

  const Plan plan = make_plan(s, options(dir, exe));
  CHECK(plan.pairs == std::vector<std::string>{"vecadd+scan"});
  REQUIRE(plan.cells.size() == 5);  // 2 workloads x 2 variants, the pair in gto only
  const Cell& pc = cell(plan, "vecadd+scan", "gto");
  const Job& job = plan.job(pc.job_id);
  CHECK(job.spec == job_dir(plan.results_dir, job.id) + "/spec.json");
  write_job_file(plan, job, s);
  const nlohmann::json spec = read_json_file(job.spec);
  REQUIRE(spec["concurrent"].size() == 2);
  CHECK(spec["concurrent"][0]["spec"] == std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/vecadd/small/spec.json");
  CHECK(spec["concurrent"][0]["stream"] == 0);
  CHECK(spec["concurrent"][0]["repeat"] == 3);
  CHECK(spec["concurrent"][1]["spec"] == std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/scan/small/spec.json");
  CHECK(spec["concurrent"][1]["stream"] == 1);
  // The job's metrics are the ones a run yields: the weighted speedup is the report's.
  const nlohmann::json job_file = read_json_file(job_dir(plan.results_dir, job.id) + "/job.json");
  for (const auto& m : job_file["metrics"])  // (a temporary's member would die before the loop)
    CHECK_FALSE(m.dump().find("weighted_speedup") != std::string::npos);

  CHECK_FALSE(spec["concurrent"][0].contains("loop"));  // no loops asked: the key is absent

  // Loops: "pair_loop" for every pair, a pair's own "loop" over it; part of the job's id.
  nlohmann::json looped = j;
  looped["pair_loop"] = true;
  const Plan lp = make_plan(read_study(write_study(dir, looped)), options(dir, exe));
  const Job& ljob = lp.job(cell(lp, "vecadd+scan", "gto").job_id);
  CHECK(ljob.id != job.id);
  write_job_file(lp, ljob, read_study(write_study(dir, looped)));
  const nlohmann::json lspec = read_json_file(ljob.spec);
  CHECK(lspec["concurrent"][0]["loop"] == true);
  CHECK(lspec["concurrent"][1]["loop"] == true);
  looped["pairs"][0]["loop"] = false;
  CHECK_FALSE(read_study(write_study(dir, looped)).pairs[0].loop);

  // The repeat counts are part of what the job runs, hence of its id.
  j["pairs"] = pair_object({"vecadd", "scan"}, {2, 1});
  const Plan other = make_plan(read_study(write_study(dir, j)), options(dir, exe));
  CHECK(cell(other, "vecadd+scan", "gto").job_id != pc.job_id);
  CHECK(cell(other, "vecadd", "gto").job_id == cell(plan, "vecadd", "gto").job_id);
}

TEST_CASE("study pairs: a job id changes when a component spec of a concurrent spec changes", "[study]") {
  const fs::path dir = scratch("pairs_ids");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  // A workloads folder of copies: a, b and a workload whose own spec is concurrent.
  const fs::path wl = dir / "workloads";
  for (const char* w : {"vecadd", "scan"}) {
    fs::create_directories(wl / w / "small");
    fs::copy_file(fs::path(GPUTLM_WORKLOADS_BUILD_DIR) / w / "small" / "spec.json", wl / w / "small" / "spec.json");
  }
  fs::create_directories(wl / "both" / "small");
  std::ofstream(wl / "both" / "small" / "spec.json")
      << R"({"concurrent": [{"spec": "../../vecadd/small/spec.json", "stream": 0},
                            {"spec": "../../scan/small/spec.json", "stream": 1}]})";
  nlohmann::json j = small_study();
  j["workloads"] = {"vecadd", "scan", "both"};
  j["pairs"] = pair_list({{"vecadd", "scan"}});
  const StudySpec s = read_study(write_study(dir, j));
  PlanOptions o = options(dir, exe);
  o.workloads_dir = wl.string();
  const Plan a = make_plan(s, o);
  const Plan same = make_plan(s, o);
  CHECK(cell(a, "both", "lrr").job_id == cell(same, "both", "lrr").job_id);
  CHECK(cell(a, "vecadd+scan", "lrr").job_id == cell(same, "vecadd+scan", "lrr").job_id);

  std::ofstream(wl / "scan" / "small" / "spec.json", std::ios::app) << "\n";  // scan's spec changes
  const Plan b = make_plan(s, o);
  CHECK(cell(b, "both", "lrr").job_id != cell(a, "both", "lrr").job_id);
  CHECK(cell(b, "vecadd+scan", "lrr").job_id != cell(a, "vecadd+scan", "lrr").job_id);
  CHECK(cell(b, "scan", "lrr").job_id != cell(a, "scan", "lrr").job_id);
  CHECK(cell(b, "vecadd", "lrr").job_id == cell(a, "vecadd", "lrr").job_id);
  // A plain spec's id is what it always was: its text's hash.
  CHECK(spec_content_hash((wl / "vecadd" / "small" / "spec.json").string(), "{\"ptx\": \"x\"}") ==
        hash_hex("{\"ptx\": \"x\"}"));
}

TEST_CASE("study pairs: weighted speedup golden value from hand-made results", "[study]") {
  const fs::path dir = scratch("pairs_ws");
  const std::string exe = (dir / "exe").string();
  std::ofstream(exe) << "binary";
  const StudySpec s = read_study(write_study(dir, pair_study()));
  const Plan plan = make_plan(s, options(dir, exe));
  // Alone: vecadd 3000/1000 = 3.0 in gto (its denominator), 2.0 in lrr; scan 500/1000 = 0.5
  // in lrr (its denominator), 1.0 in gto.
  const std::vector<std::tuple<std::string, std::string, double>> alone = {
      {"vecadd", "gto", 3000}, {"vecadd", "lrr", 2000}, {"scan", "lrr", 500}, {"scan", "gto", 1000}};
  for (const auto& [w, v, thread] : alone) {
    const std::string id = cell(plan, w, v).job_id;
    fake_result(plan, id, true, {{"ipc", thread / 1000}, {"cycles", 1000}});
    write_stats(plan, id, alone_stats(thread, 1000));
  }
  // The pair: in gto vecadd keeps 1.5 and scan 0.4; in lrr 0.9 and 0.45.
  const std::string pg = cell(plan, "vecadd+scan", "gto").job_id, pl = cell(plan, "vecadd+scan", "lrr").job_id;
  fake_result(plan, pg, true, {{"ipc", 1.0}, {"cycles", 1000}});
  write_stats(plan, pg, pair_stats(1.5, 0.4));
  fake_result(plan, pl, true, {{"ipc", 1.0}, {"cycles", 1000}});
  write_stats(plan, pl, pair_stats(0.9, 0.45));

  const Report rep = make_report(s, plan);
  const double ws_gto = (1.5 / 3.0 + 0.4 / 0.5) / 2;   // 0.65
  const double ws_lrr = (0.9 / 3.0 + 0.45 / 0.5) / 2;  // 0.6
  const CellRow* gto = nullptr;
  const CellRow* lrr = nullptr;
  for (const CellRow& r : rep.rows) {
    if (r.cell.workload == "vecadd+scan") {
      CHECK(r.cls == "pairs");
      (r.cell.variant == "gto" ? gto : lrr) = &r;
    } else {
      CHECK_FALSE(r.value.count("ws"));  // single workloads have no weighted speedup
    }
  }
  REQUIRE(gto);
  REQUIRE(lrr);
  CHECK(gto->value.at("ws") == Approx(ws_gto));
  CHECK(lrr->value.at("ws") == Approx(ws_lrr));
  CHECK(gto->norm.at("ws") == Approx(ws_gto / ws_lrr));  // normalised to the baseline, lrr
  // The pairs aggregate apart: "all" is the single workloads'.
  bool pairs_agg = false;
  for (const Aggregate& a : rep.aggregates) {
    if (a.metric == "ws" && a.variant == "gto" && a.cls == "pairs") {
      pairs_agg = true;
      CHECK(a.value == Approx(ws_gto / ws_lrr));
      CHECK(a.n == 1);
    }
    if (a.cls == "all") CHECK(a.n == 2);
  }
  CHECK(pairs_agg);
  REQUIRE(rep.references.size() == 1);
  REQUIRE(rep.references[0].ours);
  CHECK(*rep.references[0].ours == Approx(ws_gto / ws_lrr));

  // Without scan's alone run in lrr the weighted speedup does not resolve (never a partial mean).
  fs::remove_all(job_dir(plan.results_dir, cell(plan, "scan", "lrr").job_id));
  const Report partial = make_report(s, plan);
  for (const CellRow& r : partial.rows)
    if (r.cell.workload == "vecadd+scan") CHECK_FALSE(r.value.count("ws"));
  const std::string md = slurp(write_report(rep, s, plan, (dir / "report").string(), false));
  CHECK_THAT(md, Catch::Contains("| vecadd+scan | pairs |"));
}

TEST_CASE("study pairs: bad pairs and weighted_speedup are errors naming the key", "[study]") {
  const fs::path dir = scratch("pairs_errors");
  struct Case {
    const char* what;
    std::function<void(nlohmann::json&)> edit;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"unknown workload", [](nlohmann::json& j) { j["pairs"] = pair_list({{"vecadd", "sgemm"}}); },
       "pairs[0]: workload 'sgemm' is not in \"workloads\""},
      {"one workload", [](nlohmann::json& j) { j["pairs"] = pair_list({{"vecadd"}}); },
       "pairs[0]: must be an array of two or more workload names"},
      {"twice in a pair", [](nlohmann::json& j) { j["pairs"] = pair_list({{"vecadd", "vecadd"}}); },
       "workload 'vecadd' is twice in one pair"},
      {"pair twice", [](nlohmann::json& j) { j["pairs"] = pair_list({{"vecadd", "scan"}, {"vecadd", "scan"}}); },
       "pair 'vecadd+scan' is listed twice"},
      {"repeat 0", [](nlohmann::json& j) { j["pairs"] = pair_object({"vecadd", "scan"}, {0, 1}); },
       "pairs[0].repeat: repeat counts must be integers in [1, 1000]"},
      {"repeat count", [](nlohmann::json& j) { j["pairs"] = pair_object({"vecadd", "scan"}, nlohmann::json::array({1})); },
       "pairs[0].repeat: must list one repeat count per workload (2)"},
      {"unknown pair key", [](nlohmann::json& j) { j["pairs"] = pair_object({"vecadd", "scan"}, {1, 1}, "repeats"); },
       "pairs[0].repeats: unknown key"},
      {"alone variant", [](nlohmann::json& j) { j["weighted_speedup"]["components"][0]["alone"] = "gpu_x"; },
       "weighted_speedup.components[0].alone: no variant named 'gpu_x'"},
      {"stream beyond the pair", [](nlohmann::json& j) { j["weighted_speedup"]["components"][1]["stream"] = 2; },
       "weighted_speedup.components[1].stream: pair 'vecadd+scan' has no stream 2"},
      {"stream twice", [](nlohmann::json& j) { j["weighted_speedup"]["components"][1]["stream"] = 0; },
       "weighted_speedup.components[1].stream: stream 0 is listed twice"},
      {"name taken", [](nlohmann::json& j) { j["weighted_speedup"]["name"] = "ipc"; },
       "weighted_speedup.name: metric 'ipc' is defined twice"},
      {"without pairs", [](nlohmann::json& j) { j.erase("pairs"); j.erase("reference"); },
       "weighted_speedup: needs \"pairs\""},
      {"unknown ws key", [](nlohmann::json& j) { j["weighted_speedup"]["components"][0]["stram"] = 0; },
       "weighted_speedup.components[0].stram: unknown key"},
      {"pair_variants", [](nlohmann::json& j) { j["pair_variants"] = {"fastest"}; },
       "pair_variants: no variant named 'fastest'"},
      {"pair_loop not a boolean", [](nlohmann::json& j) { j["pair_loop"] = "yes"; }, "pair_loop: must be true or false"},
      {"pair loop not a boolean", [](nlohmann::json& j) {
         j["pairs"] = pair_object({"vecadd", "scan"}, {1, 1});
         j["pairs"][0]["loop"] = 2;
       }, "pairs[0].loop: must be true or false"},
      {"pair_loop without pairs", [](nlohmann::json& j) {
         j.erase("pairs"); j.erase("reference"); j.erase("weighted_speedup"); j.erase("pair_variants");
         j["pair_loop"] = true;
       }, "pair_loop: needs \"pairs\""},
  };
  for (const Case& c : cases) {
    nlohmann::json j = pair_study();
    c.edit(j);
    const std::string msg = read_error(dir, j);
    INFO(c.what << ": " << msg);
    CHECK_THAT(msg, Catch::Contains(c.message));
  }
}
