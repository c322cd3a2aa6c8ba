// Configuration of an SM's operand collectors and register-file banks
// (docs/blocks/operand_collector.md). Defaults: GPGPU-Sim's GTX480 config
// (-gpgpu_operand_collector_num_units_sp 6, _sfu 8, _mem 2 (GPGPU-Sim default),
// -gpgpu_num_reg_banks 16, shared collector pools, any number of operands read per
// collector per cycle). Pascal/KAWS (seed P2): per_scheduler = true, one collector per
// (scheduler, unit type), reads_per_collector = 1.
#pragma once

#include <cstdint>
#include <string>

#include "core/config/params.h"
#include "sm/warp_instruction.h"

namespace gputlm::sm {

struct OperandCollectorConfig {
  uint32_t register_banks = 16;
  bool per_scheduler = false;
  bool units_per_scheduler = false;
  uint32_t schedulers = 2;
  uint32_t collectors_sp = 6;
  uint32_t collectors_sfu = 8;
  uint32_t collectors_dp = 2;
  uint32_t collectors_int = 2;
  uint32_t collectors_mem = 2;
  uint32_t reads_per_collector = 0;
  // Instructions of each unit type the SM's schedulers may issue in one cycle together
  // (GPGPU-Sim's ID_OC pipeline registers, -gpgpu_pipeline_widths); 0 = no limit.
  uint32_t issue_width_sp = 0, issue_width_sfu = 0, issue_width_dp = 0, issue_width_int = 0, issue_width_mem = 0;

  template <class V>
  void visit(V& v) {
    v.param("register_banks", register_banks,
            "register-file banks; register r of warp w is in bank (r + w) mod banks (-gpgpu_num_reg_banks); "
            "each bank delivers one operand per cycle",
            config::at_least(1));
    v.param("per_scheduler", per_scheduler,
            "false: one collector pool per unit type shared by all schedulers (GPGPU-Sim Fermi); true: the "
            "collectors_* counts are per (scheduler, unit type) (Pascal / KAWS)");
    v.param("units_per_scheduler", units_per_scheduler,
            "true: unit k of each type (SP, SFU, DP, INT) takes instructions only from the collectors of scheduler "
            "k mod schedulers (GPGPU-Sim's sub-core model; KAWS' four SP/SFU/MEM widths, one per scheduler), so a "
            "scheduler's busy unit stalls it although another's is free; the LSU stays shared. Needs per_scheduler "
            "and unit counts that are multiples of schedulers; false: any unit of the type (Fermi)");
    v.param("schedulers", schedulers, "warp schedulers of the SM (issue ports of the collector stage)",
            config::at_least(1));
    v.param("collectors_sp", collectors_sp, "collector units for the SP units (-gpgpu_operand_collector_num_units_sp)",
            config::at_least(1));
    v.param("collectors_sfu", collectors_sfu, "collector units for the SFU units (..._num_units_sfu)",
            config::at_least(1));
    v.param("collectors_dp", collectors_dp, "collector units for the DP units (used only when DP units exist)",
            config::at_least(1));
    v.param("collectors_int", collectors_int, "collector units for the INT units (used only when INT units exist)",
            config::at_least(1));
    v.param("collectors_mem", collectors_mem, "collector units for the LSU (..._num_units_mem)",
            config::at_least(1));
    v.param("reads_per_collector", reads_per_collector,
            "operands one collector unit receives per cycle; 0 = as many as banks deliver (GPGPU-Sim), 1 = "
            "single-ported (Pascal/KAWS)",
            config::at_least(0));
    const char* w = "instructions for this unit type all schedulers of the SM may issue in one cycle together "
                    "(GPGPU-Sim's ID_OC register width, -gpgpu_pipeline_widths: 2 SP, 1 SFU, 1 MEM on the GTX480); "
                    "0 = no limit";
    v.param("issue_width_sp", issue_width_sp, w, config::at_least(0));
    v.param("issue_width_sfu", issue_width_sfu, w, config::at_least(0));
    v.param("issue_width_dp", issue_width_dp, w, config::at_least(0));
    v.param("issue_width_int", issue_width_int, w, config::at_least(0));
    v.param("issue_width_mem", issue_width_mem, w, config::at_least(0));
  }
  uint32_t issue_width(UnitType u) const {
    switch (u) {
      case UnitType::Sp: return issue_width_sp;
      case UnitType::Sfu: return issue_width_sfu;
      case UnitType::Dp: return issue_width_dp;
      case UnitType::Int: return issue_width_int;
      case UnitType::Mem: return issue_width_mem;
    }
    return 0;
  }
  uint32_t collectors(UnitType u) const {
    switch (u) {
      case UnitType::Sp: return collectors_sp;
      case UnitType::Sfu: return collectors_sfu;
      case UnitType::Dp: return collectors_dp;
      case UnitType::Int: return collectors_int;
      case UnitType::Mem: return collectors_mem;
    }
    return 0;
  }
  void validate(const std::string& key_prefix) const;
};

}  // namespace gputlm::sm
