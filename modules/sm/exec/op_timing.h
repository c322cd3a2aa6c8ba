// Latency and initiation interval of each instruction, decided once per (opcode, type)
// at construction (GPGPU-Sim's ptx_instruction::set_opcode_and_latency, with the 4.x
// additions: FMA times as MAD, REM as DIV, TANH as SFU).
#pragma once

#include <array>
#include <cstdint>

#include "isa/ir.h"
#include "sm/exec/exec_config.h"

namespace gputlm::sm {

struct OpTiming {
  uint32_t latency = 1;
  uint32_t initiation = 1;
};

// Columns of GPGPU-Sim's latency lists.
enum class LatencyColumn : uint8_t { Add, Max, Mul, Mad, Div, Sfu, Other };
// Which list: integer, FP32/FP16, FP64.
enum class LatencyTable : uint8_t { Int, Fp, Dp };

LatencyColumn latency_column(isa::Opcode op);
LatencyTable latency_table(isa::ScalarType t);

class OpTimingTable {
 public:
  explicit OpTimingTable(const ExecConfig& cfg);  // validates cfg
  const OpTiming& of(const isa::Instruction& in) const {
    return table_[static_cast<std::size_t>(in.op)][static_cast<std::size_t>(latency_table(in.type))];
  }

 private:
  std::array<std::array<OpTiming, 3>, static_cast<std::size_t>(isa::Opcode::Count_)> table_{};
};

}  // namespace gputlm::sm
