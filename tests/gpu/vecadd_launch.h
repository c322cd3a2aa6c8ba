// Launch parameters of workloads/vecadd's kernel vecadd(n, a, b, c), for the GPU tests that
// run it on constructed grids.
#pragma once

#include <cstdint>

#include "isa/exec/functional_executor.h"

namespace gpu_test {

inline gputlm::isa::LaunchParams vecadd_launch(const gputlm::isa::LoadedModule& lm, gputlm::isa::Dim3 grid,
                                               gputlm::isa::Dim3 block, int32_t n, uint64_t a, uint64_t b,
                                               uint64_t c) {
  gputlm::isa::LaunchParams p = gputlm::isa::make_launch(lm, "vecadd", grid, block);
  gputlm::isa::set_kernel_param(p, lm, 0, &n, 4);
  gputlm::isa::set_kernel_param(p, lm, 1, &a, 8);
  gputlm::isa::set_kernel_param(p, lm, 2, &b, 8);
  gputlm::isa::set_kernel_param(p, lm, 3, &c, 8);
  return p;
}

}  // namespace gpu_test
