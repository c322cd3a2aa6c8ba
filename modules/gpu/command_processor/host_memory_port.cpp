#include "gpu/command_processor/host_memory_port.h"

#include "core/log/hex.h"

#include <algorithm>
#include <cstdio>

#include "isa/exec/device_memory.h"

namespace gputlm::gpu {

HostMemoryPort::HostMemoryPort(sc_core::sc_module_name name, BackingStore& store, uint64_t base, uint64_t bytes,
                               bool dmi)
    : sc_core::sc_module(name), socket("socket"), store_(store), base_(base), bytes_(bytes), dmi_(dmi) {
  socket.bind(*this);
  store_.set_external(this);
}

std::string HostMemoryPort::transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t len,
                                      sc_core::sc_time& t) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  socket->b_transport(gp, t);
  if (gp.is_response_ok()) return "";
  return gp.get_response_string() + " at " + hex(addr) + " (" + std::to_string(len) + " bytes)";
}

void HostMemoryPort::functional_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, std::size_t len) {
  tlm::tlm_generic_payload gp;
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(data);
  gp.set_data_length(static_cast<unsigned>(len));
  gp.set_streaming_width(static_cast<unsigned>(len));
  gp.set_byte_enable_ptr(nullptr);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;  // not added: GPU timing is the GPU's own model
  ++transport_accesses_;
  socket->b_transport(gp, delay);
  if (!gp.is_response_ok())
    throw isa::ExecError("host memory " + std::string(cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " at " +
                         hex(addr) + " (" + std::to_string(len) + " bytes) failed: " + gp.get_response_string());
  if (dmi_ && gp.is_dmi_allowed()) request_dmi(addr);
}

void HostMemoryPort::request_dmi(uint64_t addr) {
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  tlm::tlm_dmi dmi;
  if (!socket->get_direct_mem_ptr(gp, dmi) || !dmi.is_read_write_allowed() || !dmi.get_dmi_ptr()) return;
  // Whole pages inside both the grant and the window; partial pages stay on b_transport.
  constexpr uint64_t page = BackingStore::kPageBytes;
  const uint64_t lo = std::max<uint64_t>(dmi.get_start_address(), base_);
  const uint64_t end = std::min<uint64_t>(dmi.get_end_address(), base_ + bytes_ - 1);  // inclusive
  const uint64_t first = (lo + page - 1) / page * page;
  const uint64_t stop = (end + 1) / page * page;
  if (end < lo || stop <= first) return;
  store_.map_external(first, dmi.get_dmi_ptr() + (first - dmi.get_start_address()), stop - first);
  ++dmi_grants_;
}

bool HostMemoryPort::read_external(uint64_t addr, void* dst, std::size_t len) {
  if (!in_window(addr)) return false;
  functional_access(tlm::TLM_READ_COMMAND, addr, static_cast<uint8_t*>(dst), len);
  return true;
}

bool HostMemoryPort::write_external(uint64_t addr, const void* src, std::size_t len) {
  if (!in_window(addr)) return false;
  // TLM data pointers are non-const; the target only reads them on a write.
  functional_access(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(static_cast<const uint8_t*>(src)), len);
  return true;
}

tlm::tlm_sync_enum HostMemoryPort::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) {
  // This port only uses b_transport: a backward call is the target's protocol error.
  SC_REPORT_ERROR(name(), "nb_transport_bw on a port that only uses b_transport");
  return tlm::TLM_COMPLETED;
}

void HostMemoryPort::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  ++invalidations_;
  const uint64_t lo = std::max<uint64_t>(start, base_);
  const uint64_t hi = std::min<uint64_t>(end, base_ + bytes_ - 1);
  if (hi >= lo) store_.unmap_external(lo, hi - lo + 1);
}

}  // namespace gputlm::gpu
