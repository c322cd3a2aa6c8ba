// Golden model of operand-collector timing with always-ready units: an instruction
// issued in cycle I requests its distinct general registers from bank (r + warp) mod B
// from I+1; each cycle every bank serves its oldest eligible request (issue order, then
// operand order) whose collector has a read port left; the instruction dispatches the
// cycle after its last read (I+2 without operands).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace gputlm::sm::golden {

struct OcInstr {
  uint64_t issue = 0;
  uint32_t warp = 0;
  std::vector<uint32_t> regs;  // distinct general registers
};

inline std::vector<uint64_t> oc_dispatch_cycles(const std::vector<OcInstr>& in, uint32_t banks,
                                                uint32_t reads_per_collector) {
  struct Req {
    std::size_t instr;
    uint32_t bank;
    uint64_t order;
    bool done;
  };
  std::vector<Req> reqs;
  uint64_t order = 0;
  std::vector<uint32_t> left(in.size());
  std::vector<uint64_t> dispatch(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    left[i] = static_cast<uint32_t>(in[i].regs.size());
    dispatch[i] = in[i].issue + 2;
    for (uint32_t r : in[i].regs) reqs.push_back(Req{i, (r + in[i].warp) % banks, order++, false});
  }
  std::size_t remaining = reqs.size();
  for (uint64_t cycle = 0; remaining > 0; ++cycle) {
    std::vector<uint32_t> reads(in.size(), 0);
    for (uint32_t b = 0; b < banks; ++b) {
      Req* best = nullptr;
      for (Req& r : reqs) {
        if (r.done || r.bank != b || in[r.instr].issue + 1 > cycle) continue;
        if (reads_per_collector && reads[r.instr] >= reads_per_collector) continue;
        if (!best || r.order < best->order) best = &r;
      }
      if (!best) continue;
      best->done = true;
      --remaining;
      ++reads[best->instr];
      if (--left[best->instr] == 0) dispatch[best->instr] = cycle + 1;
    }
  }
  return dispatch;
}

}  // namespace gputlm::sm::golden
