// Launch streams on the timing GPU, from launch specs: two independent vecadd launches
// on streams 0 and 1 overlap in time, on stream 0 both run back to back; with steering
// "split" the two concurrent kernels run on disjoint SM halves. Outputs verified each time.
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gpu/timing_backend.h"
#include "platforms/gpu_platform.h"
#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"
#include "stream_spec.h"

using namespace gputlm;

namespace {

std::string write_spec(const std::string& name, uint32_t stream0, uint32_t stream1) {
  return test::write_two_stream_spec(std::filesystem::path(GPUTLM_GPU_TEST_TMP) / name, stream0, stream1);
}

struct SmLog : gpu::CtaSchedulerListener {
  std::vector<std::set<uint32_t>> sms = std::vector<std::set<uint32_t>>(2);
  void cta_launched(const gpu::KernelRecord& r, uint32_t sm, uint64_t) override { sms.at(r.kernel->id).insert(sm); }
};

struct Outcome {
  std::vector<gpu::KernelRun> runs;
  std::vector<std::vector<uint32_t>> sets;
  std::vector<std::set<uint32_t>> used;
  std::vector<uint32_t> streams;
};

Outcome run_spec(const std::string& spec_path, const std::vector<std::string>& overrides = {}) {
  config::ConfigSource src = config::ConfigSource::from_file("configs/fermi_gtx480.json");
  for (const auto& o : overrides) src.apply_override(o);
  const gpu::GpuConfig cfg = platforms::read_gpu_config(src);
  auto backend = std::make_unique<gpu::TimingBackend>(cfg);
  gpu::TimingBackend& timing = *backend;
  SmLog log;
  timing.gpu().cta_scheduler().add_listener(log);
  runtime::Runtime rt(std::move(backend));
  const runtime::SpecReport rep = runtime::run_launch_spec(runtime::parse_launch_spec(spec_path), rt);
  REQUIRE(rep.outputs.size() == 2);
  for (const auto& o : rep.outputs) {
    INFO("output " << o.buffer << ": " << o.message());
    CHECK(o.checked);
    CHECK(o.compare.ok());
  }
  Outcome out;
  REQUIRE(timing.kernel_runs().size() == 2);
  for (uint32_t k = 0; k < 2; ++k) {
    out.runs.push_back(timing.kernel_runs()[k]);
    out.sets.push_back(timing.gpu().cta_scheduler().record(k).sm_set);
    out.streams.push_back(rep.launches.at(k).stream);
    CHECK(timing.kernel_runs()[k].stream == rep.launches.at(k).stream);  // the GPU's record agrees
  }
  out.used = log.sms;
  return out;
}

}  // namespace

TEST_CASE("gpu_top runs spec launches on different streams concurrently", "[gpu][stream]") {
  const Outcome o = run_spec(write_spec("streams_0_1", 0, 1));
  CHECK(o.streams == std::vector<uint32_t>{0, 1});
  const gpu::KernelRun& k0 = o.runs[0];
  const gpu::KernelRun& k1 = o.runs[1];
  INFO("k0 " << k0.start_cycle << ".." << k0.end_cycle << ", k1 " << k1.start_cycle << ".." << k1.end_cycle);
  CHECK(k1.start_cycle < k0.end_cycle);  // the second kernel's first CTA starts while the first runs
  CHECK(k0.start_cycle < k1.end_cycle);
  CHECK(k1.start_cycle <= k0.start_cycle + 8);  // admitted together, one CTA per cycle
}

TEST_CASE("gpu_top runs spec launches on one stream back to back", "[gpu][stream]") {
  const Outcome o = run_spec(write_spec("streams_0_0", 0, 0));
  CHECK(o.streams == std::vector<uint32_t>{0, 0});
  const gpu::KernelRun& k0 = o.runs[0];
  const gpu::KernelRun& k1 = o.runs[1];
  INFO("k0 " << k0.start_cycle << ".." << k0.end_cycle << ", k1 " << k1.start_cycle << ".." << k1.end_cycle);
  CHECK(k1.start_cycle == k0.end_cycle + 1);  // admitted the cycle after, first CTA at once
}

TEST_CASE("gpu_top with steering split runs two concurrent kernels on disjoint SM halves", "[gpu][stream][steering]") {
  const Outcome o = run_spec(write_spec("streams_split", 0, 1), {"cta_scheduler.steering=split"});
  const std::vector<uint32_t> low = {0, 1, 2, 3, 4, 5, 6}, high = {7, 8, 9, 10, 11, 12, 13, 14};
  CHECK(o.sets[0] == low);
  CHECK(o.sets[1] == high);
  for (uint32_t s : o.used[0]) CHECK(s <= 6);
  for (uint32_t s : o.used[1]) CHECK(s >= 7);
  CHECK(o.used[0].size() == 4);  // 4 CTAs, one per SM round robin
  CHECK(o.used[1].size() == 4);
  CHECK(o.runs[1].start_cycle < o.runs[0].end_cycle);
}
