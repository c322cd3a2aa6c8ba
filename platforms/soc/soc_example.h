// The SoC example's host program: two kernels back to back from the host model, with
// their inputs and outputs in host DRAM, checked against a CPU reference:
//   vecadd: c = a + b          (workloads/vecadd)
//   saxpy:  y = alpha * c + y  (workloads/saxpy, reading vecadd's output)
#pragma once

#include <cstdint>
#include <string>
#include <systemc>

#include "core/config/params.h"
#include "platforms/soc/gpu_driver.h"
#include "platforms/soc/host_cpu.h"

namespace gputlm::platforms::soc {

struct ExampleConfig {
  uint32_t elements = 4096;
  float alpha = 2.0f;
  std::string vecadd_ptx = "workloads/vecadd/vecadd.ptx";
  std::string saxpy_ptx = "workloads/saxpy/saxpy.ptx";
  uint32_t block = 256;

  template <class V>
  void visit(V& v) {
    v.param("elements", elements, "vector length of both kernels", config::in_range(1, 1 << 22));
    v.param("alpha", alpha, "saxpy's scale factor");
    v.param("vecadd_ptx", vecadd_ptx, "PTX file of vecadd(n, a, b, c) (relative to the working directory)");
    v.param("saxpy_ptx", saxpy_ptx, "PTX file of saxpy(n, alpha, x, y)");
    v.param("block", block, "threads per CTA", config::in_range(32, 1024));
  }
};

struct ExampleResult {
  uint64_t vecadd_cycles = 0, saxpy_cycles = 0;  // GPU core cycles (LAST_CYCLES)
  sc_core::sc_time vecadd_done, saxpy_done;       // host time when each interrupt was taken
  uint64_t checked = 0, mismatches = 0;           // output elements compared, wrong
  std::string first_mismatch;
  uint64_t output_hash = 0;  // FNV-1a of c then y as read back (runs compare it)
  bool done = false;
};

// Runs the example on `cpu` (its program thread) against the device at regs_base.
void run_example(HostCpu& cpu, uint64_t regs_base, const ExampleConfig& cfg, ExampleResult& result);

}  // namespace gputlm::platforms::soc
