// The seam between the runtime API and whatever executes kernels: the functional SIMT
// executor now (functional_backend.h), the timing GPU later (issue 5). A backend receives
// fully prepared launches (decoded kernel, packed parameters, resources) and reports what
// each launch executed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/exec/functional_executor.h"
#include "isa/exec/loaded_module.h"
#include "isa/resources.h"

namespace gputlm::runtime {

using isa::Dim3;
using isa::KernelResources;

struct LaunchRequest {
  const isa::LoadedModule* module = nullptr;
  isa::LaunchParams params;  // kernel index, grid, block, dynamic shared, parameter buffer
  std::optional<KernelResources> resources;  // from the resources JSON and overrides
  std::string label;  // for messages, e.g. "launches[2]"
  // Launches on one stream run in order; launches on different streams may run
  // concurrently (the timing backend) or in submission order (the functional backend).
  uint32_t stream = 0;
};

struct LaunchResult {
  std::string kernel;  // mangled name
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  std::optional<KernelResources> resources;
  uint64_t ctas = 0;
  uint32_t stream = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  double host_seconds = 0;
  std::string label;
};

class ExecutionBackend {
 public:
  virtual ~ExecutionBackend() = default;
  virtual std::string name() const = 0;
  // Starts (or queues) a launch. Launches on one stream take effect in submission order;
  // a backend may overlap launches on different streams (so a result that depends on
  // the order of launches on different streams between two synchronisations is a race,
  // as in CUDA).
  virtual void launch(const LaunchRequest& request) = 0;
  // Completes every submitted launch and returns their results in submission order
  // (each launch is returned once).
  virtual std::vector<LaunchResult> synchronize() = 0;
  // Runs until `stream`'s submitted launches have all completed, or, with no stream, until
  // some stream that has launches pending has none left; returns the launches completed
  // since the last call, in submission order (each once). The others stay pending and run
  // on at the next call, together with launches submitted in between. A backend that runs
  // launches one at a time (the functional one) may complete them all.
  virtual std::vector<LaunchResult> synchronize_stream(std::optional<uint32_t> stream) {
    (void)stream;
    return synchronize();
  }
};

}  // namespace gputlm::runtime
