#include "platforms/soc/gpu_driver.h"

namespace gputlm::platforms::soc {

void GpuDriver::init() {
  const uint32_t id = reg(regs::ID);
  if (id != regs::kIdValue) throw DriverError(0, "gpu driver: no gputlm device (ID reads " + std::to_string(id) + ")");
  if (reg(regs::VERSION) != regs::kVersionValue) throw DriverError(0, "gpu driver: unsupported device version");
  set_reg(regs::INT_STATUS, regs::INT_MASK);  // start from a clean state
  set_reg(regs::INT_ENABLE, regs::INT_MASK);
}

void GpuDriver::set_addr(uint64_t lo_offset, uint64_t addr) {
  set_reg(lo_offset, static_cast<uint32_t>(addr));
  set_reg(lo_offset + 4, static_cast<uint32_t>(addr >> 32));
}

uint64_t GpuDriver::copy_to_host_memory(const void* data, uint32_t bytes) {
  const uint64_t addr = cpu_.alloc(bytes);
  cpu_.write(addr, data, bytes);
  return addr;
}

void GpuDriver::run_command(uint32_t command, const std::string& what) {
  set_reg(regs::COMMAND, command);
  cpu_.wait_irq(timeout_);
  const uint32_t st = reg(regs::INT_STATUS);
  if (st & regs::INT_ERROR) {
    const uint32_t code = reg(regs::ERROR);
    set_reg(regs::INT_STATUS, st);
    throw DriverError(code, "gpu driver: " + what + " failed: device error " + std::to_string(code) + " (" +
                                regs::error_name(code) + ")");
  }
  set_reg(regs::INT_STATUS, st);
}

uint32_t GpuDriver::load_module(const std::string& ptx_text) {
  const uint64_t addr = copy_to_host_memory(ptx_text.data(), static_cast<uint32_t>(ptx_text.size()));
  set_addr(regs::MODULE_ADDR_LO, addr);
  set_reg(regs::MODULE_SIZE, static_cast<uint32_t>(ptx_text.size()));
  run_command(regs::CMD_LOAD_MODULE, "loading a module");
  return reg(regs::MODULE_HANDLE);
}

uint64_t GpuDriver::launch(const KernelLaunch& k) {
  set_reg(regs::KERNEL_MODULE, k.module);
  set_addr(regs::KERNEL_NAME_ADDR_LO, copy_to_host_memory(k.kernel.data(), static_cast<uint32_t>(k.kernel.size())));
  set_reg(regs::KERNEL_NAME_SIZE, static_cast<uint32_t>(k.kernel.size()));
  for (int i = 0; i < 3; ++i) {
    set_reg(regs::GRID_X + 4 * i, k.grid[i]);
    set_reg(regs::BLOCK_X + 4 * i, k.block[i]);
  }
  set_reg(regs::SHARED_BYTES, k.shared_bytes);
  set_reg(regs::REGS_PER_THREAD, k.registers_per_thread);
  set_addr(regs::PARAM_ADDR_LO, k.params.empty() ? 0 : copy_to_host_memory(k.params.data(),
                                                                            static_cast<uint32_t>(k.params.size())));
  set_reg(regs::PARAM_SIZE, static_cast<uint32_t>(k.params.size()));
  run_command(regs::CMD_LAUNCH, "launching " + k.kernel);
  return (uint64_t{reg(regs::LAST_CYCLES_HI)} << 32) | reg(regs::LAST_CYCLES_LO);
}

}  // namespace gputlm::platforms::soc
