#include "micro/micro_bench.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "gpu/timing_backend.h"
#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"

namespace gputlm::micro {

namespace {

using runtime::LaunchSpec;

// Launch i's argument j, a number of the spec.
double arg(const LaunchSpec& s, std::size_t i, std::size_t j) {
  const runtime::ArgSpec& a = s.launches.at(i).args.at(j);
  if (a.is_buffer) throw std::runtime_error(s.path + ": launches[" + std::to_string(i) + "].args[" +
                                            std::to_string(j) + "] is a buffer, expected a number");
  return a.number.as_double();
}
double threads(const LaunchSpec& s, std::size_t i) {
  const auto& b = s.launches.at(i).block;
  return double(b[0]) * b[1] * b[2];
}
double ctas(const LaunchSpec& s, std::size_t i) {
  const auto& g = s.launches.at(i).grid;
  return double(g[0]) * g[1] * g[2];
}

// {start, end} pairs of launch `slot`'s CTAs (timing[2 (slot * ctas + b)] ...): the cycles
// from the first start to the last end, and the mean of each CTA's own span.
struct Span {
  double whole = 0, per_cta = 0;
};
Span span(const std::vector<uint32_t>& t, std::size_t slot, std::size_t n) {
  uint32_t first = UINT32_MAX, last = 0;
  double sum = 0;
  for (std::size_t b = 0; b < n; ++b) {
    const uint32_t s = t.at(2 * (slot * n + b)), e = t.at(2 * (slot * n + b) + 1);
    first = std::min(first, s);
    last = std::max(last, e);
    sum += double(e - s);
  }
  return {double(last - first), sum / double(n)};
}

// latency.cu: launch 0 warms the code; launches 2k+1 and 2k+2 chase the same level with
// S and 2S steps; the difference of their times over S is the time of one step (constant
// costs, e.g. the cold instruction cache of each launch's SM, cancel).
void derive_latency(const LaunchSpec& s, const std::vector<uint32_t>& t, std::vector<Figure>& f) {
  const char* level[] = {"L1 hit (warm 4 KB chain)", "L2 hit (warm 64 KB chain, L1 misses)",
                         "DRAM (cold lines, L1 and L2 miss)", "DRAM (warm 1 MB chain > L2, all miss)"};
  for (std::size_t k = 0; k < 4; ++k) {
    const double steps = arg(s, 2 * k + 2, 3) - arg(s, 2 * k + 1, 3);
    f.push_back({std::string("pointer-chase step, ") + level[k], double(t.at(2 * k + 2) - t.at(2 * k + 1)) / steps,
                 "cycles"});
  }
}

// bandwidth.cu: launches 0/1/2 = L1/L2/DRAM; args: base, cta_chunks, warp_first, step, n,
// warm, reps. Each warp reads n chunks of 512 B per pass.
void derive_bandwidth(const LaunchSpec& s, const std::vector<uint32_t>& t, const gpu::GpuConfig& cfg,
                      std::vector<Figure>& f) {
  const char* level[] = {"L1 hit", "L2 hit", "DRAM"};
  for (std::size_t k = 0; k < 3; ++k) {
    const double n = ctas(s, k), cta_bytes = threads(s, k) / 32 * arg(s, k, 5) * 512 * arg(s, k, 7);
    const Span sp = span(t, k, static_cast<std::size_t>(n));
    const double gpu_bpc = n * cta_bytes / sp.whole;
    f.push_back({std::string(level[k]) + " load bandwidth per SM", cta_bytes / sp.per_cta, "B/cycle"});
    f.push_back({std::string(level[k]) + " load bandwidth, " + std::to_string(int(n)) + " SMs", gpu_bpc, "B/cycle"});
    f.push_back({std::string(level[k]) + " load bandwidth, " + std::to_string(int(n)) + " SMs",
                 gpu_bpc * cfg.clocks.core_mhz / 1000.0, "GB/s"});
  }
}

// shared.cu: per launch, iters x 16 warp loads per warp; args: stride, iters.
void derive_shared(const LaunchSpec& s, const std::vector<uint32_t>& t, std::vector<Figure>& f) {
  for (std::size_t i = 0; i < s.launches.size(); ++i) {
    const int stride = int(arg(s, i, 1));
    const double accesses = arg(s, i, 2) * 16 * threads(s, i) / 32;
    f.push_back({"shared load, stride " + std::to_string(stride) + " (" + std::to_string(stride) + "-way conflict)",
                 double(t.at(i)) / accesses, "cycles/warp access"});
  }
}

// sfu.cu: chains x steps per loop iteration (sfu_sin, sfu_rsqrt: 4; fp32_fma: 8 x 4).
void derive_sfu(const LaunchSpec& s, const std::vector<uint32_t>& t, std::vector<Figure>& f) {
  for (std::size_t i = 0; i < s.launches.size(); ++i) {
    const std::string& k = s.launches[i].kernel;
    const double per_iter = k == "fp32_fma" ? 32 : 4;
    const char* what = k == "sfu_sin" ? "sin.approx.f32" : k == "sfu_rsqrt" ? "rsqrt.approx.f32" : "fma.rn.f32";
    f.push_back({std::string(what) + " throughput, 1 SM", threads(s, i) * per_iter * arg(s, i, 0) / double(t.at(i)),
                 "ops/cycle"});
  }
}

// atomic.cu: args mode, iters; every thread iters atomics.
void derive_atomic(const LaunchSpec& s, const std::vector<uint32_t>& t, std::vector<Figure>& f) {
  const char* mode[] = {"atomicAdd, one word (all threads)", "atomicAdd, one word per warp",
                        "atomicAdd, one word per thread"};
  for (std::size_t i = 0; i < s.launches.size(); ++i) {
    const std::size_t n = static_cast<std::size_t>(ctas(s, i));
    const Span sp = span(t, i, n);
    f.push_back({mode[int(arg(s, i, 0)) % 3], double(n) * threads(s, i) * arg(s, i, 1) / sp.whole,
                 "atomics/cycle (GPU)"});
  }
}

// divergence.cu: args seed, paths, reps.
void derive_divergence(const LaunchSpec& s, const std::vector<uint32_t>& t, std::vector<Figure>& f) {
  for (std::size_t i = 0; i < s.launches.size(); ++i)
    f.push_back({std::to_string(int(arg(s, i, 1))) + " paths per warp", double(t.at(i)) / arg(s, i, 2),
                 "cycles/repetition"});
}

}  // namespace

const std::vector<std::string>& bench_names() {
  static const std::vector<std::string> names = {"latency", "bandwidth", "shared", "sfu", "atomic", "divergence"};
  return names;
}

BenchResult run_bench(const std::string& bench, const std::string& spec_path, const gpu::GpuConfig& cfg) {
  const auto& names = bench_names();
  if (std::find(names.begin(), names.end(), bench) == names.end())
    throw std::invalid_argument("unknown microbenchmark '" + bench + "'");
  LaunchSpec spec = runtime::parse_launch_spec(spec_path);
  for (auto& o : spec.outputs) o.file.clear();  // read the timing buffer from device memory instead
  runtime::Runtime rt(std::make_unique<gpu::TimingBackend>(cfg));
  const runtime::SpecReport rep = runtime::run_launch_spec(spec, rt);

  BenchResult r;
  r.bench = bench;
  r.ok = rep.ok();
  for (const auto& o : rep.outputs)
    if (o.checked && !o.compare.ok()) r.failures.push_back(o.buffer + ": " + o.message());
  const runtime::BufferSpec* tb = spec.find_buffer("timing");
  if (tb == nullptr) throw std::runtime_error(spec_path + ": no 'timing' buffer");
  r.timing.resize(tb->count);
  rt.memcpy_to_host(r.timing.data(), rep.buffers.at("timing"), tb->count * 4);

  if (bench == "latency") derive_latency(spec, r.timing, r.figures);
  else if (bench == "bandwidth") derive_bandwidth(spec, r.timing, cfg, r.figures);
  else if (bench == "shared") derive_shared(spec, r.timing, r.figures);
  else if (bench == "sfu") derive_sfu(spec, r.timing, r.figures);
  else if (bench == "atomic") derive_atomic(spec, r.timing, r.figures);
  else derive_divergence(spec, r.timing, r.figures);
  return r;
}

std::string format_figures(const BenchResult& r) {
  std::string out;
  char line[256];
  for (const Figure& f : r.figures) {
    std::snprintf(line, sizeof line, "%-11s %-58s %10.2f %s\n", r.bench.c_str(), f.item.c_str(), f.value,
                  f.unit.c_str());
    out += line;
  }
  for (const std::string& m : r.failures) out += r.bench + "      MISMATCH " + m + "\n";
  return out;
}

}  // namespace gputlm::micro
