// Executes launches with the functional SIMT executor (isa::run_grid_functional): no
// timing, as fast as possible; the speed reference of the timing model.
#pragma once

#include <memory>

#include "runtime/execution_backend.h"

namespace gputlm::runtime {

class FunctionalBackend : public ExecutionBackend {
 public:
  explicit FunctionalBackend(isa::ExecOptions options = {}) : options_(options) {}
  std::string name() const override { return "functional"; }
  // Runs the launch to completion before returning (a launch's effects are visible to the
  // next one, as on one CUDA stream, whatever the launch's stream: launches on different
  // streams run in submission order, one of the orders CUDA allows).
  void launch(const LaunchRequest& request) override;
  std::vector<LaunchResult> synchronize() override;

 private:
  isa::ExecOptions options_;
  std::vector<LaunchResult> done_;
};

}  // namespace gputlm::runtime
