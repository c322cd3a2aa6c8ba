// Private extension on the LSU's own payloads: the in-flight slot a request belongs to,
// whether its answer carries data for the instruction (loads, atomics with a result) or
// only acknowledges a store, and the port it went to. Attached once per pooled payload.
#pragma once

#include <tlm>

#include "sm/lsu/lsu.h"

namespace gputlm::sm {

struct Lsu::Link : tlm::tlm_extension<Lsu::Link> {
  uint32_t slot = 0;
  bool data = false;
  L1Port port = L1Port::Data;

  tlm::tlm_extension_base* clone() const override { return new Link(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const Link&>(other); }
};

}  // namespace gputlm::sm
