// A concurrent spec on the timing GPU through `gputlm run` (issue 16 point 5): scan (three
// launches, twice) on stream 0 and sgemm on stream 1 run as one job, on GPU-H (two SM kinds,
// ilp_tlp steering) and on the Fermi GTX480. Every output verified against its own
// reference, the two streams' cycle ranges overlap, and the per-stream statistics add up to
// the launches and to the SMs' totals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"

using namespace gputlm::test;
namespace fs = std::filesystem;

namespace {

std::string write_pair_spec(const std::string& name) {
  const fs::path dir = fs::path(GPUTLM_GPU_TEST_TMP) / name;
  fs::create_directories(dir);
  const nlohmann::json j = {{"concurrent", {{{"spec", spec("scan")}, {"stream", 0}, {"repeat", 2}},
                                            {{"spec", spec("sgemm")}, {"stream", 1}}}}};
  std::ofstream(dir / "pair.json") << j.dump(1);
  return (dir / "pair.json").string();
}

uint64_t sum_over_sms(const nlohmann::json& total, const char* key) {
  uint64_t n = 0;
  for (auto it = total.begin(); it != total.end(); ++it)
    if (it.key().rfind("sm", 0) == 0 && it->is_object() && it->contains(key)) n += (*it)[key].get<uint64_t>();
  return n;
}

void check_concurrent_run(const std::string& config, const std::string& name, const std::string& extra = "") {
  const std::string spec_path = write_pair_spec(name);
  const std::string stats = std::string(GPUTLM_GPU_TEST_TMP) + "/" + name + "/stats.json";
  const CliResult r = run_cli("run " + spec_path + " --config " + std::string(GPUTLM_SOURCE_DIR) + "/configs/" + config +
                              " --stats " + stats + extra);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("stream launches"));  // the per-stream table of the summary
  const nlohmann::json j = read_json(stats);
  CHECK(j["ok"] == true);
  REQUIRE(j["outputs"].size() == 3);  // scan's out twice, sgemm's C once
  CHECK(j["outputs"][0]["buffer"] == "c0.r0.out");
  CHECK(j["outputs"][1]["buffer"] == "c0.r1.out");
  CHECK(j["outputs"][2]["buffer"].get<std::string>().rfind("c1.r0.", 0) == 0);
  for (const auto& o : j["outputs"]) {
    CHECK(o["checked"] == true);
    CHECK(o["ok"] == true);
  }
  REQUIRE(j["launches"].size() == 7);  // 2 x 3 scan launches, 1 sgemm
  REQUIRE(j["streams"].size() == 2);
  const nlohmann::json& s0 = j["streams"][0];
  const nlohmann::json& s1 = j["streams"][1];
  CHECK(s0["stream"] == 0);
  CHECK(s1["stream"] == 1);
  CHECK(s0["launches"] == 6);
  CHECK(s1["launches"] == 1);
  INFO("stream 0 " << s0["start_cycle"] << ".." << s0["end_cycle"] << ", stream 1 " << s1["start_cycle"] << ".."
                   << s1["end_cycle"]);
  CHECK(s0["start_cycle"].get<uint64_t>() < s1["end_cycle"].get<uint64_t>());
  CHECK(s1["start_cycle"].get<uint64_t>() < s0["end_cycle"].get<uint64_t>());
  // Not only the streams' ranges: a launch of each runs at the same time as one of the other's.
  bool overlap = false;
  uint64_t run_start = ~uint64_t{0};
  for (const auto& a : j["launches"]) {
    run_start = std::min(run_start, a["start_cycle"].get<uint64_t>());
    for (const auto& b : j["launches"])
      if (a["stream"] == 0 && b["stream"] == 1 && a["start_cycle"] < b["end_cycle"] && b["start_cycle"] < a["end_cycle"])
        overlap = true;
  }
  CHECK(overlap);

  uint64_t launch_thread = 0, launch_warp = 0;
  for (const auto& l : j["launches"]) {
    launch_thread += l["thread_instructions"].get<uint64_t>();
    launch_warp += l["warp_instructions"].get<uint64_t>();
  }
  uint64_t stream_thread = 0, stream_warp = 0;
  for (const auto& s : j["streams"]) {
    stream_thread += s["thread_instructions"].get<uint64_t>();
    stream_warp += s["warp_instructions"].get<uint64_t>();
    const double cycles = s["cycles"].get<double>();
    REQUIRE(cycles > 0);
    CHECK(s["ipc"].get<double>() == Approx(s["thread_instructions"].get<double>() / cycles));
    CHECK(s["cycles"].get<uint64_t>() == s["end_cycle"].get<uint64_t>() - run_start);
    CHECK(s["busy_cycles"].get<uint64_t>() <= s["end_cycle"].get<uint64_t>() - s["start_cycle"].get<uint64_t>());
  }
  CHECK(stream_thread == launch_thread);
  CHECK(stream_warp == launch_warp);
  CHECK(stream_thread == sum_over_sms(j["total"], "thread_instructions"));
  CHECK(stream_warp == sum_over_sms(j["total"], "warp_instructions"));
}

}  // namespace

TEST_CASE("concurrent spec runs scan and sgemm on two streams of gpu_h with verified outputs", "[gpu][concurrent]") {
  // At small sizes 004's rule sends every kernel to the ILP SMs, where the second waits for
  // the first (when_busy wait); at 4096 threads scan's big launches go to the TLP SMs.
  check_concurrent_run("gpu_h.json", "concurrent_gpu_h", " -p cta_scheduler.ilp_tlp.ilp_max_threads=4096");
}

TEST_CASE("concurrent spec runs scan and sgemm on two streams of fermi with verified outputs", "[gpu][concurrent]") {
  check_concurrent_run("fermi_gtx480.json", "concurrent_fermi");
}

TEST_CASE("a one-stream run has no streams statistics", "[gpu][concurrent]") {
  const std::string stats = std::string(GPUTLM_GPU_TEST_TMP) + "/one_stream_stats.json";
  const CliResult r = run_cli("run " + spec("scan") + " --config " + std::string(GPUTLM_SOURCE_DIR) +
                              "/configs/fermi_gtx480.json --quiet --stats " + stats);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(read_json(stats).contains("streams"));
}

// 004 §V's loops: sgemm (short) runs again each time its stream drains while nqueen (long)
// has not finished its run; nqueen does not loop. Every run verified on its own buffers.
TEST_CASE("concurrent spec loop relaunches the short component until the long one has finished", "[gpu][concurrent]") {
  const fs::path dir = fs::path(GPUTLM_GPU_TEST_TMP) / "concurrent_loop";
  fs::create_directories(dir);
  const nlohmann::json pair = {{"concurrent", {{{"spec", spec("nqueen")}, {"stream", 0}},
                                               {{"spec", spec("sgemm")}, {"stream", 1}, {"loop", true}}}}};
  std::ofstream(dir / "pair.json") << pair.dump(1);
  const std::string stats = (dir / "stats.json").string();
  const CliResult r = run_cli("run " + (dir / "pair.json").string() + " --config " + std::string(GPUTLM_SOURCE_DIR) +
                              "/configs/fermi_gtx480.json --quiet --stats " + stats);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = read_json(stats);
  CHECK(j["ok"] == true);
  std::vector<nlohmann::json> nq, sg;
  for (const auto& l : j["launches"]) (l["stream"] == 0 ? nq : sg).push_back(l);
  REQUIRE(nq.size() == 1);
  REQUIRE(sg.size() >= 3);  // nqueen small runs ~10x as long as sgemm small
  const uint64_t nq_end = nq[0]["end_cycle"].get<uint64_t>();
  for (std::size_t i = 0; i < sg.size(); ++i) {
    INFO("sgemm run " << i << ": " << sg[i]["start_cycle"] << ".." << sg[i]["end_cycle"] << ", nqueen ends " << nq_end);
    CHECK(sg[i]["label"] == "c1.r" + std::to_string(i) + ".launch");
    if (i > 0) CHECK(sg[i]["start_cycle"].get<uint64_t>() > sg[i - 1]["end_cycle"].get<uint64_t>());
    // Each run was launched while nqueen still ran; only the last ends after it.
    CHECK(sg[i]["start_cycle"].get<uint64_t>() < nq_end);
    if (i + 1 < sg.size()) CHECK(sg[i]["end_cycle"].get<uint64_t>() < nq_end);
  }
  CHECK(sg.back()["end_cycle"].get<uint64_t>() >= nq_end);
  // Every run's output checked: nqueen's counts once, sgemm's C once per run.
  REQUIRE(j["outputs"].size() == 1 + sg.size());
  for (const auto& o : j["outputs"]) {
    CHECK(o["checked"] == true);
    CHECK(o["ok"] == true);
  }
  CHECK(j["streams"][1]["launches"] == sg.size());
}
