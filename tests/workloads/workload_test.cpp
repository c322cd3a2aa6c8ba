// One test per workload: its small launch spec runs on the functional executor and every
// output must match the CPU reference within the spec's tolerance.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"

namespace {

void run_workload(const std::string& name) {
  std::string spec_path = std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/" + name + "/small/spec.json";
  gputlm::runtime::LaunchSpec spec = gputlm::runtime::parse_launch_spec(spec_path);
  gputlm::runtime::Runtime rt;
  gputlm::runtime::SpecReport rep = gputlm::runtime::run_launch_spec(spec, rt);
  REQUIRE(rep.launches.size() == spec.launches.size());
  uint64_t warp_instructions = 0;
  double seconds = 0;
  for (const auto& l : rep.launches) {
    CHECK(l.warp_instructions > 0);
    CHECK(l.thread_instructions >= l.warp_instructions);
    CHECK(l.ctas == uint64_t{l.grid.x} * l.grid.y * l.grid.z);
    // The timing model needs registers/shared per kernel for occupancy: every workload
    // kernel must be in the resources JSON beside its PTX.
    REQUIRE(l.resources.has_value());
    CHECK(l.resources->registers > 0);
    warp_instructions += l.warp_instructions;
    seconds += l.host_seconds;
  }
  REQUIRE_FALSE(rep.outputs.empty());
  for (const auto& o : rep.outputs) {
    INFO(name << " output " << o.buffer << ": " << o.message());
    CHECK(o.checked);
    CHECK(o.compare.ok());
  }
  WARN(name << ": " << warp_instructions << " warp instructions in " << seconds << " s");
}

std::set<std::string>& tested_workloads() {
  static std::set<std::string> names;
  return names;
}

struct TestedWorkload {
  explicit TestedWorkload(const char* name) { tested_workloads().insert(name); }
};

}  // namespace

#define GPUTLM_WORKLOAD_TEST(name)                                                           \
  static TestedWorkload gputlm_tested_##name(#name);                                       \
  TEST_CASE("workload_" #name " small input matches the CPU reference", "[workloads]") { \
    run_workload(#name);                                                                   \
  }

GPUTLM_WORKLOAD_TEST(vecadd)
GPUTLM_WORKLOAD_TEST(saxpy)
GPUTLM_WORKLOAD_TEST(lbm)
GPUTLM_WORKLOAD_TEST(bfs)
GPUTLM_WORKLOAD_TEST(spmv)
GPUTLM_WORKLOAD_TEST(kmeans)
GPUTLM_WORKLOAD_TEST(strided)
GPUTLM_WORKLOAD_TEST(laplace3d)
GPUTLM_WORKLOAD_TEST(hotspot)
GPUTLM_WORKLOAD_TEST(sgemm)
GPUTLM_WORKLOAD_TEST(mriq)
GPUTLM_WORKLOAD_TEST(cutcp)
GPUTLM_WORKLOAD_TEST(nqueen)
GPUTLM_WORKLOAD_TEST(storegpu)
GPUTLM_WORKLOAD_TEST(reduce)
GPUTLM_WORKLOAD_TEST(scan)
GPUTLM_WORKLOAD_TEST(histogram)
GPUTLM_WORKLOAD_TEST(atomics)
GPUTLM_WORKLOAD_TEST(tailwork)
GPUTLM_WORKLOAD_TEST(dgemv)
GPUTLM_WORKLOAD_TEST(conv1d)
GPUTLM_WORKLOAD_TEST(dstencil)
GPUTLM_WORKLOAD_TEST(nw)
GPUTLM_WORKLOAD_TEST(backprop)
GPUTLM_WORKLOAD_TEST(blackscholes)
GPUTLM_WORKLOAD_TEST(btree)
GPUTLM_WORKLOAD_TEST(fdtd3d)
GPUTLM_WORKLOAD_TEST(lud)
GPUTLM_WORKLOAD_TEST(particlefilter)
GPUTLM_WORKLOAD_TEST(radixsort)
GPUTLM_WORKLOAD_TEST(srad)
GPUTLM_WORKLOAD_TEST(tpacf)
GPUTLM_WORKLOAD_TEST(mummer)
GPUTLM_WORKLOAD_TEST(sad)
GPUTLM_WORKLOAD_TEST(mrig)
GPUTLM_WORKLOAD_TEST(leukocyte)
GPUTLM_WORKLOAD_TEST(lavamd)
GPUTLM_WORKLOAD_TEST(invindex)
GPUTLM_WORKLOAD_TEST(cfd)
GPUTLM_WORKLOAD_TEST(montecarlo)
GPUTLM_WORKLOAD_TEST(streamcluster)
GPUTLM_WORKLOAD_TEST(aes)
GPUTLM_WORKLOAD_TEST(simscore)
GPUTLM_WORKLOAD_TEST(pathfinder)
GPUTLM_WORKLOAD_TEST(quasirandom)
GPUTLM_WORKLOAD_TEST(conv3d)
GPUTLM_WORKLOAD_TEST(mm3)
GPUTLM_WORKLOAD_TEST(resnet)
// Seed 004 Table 2's benchmarks (issue 16 point 6; their ilp sizes: ilp_shapes_test.cpp).
GPUTLM_WORKLOAD_TEST(nqueen_ilp)
GPUTLM_WORKLOAD_TEST(storegpu_ilp)
GPUTLM_WORKLOAD_TEST(scan_ilp)
GPUTLM_WORKLOAD_TEST(ray)
GPUTLM_WORKLOAD_TEST(fft)
GPUTLM_WORKLOAD_TEST(dxtc)
GPUTLM_WORKLOAD_TEST(scalarprod)
GPUTLM_WORKLOAD_TEST(conv2d)
GPUTLM_WORKLOAD_TEST(sgemv)
// 001 ch. 4-5 (issue 17 point 4).
GPUTLM_WORKLOAD_TEST(mersenne)
GPUTLM_WORKLOAD_TEST(triad)
GPUTLM_WORKLOAD_TEST(convsep)
GPUTLM_WORKLOAD_TEST(transpose)
GPUTLM_WORKLOAD_TEST(fwt)
GPUTLM_WORKLOAD_TEST(sortnet)

TEST_CASE("workload_suite has a test for every generated workload", "[workloads]") {
  std::set<std::string> generated;
  for (const auto& entry : std::filesystem::directory_iterator(GPUTLM_WORKLOADS_BUILD_DIR))
    if (std::filesystem::exists(entry.path() / "small" / "spec.json"))
      generated.insert(entry.path().filename().string());
  CHECK(generated.size() >= 16);
  for (const auto& name : generated) {
    INFO("workload " << name << " has no GPUTLM_WORKLOAD_TEST");
    CHECK(tested_workloads().count(name) == 1);
  }
}

TEST_CASE("workload_gen output is reproducible byte for byte", "[workloads]") {
  namespace fs = std::filesystem;
  fs::path out = fs::path(GPUTLM_WORKLOADS_BUILD_DIR) / "regen-check" / "histogram";
  fs::remove_all(out);
  std::string cmd = std::string("\"") + GPUTLM_WORKLOAD_GEN + "\" histogram small \"" + out.string() + "\"";
  REQUIRE(std::system(cmd.c_str()) == 0);
  fs::path built = fs::path(GPUTLM_WORKLOADS_BUILD_DIR) / "histogram" / "small";
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(out)) {
    fs::path other = built / entry.path().filename();
    INFO(entry.path().filename().string());
    REQUIRE(fs::exists(other));
    std::ifstream a(entry.path(), std::ios::binary), b(other, std::ios::binary);
    std::string da((std::istreambuf_iterator<char>(a)), {}), db((std::istreambuf_iterator<char>(b)), {});
    CHECK(da == db);
    ++compared;
  }
  CHECK(compared >= 5);  // spec, ptx, resources, input, reference
  fs::remove_all(out.parent_path());
}

TEST_CASE("workload_histogram runs deterministically (atomics, same counters and bytes twice)", "[workloads]") {
  std::string spec_path = std::string(GPUTLM_WORKLOADS_BUILD_DIR) + "/histogram/small/spec.json";
  gputlm::runtime::LaunchSpec spec = gputlm::runtime::parse_launch_spec(spec_path);
  spec.outputs.clear();  // compare device contents directly, without files
  std::vector<uint32_t> bins[2];
  uint64_t warp[2], thread[2];
  for (int run = 0; run < 2; ++run) {
    gputlm::runtime::Runtime rt;
    gputlm::runtime::SpecReport rep = gputlm::runtime::run_launch_spec(spec, rt);
    REQUIRE(rep.launches.size() == 1);
    warp[run] = rep.launches[0].warp_instructions;
    thread[run] = rep.launches[0].thread_instructions;
    bins[run].resize(256);
    rt.memcpy_to_host(bins[run].data(), rep.buffers.at("bins"), 256 * 4);
  }
  CHECK(warp[0] == warp[1]);
  CHECK(thread[0] == thread[1]);
  CHECK(bins[0] == bins[1]);
  uint64_t total = 0;
  for (uint32_t b : bins[0]) total += b;
  CHECK(total == 65536);
}
