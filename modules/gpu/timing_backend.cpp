#include "gpu/timing_backend.h"

#include <algorithm>

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

runtime::LaunchResult TimingBackend::result(uint32_t id, const runtime::LaunchRequest& req) const {
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
  return r;
}

std::vector<runtime::LaunchResult> TimingBackend::take_completed() {
  std::vector<runtime::LaunchResult> out;
  std::vector<std::pair<uint32_t, runtime::LaunchRequest>> left;
  for (auto& [id, req] : pending_) {
    if (gpu_->kernel_run(id).done) out.push_back(result(id, req));
    else left.emplace_back(id, std::move(req));
  }
  pending_ = std::move(left);
  return out;
}

std::vector<runtime::LaunchResult> TimingBackend::synchronize() {
  if (pending_.empty()) return {};
  gpu_->run();
  return take_completed();
}

std::vector<runtime::LaunchResult> TimingBackend::synchronize_stream(std::optional<uint32_t> stream) {
  if (pending_.empty()) return {};
  // The streams to watch: `stream`, or every stream with a launch pending.
  std::vector<uint32_t> watched;
  for (const auto& [id, req] : pending_)
    if ((!stream || req.stream == *stream) && std::find(watched.begin(), watched.end(), req.stream) == watched.end())
      watched.push_back(req.stream);
  if (watched.empty()) return {};
  auto drained = [this, &watched] {
    for (uint32_t s : watched) {
      bool open = false;
      for (const auto& [id, req] : pending_) open = open || (req.stream == s && !gpu_->kernel_run(id).done);
      if (!open) return true;
    }
    return false;
  };
  if (!drained()) gpu_->run(drained);
  return take_completed();
}

}  // namespace gputlm::gpu
