// A TLM-2.0 module that sits between an initiator and a target and forwards every call
// unchanged, letting a subclass observe each one before and after it is forwarded. The
// protocol checker and the transaction recorder are pass-throughs.
#pragma once

#include <systemc>
#include <tlm>

namespace gputlm {

class TlmPassThrough : public sc_core::sc_module,
                       public tlm::tlm_fw_transport_if<>,
                       public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_target_socket<> in;      // bind the initiator here
  tlm::tlm_initiator_socket<> out;  // bind to the target

  explicit TlmPassThrough(sc_core::sc_module_name name);

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

 protected:
  // `sent` is the phase as the caller passed it; `phase`/`ret` what came back.
  virtual void before_fw(tlm::tlm_generic_payload&, const tlm::tlm_phase& /*sent*/) {}
  virtual void after_fw(tlm::tlm_generic_payload&, const tlm::tlm_phase& /*sent*/,
                        const tlm::tlm_phase& /*phase*/, tlm::tlm_sync_enum /*ret*/) {}
  virtual void before_bw(tlm::tlm_generic_payload&, const tlm::tlm_phase& /*sent*/) {}
  virtual void after_bw(tlm::tlm_generic_payload&, const tlm::tlm_phase& /*sent*/,
                        const tlm::tlm_phase& /*phase*/, tlm::tlm_sync_enum /*ret*/) {}
  virtual void before_b(tlm::tlm_generic_payload&) {}
  virtual void after_b(tlm::tlm_generic_payload&, const sc_core::sc_time& /*t*/) {}
};

}  // namespace gputlm
