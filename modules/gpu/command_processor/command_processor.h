// The GPU as a virtual-platform device (issue 11 item 4; docs/platforms/soc.md): a
// command processor with a register file (gputlm_regs.h) in front of the cycle-accurate
// GPU top, for a unified-memory SoC.
//
//   regs (target)  <- host CPU: kernel descriptor, doorbell, status, errors, interrupts
//   mem (initiator) -> host memory: PTX text, entry names, parameters, and the kernels'
//                      global memory (DMI pages where granted, b_transport otherwise)
//   irq (out)      -> INT_STATUS & INT_ENABLE != 0
//
// The GPU keeps its own clocked timing model; commands start when the doorbell write
// lands (the initiator's annotated time) and the interrupt rises at the core cycle the
// kernel's last CTA finishes. Every bad register access or command records an error
// code and raises INT_ERROR; none throws.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/config/params.h"
#include "gpu/command_processor/host_memory_port.h"
#include "gpu/gpu.h"
#include "isa/exec/device_memory.h"
#include "isa/exec/loaded_module.h"

namespace gputlm::gpu {

struct CommandProcessorConfig {
  uint64_t host_memory_base = 0x80000000ull;  // host memory window the kernels address
  uint64_t host_memory_bytes = 64ull << 20;
  bool dmi = true;
  uint32_t max_modules = 16;
  uint32_t max_module_bytes = 1u << 20;
  uint32_t max_name_bytes = 1024;
  double register_latency_ns = 10;

  template <class V>
  void visit(V& v) {
    v.param("host_memory_base", host_memory_base,
            "first host address of the window kernels use as global memory (4 KiB aligned)");
    v.param("host_memory_bytes", host_memory_bytes, "bytes of that window (whole 4 KiB pages)", config::at_least(4096));
    v.param("dmi", dmi, "map host memory pages directly when the target grants DMI (false: every access by b_transport)");
    v.param("max_modules", max_modules, "PTX modules the device holds at once", config::at_least(1));
    v.param("max_module_bytes", max_module_bytes, "largest PTX text LOAD_MODULE accepts", config::at_least(1));
    v.param("max_name_bytes", max_name_bytes, "longest kernel entry name a launch accepts", config::at_least(1));
    v.param("register_latency_ns", register_latency_ns, "annotated delay of one register access",
            config::in_range(0, 1e6));
  }
  // Throws config::ConfigError naming the key (prefix + key).
  void validate(const std::string& prefix = "device") const;
};

class CommandProcessor : public sc_core::sc_module,
                         public tlm::tlm_fw_transport_if<>,
                         private CtaSchedulerListener {
  // First: `mem` below refers to the port.
  CommandProcessorConfig cfg_;
  std::unique_ptr<isa::DeviceMemory> memory_;  // host window + device-private module globals
  std::unique_ptr<HostMemoryPort> port_;

 public:
  tlm::tlm_target_socket<> regs;  // register window, kWindowBytes from offset 0
  tlm::tlm_initiator_socket<>& mem;  // host memory (the port's socket)
  sc_core::sc_out<bool> irq;

  SC_HAS_PROCESS(CommandProcessor);
  CommandProcessor(sc_core::sc_module_name name, GpuConfig gpu_cfg, const CommandProcessorConfig& cfg);
  ~CommandProcessor() override;

  Gpu& gpu() { return *gpu_; }
  const HostMemoryPort& host_memory() const { return *port_; }
  // Register value as the host would read it (no side effects, no error).
  uint32_t peek(uint64_t offset) const;

  // tlm_fw_transport_if: registers answer b_transport and transport_dbg; nb_transport
  // is refused (TLM_COMMAND_ERROR_RESPONSE at once) and there is no DMI to registers.
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;

 private:
  enum class Access { Ok, AddressError, ByteEnableError, BurstError };
  Access check_access(const tlm::tlm_generic_payload& gp);
  uint32_t read_register(uint64_t offset) const;
  void write_register(uint64_t offset, uint32_t value, const sc_core::sc_time& t);
  void raise(uint32_t interrupt, const sc_core::sc_time& t);
  void fail(uint32_t code, const sc_core::sc_time& t);
  void command_thread();
  void load_module();
  void launch();
  void drive_irq();
  void kernel_completed(const KernelRecord& r) override;

  std::unique_ptr<Gpu> gpu_;
  std::vector<std::unique_ptr<isa::LoadedModule>> modules_;  // handle = index + 1

  // Registers.
  uint32_t status_ = 0, error_ = 0, int_enable_ = 0, int_status_ = 0;
  uint32_t module_addr_lo_ = 0, module_addr_hi_ = 0, module_size_ = 0, module_handle_ = 0;
  uint32_t kernel_module_ = 0, name_addr_lo_ = 0, name_addr_hi_ = 0, name_size_ = 0;
  uint32_t grid_[3] = {1, 1, 1}, block_[3] = {1, 1, 1};
  uint32_t shared_bytes_ = 0, param_addr_lo_ = 0, param_addr_hi_ = 0, param_size_ = 0, regs_per_thread_ = 0;
  uint32_t kernels_done_ = 0;
  uint64_t last_cycles_ = 0;

  uint32_t pending_command_ = 0;
  uint32_t running_kernel_ = ~0u;
  sc_core::sc_event doorbell_, kernel_done_, irq_changed_;
};

}  // namespace gputlm::gpu
