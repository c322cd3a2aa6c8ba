// gputlm correlate: reference CSVs (both column conventions, every mistake named), kernel
// matching over launches, Pearson r and absolute errors on constructed data, and the CLI
// with its scatter plot.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>

#include "study/correlate.h"
#include "study/study_spec.h"
#include "study_test_util.h"

using namespace gputlm::study;
using namespace study_test;

namespace {
std::string write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  return p.string();
}
nlohmann::json run_stats(std::initializer_list<std::tuple<const char*, const char*, double, double>> launches) {
  nlohmann::json j;
  int i = 0;
  for (const auto& [kernel, label, cycles, warp] : launches) {
    (void)label;
    j["launches"].push_back({{"kernel", kernel}, {"label", "launches[" + std::to_string(i++) + "]"}, {"cycles", cycles},
                             {"warp_instructions", warp}});
  }
  return j;
}
}  // namespace

TEST_CASE("correlate: reference CSVs in both conventions, and every mistake names file and line", "[study]") {
  const fs::path dir = scratch("corr_csv");
  auto rows = read_reference_csv(write(dir / "a.csv", "workload,kernel,cycles\nbfs,,1000\nsgemm,sgemm_tiled,\"2500\"\n"));
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].kernel == "sgemm_tiled");
  CHECK(rows[1].values.at("cycles") == 2500);
  // GPGPU-Sim side-by-side files: ref_cycles is the reference, cycles is ours.
  rows = read_reference_csv(write(dir / "b.csv", "workload,size,ref_cycles,cycles,ref_warp_insn,warp_insn\nbfs,small,900,1000,50,51\n"));
  CHECK(rows[0].values.at("cycles") == 900);
  CHECK(rows[0].values.at("warp_instructions") == 50);
  CHECK_THROWS_WITH(read_reference_csv(write(dir / "c.csv", "name,cycles\nx,1\n")), Catch::Contains("c.csv: line 1: no 'workload' column"));
  CHECK_THROWS_WITH(read_reference_csv(write(dir / "d.csv", "workload,cycles\nx,1\ny,abc\n")),
                    Catch::Contains("d.csv: line 3: cycles 'abc' is not a non-negative number"));
  CHECK_THROWS_WITH(read_reference_csv(write(dir / "e.csv", "workload,cycles\nx,1,2\n")),
                    Catch::Contains("e.csv: line 2: 3 fields, the header has 2"));
  CHECK_THROWS_WITH(read_reference_csv(write(dir / "f.csv", "workload,kernel\n")), Catch::Contains("no 'cycles' or 'ref_cycles' column"));
  CHECK_THROWS_WITH(read_reference_csv((dir / "none.csv").string()), Catch::Contains("none.csv: cannot open"));
  // A row whose reference run failed (the side-by-side file's ref_check FAIL, no cycles) is
  // kept and marked; without a failing check an empty cell is an error.
  rows = read_reference_csv(write(dir / "g.csv", "workload,size,ref_cycles,cycles,ref_check,check\n"
                                                 "bfs,small,900,1000,PASS,PASS\nreduce,small,,7458,FAIL,PASS\n"));
  REQUIRE(rows.size() == 2);
  CHECK_FALSE(rows[0].reference_failed);
  CHECK(rows[1].reference_failed);
  CHECK(rows[1].values.count("cycles") == 0);
  CHECK_THROWS_WITH(read_reference_csv(write(dir / "h.csv", "workload,ref_cycles,ref_check\nx,,PASS\n")),
                    Catch::Contains("h.csv: line 2: no reference cycles"));
  CHECK_THROWS_WITH(read_reference_csv(write(dir / "i.csv", "workload,cycles\nx,\n")), Catch::Contains("i.csv: line 2: no reference cycles"));
  CHECK_THROWS_WITH(read_reference_csv(write(dir / "j.csv", "workload,ref_cycles,ref_check\nx,,FAIL\n")),
                    Catch::Contains("every reference run failed"));
}

TEST_CASE("correlate: kernels match by name or label and sum over launches, with r and errors", "[study]") {
  const nlohmann::json stats = run_stats({{"_Z3fooPf", "", 100, 10}, {"bar", "", 50, 5}, {"_Z3fooPf", "", 30, 3}});
  RefRow all{"w", "", {{"cycles", 200}}};
  CHECK(match(all, stats)->ours.at("cycles") == 180);
  RefRow foo{"w", "foo", {{"cycles", 100}, {"warp_instructions", 13}}};
  const auto m = match(foo, stats);
  CHECK(m->ours.at("cycles") == 130);  // both launches of foo, by demangled name
  CHECK(m->ours.at("warp_instructions") == 13);
  CHECK(match(RefRow{"w", "launches[1]", {{"cycles", 1}}}, stats)->ours.at("cycles") == 50);
  CHECK_FALSE(match(RefRow{"w", "baz", {{"cycles", 1}}}, stats));

  // ours = 2 x reference: r = 1, every error 100 %.
  std::vector<CorrRow> rows;
  for (double x : {10.0, 20.0, 40.0}) rows.push_back({"w", "", {{"cycles", x}}, {{"cycles", 2 * x}}});
  CorrStats s = correlation(rows, "cycles");
  CHECK(s.n == 3);
  CHECK(s.pearson_r == Approx(1.0));
  CHECK(s.mean_abs_error == Approx(1.0));
  // Errors 10 %, 20 %, 50 %, 0 %: mean 20 %, median 15 %; r from the textbook formula.
  rows = {{"a", "", {{"cycles", 100}}, {{"cycles", 110}}}, {"b", "", {{"cycles", 200}}, {{"cycles", 160}}},
          {"c", "", {{"cycles", 300}}, {{"cycles", 450}}}, {"d", "", {{"cycles", 400}}, {{"cycles", 400}}}};
  s = correlation(rows, "cycles");
  CHECK(s.mean_abs_error == Approx(0.2));
  CHECK(s.median_abs_error == Approx(0.15));
  CHECK(s.pearson_r == Approx(58000.0 / std::sqrt(50000.0 * 86600.0)));  // sxy / sqrt(sxx syy) by hand
  CHECK(correlation(rows, "warp_instructions").n == 0);
}

TEST_CASE("correlate: the CLI prints ratios and statistics and writes the CSV, JSON and scatter plot", "[study][cli]") {
  const fs::path dir = scratch("corr_cli");
  fs::create_directories(dir / "suite");
  std::ofstream(dir / "suite" / "alpha.timing.json") << run_stats({{"k1", "", 1100, 10}}).dump();
  std::ofstream(dir / "suite" / "beta.timing.json") << run_stats({{"k2", "", 1800, 20}, {"k3", "", 200, 5}}).dump();
  const std::string ref = write(dir / "ref.csv", "workload,kernel,cycles\nalpha,,1000\nbeta,k2,2000\nbeta,k3,100\ngamma,,5\n");
  const std::string out = (dir / "out").string();
  const std::string cmd = std::string(GPUTLM_CLI) + " correlate " + ref + " --suite " + (dir / "suite").string() +
                          " --out " + out + " > " + (dir / "log.txt").string() + " 2>&1";
  const int st = std::system(cmd.c_str());
  const std::string log = slurp(dir / "log.txt");
  INFO(log);
  REQUIRE(WEXITSTATUS(st) == 0);
  CHECK_THAT(log, Catch::Contains("cycles               n 3") && Catch::Contains("mean |error| 40.0%") &&
                      Catch::Contains("median |error| 10.0%") && Catch::Contains("no run for 1 reference rows (first: gamma)"));
  CHECK_THAT(slurp(fs::path(out) / "correlation.csv"), Catch::Contains("beta,k3,100,200,2\n"));
  for (const char* f : {"correlation.json", "correlation.png", "correlation.svg", "correlation.data.json"})
    CHECK(fs::exists(fs::path(out) / f));
  const nlohmann::json pts = nlohmann::json::parse(slurp(fs::path(out) / "correlation.data.json"));
  CHECK(pts["points"].size() == 3);
  CHECK(pts["points"][2][0].get<double>() == 100);
  CHECK(pts["points"][2][1].get<double>() == 200);
  const std::string bad = std::string(GPUTLM_CLI) + " correlate " + write(dir / "g.csv", "workload,cycles\nnone,1\n") +
                          " --suite " + (dir / "suite").string() + " --no-plot > /dev/null 2>&1";
  CHECK(WEXITSTATUS(std::system(bad.c_str())) == 1);
}
