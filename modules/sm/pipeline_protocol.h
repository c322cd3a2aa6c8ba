// The SM's pipeline protocol (architecture §4): warp instructions travel between stages
// through TLM-2.0 sockets templated on PipelineProtocol (payload = WarpInstruction), and
// the combinational status a stage reads within a cycle is a small sc_interface bound
// with sc_port/sc_export.
//
// Links of an SM (see docs/blocks/sm.md):
//   scheduler[i].issue  --(PipelineOutSocket)-->  operand_collector.issue_in (PipelineInSocket)
//   exec units / LSU    --(PipelineOutSocket)-->  writeback stage (exec/writeback.h)
//   writeback stage     --(PipelineOutSocket)-->  SmCore::writeback_in (retire sink)
//   scheduler[i].issue_status (sc_port<IssueStatusIF>) <-- operand_collector (sc_export)
//
// Protocol rules (pipeline links are push-only, one phase):
//  1. The sender first asks the receiver's status interface whether it can take the
//     instruction this cycle (hardware reads that combinationally), then calls
//     PipelineOutSocket::send(wi) during its tick of cycle N. send() is
//     nb_transport_fw(wi, BEGIN_REQ, 0) and the receiver must return TLM_COMPLETED: it
//     owns the instruction from then on. A receiver that cannot take it throws
//     PipelineError (a composition bug, not back-pressure: back-pressure is the status
//     interface saying no).
//  2. The receiver acts on an instruction received in cycle N at its tick of cycle N+1 at
//     the earliest (one stage per cycle; stages tick back to front inside the SM's clock
//     process, so evaluation order never matters). One exception: the SM's retire sink
//     (SmCore::writeback_in, fed by the writeback stage) releases the registers at once,
//     so an instruction written back in cycle N unblocks issue in cycle N.
//  3. Every issued instruction reaches the writeback socket exactly once, also stores,
//     branches, barriers and exits: writeback releases its scoreboard registers, counts
//     it complete for its warp (exit and CTA completion wait for that) and returns it to
//     the SM's WarpInstructionPool. A load is sent to writeback when all its data has
//     returned.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>

#include "isa/ir.h"
#include "sm/warp_instruction.h"

namespace gputlm::sm {

// Protocol traits of every pipeline socket.
struct PipelineProtocol {
  typedef WarpInstruction tlm_payload_type;
  typedef tlm::tlm_phase tlm_phase_type;
};

// A broken pipeline contract (an instruction sent to a stage that had said it could not
// take it, a writeback of an instruction that was never issued, ...).
class PipelineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr unsigned kPipelineBusWidth = 32;

// Sending end of a pipeline link.
class PipelineOutSocket
    : public tlm::tlm_initiator_socket<kPipelineBusWidth, PipelineProtocol, 1, sc_core::SC_ONE_OR_MORE_BOUND>,
      private tlm::tlm_bw_transport_if<PipelineProtocol> {
 public:
  explicit PipelineOutSocket(const char* name);
  // Hands `wi` to the receiver (rule 1). Throws PipelineError if it is refused.
  void send(WarpInstruction& wi);

 private:
  tlm::tlm_sync_enum nb_transport_bw(WarpInstruction& wi, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

// Receiving end of a pipeline link; any number of senders may bind to it. Each received
// instruction is handed to the owner's callback (which typically pushes it into an
// InputBuffer, rule 2).
class PipelineInSocket
    : public tlm::tlm_target_socket<kPipelineBusWidth, PipelineProtocol, 0, sc_core::SC_ZERO_OR_MORE_BOUND>,
      private tlm::tlm_fw_transport_if<PipelineProtocol> {
 public:
  using Receiver = std::function<void(WarpInstruction&)>;
  explicit PipelineInSocket(const char* name);
  void register_receiver(Receiver r) { receiver_ = std::move(r); }

 private:
  tlm::tlm_sync_enum nb_transport_fw(WarpInstruction& wi, tlm::tlm_phase& phase, sc_core::sc_time& t) override;
  void b_transport(WarpInstruction& wi, sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(WarpInstruction&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(WarpInstruction&) override { return 0; }
  Receiver receiver_;
};

// Operand-collector side availability, readable by every scheduler of the SM (KAWS warp
// sharing lets scheduler x issue a warp of scheduler y on x's collector, digest §B7).
class IssueStatusIF : public virtual sc_core::sc_interface {
 public:
  // True when an instruction for `unit` sent by scheduler `scheduler` in this cycle would
  // be accepted (its collector unit / pipeline register has room).
  virtual bool can_accept(uint32_t scheduler, UnitType unit) const = 0;
  // The unit type `in` executes on in this SM (depends on which units are configured).
  virtual UnitType unit_for(const isa::Instruction& in) const = 0;
  // A value that changes whenever some can_accept() answer may have changed since an
  // earlier cycle: a scheduler whose warps waited on a unit re-checks them only then.
  virtual uint64_t availability_version(uint64_t cycle) const = 0;
};

// A clocked stage of an SM pipeline. Inside an Sm, the SM's single clock process calls
// tick() of every stage once per core cycle, back to front (writeback, execute, operand
// collection, issue, decode, fetch). A testbench may drive one stage with its own
// ClockedProcess (see StageDriver in testbenches).
class PipelineStage {
 public:
  virtual ~PipelineStage() = default;
  // One cycle of work; returns true while the stage holds work that needs further ticks
  // without any outside event, including while its availability (IssueStatusIF,
  // UnitStatusIF) will change by itself, e.g. at the end of an initiation interval (the SM
  // sleeps only when every stage returns false).
  virtual bool tick(uint64_t cycle) = 0;
  // Human-readable state for the deadlock watchdog (empty when idle).
  virtual std::string state_dump() const { return {}; }
  // The owner sets this; a stage calls wake_owner() when something arrives from outside
  // the SM's own ticking (a memory response), so a sleeping SM ticks again.
  void set_waker(std::function<void()> w) { waker_ = std::move(w); }

 protected:
  void wake_owner() const {
    if (waker_) waker_();
  }

 private:
  std::function<void()> waker_;
};

}  // namespace gputlm::sm
