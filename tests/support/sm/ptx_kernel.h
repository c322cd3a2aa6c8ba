// One launch of one kernel of a PTX file, with its own device memory: the functional
// state an SM test runs on. Upload inputs, set the parameters, then instance() creates
// the grid and the KernelInstance an SM launches CTAs of.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/exec/functional_executor.h"
#include "sm/sm_cta_if.h"

namespace gputlm::sm::test_support {

class PtxKernel {
 public:
  PtxKernel(const std::string& ptx_file, const std::string& kernel, isa::Dim3 grid, isa::Dim3 block);
  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    const uint64_t a = mem_.allocator.allocate(v.size() * sizeof(T));
    mem_.store.write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t addr, std::size_t n) const {
    std::vector<T> v(n);
    mem_.store.read(addr, v.data(), n * sizeof(T));
    return v;
  }
  template <class T>
  void set_param(uint32_t index, T value) {
    isa::set_kernel_param(lp_, *lm_, index, &value, sizeof(T));
  }
  // Creates the grid (after the parameters are set) and the KernelInstance; its CTA
  // demand counts registers_per_thread for every thread.
  KernelInstance& instance(uint32_t registers_per_thread = 0);
  isa::GridExecution& grid() { return *grid_; }

 private:
  isa::DeviceMemory mem_;
  std::unique_ptr<isa::LoadedModule> lm_;
  isa::LaunchParams lp_;
  std::unique_ptr<isa::GridExecution> grid_;
  KernelInstance k_;
};

}  // namespace gputlm::sm::test_support
