// Host DRAM of the SoC platform: a loosely-timed memory target (local addresses
// 0 .. size-1, contiguous bytes) with a fixed annotated latency per access, granting
// read-write DMI to the whole array when enabled (and saying so in every response's
// DMI hint). invalidate_dmi() revokes every grant, as a memory remap would.
#pragma once

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/config/params.h"

namespace gputlm::platforms::soc {

struct HostDramConfig {
  double latency_ns = 50;
  bool dmi = true;

  template <class V>
  void visit(V& v) {
    v.param("latency_ns", latency_ns, "annotated delay of one b_transport access", config::in_range(0, 1e6));
    v.param("dmi", dmi, "grant DMI pointers to initiators (false: every access is a b_transport)");
  }
};

class HostDram : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> in;

  HostDram(sc_core::sc_module_name name, uint64_t bytes, const HostDramConfig& cfg);

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;

  void invalidate_dmi();
  uint64_t size() const { return bytes_.size(); }
  uint64_t accesses() const { return accesses_; }
  uint64_t dmi_grants() const { return dmi_grants_; }

 private:
  // The access's bytes, or a response error set on gp.
  bool check(tlm::tlm_generic_payload& gp);

  HostDramConfig cfg_;
  std::vector<uint8_t> bytes_;
  uint64_t accesses_ = 0, dmi_grants_ = 0;
};

}  // namespace gputlm::platforms::soc
