#include "platforms/soc/soc_example.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "isa/resources.h"

namespace gputlm::platforms::soc {

namespace {
std::string read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("soc example: cannot read PTX file '" + path + "'");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Registers per thread from ptxas (<stem>.resources.json beside the PTX, as `gputlm run`
// reads it), which the driver programs for occupancy; 0 when there is none.
uint32_t registers_of(const std::string& ptx_path, const std::string& kernel) {
  const std::string res = isa::resources_path_for(ptx_path);
  if (!std::ifstream(res)) return 0;
  const auto resources = isa::load_resources(res);  // find() points into it: keep it alive
  const isa::KernelResources* r = resources.find(kernel);
  return r ? r->registers : 0;
}
}  // namespace

void run_example(HostCpu& cpu, uint64_t regs_base, const ExampleConfig& cfg, ExampleResult& result) {
  const uint32_t n = cfg.elements;
  const uint32_t bytes = n * 4;
  std::vector<float> a(n), b(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = static_cast<float>(i % 7) - 3.0f;
    y[i] = 1.0f + static_cast<float>(i % 5);
  }
  const uint64_t da = cpu.alloc(bytes), db = cpu.alloc(bytes), dc = cpu.alloc(bytes), dy = cpu.alloc(bytes);
  cpu.write(da, a.data(), bytes);
  cpu.write(db, b.data(), bytes);
  cpu.write(dy, y.data(), bytes);

  GpuDriver gpu(cpu, regs_base);
  gpu.init();
  const uint32_t vecadd = gpu.load_module(read_text(cfg.vecadd_ptx));
  const uint32_t saxpy = gpu.load_module(read_text(cfg.saxpy_ptx));

  KernelLaunch k;
  k.module = vecadd;
  k.kernel = "vecadd";
  k.grid[0] = (n + cfg.block - 1) / cfg.block;
  k.block[0] = cfg.block;
  k.registers_per_thread = registers_of(cfg.vecadd_ptx, "vecadd");
  k.params = ParamBuffer().add(static_cast<int32_t>(n)).add(da).add(db).add(dc).bytes();
  result.vecadd_cycles = gpu.launch(k);
  result.vecadd_done = cpu.now();

  k.module = saxpy;
  k.kernel = "saxpy";
  k.registers_per_thread = registers_of(cfg.saxpy_ptx, "saxpy");
  k.params = ParamBuffer().add(static_cast<int32_t>(n)).add(cfg.alpha).add(dc).add(dy).bytes();
  result.saxpy_cycles = gpu.launch(k);
  result.saxpy_done = cpu.now();

  std::vector<float> c_out(n), y_out(n);
  cpu.read(dc, c_out.data(), bytes);
  cpu.read(dy, y_out.data(), bytes);
  uint64_t h = 1469598103934665603ull;
  for (const auto* v : {&c_out, &y_out}) {
    const auto* p = reinterpret_cast<const uint8_t*>(v->data());
    for (std::size_t i = 0; i < v->size() * 4; ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
  result.output_hash = h;
  auto check = [&](const char* what, uint32_t i, float got, float want) {
    ++result.checked;
    if (got == want) return;
    if (result.mismatches++ == 0)
      result.first_mismatch = std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(got) +
                              ", expected " + std::to_string(want);
  };
  for (uint32_t i = 0; i < n; ++i) {
    const float c = a[i] + b[i];
    check("c", i, c_out[i], c);
    check("y", i, y_out[i], std::fma(cfg.alpha, c, y[i]));  // saxpy's PTX is one fma.rn.f32
  }
  result.done = true;
}

}  // namespace gputlm::platforms::soc
