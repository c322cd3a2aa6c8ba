// Golden reference for the DRAM controller: the completion cycle of requests served
// one at a time (no other request in the channel), computed from the timing
// parameters alone. With nothing competing, every command issues at the first cycle
// all its constraints allow, so:
//   row hit      : RD at a;               response at a + (atoms-1)*tCCD + tCL + burst
//   row miss     : ACT at a, RD at a+tRCD: response at a + tRCD + (atoms-1)*tCCD + tCL + burst
//   row conflict : PRE at a, ACT at a+tRP: response at a + tRP + tRCD + (atoms-1)*tCCD + tCL + burst
// when the previous commands are long past; otherwise tRAS, tRC, tRRD, tRTP, tWR,
// tWTR and tRTW delay the commands, which the model tracks below.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "mem/dram/dram_config.h"

namespace gputlm::tb {

class DramReference {
 public:
  explicit DramReference(const DramConfig& cfg)
      : cfg_(cfg), d_(DramDerivedTiming::from(cfg)), banks_(cfg.banks) {}

  // Response cycle of a request accepted at cycle `a` (the channel otherwise empty).
  uint64_t serve(uint64_t a, uint32_t bank, uint64_t row, bool write, uint32_t bytes) {
    const DramTimingConfig& t = cfg_.timing;
    const uint32_t atoms = (bytes + cfg_.atom_bytes() - 1) / cfg_.atom_bytes();
    Bank& b = banks_[bank];
    uint64_t n = a;
    if (b.open && b.row != row) {
      const uint64_t pre = max_of({n, after(b.last_act, t.tRAS), after(b.last_rd, t.tRTP), after(b.last_wr, d_.tWTP)});
      b.open = false;
      b.last_pre = pre;
      n = pre + 1;
    }
    if (!b.open) {
      const uint64_t act = max_of({n, after(b.last_pre, t.tRP), after(b.last_act, t.tRC), after(last_act_, t.tRRD)});
      b.open = true;
      b.row = row;
      b.last_act = last_act_ = act;
      n = act + 1;
    }
    uint64_t done = 0;
    for (uint32_t k = 0; k < atoms; ++k) {
      const uint32_t lat = write ? t.tWL : t.tCL;
      uint64_t col = max_of({n, after(b.last_act, write ? d_.tRCDWR : t.tRCD), after(last_col_, t.tCCD),
                             write ? after(last_rd_, d_.tRTW) : after(last_wr_, d_.tWTR)});
      if (col + lat < bus_free_) col = bus_free_ - lat;
      bus_free_ = col + lat + d_.burst;
      last_col_ = col;
      if (write) b.last_wr = last_wr_ = col;
      else b.last_rd = last_rd_ = col;
      done = bus_free_;
      n = col + 1;
    }
    return std::max(done, a + cfg_.min_latency);
  }

 private:
  static constexpr uint64_t kNever = ~uint64_t{0};
  struct Bank {
    bool open = false;
    uint64_t row = 0, last_act = kNever, last_pre = kNever, last_rd = kNever, last_wr = kNever;
  };
  static uint64_t after(uint64_t event, uint64_t gap) { return event == kNever ? 0 : event + gap; }
  static uint64_t max_of(std::initializer_list<uint64_t> v) { return *std::max_element(v.begin(), v.end()); }

  DramConfig cfg_;
  DramDerivedTiming d_;
  std::vector<Bank> banks_;
  uint64_t last_act_ = kNever, last_col_ = kNever, last_rd_ = kNever, last_wr_ = kNever, bus_free_ = 0;
};

}  // namespace gputlm::tb
