#include "platforms/soc/host_cpu.h"

#include <cstdio>

namespace gputlm::platforms::soc {

namespace {
std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}
std::string response_name(tlm::tlm_response_status r) {
  tlm::tlm_generic_payload g;
  g.set_response_status(r);
  return g.get_response_string();
}
}  // namespace

HostCpu::HostCpu(sc_core::sc_module_name name, sc_core::sc_time quantum)
    : sc_core::sc_module(name), bus("bus"), irq("irq") {
  bus.bind(*this);
  tlm_utils::tlm_quantumkeeper::set_global_quantum(quantum);
  qk_.reset();
  SC_THREAD(thread);
}

void HostCpu::thread() {
  try {
    if (program_) program_(*this);
  } catch (const std::exception& e) {
    failure_ = e.what();
  }
  qk_.sync();
  finished_ = true;
}

tlm::tlm_response_status HostCpu::access(tlm::tlm_command cmd, uint64_t addr, void* data, uint32_t len) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<uint8_t*>(data));
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time t = qk_.get_local_time();
  bus->b_transport(gp, t);
  qk_.set(t);
  if (qk_.need_sync()) qk_.sync();
  return gp.get_response_status();
}

void HostCpu::write(uint64_t addr, const void* data, uint32_t len) {
  const auto r = access(tlm::TLM_WRITE_COMMAND, addr, const_cast<void*>(data), len);
  if (r != tlm::TLM_OK_RESPONSE)
    throw HostBusError("host write of " + std::to_string(len) + " bytes at " + hex(addr) + " failed: " +
                       response_name(r));
}

void HostCpu::read(uint64_t addr, void* data, uint32_t len) {
  const auto r = access(tlm::TLM_READ_COMMAND, addr, data, len);
  if (r != tlm::TLM_OK_RESPONSE)
    throw HostBusError("host read of " + std::to_string(len) + " bytes at " + hex(addr) + " failed: " +
                       response_name(r));
}

void HostCpu::wait_irq(const sc_core::sc_time& timeout) {
  qk_.sync();
  sc_core::wait(sc_core::SC_ZERO_TIME);  // a line change due at this very time is visible a delta later
  const sc_core::sc_time deadline = sc_core::sc_time_stamp() + timeout;
  while (!irq.read()) {
    const sc_core::sc_time left = deadline - sc_core::sc_time_stamp();
    if (sc_core::sc_time_stamp() >= deadline)
      throw std::runtime_error("host: no interrupt within " + timeout.to_string());
    sc_core::wait(left, irq.value_changed_event());
  }
  qk_.reset();
}

bool HostCpu::irq_level() {
  qk_.sync();
  sc_core::wait(sc_core::SC_ZERO_TIME);  // as in wait_irq()
  return irq.read();
}

void HostCpu::set_heap(uint64_t base, uint64_t bytes) {
  heap_next_ = base;
  heap_end_ = base + bytes;
}

uint64_t HostCpu::alloc(uint64_t bytes) {
  const uint64_t start = (heap_next_ + 255) & ~uint64_t{255};
  if (bytes == 0 || start + bytes > heap_end_ || start + bytes < start)
    throw std::runtime_error("host: allocation of " + std::to_string(bytes) + " bytes does not fit host memory");
  heap_next_ = start + bytes;
  return start;
}

tlm::tlm_sync_enum HostCpu::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) {
  SC_REPORT_ERROR(name(), "nb_transport_bw to an initiator that only uses b_transport");
  return tlm::TLM_COMPLETED;
}

}  // namespace gputlm::platforms::soc
