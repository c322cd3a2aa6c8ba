// GPGPU-Sim's memory_sub_partition::breakdown_request_to_sector_requests in front of a
// sectored L2 bank: a request that spans several sectors is split into one request per
// sector, which enter the bank one per cycle; the request is answered when every sector
// has been (GPGPU-Sim sends each sector's reply on its own and the L1's sector MSHR waits
// for all of them; MemExtension::reply_parts makes the crossbar charge the reply as that
// many packets). The split follows GPGPU-Sim: a request of a whole line becomes every
// sector of the line; a smaller one, the sectors of its sector mask that it overlaps (all
// it overlaps when the mask is empty); a request inside one sector passes unchanged.
//
//   in (from the ROP stage) -> [split, one sector request per cycle] -> out (to the bank)
//
// Timing: the first sector request is sent in the cycle the request arrives, the next
// ones in the following cycles, each after the bank's END_REQ for the previous; END_REQ
// goes upstream with the bank's END_REQ of the last. At most `max_split` split requests
// await their sector replies (GPGPU-Sim: unbounded); beyond that END_REQ is withheld.
// Replies pass through: the reply to the last sector becomes the request's reply, and its
// END_RESP is the upstream END_RESP, so the bank's reply back-pressure is kept.
#pragma once

#include <bitset>
#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/stats/stats.h"
#include "core/tlm/payload_pool.h"

namespace gputlm {

class SectorSplitter : public sc_core::sc_module,
                       public tlm::tlm_fw_transport_if<>,
                       public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_target_socket<> in;      // from the ROP stage / interconnect
  tlm::tlm_initiator_socket<> out;  // to the L2 bank

  // line_size / sectors bytes per sector; max_split >= 1.
  SectorSplitter(sc_core::sc_module_name name, uint32_t line_size, uint32_t sectors, uint32_t max_split,
                 const ClockDomain& domain, stats::Group& parent);
  ~SectorSplitter() override;

  // Requests split and not yet answered, plus one being sent.
  std::size_t held() const;
  const ClockedProcess& process() const { return process_; }

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override { out->b_transport(gp, t); }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& d) override {
    return out->get_direct_mem_ptr(gp, d);
  }
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override { return out->transport_dbg(gp); }
  void invalidate_direct_mem_ptr(sc_dt::uint64 a, sc_dt::uint64 b) override { in->invalidate_direct_mem_ptr(a, b); }

  // The sector bits a request is split into (0: it passes unchanged).
  uint32_t split_mask(const tlm::tlm_generic_payload& gp) const;

 private:
  struct Split {
    tlm::tlm_generic_payload* parent = nullptr;
    uint32_t remaining = 0;  // sector bits still to send
    uint32_t children = 0, answered = 0;
  };
  struct Child;  // private extension: the Split a sector request belongs to

  bool tick(uint64_t cycle);
  // Sends the current split's next sector request; true when the bank took it at once.
  bool send_next();
  // The bank took the current split's sector request; true when it was the last one.
  bool child_accepted();
  tlm::tlm_sync_enum child_reply(tlm::tlm_generic_payload& child, tlm::tlm_phase& phase, sc_core::sc_time& t);
  // Takes a free split for `parent` and sends its first sector request; true when the
  // last sector request was taken at once (END_REQ is then owed upstream).
  bool start(tlm::tlm_generic_payload& parent, uint32_t mask);

  uint32_t line_size_, sector_size_, all_sectors_;
  std::bitset<128> sector_bytes_;  // the first sector's bytes of a request's byte mask
  const ClockDomain& domain_;
  PayloadPool pool_;
  std::vector<Split> splits_;
  std::vector<int32_t> free_;             // indices of unused splits_
  int32_t current_ = -1;                  // the split being sent
  tlm::tlm_generic_payload* sending_ = nullptr;  // sent to the bank, END_REQ not yet seen
  tlm::tlm_generic_payload* passing_ = nullptr;  // an unsplit request in its request phase
  tlm::tlm_generic_payload* waiting_ = nullptr;  // arrived with no free split: END_REQ withheld
  uint64_t waiting_since_ = 0;
  tlm::tlm_generic_payload* answering_ = nullptr;  // last sector reply whose parent awaits END_RESP
  tlm::tlm_generic_payload* answering_parent_ = nullptr;
  bool in_request_call_ = false;          // inside nb_transport_fw(BEGIN_REQ): END_REQ is returned
  uint64_t next_send_ = 0;                // cycle from which the next sector request may go
  stats::Group stats_;
  stats::Counter split_requests_, sector_requests_, full_waits_;
  ClockedProcess process_;
};

}  // namespace gputlm
