// The host runtime API of gputlm, for testbenches and host programs: load PTX modules,
// allocate and copy device memory, initialise __constant__/__device__ symbols, launch
// kernels and synchronise, in the manner of the CUDA runtime. Launches run on an
// ExecutionBackend (functional now, the timing GPU later) behind the same calls.
//
//   gputlm::runtime::Runtime rt;                       // functional backend
//   auto m = rt.load_module("saxpy.ptx");
//   auto x = rt.malloc(n * 4), y = rt.malloc(n * 4);
//   rt.memcpy_to_device(x, host_x.data(), n * 4);
//   rt.launch(m, "saxpy", {n / 256}, {256}, 0, {n, 2.0f, x, y});
//   rt.synchronize();
//   rt.memcpy_to_host(host_y.data(), y, n * 4);
//
// Every misuse (an address outside any allocation, an unknown kernel or symbol, an
// argument that does not fit its parameter) throws RuntimeError or a subclass of
// std::runtime_error naming the cause.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "isa/exec/device_memory.h"
#include "isa/exec/loaded_module.h"
#include "runtime/execution_backend.h"
#include "runtime/kernel_args.h"
#include "isa/resources.h"

namespace gputlm::runtime {

class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using ModuleId = std::size_t;

// Per-launch overrides of the resources JSON.
struct LaunchOverrides {
  std::optional<uint32_t> registers;
  std::optional<uint32_t> shared_static_bytes;
  std::string label;  // names the launch in results and messages
  uint32_t stream = 0;  // launches on different streams may overlap (timing backend)
};

class Runtime {
 public:
  // With no backend, launches run on a FunctionalBackend.
  explicit Runtime(std::unique_ptr<ExecutionBackend> backend = nullptr);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Parses and loads a PTX file (and <stem>.resources.json beside it, if present:
  // tools/regen-ptx.sh writes it).
  ModuleId load_module(const std::string& ptx_path);
  ModuleId load_module_text(const std::string& ptx_text, const std::string& name);
  const isa::LoadedModule& module(ModuleId id) const;
  const isa::ResourceTable& resources(ModuleId id) const;

  DevicePtr malloc(uint64_t bytes);
  void free(DevicePtr ptr);
  void memcpy_to_device(DevicePtr dst, const void* src, uint64_t bytes);
  void memcpy_to_host(void* dst, DevicePtr src, uint64_t bytes);
  void memcpy_device_to_device(DevicePtr dst, DevicePtr src, uint64_t bytes);
  void memset(DevicePtr dst, uint8_t value, uint64_t bytes);

  // Module-scope symbols: the device address of a __device__ (.global) variable, and
  // copies to/from __device__ and __constant__ variables.
  DevicePtr symbol_address(ModuleId id, const std::string& name) const;
  void copy_to_symbol(ModuleId id, const std::string& name, const void* src, uint64_t bytes,
                      uint64_t offset = 0);
  void copy_from_symbol(ModuleId id, const std::string& name, void* dst, uint64_t bytes,
                        uint64_t offset = 0);

  // Launches `kernel` (exact, demangled or unique-prefix name). Returns the launch's index
  // in results(). Arguments convert to the kernel's declared parameter types.
  std::size_t launch(ModuleId id, const std::string& kernel, Dim3 grid, Dim3 block,
                     uint32_t dynamic_shared_bytes, const std::vector<KernelArg>& args,
                     const LaunchOverrides& overrides = {});
  // Completes every launch; their results are then in results().
  void synchronize();
  // Completes every launch on `stream` (cudaStreamSynchronize); on the timing backend the
  // other streams' launches run on up to that moment and go on at the next call.
  void synchronize_stream(uint32_t stream);
  // Runs until some stream with launches pending has none left; returns the streams that
  // have drained (ascending; empty when none had launches pending).
  std::vector<uint32_t> synchronize_any_stream();
  // A copy ordered after `stream`'s launches only (cudaMemcpyAsync on the stream, then
  // waited for): the other streams keep running. The caller's promise, as in CUDA: no
  // launch on another stream uses `dst`.
  void memcpy_to_device_on_stream(DevicePtr dst, const void* src, uint64_t bytes, uint32_t stream);
  const std::vector<LaunchResult>& results() const { return results_; }

  isa::DeviceMemory& memory() { return *memory_; }
  ExecutionBackend& backend() { return *backend_; }

 private:
  void check_range(uint64_t addr, uint64_t bytes, const char* what) const;

  std::unique_ptr<isa::DeviceMemory> memory_;
  std::unique_ptr<ExecutionBackend> backend_;
  struct Loaded {
    std::unique_ptr<isa::LoadedModule> module;
    isa::ResourceTable resources;
  };
  std::vector<Loaded> modules_;
  void take_results(std::vector<LaunchResult> done);
  // The copy itself, once the launches it waits for have completed.
  void write_device(DevicePtr dst, const void* src, uint64_t bytes);

  std::vector<LaunchResult> results_;
  std::size_t launches_ = 0;
  std::map<uint32_t, uint64_t> pending_per_stream_;  // launches submitted and not returned
};

}  // namespace gputlm::runtime
