#include "gpu/timing_backend.h"

namespace gputlm::gpu {

TimingBackend::TimingBackend(const GpuConfig& cfg, isa::ExecOptions exec, SocketTapIF* taps)
    : gpu_(std::make_unique<Gpu>("gpu", cfg, taps)), exec_(exec) {}

TimingBackend::~TimingBackend() = default;

void TimingBackend::launch(const runtime::LaunchRequest& request) {
  Gpu::LaunchOptions o;
  o.label = request.label;
  o.exec = exec_;
  o.dispatch.stream = request.stream;
  if (request.resources) {
    o.registers_per_thread = request.resources->registers;
    o.static_shared_bytes = request.resources->shared_bytes;
  }
  const uint32_t id = gpu_->launch(*request.module, request.params, o);
  pending_.emplace_back(id, request);
}

std::vector<runtime::LaunchResult> TimingBackend::synchronize() {
  std::vector<runtime::LaunchResult> out;
  if (pending_.empty()) return out;
  gpu_->run();
  for (const auto& [id, req] : pending_) {
    const KernelRun& k = gpu_->kernel_run(id);
    runtime::LaunchResult r;
    r.kernel = k.kernel;
    r.grid = k.grid;
    r.block = k.block;
    r.dynamic_shared_bytes = req.params.dynamic_shared_bytes;
    r.resources = req.resources;
    r.ctas = k.ctas;
    r.stream = req.stream;
    r.warp_instructions = k.warp_instructions;
    r.thread_instructions = k.thread_instructions;
    r.host_seconds = k.host_seconds;
    r.label = req.label;
    out.push_back(std::move(r));
  }
  pending_.clear();
  return out;
}

}  // namespace gputlm::gpu
