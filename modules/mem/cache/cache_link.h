// Private extension on the cache's own downstream payloads: why the request was sent
// and whom to answer when the next level responds. Attached once per pooled payload.
#pragma once

#include <tlm>

#include "mem/cache/cache.h"

namespace gputlm::mem {

struct Cache::Link : tlm::tlm_extension<Cache::Link> {
  enum class Role : uint8_t { Fetch, WriteThrough, Writeback };
  const Cache* owner = nullptr;
  Role role = Role::Fetch;
  tlm::tlm_generic_payload* upstream = nullptr;  // WriteThrough: the store to acknowledge
  int32_t entry = -1;                            // Fetch: the MSHR entry

  tlm::tlm_extension_base* clone() const override { return new Link(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const Link&>(other); }
};

}  // namespace gputlm::mem
