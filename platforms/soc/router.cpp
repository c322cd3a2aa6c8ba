#include "platforms/soc/router.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::platforms::soc {

Router::Router(sc_core::sc_module_name name) : sc_core::sc_module(name), in("in"), out("out") {
  in.register_b_transport(this, &Router::b_transport);
  in.register_nb_transport_fw(this, &Router::nb_transport_fw);
  in.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  in.register_transport_dbg(this, &Router::transport_dbg);
  out.register_nb_transport_bw(this, &Router::nb_transport_bw);
  out.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

void Router::map(unsigned out_index, uint64_t base, uint64_t size, const std::string& what) {
  if (size == 0 || base + size < base) throw std::invalid_argument("router: window of " + what + " is empty or wraps");
  for (const Window& w : windows_)
    if (base < w.base + w.size && w.base < base + size)
      throw std::invalid_argument("router: window of " + what + " overlaps the window of " + w.what);
  windows_.push_back({out_index, base, size, what});
}

const Router::Window* Router::decode(uint64_t addr, uint64_t len) const {
  for (const Window& w : windows_)
    if (addr >= w.base && addr - w.base < w.size && len <= w.size - (addr - w.base)) return &w;
  return nullptr;
}

void Router::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  const uint64_t addr = gp.get_address();
  const Window* w = decode(addr, std::max<uint64_t>(gp.get_data_length(), 1));
  if (!w) {
    ++address_errors_;
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  ++routed_;
  gp.set_address(addr - w->base);
  out[w->index]->b_transport(gp, t);
  gp.set_address(addr);  // the initiator sees its own address again
}

tlm::tlm_sync_enum Router::nb_transport_fw(int, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                           sc_core::sc_time&) {
  gp.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

bool Router::get_direct_mem_ptr(int, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  const uint64_t addr = gp.get_address();
  const Window* w = decode(addr, 1);
  if (!w) return false;
  gp.set_address(addr - w->base);
  const bool granted = out[w->index]->get_direct_mem_ptr(gp, dmi);
  gp.set_address(addr);
  if (!granted) return false;
  // Local to system addresses, clipped to the window.
  const uint64_t start = dmi.get_start_address(), end = std::min<uint64_t>(dmi.get_end_address(), w->size - 1);
  dmi.set_start_address(w->base + start);
  dmi.set_end_address(w->base + end);
  return true;
}

unsigned int Router::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  const Window* w = decode(addr, std::max<uint64_t>(gp.get_data_length(), 1));
  if (!w) return 0;
  gp.set_address(addr - w->base);
  const unsigned n = out[w->index]->transport_dbg(gp);
  gp.set_address(addr);
  return n;
}

tlm::tlm_sync_enum Router::nb_transport_bw(int, tlm::tlm_generic_payload& gp, tlm::tlm_phase&, sc_core::sc_time&) {
  // Never sent: the router forwards no nb_transport_fw.
  SC_REPORT_ERROR(name(), ("nb_transport_bw for a transaction the router never forwarded (address " +
                           std::to_string(gp.get_address()) + ")").c_str());
  return tlm::TLM_COMPLETED;
}

void Router::invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Window& w : windows_) {
    if (w.index != static_cast<unsigned>(id) || start >= w.size) continue;
    const uint64_t hi = std::min<uint64_t>(end, w.size - 1);
    for (unsigned i = 0; i < in.size(); ++i) in[i]->invalidate_direct_mem_ptr(w.base + start, w.base + hi);
  }
}

}  // namespace gputlm::platforms::soc
