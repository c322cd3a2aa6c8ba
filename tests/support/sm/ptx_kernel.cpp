#include "support/sm/ptx_kernel.h"

#include "isa/ptx_parser.h"

namespace gputlm::sm::test_support {

PtxKernel::PtxKernel(const std::string& ptx_file, const std::string& kernel, isa::Dim3 grid, isa::Dim3 block)
    : lm_(std::make_unique<isa::LoadedModule>(isa::parse_ptx_file(ptx_file), mem_)),
      lp_(isa::make_launch(*lm_, kernel, grid, block)) {}

KernelInstance& PtxKernel::instance(uint32_t registers_per_thread) {
  grid_ = std::make_unique<isa::GridExecution>(*lm_, lp_);
  k_.id = 0;
  k_.name = grid_->kernel().name;
  k_.grid = grid_.get();
  k_.registers_per_thread = registers_per_thread;
  k_.demand.threads = grid_->threads_per_cta();
  k_.demand.warps = grid_->warps_per_cta();
  k_.demand.registers = registers_per_thread * grid_->threads_per_cta();
  k_.demand.shared_bytes = grid_->shared_bytes_per_cta();
  return k_;
}

}  // namespace gputlm::sm::test_support
