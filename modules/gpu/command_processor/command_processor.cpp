#include "gpu/command_processor/command_processor.h"

#include <algorithm>
#include <cstring>
#include <exception>

#include "core/config/config_source.h"
#include "gpu/command_processor/gputlm_regs.h"
#include "isa/ptx_parser.h"

namespace gputlm::gpu {

void CommandProcessorConfig::validate(const std::string& prefix) const {
  auto bad = [&](const std::string& key, const std::string& why) {
    throw config::ConfigError("key '" + prefix + "." + key + "': " + why);
  };
  if (host_memory_base % BackingStore::kPageBytes) bad("host_memory_base", "must be a multiple of 4096");
  if (host_memory_bytes % BackingStore::kPageBytes) bad("host_memory_bytes", "must be a multiple of 4096");
  // Global addresses stay below 2^40 (the generic-address windows start above).
  if (host_memory_base == 0 || host_memory_base + host_memory_bytes > (uint64_t{1} << 39))
    bad("host_memory_base", "the window must start above 0 and end below 2^39");
}

CommandProcessor::CommandProcessor(sc_core::sc_module_name name, GpuConfig gpu_cfg,
                                   const CommandProcessorConfig& cfg)
    : sc_core::sc_module(name),
      cfg_([&] {
        cfg.validate();
        return cfg;
      }()),
      memory_([&] {
        // The window is one allocation (kernels may touch any of it); module globals and
        // device malloc are allocated after it, in device-private pages.
        auto m = std::make_unique<isa::DeviceMemory>();
        m->allocator = DeviceAllocator(cfg_.host_memory_base);
        m->allocator.allocate(cfg_.host_memory_bytes);
        return m;
      }()),
      port_(std::make_unique<HostMemoryPort>("host_memory", memory_->store, cfg_.host_memory_base,
                                             cfg_.host_memory_bytes, cfg_.dmi)),
      regs("regs"),
      mem(port_->socket),
      irq("irq") {
  gpu_ = std::make_unique<Gpu>("gpu", std::move(gpu_cfg));
  gpu_->cta_scheduler().add_listener(*this);
  regs.bind(*this);
  SC_THREAD(command_thread);
  SC_METHOD(drive_irq);
  sensitive << irq_changed_;
  dont_initialize();
}

CommandProcessor::~CommandProcessor() = default;

// ---- register access ----------------------------------------------------------------

CommandProcessor::Access CommandProcessor::check_access(const tlm::tlm_generic_payload& gp) {
  if (gp.get_address() >= regs::kWindowBytes) return Access::AddressError;
  // Byte enables and streaming would make a partial register access: refused on the bus.
  if (gp.get_byte_enable_ptr()) return Access::ByteEnableError;
  if (gp.get_streaming_width() < gp.get_data_length()) return Access::BurstError;
  return Access::Ok;
}

uint32_t CommandProcessor::peek(uint64_t offset) const { return read_register(offset); }

uint32_t CommandProcessor::read_register(uint64_t offset) const {
  switch (offset) {
    case regs::ID: return regs::kIdValue;
    case regs::VERSION: return regs::kVersionValue;
    case regs::STATUS: return status_ | (error_ ? regs::STATUS_ERROR : 0);
    case regs::ERROR: return error_;
    case regs::INT_ENABLE: return int_enable_;
    case regs::INT_STATUS: return int_status_;
    case regs::MODULE_ADDR_LO: return module_addr_lo_;
    case regs::MODULE_ADDR_HI: return module_addr_hi_;
    case regs::MODULE_SIZE: return module_size_;
    case regs::MODULE_HANDLE: return module_handle_;
    case regs::KERNEL_MODULE: return kernel_module_;
    case regs::KERNEL_NAME_ADDR_LO: return name_addr_lo_;
    case regs::KERNEL_NAME_ADDR_HI: return name_addr_hi_;
    case regs::KERNEL_NAME_SIZE: return name_size_;
    case regs::GRID_X: return grid_[0];
    case regs::GRID_Y: return grid_[1];
    case regs::GRID_Z: return grid_[2];
    case regs::BLOCK_X: return block_[0];
    case regs::BLOCK_Y: return block_[1];
    case regs::BLOCK_Z: return block_[2];
    case regs::SHARED_BYTES: return shared_bytes_;
    case regs::PARAM_ADDR_LO: return param_addr_lo_;
    case regs::PARAM_ADDR_HI: return param_addr_hi_;
    case regs::PARAM_SIZE: return param_size_;
    case regs::REGS_PER_THREAD: return regs_per_thread_;
    case regs::KERNELS_DONE: return kernels_done_;
    case regs::LAST_CYCLES_LO: return static_cast<uint32_t>(last_cycles_);
    case regs::LAST_CYCLES_HI: return static_cast<uint32_t>(last_cycles_ >> 32);
    default: return 0;  // COMMAND (write-only) and reserved offsets
  }
}

void CommandProcessor::write_register(uint64_t offset, uint32_t value, const sc_core::sc_time& t) {
  switch (offset) {
    case regs::ID: case regs::VERSION: case regs::STATUS: case regs::ERROR: case regs::MODULE_HANDLE:
    case regs::KERNELS_DONE: case regs::LAST_CYCLES_LO: case regs::LAST_CYCLES_HI:
      fail(regs::ERR_READ_ONLY, t);
      return;
    case regs::INT_ENABLE:
      int_enable_ = value & regs::INT_MASK;  // undefined bits read as 0
      irq_changed_.notify(t);
      return;
    case regs::INT_STATUS:
      int_status_ &= ~(value & regs::INT_MASK);
      if (value & regs::INT_ERROR) error_ = regs::ERR_NONE;  // acknowledging the error clears it
      irq_changed_.notify(t);
      return;
    case regs::COMMAND:
      if (status_ & regs::STATUS_BUSY) return fail(regs::ERR_BUSY, t);
      if (value != regs::CMD_LOAD_MODULE && value != regs::CMD_LAUNCH) return fail(regs::ERR_BAD_COMMAND, t);
      pending_command_ = value;
      status_ |= regs::STATUS_BUSY;
      doorbell_.notify(t);  // the command starts when the write lands
      return;
    case regs::MODULE_ADDR_LO: module_addr_lo_ = value; return;
    case regs::MODULE_ADDR_HI: module_addr_hi_ = value; return;
    case regs::MODULE_SIZE: module_size_ = value; return;
    case regs::KERNEL_MODULE: kernel_module_ = value; return;
    case regs::KERNEL_NAME_ADDR_LO: name_addr_lo_ = value; return;
    case regs::KERNEL_NAME_ADDR_HI: name_addr_hi_ = value; return;
    case regs::KERNEL_NAME_SIZE: name_size_ = value; return;
    case regs::GRID_X: grid_[0] = value; return;
    case regs::GRID_Y: grid_[1] = value; return;
    case regs::GRID_Z: grid_[2] = value; return;
    case regs::BLOCK_X: block_[0] = value; return;
    case regs::BLOCK_Y: block_[1] = value; return;
    case regs::BLOCK_Z: block_[2] = value; return;
    case regs::SHARED_BYTES: shared_bytes_ = value; return;
    case regs::PARAM_ADDR_LO: param_addr_lo_ = value; return;
    case regs::PARAM_ADDR_HI: param_addr_hi_ = value; return;
    case regs::PARAM_SIZE: param_size_ = value; return;
    case regs::REGS_PER_THREAD: regs_per_thread_ = value; return;
    default: fail(regs::ERR_NO_REGISTER, t); return;
  }
}

void CommandProcessor::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  t += sc_core::sc_time(cfg_.register_latency_ns, sc_core::SC_NS);
  switch (check_access(gp)) {
    case Access::AddressError: gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); return;
    case Access::ByteEnableError: gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE); return;
    case Access::BurstError: gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE); return;
    case Access::Ok: break;
  }
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  const uint64_t offset = gp.get_address();
  uint8_t* data = gp.get_data_ptr();
  const unsigned len = gp.get_data_length();
  if (gp.is_read() && len) std::fill(data, data + len, 0);
  // Misaligned or not 4 bytes: an error of the device (ERROR, interrupt), not of the
  // bus; a read returns zeros and a write changes nothing.
  if (offset % 4) return fail(regs::ERR_MISALIGNED, t);
  if (len != 4) return fail(regs::ERR_ACCESS_SIZE, t);
  uint32_t v = 0;
  if (gp.is_read()) {
    v = read_register(offset);
    std::memcpy(data, &v, 4);  // little-endian host, like the buffers in host memory
  } else if (gp.is_write()) {
    std::memcpy(&v, data, 4);
    write_register(offset, v, t);
  }
}

tlm::tlm_sync_enum CommandProcessor::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                      sc_core::sc_time&) {
  // Registers are loosely timed: refuse the approximately-timed protocol in one call.
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

unsigned int CommandProcessor::transport_dbg(tlm::tlm_generic_payload& gp) {
  // Debug reads see registers without side effects; debug writes are not supported.
  if (!gp.is_read() || check_access(gp) != Access::Ok || gp.get_address() % 4 || gp.get_data_length() != 4) return 0;
  const uint32_t v = read_register(gp.get_address());
  std::memcpy(gp.get_data_ptr(), &v, 4);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return 4;
}

// ---- interrupts and errors ------------------------------------------------------------

void CommandProcessor::raise(uint32_t interrupt, const sc_core::sc_time& t) {
  int_status_ |= interrupt;
  irq_changed_.notify(t);
}

void CommandProcessor::fail(uint32_t code, const sc_core::sc_time& t) {
  error_ = code;  // the last error wins; earlier ones were already signalled
  raise(regs::INT_ERROR, t);
}

void CommandProcessor::drive_irq() { irq.write((int_status_ & int_enable_) != 0); }

// ---- commands ---------------------------------------------------------------------------

void CommandProcessor::command_thread() {
  while (true) {
    sc_core::wait(doorbell_);
    if (pending_command_ == regs::CMD_LOAD_MODULE)
      load_module();
    else
      launch();
    status_ &= ~regs::STATUS_BUSY;
  }
}

void CommandProcessor::load_module() {
  const sc_core::sc_time now = sc_core::SC_ZERO_TIME;
  if (modules_.size() >= cfg_.max_modules) return fail(regs::ERR_MODULE_LIMIT, now);
  if (module_size_ == 0 || module_size_ > cfg_.max_module_bytes) return fail(regs::ERR_MODULE_SIZE, now);
  std::string text(module_size_, '\0');
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const uint64_t addr = (uint64_t{module_addr_hi_} << 32) | module_addr_lo_;
  const std::string failure =
      port_->transport(tlm::TLM_READ_COMMAND, addr, reinterpret_cast<uint8_t*>(text.data()), module_size_, delay);
  sc_core::wait(delay);
  if (!failure.empty()) return fail(regs::ERR_HOST_MEMORY, now);
  const uint32_t handle = static_cast<uint32_t>(modules_.size() + 1);
  try {
    modules_.push_back(std::make_unique<isa::LoadedModule>(
        isa::parse_ptx_string(text, "module" + std::to_string(handle)), *memory_));
  } catch (const std::exception&) {  // PtxError (syntax), ExecError (unsupported instruction)
    return fail(regs::ERR_MODULE_PARSE, now);
  }
  module_handle_ = handle;
  raise(regs::INT_DONE, now);
}

void CommandProcessor::launch() {
  const sc_core::sc_time now = sc_core::SC_ZERO_TIME;
  if (kernel_module_ == 0 || kernel_module_ > modules_.size()) return fail(regs::ERR_UNKNOWN_MODULE, now);
  const isa::LoadedModule& lm = *modules_[kernel_module_ - 1];
  if (name_size_ == 0 || name_size_ > cfg_.max_name_bytes) return fail(regs::ERR_MODULE_SIZE, now);

  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  std::string name(name_size_, '\0');
  const uint64_t name_addr = (uint64_t{name_addr_hi_} << 32) | name_addr_lo_;
  std::string failure =
      port_->transport(tlm::TLM_READ_COMMAND, name_addr, reinterpret_cast<uint8_t*>(name.data()), name_size_, delay);
  if (!failure.empty()) {
    sc_core::wait(delay);
    return fail(regs::ERR_HOST_MEMORY, now);
  }
  uint32_t entry = 0;
  try {
    entry = lm.module().find_kernel_index(name);
  } catch (const std::exception&) {  // unknown or ambiguous name
    sc_core::wait(delay);
    return fail(regs::ERR_UNKNOWN_ENTRY, now);
  }
  const isa::Function& fn = lm.module().functions[entry];
  if (param_size_ != fn.param_bytes) {
    sc_core::wait(delay);
    return fail(regs::ERR_PARAM_SIZE, now);
  }
  isa::LaunchParams lp;
  lp.kernel = entry;
  lp.grid = {grid_[0], grid_[1], grid_[2]};
  lp.block = {block_[0], block_[1], block_[2]};
  lp.dynamic_shared_bytes = shared_bytes_;
  lp.params.resize(param_size_);
  if (param_size_ > 0) {
    const uint64_t param_addr = (uint64_t{param_addr_hi_} << 32) | param_addr_lo_;
    failure = port_->transport(tlm::TLM_READ_COMMAND, param_addr, lp.params.data(), param_size_, delay);
  }
  sc_core::wait(delay);
  if (!failure.empty()) return fail(regs::ERR_HOST_MEMORY, now);

  // CUDA's grid.x limit; it also keeps the CTA count (x*y*z) within 64 bits. The
  // executor checks the rest (zero sizes, block limits, grid y/z).
  if (grid_[0] > 0x7fffffffu) return fail(regs::ERR_BAD_GRID, now);
  Gpu::LaunchOptions options;
  if (regs_per_thread_) options.registers_per_thread = regs_per_thread_;
  options.label = name;
  try {
    running_kernel_ = gpu_->launch(lm, lp, options);
  } catch (const std::exception&) {  // grid/block limits (ExecError), a CTA too big for an SM
    return fail(regs::ERR_BAD_GRID, now);
  }
  sc_core::wait(kernel_done_);
  last_cycles_ = gpu_->kernel_run(running_kernel_).cycles;
  ++kernels_done_;
  running_kernel_ = ~0u;
  raise(regs::INT_DONE, now);
}

void CommandProcessor::kernel_completed(const KernelRecord& r) {
  if (r.kernel->id == running_kernel_) kernel_done_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace gputlm::gpu
