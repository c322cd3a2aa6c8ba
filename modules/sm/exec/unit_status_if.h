// Combinational status of the back-end stages, read within a cycle through
// sc_port/sc_export (architecture §4): whether an execution unit (or the LSU) takes an
// instruction sent now, and whether writeback takes a finished one.
#pragma once

#include <cstdint>
#include <systemc>

#include "sm/warp_instruction.h"

namespace gputlm::sm {

class UnitStatusIF : public virtual sc_core::sc_interface {
 public:
  // True when an instruction sent to the unit in the current cycle is accepted.
  virtual bool can_accept() const = 0;
  virtual UnitType unit_type() const = 0;
};

class WritebackStatusIF : public virtual sc_core::sc_interface {
 public:
  // True when one more finished instruction sent in the current cycle is accepted.
  virtual bool can_accept() const = 0;
};

// A boolean decided at the tick of cycle c for cycle c+1 and read during cycle c+1,
// whether the reader runs before or after the owner's tick of c+1 (evaluation-order
// independence, architecture §3). Cycles never set read as `fallback`.
class NextCycleFlag {
 public:
  void set(uint64_t cycle, bool v) {
    const std::size_t s = cycle & 1u;
    cycle_[s] = cycle;
    value_[s] = v;
  }
  bool get(uint64_t cycle, bool fallback) const {
    const std::size_t s = cycle & 1u;
    return cycle_[s] == cycle ? value_[s] : fallback;
  }

 private:
  uint64_t cycle_[2] = {~uint64_t{0}, ~uint64_t{0}};
  bool value_[2] = {false, false};
};

}  // namespace gputlm::sm
