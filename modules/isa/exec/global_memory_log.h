// GlobalMemoryLog: the global-memory operations of one SM during one clock edge, recorded
// at issue and applied to device memory at the end of the edge.
//
// Why: SMs of one edge are evaluated in parallel threads, but results must equal the serial
// order (SM 0's warps, then SM 1's, ...), where SM i's loads see the stores of SMs j < i of
// the same edge. Each SM steps with its own log (GridExecution::step(w, &log)); at the end
// of the edge the logs are replayed one after another in SM order. During the parallel part
// nothing touches the shared DeviceMemory (whose BackingStore even writes a page cache on
// reads); only the allocator is read, for bounds checks.
//
// Semantics with a log attached to a step (handlers_memory.cpp):
// * the global lanes of ld/ldu, st, atom and red (.global, and generic addresses resolving
//   to global) are recorded instead of executed; the other lanes of a mixed-space generic
//   access execute at issue as without a log;
// * bounds checks run at issue with the same errors as without a log, so replay cannot fail;
// * store data and atomic operands are copied at issue (a later instruction of the edge may
//   overwrite the source register);
// * a load or atomic writes its destination register at replay. The caller guarantees that
//   no instruction of the same edge reads or writes that register (the SM's scoreboard
//   reserves it at issue). The register is named by warp, frame index and the frame's
//   activation stamp, not by pointer: if that call frame returned before replay (or the
//   warp's CTA context was restarted), the register is dead and the write is skipped.
// * atomics replay lane by lane in lane order, as without a log.
//
// The log refers to WarpContexts of a GridExecution: replay before destroying the grid.
// Storage is reused: no heap allocation per record once the vectors reached the largest
// edge seen (see capacity()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "isa/exec/device_memory.h"
#include "isa/exec/exec_counters.h"
#include "isa/ir.h"

namespace gputlm::isa {

class GridExecution;
class WarpContext;

class GlobalMemoryLog {
 public:
  enum class Kind : uint8_t { Load, Store, Atomic };

  // Where a deferred load or atomic puts its result: registers of one call frame.
  struct Dest {
    WarpContext* warp = nullptr;  // nullptr: no destination (st, red)
    uint32_t frame = 0;           // index in warp->frames
    uint64_t activation = 0;      // that frame's CallFrame::activation at issue
    uint32_t regs[8] = {kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone};  // per element; kNone: sink
  };

  // One warp instruction's deferred lanes. Lane k of lane_mask (in lane order) has its
  // address at addrs[addr_first + k]; a store its elements' data at values[value_first +
  // k*elements + i]; an atomic its operands b, c at values[value_first + 2k], [.. + 1].
  struct Op {
    Kind kind = Kind::Load;
    uint8_t element_bytes = 0;
    uint8_t elements = 1;
    bool sign_extend = false;  // result written as sem::extend_to_64(value, type)
    ScalarType type = ScalarType::None;
    AtomOp atom = AtomOp::None;
    uint32_t lane_mask = 0;
    uint32_t addr_first = 0, value_first = 0;
    // Loads: every lane's bytes lie in [span_lo, span_hi) (at most kSpanBytes), read once;
    // span_hi == 0: read lane by lane.
    uint64_t span_lo = 0, span_hi = 0;
    Dest dest;
    // Lanes of each destination row a later instruction of the same edge wrote (note_write):
    // replay leaves them, as the later write came after this one at issue.
    uint32_t overwritten[8] = {};
  };
  static constexpr uint64_t kSpanBytes = 8192;

  // Applies the records in order to `mem`, adds the steps' counts to their grids
  // (GridExecution::add_counters), then clears the log (keeping its capacity).
  void replay(DeviceMemory& mem);
  // The same into the memory of the last step recorded (bind); nothing if none was.
  void replay() {
    if (memory_) replay(*memory_);
  }
  // The device memory the steps recorded here use (GridExecution::step binds it).
  void bind(DeviceMemory& mem) { memory_ = &mem; }

  // Counts a step of `grid` (its GridExecution counters are shared by the SMs of a parallel
  // edge); returns the grid's warp instructions counted here so far.
  uint64_t count(GridExecution* grid, OpClass cls, uint32_t threads) {
    GridCounts* g = nullptr;
    for (GridCounts& x : counts_)
      if (x.grid == grid) g = &x;
    if (!g) g = &counts_.emplace_back(GridCounts{grid, {}});
    g->counts.thread_instructions += threads;
    ++g->counts.per_class[static_cast<size_t>(cls)];
    return ++g->counts.warp_instructions;
  }
  // Drops the records without applying them.
  void clear();
  bool empty() const { return ops_.empty(); }
  size_t size() const { return ops_.size(); }  // deferred warp instructions
  const std::vector<Op>& ops() const { return ops_; }

  // Element counts the storage holds without reallocating (tests: stops growing).
  struct Capacity {
    size_t ops = 0, addrs = 0, values = 0;
    bool operator==(const Capacity& o) const { return ops == o.ops && addrs == o.addrs && values == o.values; }
  };
  Capacity capacity() const { return {ops_.capacity(), addrs_.capacity(), values_.capacity()}; }

  // Recording (the executor's memory handlers): append a lane's address and values, then
  // the op naming them. A step that fails part-way leaves unnamed entries, which replay
  // ignores and clear() drops.
  uint32_t next_addr() const { return static_cast<uint32_t>(addrs_.size()); }
  uint32_t next_value() const { return static_cast<uint32_t>(values_.size()); }
  void add_addr(uint64_t a) { addrs_.push_back(a); }
  void add_value(uint64_t v) { values_.push_back(v); }
  void add_op(const Op& op);

  // Records are numbered per edge: epoch() changes at every replay or clear.
  uint64_t epoch() const { return epoch_; }
  // An instruction of `w` that issued after ops [0, before) wrote register `reg` of its
  // current frame in `lanes`: a same-edge redefinition of a deferred destination (an ILP
  // core's scoreboard lets a covering write replace a pending one) wins over the deferred
  // result in those lanes, as it did at issue. Cheap unless `w` has deferred destinations.
  void note_write(const WarpContext& w, size_t before, uint32_t reg, uint32_t lanes);

 private:
  struct GridCounts {
    GridExecution* grid;
    ExecCounters counts;
  };
  std::vector<Op> ops_;
  std::vector<uint64_t> addrs_;
  std::vector<uint64_t> values_;
  std::vector<GridCounts> counts_;
  DeviceMemory* memory_ = nullptr;
  uint64_t epoch_ = 1;
};

}  // namespace gputlm::isa
