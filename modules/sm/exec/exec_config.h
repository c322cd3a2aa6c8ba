// Configuration of an SM's execution units and writeback (docs/blocks/exec.md).
// Defaults: GPGPU-Sim's GTX480 config (configs/GTX480/gpgpusim.config, 3.x):
//   -ptx_opcode_latency_int 4,13,4,5,145   -ptx_opcode_initiation_int 1,2,2,1,8
//   -ptx_opcode_latency_fp  4,13,4,5,39    -ptx_opcode_initiation_fp  1,2,1,1,4
//   -ptx_opcode_latency_dp  8,19,8,8,330   -ptx_opcode_initiation_dp  8,16,8,8,130
// each list in the order ADD, MAX, MUL, MAD, DIV; SFU operations (sqrt, rsqrt, rcp, sin,
// cos, ex2, lg2) use the DP MUL entry (8, 8) in GPGPU-Sim 3.2 ("using double to
// approximate those"); every other instruction has latency 1 and interval 1.
// -gpgpu_num_sp_units 2, -gpgpu_num_sfu_units 1, -gpgpu_num_dp_units 0 (Fermi: DP on the
// SFU), EX_WB pipeline width 2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/params.h"

namespace gputlm::sm {

// Names accepted by ExecConfig::forwarding.
inline const std::vector<std::string>& forwarding_names() {
  static const std::vector<std::string> names = {"none", "alu"};
  return names;
}

struct ExecConfig {
  uint32_t sp_units = 2;
  uint32_t sfu_units = 1;
  uint32_t dp_units = 0;
  uint32_t int_units = 0;
  bool divide_on_sfu = true;
  uint32_t pipeline_registers = 0;
  uint32_t width = 1;
  uint32_t simd_width = 32;  // lanes: a warp instruction takes 32 / simd_width cycles of its unit
  std::string forwarding = "none";  // none | alu: results bypassed to dependents at EX_L (004 §4.1)
  std::vector<uint32_t> latency_int{4, 13, 4, 5, 145};
  std::vector<uint32_t> initiation_int{1, 2, 2, 1, 8};
  std::vector<uint32_t> latency_fp{4, 13, 4, 5, 39};
  std::vector<uint32_t> initiation_fp{1, 2, 1, 1, 4};
  std::vector<uint32_t> latency_dp{8, 19, 8, 8, 330};
  std::vector<uint32_t> initiation_dp{8, 16, 8, 8, 130};
  uint32_t latency_sfu = 8;
  uint32_t initiation_sfu = 8;
  uint32_t latency_other = 1;
  uint32_t initiation_other = 1;
  uint32_t latency_branch = 0;   // 0: latency_other
  uint32_t latency_shfl = 32;    // -ptx_opcode_latency_int's 6th entry (GTX480 config)
  uint32_t initiation_shfl = 4;  // -ptx_opcode_initiation_int's 6th entry
  uint32_t result_buffer = 2;
  uint32_t writeback_ports = 2;
  uint32_t writeback_buffer = 8;

  template <class V>
  void visit(V& v) {
    v.param("sp_units", sp_units, "SP units (-gpgpu_num_sp_units); ALU, FP32, FP16, conversions, control",
            config::at_least(1));
    v.param("sfu_units", sfu_units, "SFU units (-gpgpu_num_sfu_units); transcendental ops (and FP64 when dp_units = 0)",
            config::at_least(1));
    v.param("dp_units", dp_units, "DP units (-gpgpu_num_dp_units); 0 = FP64 runs on the SFU (Fermi)",
            config::at_least(0));
    v.param("int_units", int_units, "INT units; 0 = integer multiply/divide run on the SP", config::at_least(0));
    v.param("divide_on_sfu", divide_on_sfu,
            "div, rem, sqrt and rcp of every type (IEEE and integer too) issue to the SFU, as GPGPU-Sim classifies "
            "them (SFU_OP, cuda-sim.cc); false: only the .approx forms and transcendentals go to the SFU, the rest "
            "to the SP (FP64 to the DP unit when there is one)",
            config::any());
    v.param("pipeline_registers", pipeline_registers,
            "cycles every SP/SFU/DP/INT instruction spends in pipeline registers besides its latency, so a "
            "dependent instruction issues latency + 3 + this after it (GPGPU-Sim's ID_OC, OC_EX and EX_WB "
            "registers: 3, a dependent issue at latency + 6)",
            config::at_least(0));
    v.param("width", width, "instructions each unit accepts per cycle (each with its own initiation interval)",
            config::at_least(1));
    v.param("simd_width", simd_width,
            "lanes of each unit and of the LSU's address generation: a warp instruction occupies its unit for "
            "32 / simd_width cycles, one slice of lanes a cycle, and finishes when its last slice does "
            "(004 Table 1's ILP SM: 8 lanes, 4 cycles); 32 = a warp a cycle",
            [] {
              config::Check c = config::power_of_two(1);  // 1, 2, 4, 8, 16 or 32
              c.max = 32;
              return c;
            }());
    v.param("forwarding", forwarding,
            "data bypassing (004 §4.1): none = a dependent instruction issues after its producer's writeback; "
            "alu = the SP/SFU/DP/INT units bypass a result from the last execution stage (EX_L) to EX1 of the "
            "same lane, so a dependent instruction of the same warp dispatches max(latency, 32 / simd_width) "
            "cycles after its producer (RAW only: a register written again, and the warp of an instruction "
            "without destinations, still wait for writeback); LSU results (loads of every space, atomics) always wait "
            "for writeback",
            config::one_of(forwarding_names()));
    v.param("latency_int", latency_int, "integer latency in cycles: ADD,MAX,MUL,MAD,DIV (-ptx_opcode_latency_int)",
            config::at_least(1));
    v.param("initiation_int", initiation_int,
            "integer initiation interval: ADD,MAX,MUL,MAD,DIV (-ptx_opcode_initiation_int)", config::at_least(1));
    v.param("latency_fp", latency_fp, "FP32/FP16 latency: ADD,MAX,MUL,MAD,DIV (-ptx_opcode_latency_fp)",
            config::at_least(1));
    v.param("initiation_fp", initiation_fp, "FP32/FP16 initiation interval: ADD,MAX,MUL,MAD,DIV", config::at_least(1));
    v.param("latency_dp", latency_dp, "FP64 latency: ADD,MAX,MUL,MAD,DIV (-ptx_opcode_latency_dp)",
            config::at_least(1));
    v.param("initiation_dp", initiation_dp, "FP64 initiation interval: ADD,MAX,MUL,MAD,DIV", config::at_least(1));
    v.param("latency_sfu", latency_sfu, "latency of sqrt/rsqrt/rcp/sin/cos/ex2/lg2/tanh (GPGPU-Sim 3.2: DP MUL)",
            config::at_least(1));
    v.param("initiation_sfu", initiation_sfu, "initiation interval of the SFU operations", config::at_least(1));
    v.param("latency_other", latency_other,
            "latency of every other instruction (logic, shifts, compares, moves, conversions, control)",
            config::at_least(1));
    v.param("initiation_other", initiation_other, "initiation interval of every other instruction",
            config::at_least(1));
    v.param("latency_branch", latency_branch,
            "latency of bra, when its outcome is resolved (004's ILP SM: EX4 or EX8); 0 = latency_other",
            config::at_least(0));
    v.param("latency_shfl", latency_shfl, "latency of shfl (the 6th entry of -ptx_opcode_latency_int)",
            config::at_least(1));
    v.param("initiation_shfl", initiation_shfl, "initiation interval of shfl (-ptx_opcode_initiation_int's 6th)",
            config::at_least(1));
    v.param("result_buffer", result_buffer,
            "finished results a unit holds beyond its pipeline while writeback is busy; when full the unit "
            "accepts nothing (back-pressure to the operand collector)",
            config::at_least(1));
    v.param("writeback_ports", writeback_ports,
            "results written back per cycle (EX_WB width); oldest completion first, then issue order",
            config::at_least(1));
    v.param("writeback_buffer", writeback_buffer, "results waiting for a writeback port", config::at_least(1));
  }
  // Each latency/initiation list must have 5 entries (ADD,MAX,MUL,MAD,DIV).
  void validate(const std::string& key_prefix) const;
  bool forwards_alu() const { return forwarding == "alu"; }
  // Cycles a warp instruction occupies its unit (warp size 32).
  uint32_t slices() const { return 32 / simd_width; }
};

}  // namespace gputlm::sm
