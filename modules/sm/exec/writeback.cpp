// Port-limited, oldest-first writeback; see writeback.h.
#include "sm/exec/writeback.h"

#include <sstream>

namespace gputlm::sm {

Writeback::Writeback(sc_core::sc_module_name name, uint32_t ports, uint32_t buffer, const ClockDomain& domain,
                     stats::Group& parent)
    : sc_core::sc_module(name),
      in("in"),
      out("out"),
      status_export("status_export"),
      ports_(ports),
      domain_(domain),
      buffer_(buffer),
      stats_(parent, basename()),
      written_(stats_, "written", "warp instructions written back"),
      port_limited_cycles_(stats_, "port_limited_cycles",
                           "cycles with more finished instructions than writeback ports") {
  if (ports == 0 || buffer == 0)
    throw PipelineError(std::string(name) + ": writeback ports and buffer must be at least 1");
  status_export.bind(*this);
  in.register_receiver([this](WarpInstruction& wi) { receive(wi); });
}

void Writeback::receive(WarpInstruction& wi) {
  const uint64_t now = domain_.now();
  if (!buffer_.can_accept(now))
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " seq " + std::to_string(wi.seq) +
                        " sent in cycle " + std::to_string(now) + " while writeback is full (pipeline rule 1)");
  buffer_.push(&wi, now);
  wake_owner();
}

bool Writeback::tick(uint64_t cycle) {
  uint32_t sent = 0;
  while (sent < ports_) {
    std::size_t best = buffer_.size();
    for (std::size_t i = 0; i < buffer_.size(); ++i) {
      if (!buffer_.ready_at(i, cycle)) continue;
      const WarpInstruction* w = buffer_.at(i);
      if (best == buffer_.size() || w->complete_cycle < buffer_.at(best)->complete_cycle ||
          (w->complete_cycle == buffer_.at(best)->complete_cycle && w->seq < buffer_.at(best)->seq))
        best = i;
    }
    if (best == buffer_.size()) break;
    WarpInstruction* wi = buffer_.at(best);
    buffer_.erase(best, cycle);
    ++written_;
    ++sent;
    out.send(*wi);
  }
  if (sent == ports_) {
    for (std::size_t i = 0; i < buffer_.size(); ++i)
      if (buffer_.ready_at(i, cycle)) {
        ++port_limited_cycles_;
        break;
      }
  }
  return !buffer_.empty();
}

std::string Writeback::state_dump() const {
  if (buffer_.empty()) return {};
  std::ostringstream os;
  os << name() << ": " << buffer_.size() << " waiting for a port";
  return os.str();
}

}  // namespace gputlm::sm
