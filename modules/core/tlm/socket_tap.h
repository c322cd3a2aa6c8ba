// Observation points on sockets, chosen at elaboration. A block that offers a socket for
// observation binds it with bind_tapped(): when the run's SocketTapIF returns a
// pass-through for that socket (a transaction recorder), it goes between initiator and
// target; otherwise the two are bound directly, so an unobserved socket costs nothing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/tlm/pass_through.h"

namespace gputlm {

class SocketTapIF {
 public:
  virtual ~SocketTapIF() = default;
  // A pass-through for the socket of kind `kind` ("l1d", "l2", ...) from block
  // `initiator` to block `target`, clocked by `clock`; nullptr leaves it alone. Called
  // during elaboration inside the block that owns the binding, so the module is created
  // in that block's hierarchy.
  virtual std::unique_ptr<TlmPassThrough> tap(const char* kind, const std::string& initiator,
                                              const std::string& target, const ClockDomain& clock) = 0;
};

// Binds `initiator` to `target`, through taps->tap(...) when it returns a pass-through
// (kept alive in `owned`).
template <class Initiator, class Target>
void bind_tapped(Initiator& initiator, Target& target, SocketTapIF* taps, const char* kind,
                 const std::string& initiator_name, const std::string& target_name, const ClockDomain& clock,
                 std::vector<std::unique_ptr<TlmPassThrough>>& owned) {
  if (taps != nullptr) {
    if (std::unique_ptr<TlmPassThrough> p = taps->tap(kind, initiator_name, target_name, clock)) {
      initiator.bind(p->in);
      p->out.bind(target);
      owned.push_back(std::move(p));
      return;
    }
  }
  initiator.bind(target);
}

}  // namespace gputlm
