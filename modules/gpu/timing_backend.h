// The timing execution backend (issue 5 item 2): runtime::Runtime launches run cycle by
// cycle on a GPU top elaborated from a GpuConfig, behind the same API as the functional
// backend. Launches are queued on their stream (LaunchRequest::stream: one after the
// other on one stream, concurrently across streams, as CUDA streams) and every launch
// queued since the last synchronisation is handed to the GPU before it simulates them
// all, when the runtime synchronises; the effects on device memory are those of the
// functional model, executed as the timing model issues each instruction.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu.h"
#include "runtime/execution_backend.h"

namespace gputlm::gpu {

class TimingBackend : public runtime::ExecutionBackend {
 public:
  // Elaborates the GPU (SystemC allows one elaboration per process: one TimingBackend).
  // `taps`: observers on sockets (Gpu), not owned.
  explicit TimingBackend(const GpuConfig& cfg, isa::ExecOptions exec = {}, SocketTapIF* taps = nullptr);
  ~TimingBackend() override;

  std::string name() const override { return "timing (" + gpu_->config().name + ")"; }
  void launch(const runtime::LaunchRequest& request) override;
  // Simulates every queued launch to completion (DeadlockError / SimulationError on failure).
  std::vector<runtime::LaunchResult> synchronize() override;
  // Simulates until the stream (or any stream with launches pending) drains; the GPU
  // pauses at that kernel completion and the others run on at the next call.
  std::vector<runtime::LaunchResult> synchronize_stream(std::optional<uint32_t> stream) override;

  Gpu& gpu() { return *gpu_; }
  // The timing results of every launch so far, in launch order.
  const std::deque<KernelRun>& kernel_runs() const { return gpu_->kernel_runs(); }

 private:
  std::unique_ptr<Gpu> gpu_;
  isa::ExecOptions exec_;
  runtime::LaunchResult result(uint32_t id, const runtime::LaunchRequest& req) const;
  // Moves the completed pending launches' results out, in submission order.
  std::vector<runtime::LaunchResult> take_completed();

  std::vector<std::pair<uint32_t, runtime::LaunchRequest>> pending_;
};

}  // namespace gputlm::gpu
