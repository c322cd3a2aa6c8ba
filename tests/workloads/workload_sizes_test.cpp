// The ilp size (004 Table 2's shapes, issue 16 point 6) exists exactly for the workloads with
// a spec_ilp.json; workload-gen writes the files their specs describe and refuses it for
// every other workload.
//
// The LAWS thesis' input configurations A-E (001 Table 2.3) as sizes thesis_a .. thesis_e
// of montecarlo, streamcluster and laplace3d: workload-gen refuses them for every other
// workload (naming the workload and the size, writing nothing), and for the three it
// writes files that the committed specs describe (parse_launch_spec checks every input
// and expected-output file against its buffer's count) with the table's sizes. Generation
// only: running these inputs takes minutes (docs/workloads.md).
#include <array>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "runtime/launch_spec.h"

namespace {

namespace fs = std::filesystem;
using gputlm::runtime::ArgSpec;
using gputlm::runtime::BufferSpec;
using gputlm::runtime::InitSpec;
using gputlm::runtime::LaunchSpec;

const char* const kThesisSizes[] = {"thesis_a", "thesis_b", "thesis_c", "thesis_d", "thesis_e"};

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), {});
}

// Runs workload-gen NAME SIZE OUT; returns its exit status (0 = success), stderr in *err.
int workload_gen(const std::string& name, const std::string& size, const fs::path& out, std::string* err) {
  fs::path err_file = out.parent_path() / (out.filename().string() + ".stderr");
  fs::create_directories(out.parent_path());
  std::string cmd = std::string("\"") + GPUTLM_WORKLOAD_GEN + "\" " + name + " " + size + " \"" + out.string() +
                    "\" >/dev/null 2>\"" + err_file.string() + "\"";
  int rc = std::system(cmd.c_str());
  *err = read_file(err_file);
  fs::remove(err_file);
  return rc;
}

fs::path check_dir(const std::string& tag) {
  return fs::path(GPUTLM_WORKLOADS_BUILD_DIR) / "thesis-check" / tag;
}

// A non-negative integer argument.
uint64_t number(const ArgSpec& a) {
  using Kind = gputlm::runtime::Number::Kind;
  REQUIRE_FALSE(a.is_buffer);
  REQUIRE(a.number.kind != Kind::Real);
  if (a.number.kind == Kind::Unsigned) return a.number.u;
  REQUIRE(a.number.i >= 0);
  return static_cast<uint64_t>(a.number.i);
}

uint64_t count_of(const LaunchSpec& spec, const std::string& buffer) {
  const BufferSpec* b = spec.find_buffer(buffer);
  REQUIRE(b != nullptr);
  return b->count;
}

// Generates NAME SIZE, parses its spec (which checks every file against its buffer) and
// checks that every .bin written is an input or an expectation of the spec. Returns the
// spec; the folder stays until the caller removes it.
LaunchSpec generate_and_parse(const std::string& name, const std::string& size, const fs::path& out) {
  fs::remove_all(out);
  std::string err;
  const int rc = workload_gen(name, size, out, &err);
  INFO("workload-gen " << name << " " << size << ": exit " << rc << ", stderr: " << err);
  REQUIRE(rc == 0);
  LaunchSpec spec = gputlm::runtime::parse_launch_spec((out / "spec.json").string());
  std::set<std::string> named;
  for (const BufferSpec& b : spec.buffers)
    if (b.init.kind == InitSpec::Kind::File) named.insert(fs::path(b.init.file).filename().string());
  REQUIRE_FALSE(spec.outputs.empty());
  for (const auto& o : spec.outputs) {
    CHECK(o.has_expect);
    named.insert(fs::path(o.expect_file).filename().string());
  }
  std::size_t bins = 0;
  for (const auto& e : fs::directory_iterator(out))
    if (e.path().extension() == ".bin") {
      INFO(name << " " << size << ": " << e.path().filename().string() << " is not named by the spec");
      CHECK(named.count(e.path().filename().string()) == 1);
      ++bins;
    }
  CHECK(bins == named.size());
  return spec;
}

// Every file of `c` is in `medium` with the same bytes; returns how many were compared.
std::size_t compare_with_medium(const fs::path& c, const fs::path& medium) {
  std::size_t compared = 0;
  for (const auto& e : fs::directory_iterator(c)) {
    INFO(e.path().filename().string());
    REQUIRE(fs::exists(medium / e.path().filename()));
    CHECK(read_file(e.path()) == read_file(medium / e.path().filename()));
    ++compared;
  }
  return compared;
}

}  // namespace

TEST_CASE("workload_gen refuses a thesis size for every workload without one, naming both", "[workloads]") {
  const std::set<std::string> with_thesis = {"laplace3d", "montecarlo", "streamcluster"};
  std::vector<std::string> names;
  const fs::path src = GPUTLM_WORKLOADS_SOURCE_DIR;
  for (const auto& e : fs::directory_iterator(src))
    if (fs::exists(e.path() / "spec_small.json")) names.push_back(e.path().filename().string());
  for (const auto& e : fs::directory_iterator(src / "micro"))
    if (fs::exists(e.path() / "spec_small.json")) names.push_back("micro/" + e.path().filename().string());
  REQUIRE(names.size() >= 40);
  std::set<std::string> found_thesis;
  for (const std::string& name : names) {
    if (fs::exists(src / name / "spec_thesis_a.json")) {
      found_thesis.insert(name);
      continue;
    }
    for (const char* size : kThesisSizes) {
      fs::path out = check_dir("refused") / (fs::path(name).filename().string() + "-" + size);
      fs::remove_all(out);
      std::string err;
      const int rc = workload_gen(name, size, out, &err);
      INFO(name << " " << size << ": exit " << rc << ", stderr: " << err);
      CHECK(rc != 0);
      CHECK_THAT(err, Catch::Contains("workload '" + name + "' has no size '" + size + "'"));
      CHECK_FALSE(fs::exists(out));  // refused before writing anything
    }
  }
  CHECK(found_thesis == with_thesis);
  // The three take the thesis sizes but no other unknown name.
  for (const std::string& name : with_thesis) {
    std::string err;
    fs::path out = check_dir("refused") / (name + "-thesis_f");
    CHECK(workload_gen(name, "thesis_f", out, &err) != 0);
    CHECK_THAT(err, Catch::Contains("unknown size 'thesis_f'"));
    CHECK_FALSE(fs::exists(out));
  }
  fs::remove_all(check_dir("refused"));
}

TEST_CASE("workload_montecarlo thesis sizes: specs parse with Table 2.3 options, thesis_c = medium byte for byte",
          "[workloads]") {
  const uint64_t options[] = {512, 768, 1024, 1564, 2048};  // 001 Table 2.3 "optionData"
  for (int i = 0; i < 5; ++i) {
    INFO(kThesisSizes[i]);
    fs::path out = check_dir("montecarlo") / kThesisSizes[i];
    LaunchSpec spec = generate_and_parse("montecarlo", kThesisSizes[i], out);
    REQUIRE(spec.launches.size() == 1);
    const auto& l = spec.launches[0];
    CHECK(l.grid[0] == options[i]);  // one CTA per option
    for (const char* b : {"value", "confidence", "opt_s", "opt_x", "opt_t", "opt_r", "opt_v"})
      CHECK(count_of(spec, b) == options[i]);
    CHECK(number(l.args.back()) == count_of(spec, "samples"));  // paths
    if (i != 2) fs::remove_all(out);
  }
  // medium is config C: the same parameters, so the same bytes in every file.
  fs::path medium = check_dir("montecarlo") / "medium", c = check_dir("montecarlo") / "thesis_c";
  generate_and_parse("montecarlo", "medium", medium);
  CHECK(compare_with_medium(c, medium) == 11);  // spec, ptx, resources, 6 inputs, 2 expectations
  fs::remove_all(check_dir("montecarlo"));
}

TEST_CASE("workload_streamcluster thesis sizes: specs parse with Table 2.3 points, thesis_c = medium byte for byte",
          "[workloads]") {
  const uint64_t points[] = {16384, 32768, 65536, 131072, 262144};  // 001 Table 2.3 "points"
  for (int i = 0; i < 5; ++i) {
    INFO(kThesisSizes[i]);
    fs::path out = check_dir("streamcluster") / kThesisSizes[i];
    LaunchSpec spec = generate_and_parse("streamcluster", kThesisSizes[i], out);
    const uint64_t n = points[i];
    CHECK(count_of(spec, "weight") == n);
    const uint64_t dim = count_of(spec, "coord") / n;
    CHECK(count_of(spec, "coord") == dim * n);
    const uint64_t ncand = spec.launches.size();
    CHECK(ncand >= 1);
    CHECK(count_of(spec, "switch") == ncand * n);
    for (uint64_t c = 0; c < ncand; ++c) {
      const auto& l = spec.launches[c];
      REQUIRE(l.args.size() == 12);
      CHECK(uint64_t{l.grid[0]} * l.block[0] == n);  // one thread per point
      CHECK(number(l.args[7]) == n);
      CHECK(number(l.args[8]) == dim);
      CHECK(number(l.args[9]) == (2 * c + 1) * n / (2 * ncand));  // the candidate formula
      CHECK(number(l.args[10]) == c);
      CHECK(count_of(spec, "work_mem") == n * (number(l.args[11]) + 1));  // k + 1 columns
    }
    if (i != 2) fs::remove_all(out);
  }
  fs::path medium = check_dir("streamcluster") / "medium", c = check_dir("streamcluster") / "thesis_c";
  generate_and_parse("streamcluster", "medium", medium);
  CHECK(compare_with_medium(c, medium) == 10);  // spec, ptx, resources, 5 inputs, 2 expectations
  fs::remove_all(check_dir("streamcluster"));
}

TEST_CASE("workload_laplace3d thesis sizes: specs parse with Table 2.3 (nx, ny), nz and CTAs as medium",
          "[workloads]") {
  const uint64_t nxy[5][2] = {{2048, 128}, {1024, 256}, {512, 512}, {256, 1024}, {128, 2048}};
  for (int i = 0; i < 5; ++i) {
    INFO(kThesisSizes[i]);
    fs::path out = check_dir("laplace3d") / kThesisSizes[i];
    LaunchSpec spec = generate_and_parse("laplace3d", kThesisSizes[i], out);
    REQUIRE(spec.launches.size() == 1);
    const auto& l = spec.launches[0];
    REQUIRE(l.args.size() == 5);
    const uint64_t nx = number(l.args[0]), ny = number(l.args[1]), nz = number(l.args[2]);
    CHECK(nx == nxy[i][0]);
    CHECK(ny == nxy[i][1]);
    CHECK(nz == 64);
    CHECK(l.block == std::array<uint32_t, 3>{32, 8, 1});
    CHECK(uint64_t{l.grid[0]} * l.block[0] == nx);  // one thread per (x, y) column
    CHECK(uint64_t{l.grid[1]} * l.block[1] == ny);
    CHECK(count_of(spec, "u") == nx * ny * nz);
    CHECK(count_of(spec, "v") == nx * ny * nz);
    fs::remove_all(out);  // 128 MiB each
  }
  fs::remove_all(check_dir("laplace3d"));
}

TEST_CASE("workload_gen writes the ilp size of the Table 2 workloads and refuses it for the others", "[workloads]") {
  const std::set<std::string> table2 = {"nqueen_ilp", "storegpu_ilp", "ray",  "sgemm",      "scan_ilp", "conv2d",
                                        "fft",        "blackscholes", "dxtc", "scalarprod", "sgemv"};
  const fs::path src = GPUTLM_WORKLOADS_SOURCE_DIR;
  std::set<std::string> with_ilp;
  for (const auto& e : fs::directory_iterator(src)) {
    const std::string name = e.path().filename().string();
    if (!fs::exists(e.path() / "spec_small.json")) continue;
    const fs::path out = check_dir("ilp") / name;
    if (fs::exists(e.path() / "spec_ilp.json")) {
      with_ilp.insert(name);
      INFO(name);
      // Parsing checks every input and expectation against its buffer's count.
      const LaunchSpec spec = generate_and_parse(name, "ilp", out);
      CHECK_FALSE(spec.launches.empty());
    } else {
      std::string err;
      const int rc = workload_gen(name, "ilp", out, &err);
      INFO(name << ": exit " << rc << ", stderr: " << err);
      CHECK(rc != 0);
      CHECK_THAT(err, Catch::Contains("workload '" + name + "' has no size 'ilp'"));
      CHECK_FALSE(fs::exists(out));
    }
    fs::remove_all(out);
  }
  CHECK(with_ilp == table2);
  fs::remove_all(check_dir("ilp"));
}
