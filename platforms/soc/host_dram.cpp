#include "platforms/soc/host_dram.h"

#include <cstring>

namespace gputlm::platforms::soc {

HostDram::HostDram(sc_core::sc_module_name name, uint64_t bytes, const HostDramConfig& cfg)
    : sc_core::sc_module(name), in("in"), cfg_(cfg), bytes_(bytes, 0) {
  in.bind(*this);
}

bool HostDram::check(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address(), len = gp.get_data_length();
  if (addr >= bytes_.size() || len > bytes_.size() - addr) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (gp.get_byte_enable_ptr()) {
    gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (gp.get_streaming_width() < len) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  return true;
}

void HostDram::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  ++accesses_;
  t += sc_core::sc_time(cfg_.latency_ns, sc_core::SC_NS);
  if (!check(gp)) return;
  uint8_t* mem = bytes_.data() + gp.get_address();
  if (gp.is_read())
    std::memcpy(gp.get_data_ptr(), mem, gp.get_data_length());
  else if (gp.is_write())
    std::memcpy(mem, gp.get_data_ptr(), gp.get_data_length());
  gp.set_dmi_allowed(cfg_.dmi);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum HostDram::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                             sc_core::sc_time&) {
  // Loosely timed only: refuse the approximately-timed protocol in one call.
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

bool HostDram::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  if (!cfg_.dmi || gp.get_address() >= bytes_.size()) return false;
  ++dmi_grants_;
  dmi.set_dmi_ptr(bytes_.data());
  dmi.set_start_address(0);
  dmi.set_end_address(bytes_.size() - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(sc_core::sc_time(cfg_.latency_ns, sc_core::SC_NS));
  dmi.set_write_latency(sc_core::sc_time(cfg_.latency_ns, sc_core::SC_NS));
  return true;
}

unsigned int HostDram::transport_dbg(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  if (addr >= bytes_.size()) return 0;
  const uint64_t n = std::min<uint64_t>(gp.get_data_length(), bytes_.size() - addr);
  if (gp.is_read())
    std::memcpy(gp.get_data_ptr(), bytes_.data() + addr, n);
  else if (gp.is_write())
    std::memcpy(bytes_.data() + addr, gp.get_data_ptr(), n);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return static_cast<unsigned>(n);
}

void HostDram::invalidate_dmi() { in->invalidate_direct_mem_ptr(0, bytes_.size() - 1); }

}  // namespace gputlm::platforms::soc
