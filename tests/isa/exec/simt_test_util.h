// Small device harness for the executor tests: loads a committed PTX file, allocates and
// fills buffers, launches kernels with typed arguments, reads results back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "isa/exec/functional_executor.h"
#include "isa/ptx_parser.h"

namespace simt_test {

using namespace gputlm::isa;

class TestDevice {
 public:
  explicit TestDevice(const std::string& ptx) : lm_(std::make_unique<LoadedModule>(parse_ptx_file(ptx), mem_)) {}
  // From PTX text (hand-written snippets); `name` appears in error messages.
  struct Text {};
  TestDevice(Text, const std::string& ptx, const std::string& name)
      : lm_(std::make_unique<LoadedModule>(parse_ptx_string(ptx, name), mem_)) {}

  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    uint64_t a = mem_.allocator.allocate(v.size() * sizeof(T));
    mem_.store.write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  uint64_t alloc(size_t n, T fill = T{}) {
    return upload(std::vector<T>(n, fill));
  }
  template <class T>
  std::vector<T> download(uint64_t addr, size_t n) const {
    std::vector<T> v(n);
    mem_.store.read(addr, v.data(), n * sizeof(T));
    return v;
  }

  // Builds a launch; each argument is written with its own size (pointers: uint64_t).
  template <class... Args>
  LaunchParams launch(const std::string& kernel, Dim3 grid, Dim3 block, uint32_t dyn_shared, Args... args) {
    LaunchParams lp = make_launch(*lm_, kernel, grid, block, dyn_shared);
    uint32_t i = 0;
    (set_kernel_param(lp, *lm_, i++, &args, sizeof(Args)), ...);
    return lp;
  }
  template <class... Args>
  ExecCounters run(const std::string& kernel, Dim3 grid, Dim3 block, uint32_t dyn_shared, Args... args) {
    return run_grid_functional(*lm_, launch(kernel, grid, block, dyn_shared, args...), options);
  }

  LoadedModule& module() { return *lm_; }
  DeviceMemory& memory() { return mem_; }
  ExecOptions options;

 private:
  DeviceMemory mem_;
  std::unique_ptr<LoadedModule> lm_;
};

inline Dim3 d1(uint32_t x) { return Dim3{x, 1, 1}; }

}  // namespace simt_test
