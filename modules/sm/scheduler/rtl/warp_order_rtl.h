// The GTO/LRR warp-issue order's RTL (rtl/warp_order.sv, Verilated) behind a transactor
// that implements SchedulerPolicyIF: resident-set changes, issues and freed slots become
// one-cycle event pulses on the RTL's clock; order() reads the RTL's order pins. All inside
// the scheduler's call (zero simulated time). Available with GPUTLM_HAVE_RTL.
// docs/rtl_cosim.md.
#pragma once

#include <memory>
#include <stdexcept>

#include "sm/scheduler/scheduler_policy.h"

namespace gputlm::sm {

// The RTL broke its contract, was given warps it cannot hold, or differed from the C++
// policy under impl=compare.
class WarpOrderRtlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Warps one RTL instance orders (the N of warp_order.sv).
inline constexpr uint32_t kRtlWarpOrderWarps = 32;

// `gto`: GTO, else LRR. `injected_bug`: the test-only build with GPUTLM_RTL_INJECT_BUG (its
// LRR restarts at the warp that issued last instead of the one after).
std::unique_ptr<SchedulerPolicyIF> make_rtl_warp_order(bool gto, bool injected_bug = false);

// RTL clock cycles all RTL warp-order instances of this process have run.
uint64_t rtl_warp_order_cycles();

}  // namespace gputlm::sm
