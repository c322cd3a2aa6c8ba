// What the scoreboard unit tests share: an instruction built from register lists.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/ir.h"

namespace gputlm::sm::test {

inline isa::Instruction instr(std::vector<uint32_t> dst, std::vector<uint32_t> src,
                              isa::OpClass cls = isa::OpClass::IntAlu) {
  isa::Instruction in;
  in.cls = cls;
  in.n_dst_regs = static_cast<uint8_t>(dst.size());
  for (std::size_t i = 0; i < dst.size(); ++i) in.dst_regs[i] = dst[i];
  in.n_src_regs = static_cast<uint8_t>(src.size());
  for (std::size_t i = 0; i < src.size(); ++i) in.src_regs[i] = src[i];
  return in;
}

}  // namespace gputlm::sm::test
