// The coalescer's RTL (rtl/coalescer.sv, Verilated) behind a transactor that implements
// CoalescerIF: it drives the pins and toggles the RTL's clock until the access's requests
// are out, all inside one call (zero simulated time: the LSU's timing is the model's).
// Available when the build found Verilator (GPUTLM_HAVE_RTL). docs/rtl_cosim.md.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>

#include "sm/lsu/coalescer.h"

namespace gputlm::sm {

// The RTL did something its contract forbids (overflowed its request table, never
// finished) or differed from the C++ model under impl=compare.
class RtlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `injected_bug`: the test-only build of the RTL with GPUTLM_RTL_INJECT_BUG defined (it
// forgets the lanes merged before into a request), for the testbenches that must catch it.
std::unique_ptr<CoalescerIF> make_rtl_coalescer(const CoalescerConfig& cfg, bool injected_bug = false);

// RTL clock cycles all RTL coalescers of this process have run (host-cost reporting).
uint64_t rtl_coalescer_cycles();

}  // namespace gputlm::sm
