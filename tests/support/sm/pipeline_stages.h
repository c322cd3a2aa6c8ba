// For testbenches of single SM pipeline stages (exec units, writeback, operand collector,
// LSU): decoded instructions and warp instructions made to order, a retire sink recording
// writeback cycles, an always-ready fake unit, and a driver that ticks the stages back to
// front in one clock process (as the SM does) and then runs the test's per-cycle script.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "sm/exec/unit_status_if.h"
#include "sm/pipeline_protocol.h"

namespace gputlm::sm::test_support {

class InstructionFactory {
 public:
  // A decoded instruction with the given opcode, type, op class and registers.
  const isa::Instruction& make_instr(isa::Opcode op, isa::ScalarType type, isa::OpClass cls,
                                     const std::vector<uint32_t>& srcs = {}, const std::vector<uint32_t>& dsts = {}) {
    isa::Instruction in;
    in.op = op;
    in.type = type;
    in.cls = cls;
    in.n_src_regs = static_cast<uint8_t>(srcs.size());
    for (std::size_t i = 0; i < srcs.size(); ++i) in.src_regs[i] = srcs[i];
    in.n_dst_regs = static_cast<uint8_t>(dsts.size());
    for (std::size_t i = 0; i < dsts.size(); ++i) in.dst_regs[i] = dsts[i];
    instrs_.push_back(in);
    return instrs_.back();
  }
  // A copy of `in` kept by the factory (an instruction with flags or modifiers set).
  const isa::Instruction& keep(const isa::Instruction& in) {
    instrs_.push_back(in);
    return instrs_.back();
  }
  // A warp instruction for `in` (seq in creation order), registers filled.
  WarpInstruction* make(const isa::Instruction& in, uint32_t warp, UnitType unit, uint32_t scheduler = 0) {
    WarpInstruction* wi = pool.acquire();
    wi->seq = seq_++;
    wi->warp = warp;
    wi->scheduler = wi->issue_scheduler = scheduler;
    wi->instr = &in;
    wi->unit = unit;
    fill_register_keys(*wi);
    return wi;
  }
  WarpInstructionPool pool{16};

 private:
  std::deque<isa::Instruction> instrs_;
  uint64_t seq_ = 0;
};

struct Retired {
  uint64_t seq = 0, cycle = 0, dispatch = 0, complete = 0;
};

// End of the pipeline: records each instruction's arrival cycle, returns it to the pool.
class RetireSink : public sc_core::sc_module {
 public:
  PipelineInSocket in;
  std::vector<Retired> retired;
  RetireSink(sc_core::sc_module_name name, const ClockDomain& d, WarpInstructionPool& pool)
      : sc_core::sc_module(name), in("in"), domain_(d), pool_(pool) {
    in.register_receiver([this](WarpInstruction& wi) {
      retired.push_back(Retired{wi.seq, domain_.now(), wi.dispatch_cycle, wi.complete_cycle});
      pool_.release(&wi);
    });
  }
  const Retired& of(uint64_t seq) const {
    for (const Retired& r : retired)
      if (r.seq == seq) return r;
    throw std::runtime_error("instruction seq " + std::to_string(seq) + " never retired");
  }

 private:
  const ClockDomain& domain_;
  WarpInstructionPool& pool_;
};

// A unit that takes everything while `accept` is true and records dispatch cycles.
class FakeUnit : public sc_core::sc_module, public UnitStatusIF {
 public:
  PipelineInSocket in;
  sc_core::sc_export<UnitStatusIF> status_export;
  bool accept = true;
  std::vector<Retired> received;
  FakeUnit(sc_core::sc_module_name name, UnitType type, const ClockDomain& d, WarpInstructionPool& pool)
      : sc_core::sc_module(name), in("in"), status_export("status_export"), type_(type), domain_(d), pool_(pool) {
    status_export.bind(*this);
    in.register_receiver([this](WarpInstruction& wi) {
      received.push_back(Retired{wi.seq, domain_.now(), wi.dispatch_cycle, 0});
      pool_.release(&wi);
    });
  }
  bool can_accept() const override { return accept; }
  UnitType unit_type() const override { return type_; }

 private:
  UnitType type_;
  const ClockDomain& domain_;
  WarpInstructionPool& pool_;
};

// Ticks `stages` (back to front, as given) and then `script` on every edge while any is
// busy; `outs` are the script's sending sockets.
class StageDriver : public sc_core::sc_module {
 public:
  sc_core::sc_vector<PipelineOutSocket> outs;
  using Script = std::function<bool(uint64_t cycle)>;  // returns true while it has more to do

  StageDriver(sc_core::sc_module_name name, const ClockDomain& d, std::size_t n_outs)
      : sc_core::sc_module(name), outs("outs", n_outs),
        process_("tick", d, [this](uint64_t c) { return tick(c); }, true) {}
  void add_stage(PipelineStage& s) {
    stages_.push_back(&s);
    s.set_waker([this] { process_.wake(); });
  }
  void set_script(Script s) { script_ = std::move(s); }
  uint64_t last_cycle() const { return last_; }

 private:
  bool tick(uint64_t cycle) {
    last_ = cycle;
    bool busy = false;
    for (PipelineStage* s : stages_) busy = s->tick(cycle) || busy;
    if (script_) busy = script_(cycle) || busy;
    return busy;
  }
  std::vector<PipelineStage*> stages_;
  Script script_;
  uint64_t last_ = 0;
  ClockedProcess process_;
};

}  // namespace gputlm::sm::test_support
