// A host driver for the gputlm GPU device, run by the HostCpu model: loads PTX modules
// and launches kernels through the registers of gputlm_regs.h, sleeping on the
// interrupt line until each command is done. The device reads the PTX text, the entry
// name and the parameter buffer from host memory, so the driver copies them there first.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/command_processor/gputlm_regs.h"
#include "platforms/soc/host_cpu.h"

namespace gputlm::platforms::soc {

// The device reported an error: code() is its ERROR value (regs::ERR_*).
class DriverError : public std::runtime_error {
 public:
  DriverError(uint32_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  uint32_t code() const { return code_; }

 private:
  uint32_t code_;
};

// Builds a kernel parameter buffer with PTX's layout: each parameter at the next
// offset aligned to its size.
class ParamBuffer {
 public:
  template <class T>
  ParamBuffer& add(const T& v) {
    const std::size_t at = (bytes_.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &v, sizeof(T));
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

struct KernelLaunch {
  uint32_t module = 0;  // handle from load_module()
  std::string kernel;   // entry name (exact, demangled or unique prefix)
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint32_t shared_bytes = 0;  // dynamic shared memory per CTA
  uint32_t registers_per_thread = 0;  // from ptxas; 0: unknown
  std::vector<uint8_t> params;
};

class GpuDriver {
 public:
  // regs_base: the device's register window in the host's address map.
  GpuDriver(HostCpu& cpu, uint64_t regs_base, sc_core::sc_time timeout = sc_core::sc_time(1, sc_core::SC_SEC))
      : cpu_(cpu), base_(regs_base), timeout_(timeout) {}

  // Checks ID and VERSION, enables both interrupts. Throws DriverError when no device answers.
  void init();
  // Returns the module's handle.
  uint32_t load_module(const std::string& ptx_text);
  // Runs the kernel to completion; returns its GPU core cycles (LAST_CYCLES).
  uint64_t launch(const KernelLaunch& k);

  uint32_t reg(uint64_t offset) { return cpu_.read32(base_ + offset); }
  void set_reg(uint64_t offset, uint32_t v) { cpu_.write32(base_ + offset, v); }

 private:
  // Rings the doorbell, sleeps on the interrupt, acknowledges it; throws DriverError.
  void run_command(uint32_t command, const std::string& what);
  void set_addr(uint64_t lo_offset, uint64_t addr);
  uint64_t copy_to_host_memory(const void* data, uint32_t bytes);

  HostCpu& cpu_;
  uint64_t base_;
  sc_core::sc_time timeout_;
};

}  // namespace gputlm::platforms::soc
