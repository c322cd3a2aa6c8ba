// An independent observer of a DRAM channel's command stream (as DRAMSys ships one
// checker per standard): every ACT, PRE, RD and WR is reported with its command-clock
// cycle, and the checker asserts that no timing constraint and no bank-state rule is
// ever violated. It keeps its own bank state and shares no code with the controller's
// scheduling, so a scheduling bug cannot hide itself.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "mem/dram/dram_config.h"

namespace gputlm {

enum class DramCommand : uint8_t { Activate, Precharge, Read, Write };
const char* to_string(DramCommand c);

class DramTimingViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DramTimingChecker {
 public:
  DramTimingChecker(const DramConfig& cfg, std::string channel_name);

  // Throws DramTimingViolation naming the constraint, the command, the bank and the
  // cycles involved. `row` is the row opened (ACT) or accessed (RD/WR); ignored for PRE.
  void observe(DramCommand cmd, uint32_t bank, uint64_t row, uint64_t cycle);

  uint64_t commands_checked() const { return checked_; }

 private:
  static constexpr uint64_t kNever = ~uint64_t{0};
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    uint64_t last_act = kNever, last_pre = kNever, last_rd = kNever, last_wr = kNever;
  };
  [[noreturn]] void violate(const std::string& constraint, DramCommand cmd, uint32_t bank, uint64_t cycle,
                            const std::string& detail) const;
  void require_after(const char* constraint, DramCommand cmd, uint32_t bank, uint64_t cycle, uint64_t earlier,
                     uint64_t gap, const char* earlier_what) const;

  DramTimingConfig t_;
  DramDerivedTiming d_;
  std::string name_;
  std::vector<Bank> banks_;
  uint64_t last_cmd_ = kNever, last_act_any_ = kNever, last_col_any_ = kNever;
  uint64_t last_rd_any_ = kNever, last_wr_any_ = kNever;
  uint64_t data_bus_free_ = 0;  // first cycle after the last data burst
  uint64_t checked_ = 0;
};

}  // namespace gputlm
