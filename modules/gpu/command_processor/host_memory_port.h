// The GPU device's port to host memory (docs/platforms/soc.md, "Global memory in host
// memory"): one TLM initiator socket, used for the command processor's fetches (PTX
// text, entry names, parameters: b_transport with the annotated delay) and as the
// BackingStore's external memory for the host window, so that the functional model's
// global loads and stores read and write host memory:
//   - with DMI: the first b_transport whose response allows DMI asks for a DMI pointer;
//     the granted pages are mapped into the store, so later accesses are plain memcpy
//     (the store's hit path, no call through here); invalidate_direct_mem_ptr unmaps them;
//   - without DMI: every access is a b_transport of the bytes within one page.
// The functional accesses happen inside the GPU's clocked SC_METHODs: targets on this
// path must not wait() in b_transport, and their annotated delays are not added (the
// GPU's own memory model decides when data moves; host memory supplies what).
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>

#include "core/memory/backing_store.h"

namespace gputlm::gpu {

class HostMemoryPort : public sc_core::sc_module, public tlm::tlm_bw_transport_if<>, public ExternalMemoryIF {
 public:
  tlm::tlm_initiator_socket<> socket;

  // Serves the window [base, base + bytes) of `store` (not owned).
  HostMemoryPort(sc_core::sc_module_name name, BackingStore& store, uint64_t base, uint64_t bytes, bool dmi);

  // One b_transport (fetches of the command processor); adds the target's delay to `t`.
  // Returns "" or the failure (the response status).
  std::string transport(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, uint32_t len, sc_core::sc_time& t);

  bool read_external(uint64_t addr, void* dst, std::size_t len) override;
  bool write_external(uint64_t addr, const void* src, std::size_t len) override;

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

  bool in_window(uint64_t addr) const { return addr >= base_ && addr - base_ < bytes_; }
  // Functional accesses that went by b_transport; DMI grants mapped; pages mapped now.
  uint64_t transport_accesses() const { return transport_accesses_; }
  uint64_t dmi_grants() const { return dmi_grants_; }
  uint64_t invalidations() const { return invalidations_; }
  std::size_t mapped_pages() const { return store_.mapped_page_count(); }

 private:
  void functional_access(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, std::size_t len);
  void request_dmi(uint64_t addr);

  BackingStore& store_;
  uint64_t base_, bytes_;
  bool dmi_;
  uint64_t transport_accesses_ = 0, dmi_grants_ = 0, invalidations_ = 0;
};

}  // namespace gputlm::gpu
