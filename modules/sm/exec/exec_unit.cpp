// Pipelined execution unit with per-op latency and initiation interval; see exec_unit.h.
#include "sm/exec/exec_unit.h"

#include <algorithm>
#include <sstream>

namespace gputlm::sm {

ExecUnit::ExecUnit(sc_core::sc_module_name name, UnitType type, const ExecConfig& cfg, const ClockDomain& domain,
                   stats::Group& parent)
    : sc_core::sc_module(name),
      in("in"),
      out("out"),
      status_export("status_export"),
      writeback_status("writeback_status"),
      forward_sink("forward_sink"),
      lane_free_(cfg.width, 0),
      domain_(domain),
      result_buffer_(cfg.result_buffer),
      pipeline_registers_(cfg.pipeline_registers),
      forwarding_(cfg.forwards_alu()),
      type_(type),
      cfg_(cfg),
      timing_(cfg),
      stats_(parent, basename()),
      instructions_(stats_, "instructions", "warp instructions executed", instructions_count_),
      writeback_stall_cycles_(stats_, "writeback_stall_cycles",
                              "cycles a finished result waited because writeback had no room", writeback_stall_count_),
      busy_cycles_(stats_, "busy_cycles", "cycles with at least one instruction in the unit", busy_cycles_count_) {
  slices_ = cfg.slices();  // after timing_ validated cfg
  status_export.bind(*this);
  in.register_receiver([this](WarpInstruction& wi) { receive(wi); });
  // Enough for every lane issuing each cycle over the longest latency, plus the buffer.
  uint32_t longest = std::max({cfg.latency_sfu, cfg.latency_other, cfg.latency_branch});
  for (const auto* v : {&cfg.latency_int, &cfg.latency_fp, &cfg.latency_dp})
    for (uint32_t l : *v) longest = std::max(longest, l);
  active_.reserve(static_cast<std::size_t>(cfg.width) * (longest + cfg.pipeline_registers + slices_) +
                  cfg.result_buffer);
  if (forwarding_) forwards_.reserve(static_cast<std::size_t>(cfg.width) * (longest + slices_));
}

void ExecUnit::end_of_elaboration() {
  if (!forwarding_) return;
  if (forward_sink.size() == 0)
    throw PipelineError(std::string(name()) + ": exec.forwarding = alu but forward_sink is not bound");
  forward_if_ = forward_sink.operator->();
}

// The bypass (004 §4.1, Fig. 2): slice k of an instruction dispatched in cycle D enters
// EX1 in D + k and leaves EX_L at the end of D + k + L - 1; EX_L -> EX1 lets slice k of a
// dependent instruction enter EX1 in D + k + L. That instruction dispatches in D + L, so it
// must issue in D + L - 2 (issue -> operands read -> dispatch: 2 cycles). Its last slice
// then reads the producer's last slice's result from the bypass, and its lanes are free
// because the producer held them only until D + slices (the operand collector holds the
// dependent otherwise). The pipeline registers do not move the point: ID_OC and OC_EX delay
// producer and dependent alike, and EX_WB is what the bypass skips. Never before D: an
// instruction with L < 2 is readable from the cycle it is dispatched (the issue stage of
// that cycle runs after the collectors). So a dependent pair issues max(L, slices) apart.
uint64_t ExecUnit::forward_cycle(uint64_t dispatch, uint32_t latency) {
  constexpr uint32_t kIssueToDispatch = 2;
  return latency > kIssueToDispatch ? dispatch + latency - kIssueToDispatch : dispatch;
}

bool ExecUnit::can_accept() const {
  const uint64_t now = domain_.now();
  if (blocked_.get(now, false)) return false;
  for (uint64_t f : lane_free_)
    if (f <= now) return true;
  return false;
}

void ExecUnit::receive(WarpInstruction& wi) {
  const uint64_t now = domain_.now();
  if (!can_accept())
    throw PipelineError(std::string(name()) + ": instruction of warp " + std::to_string(wi.warp) + " (seq " +
                        std::to_string(wi.seq) + ") sent in cycle " + std::to_string(now) +
                        " while the unit cannot accept (pipeline rule 1)");
  if (!wi.instr) throw PipelineError(std::string(name()) + ": warp instruction without a decoded instruction");
  const OpTiming& t = timing_.of(*wi.instr);
  // A warp of 32 threads on simd_width lanes: one slice a cycle, so the unit's lane is taken
  // for at least slices_ cycles and the result is complete when the last slice is.
  for (uint64_t& f : lane_free_) {
    if (f <= now) {
      f = now + std::max(t.initiation, slices_);
      break;
    }
  }
  active_.push_back(Entry{&wi, now + t.latency + (slices_ - 1) + pipeline_registers_});
  // Only results are bypassed: without a destination (branch, barrier, exit) the warp
  // waits for writeback as before.
  if (forwarding_ && wi.n_writes > 0) {
    const uint64_t at = forward_cycle(now, t.latency);
    if (at <= now) forward_if_->forwarded(wi);
    else forwards_.push_back(PendingForward{&wi, at});
  }
  ++instructions_count_;
  if (activity_mask_) *activity_mask_ |= activity_bit_;
  wake_owner();
}

bool ExecUnit::tick(uint64_t cycle) {
  if (active_.empty()) {  // (an owner with an activity mask skips this tick: nothing changes)
    blocked_.set(cycle + 1, false);
    return false;
  }
  ++busy_cycles_count_;
  if (!forwards_.empty()) forward_due(cycle);
  if (writeback_if_ == nullptr) writeback_if_ = writeback_status.operator->();  // bound by now
  uint32_t finished = 0;
  for (;;) {
    // Oldest finished first, then issue order (seq): deterministic.
    std::size_t best = active_.size();
    for (std::size_t i = 0; i < active_.size(); ++i) {
      const Entry& e = active_[i];
      if (e.ready > cycle) continue;
      if (best == active_.size() || e.ready < active_[best].ready ||
          (e.ready == active_[best].ready && e.wi->seq < active_[best].wi->seq))
        best = i;
    }
    if (best == active_.size()) break;
    if (!writeback_if_->can_accept()) {
      for (const Entry& e : active_) finished += e.ready <= cycle ? 1 : 0;
      ++writeback_stall_count_;
      break;
    }
    WarpInstruction* wi = active_[best].wi;
    active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(best));
    wi->complete_cycle = cycle;
    out.send(*wi);
  }
  // Finished results that found no writeback room block the unit's input next cycle.
  blocked_.set(cycle + 1, finished >= result_buffer_);
  return !active_.empty();
}

// Reports the instructions at their bypass point, in dispatch order. Each is still in
// active_ (its bypass cycle is before its finish), so the unit ticks every cycle until then.
void ExecUnit::forward_due(uint64_t cycle) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < forwards_.size(); ++i) {
    if (forwards_[i].at <= cycle) forward_if_->forwarded(*forwards_[i].wi);
    else forwards_[kept++] = forwards_[i];
  }
  forwards_.resize(kept);
}

std::string ExecUnit::state_dump() const {
  if (active_.empty()) return {};
  std::ostringstream os;
  os << name() << ": " << active_.size() << " in flight:";
  for (const Entry& e : active_) os << " [warp " << e.wi->warp << " seq " << e.wi->seq << " ready " << e.ready << "]";
  return os.str();
}

}  // namespace gputlm::sm
