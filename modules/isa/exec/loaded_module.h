// A PTX module loaded onto a device: its .global segment is an allocation in device memory
// with initialisers applied, its .const bank is materialised, and every instruction of
// every function is decoded once into an execution handler (an unsupported instruction is
// a load-time ExecError naming file:line:column and the instruction text).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/exec/device_memory.h"
#include "isa/ir.h"

namespace gputlm::isa {

namespace exec_detail {
struct ExecCtx;
using ExecFn = void (*)(ExecCtx&);
}  // namespace exec_detail

class LoadedModule {
 public:
  // Takes the module by value (keep or move it in); allocates the .global segment in `mem`.
  LoadedModule(Module module, DeviceMemory& mem);

  const Module& module() const { return module_; }
  DeviceMemory& memory() const { return *mem_; }

  // Device address of a module-scope .global symbol (throws ExecError for others).
  uint64_t global_symbol_address(const std::string& name) const;
  // Reads/writes bytes of a module-scope .global or .const symbol (cudaMemcpyTo/FromSymbol).
  // Throws ExecError naming the symbol when it is unknown or the range exceeds it.
  void write_symbol(const std::string& name, uint64_t offset, const void* src, uint64_t bytes);
  void read_symbol(const std::string& name, uint64_t offset, void* dst, uint64_t bytes) const;

  uint64_t global_base() const { return global_base_; }
  const std::vector<uint8_t>& const_bank() const { return const_bank_; }

  // True if function `func` (a Module::functions index, e.g. LaunchParams::kernel) or a
  // function it calls calls malloc, free, vprintf or __assertfail. These touch device-wide
  // state at issue, so such a kernel must run serially, without a GlobalMemoryLog (with a
  // log, malloc/free/vprintf are an ExecError).
  bool uses_shared_state_builtins(uint32_t func) const {
    return func < shared_state_builtins_.size() && shared_state_builtins_[func];
  }

  // Decoded handler of instruction `index` of function `func` (internal to the executor).
  exec_detail::ExecFn handler(uint32_t func, uint32_t index) const { return handlers_[func][index]; }

 private:
  void apply_relocations();
  void find_shared_state_builtins();
  Module module_;
  DeviceMemory* mem_;
  uint64_t global_base_ = 0;
  std::vector<uint8_t> const_bank_;
  std::vector<std::vector<exec_detail::ExecFn>> handlers_;
  std::vector<uint8_t> shared_state_builtins_;  // per function (uses_shared_state_builtins)
};

}  // namespace gputlm::isa
