// The (opcode, type) -> latency / initiation interval table; see op_timing.h.
#include "sm/exec/op_timing.h"

#include "core/config/config_source.h"

namespace gputlm::sm {

void ExecConfig::validate(const std::string& key_prefix) const {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  auto five = [&](const std::vector<uint32_t>& v, const char* key) {
    if (v.size() != 5)
      throw config::ConfigError("key '" + p + key + "': needs 5 entries (ADD,MAX,MUL,MAD,DIV), got " +
                                std::to_string(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] == 0) throw config::ConfigError("key '" + p + key + "[" + std::to_string(i) + "]': must be at least 1");
  };
  if (simd_width == 0 || simd_width > 32 || (simd_width & (simd_width - 1)) != 0)
    throw config::ConfigError("key '" + p + "simd_width': must be 1, 2, 4, 8, 16 or 32 (lanes of a 32-thread warp), got " +
                              std::to_string(simd_width));
  if (forwarding != "none" && forwarding != "alu")
    throw config::ConfigError("key '" + p + "forwarding': must be none or alu, got \"" + forwarding + "\"");
  five(latency_int, "latency_int");
  five(initiation_int, "initiation_int");
  five(latency_fp, "latency_fp");
  five(initiation_fp, "initiation_fp");
  five(latency_dp, "latency_dp");
  five(initiation_dp, "initiation_dp");
  if (sp_units == 0) throw config::ConfigError("key '" + p + "sp_units': at least one SP unit is needed");
  if (sfu_units == 0) throw config::ConfigError("key '" + p + "sfu_units': at least one SFU unit is needed");
  if (uint64_t{sp_units} + sfu_units + dp_units + int_units > 64)
    throw config::ConfigError("key '" + p + "sp_units': sp_units + sfu_units + dp_units + int_units is " +
                              std::to_string(uint64_t{sp_units} + sfu_units + dp_units + int_units) +
                              "; an SM has at most 64 execution units");
  if (width == 0 || result_buffer == 0 || writeback_ports == 0 || writeback_buffer == 0 || latency_sfu == 0 ||
      initiation_sfu == 0 || latency_other == 0 || initiation_other == 0 || latency_shfl == 0 || initiation_shfl == 0)
    throw config::ConfigError("key '" + p + "': width, result_buffer, writeback_ports, writeback_buffer and the "
                              "sfu/other latencies and intervals must be at least 1");
}

LatencyColumn latency_column(isa::Opcode op) {
  using isa::Opcode;
  switch (op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Addc: case Opcode::Subc:
      return LatencyColumn::Add;
    case Opcode::Min: case Opcode::Max:
      return LatencyColumn::Max;
    case Opcode::Mul: case Opcode::Mul24:
      return LatencyColumn::Mul;
    case Opcode::Mad: case Opcode::Mad24: case Opcode::Madc: case Opcode::Fma:
      return LatencyColumn::Mad;
    case Opcode::Div: case Opcode::Rem:
      return LatencyColumn::Div;
    case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Rcp: case Opcode::Sin: case Opcode::Cos:
    case Opcode::Lg2: case Opcode::Ex2: case Opcode::Tanh:
      return LatencyColumn::Sfu;
    default:
      return LatencyColumn::Other;
  }
}

LatencyTable latency_table(isa::ScalarType t) {
  using isa::ScalarType;
  switch (t) {
    case ScalarType::F64: return LatencyTable::Dp;
    case ScalarType::F32: case ScalarType::F16: case ScalarType::F16x2: case ScalarType::BF16:
    case ScalarType::BF16x2:
      return LatencyTable::Fp;
    default: return LatencyTable::Int;
  }
}

OpTimingTable::OpTimingTable(const ExecConfig& cfg) {
  cfg.validate("exec");
  for (std::size_t op = 0; op < table_.size(); ++op) {
    const LatencyColumn col = latency_column(static_cast<isa::Opcode>(op));
    for (std::size_t t = 0; t < 3; ++t) {
      OpTiming& ot = table_[op][t];
      if (static_cast<isa::Opcode>(op) == isa::Opcode::Shfl) {
        ot = {cfg.latency_shfl, cfg.initiation_shfl};
      } else if (col == LatencyColumn::Sfu) {
        ot = {cfg.latency_sfu, cfg.initiation_sfu};
      } else if (col == LatencyColumn::Other) {
        ot = {cfg.latency_other, cfg.initiation_other};
        if (static_cast<isa::Opcode>(op) == isa::Opcode::Bra && cfg.latency_branch > 0) ot.latency = cfg.latency_branch;
      } else {
        const std::size_t c = static_cast<std::size_t>(col);
        const auto table = static_cast<LatencyTable>(t);
        const auto& lat = table == LatencyTable::Dp ? cfg.latency_dp : table == LatencyTable::Fp ? cfg.latency_fp
                                                                                                  : cfg.latency_int;
        const auto& ii = table == LatencyTable::Dp ? cfg.initiation_dp
                         : table == LatencyTable::Fp ? cfg.initiation_fp
                                                     : cfg.initiation_int;
        ot = {lat[c], ii[c]};
        // GPGPU-Sim: mul24/mad24 run on the 32-bit multiplier with extra masking, one
        // cycle more in latency and interval than mul/mad (cuda-sim.cc).
        const auto o = static_cast<isa::Opcode>(op);
        if (o == isa::Opcode::Mul24 || o == isa::Opcode::Mad24) ot = {ot.latency + 1, ot.initiation + 1};
      }
    }
  }
}

}  // namespace gputlm::sm
