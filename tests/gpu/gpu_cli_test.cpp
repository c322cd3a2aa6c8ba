// The timing path of `gputlm run` and `gputlm suite` as a user runs them: identical
// statistics from two runs, whole-run cycles of overlapping streams, the deadlock watchdog with its state dump, an out-of-bounds
// access reported with kernel, thread and address, every config variant running a kernel.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "stream_spec.h"

namespace {

namespace fs = std::filesystem;

using gputlm::test::CliResult;
using gputlm::test::read_json;
using gputlm::test::run_cli;
using gputlm::test::spec;

}  // namespace

TEST_CASE("gpu_top timing run gives identical statistics JSON on two runs", "[gpu][cli]") {
  const std::string a = std::string(GPUTLM_GPU_TEST_TMP) + "/det_a.json", b = std::string(GPUTLM_GPU_TEST_TMP) + "/det_b.json";
  for (const std::string& out : {a, b}) {
    CliResult r = run_cli("run " + spec("histogram") + " --config configs/fermi_gtx480.json --quiet --stats " + out);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
  }
  nlohmann::json ja = read_json(a), jb = read_json(b);
  REQUIRE(ja.contains("host"));
  ja.erase("host");  // host seconds and speeds: the only non-deterministic part
  jb.erase("host");
  CHECK(ja["cycles"].get<uint64_t>() > 0);
  CHECK(ja == jb);
}

TEST_CASE("gpu_top timing run prints the summary and verifies outputs", "[gpu][cli]") {
  CliResult r = run_cli("run " + spec("saxpy") + " --config configs/fermi_gtx480.json");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  for (const char* s : {"cycles", "IPC", "warp instructions", "stalls (ELF)", "stalls (KAWS)", "L1D load hit rate",
                        "L2 load hit rate", "DRAM bandwidth", "warp instr/s", "cycles/s", "PASS"})
    CHECK_THAT(r.output, Catch::Contains(s));
}

TEST_CASE("gpu_top watchdog ends a run whose memory never answers, with a state dump", "[gpu][cli][watchdog]") {
  CliResult r = run_cli("run " + spec("saxpy") +
                        " --config configs/fermi_gtx480.json -p l2.dram.min_latency=4000000000 -p watchdog.cycles=20000");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("deadlock"));
  CHECK_THAT(r.output, Catch::Contains("watchdog.cycles = 20000"));
  CHECK_THAT(r.output, Catch::Contains("kernel 0"));
  CHECK_THAT(r.output, Catch::Contains("DRAM holds"));
  CHECK_THAT(r.output, !Catch::Contains("PASS"));
}

TEST_CASE("gpu_top reports an out-of-bounds global access with kernel, thread and address", "[gpu][cli]") {
  // saxpy over 64 times more threads and elements than its 16384-element buffers hold.
  nlohmann::json s = read_json(spec("saxpy"));
  const std::string dir = std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/saxpy/small/";
  s["ptx"] = dir + "saxpy.ptx";
  for (auto& b : s["buffers"]) b["init"]["file"] = dir + b["init"]["file"].get<std::string>();
  s["args"][0] = 16384 * 64;
  s["grid"][0] = s["grid"][0].get<uint32_t>() * 64;
  s.erase("outputs");
  const std::string path = std::string(GPUTLM_GPU_TEST_TMP) + "/oob_spec.json";
  std::ofstream(path) << s.dump(1);
  CliResult r = run_cli("run " + path + " --config configs/fermi_gtx480.json");
  INFO(r.output);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("saxpy"));
  CHECK_THAT(r.output, Catch::Contains("thread"));
  CHECK_THAT(r.output, Catch::Contains("0x"));
}

TEST_CASE("gpu_top runs a kernel on every Fermi config variant", "[gpu][cli][fermi]") {
  for (const char* v : {"fermi_l1d_48k", "elf_table1", "mascar_table1", "mascar_table1_bank_latency",
                        "mascar_motivation_all", "thesis_table2_1", "thesis_table5_1"}) {
    CliResult r = run_cli("run " + spec("vecadd") + " --config configs/variants/" + v + ".json --quiet");
    INFO(v << ": " << r.output);
    CHECK(r.exit_code == 0);
  }
}

TEST_CASE("gpu_top suite prints a table of workloads", "[gpu][cli]") {
  CliResult r = run_cli("suite --only vecadd --only saxpy --out " + std::string(GPUTLM_GPU_TEST_TMP) + "/suite");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("vecadd"));
  CHECK_THAT(r.output, Catch::Contains("saxpy"));
  CHECK_THAT(r.output, Catch::Contains("2 of 2 workloads passed"));
}

TEST_CASE("gpu_top timing run of two streams under steering split overlaps them, identically on two runs",
          "[gpu][cli][stream][steering]") {
  const std::string spec_path = gputlm::test::write_two_stream_spec(fs::path(GPUTLM_GPU_TEST_TMP) / "cli_streams", 0, 1);
  const std::string a = std::string(GPUTLM_GPU_TEST_TMP) + "/streams_a.json",
                    b = std::string(GPUTLM_GPU_TEST_TMP) + "/streams_b.json";
  for (const std::string& out : {a, b}) {
    CliResult r = run_cli("run " + spec_path + " --config configs/fermi_gtx480.json -p cta_scheduler.steering=split --quiet --stats " + out);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
  }
  nlohmann::json ja = read_json(a), jb = read_json(b);
  CHECK(ja["ok"] == true);
  REQUIRE(ja["launches"].size() == 2);
  const nlohmann::json& k0 = ja["launches"][0];
  const nlohmann::json& k1 = ja["launches"][1];
  CHECK(k1["start_cycle"].get<uint64_t>() < k0["end_cycle"].get<uint64_t>());
  CHECK(k0["stream"] == 0);
  CHECK(k1["stream"] == 1);
  ja.erase("host");
  jb.erase("host");
  CHECK(ja == jb);
}

namespace {

struct LaunchCycles {
  uint64_t first_start = UINT64_MAX, last_end = 0, sum = 0;
};

LaunchCycles launch_cycles(const nlohmann::json& stats) {
  LaunchCycles c;
  for (const nlohmann::json& l : stats["launches"]) {
    const uint64_t start = l["start_cycle"].get<uint64_t>(), end = l["end_cycle"].get<uint64_t>();
    CHECK(l["cycles"].get<uint64_t>() == end - start);  // a launch's cycles are [start, end)
    c.first_start = std::min(c.first_start, start);
    c.last_end = std::max(c.last_end, end);
    c.sum += end - start;
  }
  return c;
}

// The table row of one launch: "  <label> <stream> <kernel> <start> <end> <cycles> ...". The
// stream spec's kernel is extern "C": its name in the JSON is the one printed.
std::string table_row(const nlohmann::json& launch) {
  char row[160];
  std::snprintf(row, sizeof row, "  %-14s %6u %-24s %10llu %10llu %10llu ", launch["label"].get<std::string>().c_str(),
                launch["stream"].get<unsigned>(), launch["kernel"].get<std::string>().c_str(),
                static_cast<unsigned long long>(launch["start_cycle"].get<uint64_t>()),
                static_cast<unsigned long long>(launch["end_cycle"].get<uint64_t>()),
                static_cast<unsigned long long>(launch["cycles"].get<uint64_t>()));
  return row;
}

}  // namespace

TEST_CASE("gpu_top timing run of two overlapping streams counts the run's span, not the sum of launch cycles",
          "[gpu][cli][stream]") {
  const std::string spec_path = gputlm::test::write_two_stream_spec(fs::path(GPUTLM_GPU_TEST_TMP) / "cli_span", 0, 1);
  const std::string out = std::string(GPUTLM_GPU_TEST_TMP) + "/span.json";
  CliResult r = run_cli("run " + spec_path + " --config configs/fermi_gtx480.json -p cta_scheduler.steering=split --stats " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = read_json(out);
  REQUIRE(j["launches"].size() == 2);
  const LaunchCycles c = launch_cycles(j);
  const uint64_t span = c.last_end - c.first_start;
  // The launches overlap, so the span is shorter than the launches' own cycles added up.
  REQUIRE(span < c.sum);
  CHECK(j["cycles"].get<uint64_t>() == span);
  CHECK(j["launch_cycles"].get<uint64_t>() == c.sum);
  const double thread_instructions = j["launches"][0]["thread_instructions"].get<double>() +
                                     j["launches"][1]["thread_instructions"].get<double>();
  char ipc[64];
  std::snprintf(ipc, sizeof ipc, "IPC                  %.3f thread instr/cycle", thread_instructions / static_cast<double>(span));
  CHECK_THAT(r.output, Catch::Contains(ipc));
  CHECK_THAT(r.output, Catch::Contains("cycles               " + std::to_string(span) +
                                       " (launches overlapped: their own cycles sum to " + std::to_string(c.sum) + ")"));
  CHECK_THAT(r.output, Catch::Contains("launch         stream kernel                        start        end     cycles"));
  for (const nlohmann::json& l : j["launches"]) CHECK_THAT(r.output, Catch::Contains(table_row(l)));
}

TEST_CASE("gpu_top timing run of launches on one stream counts the sum of their cycles", "[gpu][cli][stream]") {
  const std::string spec_path = gputlm::test::write_two_stream_spec(fs::path(GPUTLM_GPU_TEST_TMP) / "cli_one_stream", 3, 3);
  const std::string out = std::string(GPUTLM_GPU_TEST_TMP) + "/one_stream.json";
  CliResult r = run_cli("run " + spec_path + " --config configs/fermi_gtx480.json --stats " + out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = read_json(out);
  REQUIRE(j["launches"].size() == 2);
  CHECK(j["launches"][0]["stream"] == 3);
  CHECK(j["launches"][1]["stream"] == 3);
  // Back to back: the second starts after the first ends, and the cycle between them,
  // when the GPU runs nothing, is not part of the run's cycles.
  CHECK(j["launches"][1]["start_cycle"].get<uint64_t>() > j["launches"][0]["end_cycle"].get<uint64_t>());
  const LaunchCycles c = launch_cycles(j);
  CHECK(j["cycles"].get<uint64_t>() == c.sum);
  CHECK(j["launch_cycles"].get<uint64_t>() == c.sum);
  CHECK_THAT(r.output, Catch::Contains("cycles               " + std::to_string(c.sum) + "\n"));
  CHECK_THAT(r.output, !Catch::Contains("overlapped"));
  for (const nlohmann::json& l : j["launches"]) CHECK_THAT(r.output, Catch::Contains(table_row(l)));
}
