#include "runtime/functional_backend.h"

#include <chrono>

namespace gputlm::runtime {

void FunctionalBackend::launch(const LaunchRequest& request) {
  const isa::Function& k = request.module->module().functions.at(request.params.kernel);
  auto t0 = std::chrono::steady_clock::now();
  isa::ExecCounters c = isa::run_grid_functional(*request.module, request.params, options_);
  auto t1 = std::chrono::steady_clock::now();
  LaunchResult r;
  r.kernel = k.name;
  r.grid = request.params.grid;
  r.block = request.params.block;
  r.dynamic_shared_bytes = request.params.dynamic_shared_bytes;
  r.resources = request.resources;
  r.ctas = c.ctas;
  r.stream = request.stream;
  r.warp_instructions = c.warp_instructions;
  r.thread_instructions = c.thread_instructions;
  r.host_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.label = request.label;
  done_.push_back(std::move(r));
}

std::vector<LaunchResult> FunctionalBackend::synchronize() {
  std::vector<LaunchResult> out;
  out.swap(done_);
  return out;
}

}  // namespace gputlm::runtime
