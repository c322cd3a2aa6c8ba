#include "core/tlm/pass_through.h"

namespace gputlm {

TlmPassThrough::TlmPassThrough(sc_core::sc_module_name name)
    : sc_core::sc_module(name), in("in"), out("out") {
  in.bind(*this);
  out.bind(*this);
}

tlm::tlm_sync_enum TlmPassThrough::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_core::sc_time& t) {
  const tlm::tlm_phase sent = phase;
  before_fw(gp, sent);
  const tlm::tlm_sync_enum r = out->nb_transport_fw(gp, phase, t);
  after_fw(gp, sent, phase, r);
  return r;
}

tlm::tlm_sync_enum TlmPassThrough::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                   sc_core::sc_time& t) {
  const tlm::tlm_phase sent = phase;
  before_bw(gp, sent);
  const tlm::tlm_sync_enum r = in->nb_transport_bw(gp, phase, t);
  after_bw(gp, sent, phase, r);
  return r;
}

void TlmPassThrough::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  before_b(gp);
  out->b_transport(gp, t);
  after_b(gp, t);
}

bool TlmPassThrough::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  return out->get_direct_mem_ptr(gp, dmi);
}

unsigned int TlmPassThrough::transport_dbg(tlm::tlm_generic_payload& gp) { return out->transport_dbg(gp); }

void TlmPassThrough::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  in->invalidate_direct_mem_ptr(start, end);
}

}  // namespace gputlm
