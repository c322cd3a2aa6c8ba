// Control-flow graph over basic blocks and immediate post-dominators, used for SIMT
// reconvergence: the reconvergence point of a branch is the first instruction of the
// immediate post-dominator of the branch's block (docs/isa.md).
#pragma once

#include <cstdint>
#include <vector>

#include "isa/ir.h"

namespace gputlm::isa::analysis {

struct BasicBlock {
  uint32_t first = 0;  // first instruction index
  uint32_t last = 0;   // last instruction index (inclusive)
  std::vector<uint32_t> succs;  // block indices; kExitBlock = the virtual exit
  std::vector<uint32_t> preds;
};

struct Cfg {
  static constexpr uint32_t kExitBlock = 0xfffffffeu;
  std::vector<BasicBlock> blocks;      // in instruction order; block 0 is the entry
  std::vector<uint32_t> block_of;      // instruction index -> block index
  // Immediate post-dominator per block: a block index, kExitBlock (only the virtual exit
  // post-dominates it), or kNone (the block never reaches an exit: infinite loop).
  std::vector<uint32_t> ipdom;
};

// Builds the CFG of a function body. Every exit/ret/trap flows to the virtual exit, as
// does falling off the end of the function.
Cfg build_cfg(const Function& f);

// Sets Instruction::reconv for every bra of `f` (kNone when the branch reconverges only
// at exit) and the kBackwardBranch flag.
void compute_reconvergence(Function& f);

}  // namespace gputlm::isa::analysis
