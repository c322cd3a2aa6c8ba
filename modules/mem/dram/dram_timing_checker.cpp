#include "mem/dram/dram_timing_checker.h"

namespace gputlm {

const char* to_string(DramCommand c) {
  switch (c) {
    case DramCommand::Activate: return "ACT";
    case DramCommand::Precharge: return "PRE";
    case DramCommand::Read: return "RD";
    case DramCommand::Write: return "WR";
  }
  return "?";
}

DramTimingChecker::DramTimingChecker(const DramConfig& cfg, std::string channel_name)
    : t_(cfg.timing), d_(DramDerivedTiming::from(cfg)), name_(std::move(channel_name)), banks_(cfg.banks) {}

void DramTimingChecker::violate(const std::string& constraint, DramCommand cmd, uint32_t bank, uint64_t cycle,
                                const std::string& detail) const {
  throw DramTimingViolation(name_ + ": DRAM timing violation (" + constraint + "): " + to_string(cmd) + " to bank " +
                            std::to_string(bank) + " at cycle " + std::to_string(cycle) + ": " + detail);
}

void DramTimingChecker::require_after(const char* constraint, DramCommand cmd, uint32_t bank, uint64_t cycle,
                                      uint64_t earlier, uint64_t gap, const char* earlier_what) const {
  if (earlier == kNever || cycle >= earlier + gap) return;
  violate(constraint, cmd, bank, cycle,
          std::string(earlier_what) + " at cycle " + std::to_string(earlier) + " allows it from cycle " +
              std::to_string(earlier + gap));
}

void DramTimingChecker::observe(DramCommand cmd, uint32_t bank, uint64_t row, uint64_t cycle) {
  ++checked_;
  if (bank >= banks_.size())
    violate("bank index", cmd, bank, cycle, "the channel has " + std::to_string(banks_.size()) + " banks");
  if (last_cmd_ != kNever && cycle <= last_cmd_)
    violate("command bus", cmd, bank, cycle,
            "one command per cycle, in time order; previous command at cycle " + std::to_string(last_cmd_));
  last_cmd_ = cycle;
  Bank& b = banks_[bank];
  switch (cmd) {
    case DramCommand::Activate:
      if (b.open) violate("bank state", cmd, bank, cycle, "bank already has row " + std::to_string(b.row) + " open");
      require_after("tRP", cmd, bank, cycle, b.last_pre, t_.tRP, "PRE of this bank");
      require_after("tRC", cmd, bank, cycle, b.last_act, t_.tRC, "ACT of this bank");
      require_after("tRRD", cmd, bank, cycle, last_act_any_, t_.tRRD, "ACT of any bank");
      b.open = true;
      b.row = row;
      b.last_act = last_act_any_ = cycle;
      break;
    case DramCommand::Precharge:
      if (!b.open) violate("bank state", cmd, bank, cycle, "bank is already precharged");
      require_after("tRAS", cmd, bank, cycle, b.last_act, t_.tRAS, "ACT of this bank");
      require_after("tRTP", cmd, bank, cycle, b.last_rd, t_.tRTP, "RD of this bank");
      require_after("tWR", cmd, bank, cycle, b.last_wr, d_.tWTP, "WR of this bank (tWL + burst + tWR)");
      b.open = false;
      b.last_pre = cycle;
      break;
    case DramCommand::Read:
    case DramCommand::Write: {
      const bool rd = cmd == DramCommand::Read;
      if (!b.open) violate("bank state", cmd, bank, cycle, "no row is open");
      if (b.row != row)
        violate("bank state", cmd, bank, cycle,
                "row " + std::to_string(row) + " accessed while row " + std::to_string(b.row) + " is open");
      if (rd) {
        require_after("tRCD", cmd, bank, cycle, b.last_act, t_.tRCD, "ACT of this bank");
        require_after("tWTR", cmd, bank, cycle, last_wr_any_, d_.tWTR, "WR (tWL + burst + tCDLR)");
      } else {
        require_after("tRCDWR", cmd, bank, cycle, b.last_act, d_.tRCDWR, "ACT of this bank (tRCD - tWL - 1)");
        require_after("tRTW", cmd, bank, cycle, last_rd_any_, d_.tRTW, "RD (tCL + burst + 2 - tWL)");
      }
      require_after("tCCD", cmd, bank, cycle, last_col_any_, t_.tCCD, "column command of any bank");
      const uint64_t data_start = cycle + (rd ? t_.tCL : t_.tWL);
      if (data_start < data_bus_free_)
        violate(rd ? "tCL data bus" : "tWL data bus", cmd, bank, cycle,
                "its data starts at cycle " + std::to_string(data_start) + " while the bus is busy until cycle " +
                    std::to_string(data_bus_free_));
      data_bus_free_ = data_start + d_.burst;
      last_col_any_ = cycle;
      if (rd) b.last_rd = last_rd_any_ = cycle;
      else b.last_wr = last_wr_any_ = cycle;
      break;
    }
  }
}

}  // namespace gputlm
