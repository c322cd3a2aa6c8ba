#include "toy_back_end.h"

#include <algorithm>

namespace gputlm::sm::tb {

ToyBackEnd::ToyBackEnd(sc_core::sc_module_name name, const ClockDomain& clock, uint32_t alu_latency,
                       uint32_t load_latency, uint32_t mshrs, uint32_t saturation_margin)
    : sc_core::sc_module(name),
      issue_in("issue_in"),
      writeback_out("writeback_out"),
      status_export("status_export"),
      clock_(clock),
      alu_latency_(alu_latency),
      load_latency_(load_latency),
      mshrs_(mshrs),
      margin_(saturation_margin) {
  status_export.bind(*this);
  issue_in.register_receiver([this](WarpInstruction& wi) { receive(wi); });
}

bool ToyBackEnd::can_accept(uint32_t, UnitType unit) const { return unit != UnitType::Mem || latch_ == nullptr; }

void ToyBackEnd::send(WarpInstruction& wi, uint64_t cycle) {
  ++busy_;
  sends.push_back({cycle, wi.warp});
  if (sends.size() == 1) {
    head_warp = arm_head_warp;
    queued_warps = arm_queued_warps;
  }
  if (state) state->sent(wi.warp, *wi.instr);
  queued_warps &= ~(uint64_t{1} << wi.warp);
  if (head_warp == static_cast<int32_t>(wi.warp)) head_warp = -1;
  // Data back `load_latency` cycles after it left; the dependants issue in the next cycle.
  pending_.push_back({cycle + load_latency_ + 1, &wi, true});
}

void ToyBackEnd::receive(WarpInstruction& wi) {
  const uint64_t now = clock_.now();
  if (wi.unit != UnitType::Mem) {
    pending_.push_back({now + alu_latency_, &wi, false});
    return;
  }
  if (latch_) throw PipelineError("toy back end: load unit busy");
  if (mshrs_ == 0 || busy_ < mshrs_) send(wi, now);
  else latch_ = &wi;
  wake_owner();
}

bool ToyBackEnd::tick(uint64_t cycle) {
  std::stable_sort(pending_.begin(), pending_.end(), [](const Pending& a, const Pending& b) { return a.cycle < b.cycle; });
  std::size_t n = 0;
  while (n < pending_.size() && pending_[n].cycle <= cycle) {
    if (pending_[n].load) --busy_;
    pending_[n].wi->complete_cycle = cycle;
    writeback_out.send(*pending_[n].wi);
    ++n;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
  if (latch_ && (mshrs_ == 0 || busy_ < mshrs_)) {
    send(*latch_, cycle);
    latch_ = nullptr;
  }
  return !pending_.empty() || latch_ != nullptr;
}

}  // namespace gputlm::sm::tb
