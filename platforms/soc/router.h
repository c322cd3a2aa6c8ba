// An address-decoding TLM-2.0 router for the SoC platform (loosely timed): any number of
// initiators, any number of targets, each target a window [base, base + size). A request
// goes to the target whose window holds all its bytes, with the address made local to
// that window; anything else gets TLM_ADDRESS_ERROR_RESPONSE. DMI grants and
// invalidations are translated between local and system addresses. Blocking transport,
// DMI and debug transport only: nb_transport is refused with TLM_COMMAND_ERROR_RESPONSE.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <vector>

namespace gputlm::platforms::soc {

class Router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Router> in;      // bind initiators
  tlm_utils::multi_passthrough_initiator_socket<Router> out;  // bind targets, in map order

  explicit Router(sc_core::sc_module_name name);

  // Target `out_index` (its binding order on `out`) serves [base, base + size). Windows
  // must not overlap (std::invalid_argument naming both).
  void map(unsigned out_index, uint64_t base, uint64_t size, const std::string& what);

  uint64_t routed() const { return routed_; }
  uint64_t address_errors() const { return address_errors_; }

 private:
  struct Window {
    unsigned index;
    uint64_t base, size;
    std::string what;
  };
  const Window* decode(uint64_t addr, uint64_t len) const;
  void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& t);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& gp);
  tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);

  std::vector<Window> windows_;
  uint64_t routed_ = 0, address_errors_ = 0;
};

}  // namespace gputlm::platforms::soc
