// Channel-local address -> (bank, row, column), from a bit pattern in GPGPU-Sim's
// style (-gpgpu_mem_addr_mapping): one character per address bit, most significant
// first: R row, B bank, C column, S byte within a burst, 0 unused; '.' separates
// groups. Each field's bits are gathered in order (a parallel bit extract). Address
// bits above the pattern are appended to the row, so no two addresses alias.
#pragma once

#include <cstdint>
#include <string>

namespace gputlm {

struct DramCoordinates {
  uint32_t bank = 0;
  uint64_t row = 0;
  uint64_t column = 0;
};

class DramAddressMapping {
 public:
  // Throws config::ConfigError naming `key` and the offending character position.
  DramAddressMapping(const std::string& pattern, const std::string& key);

  DramCoordinates decode(uint64_t local_address) const;
  uint32_t bank_bits() const { return bank_bits_; }
  uint64_t bank_mask() const { return bank_mask_; }  // address bits that select the bank
  uint32_t banks() const { return 1u << bank_bits_; }
  uint32_t pattern_bits() const { return width_; }
  // The lowest local address with the given coordinates (for testbenches).
  uint64_t encode(const DramCoordinates& c) const;

 private:
  // A mask as runs of contiguous bits, so decode gathers a field with a shift and a mask
  // per run instead of a test per address bit (decode runs once per DRAM request).
  struct Runs {
    struct Run {
      uint8_t shift = 0, out = 0;
      uint64_t mask = 0;  // the run's bits, shifted down to bit 0
    };
    uint32_t count = 0;
    Run run[32];  // a 63-bit mask has at most 32 runs
    explicit Runs(uint64_t mask = 0);
    uint64_t extract(uint64_t value) const {
      uint64_t out = 0;
      for (uint32_t i = 0; i < count; ++i) out |= ((value >> run[i].shift) & run[i].mask) << run[i].out;
      return out;
    }
  };
  static uint64_t deposit(uint64_t value, uint64_t mask);
  uint64_t row_mask_ = 0, bank_mask_ = 0, col_mask_ = 0;
  Runs row_runs_, bank_runs_, col_runs_;
  uint32_t width_ = 0, bank_bits_ = 0, row_bits_ = 0;
};

}  // namespace gputlm
