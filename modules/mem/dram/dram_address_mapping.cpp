#include "mem/dram/dram_address_mapping.h"

#include "core/config/config_source.h"

namespace gputlm {

DramAddressMapping::DramAddressMapping(const std::string& pattern, const std::string& key) {
  std::string bits;
  for (char ch : pattern)
    if (ch != '.') bits.push_back(ch);
  if (bits.empty() || bits.size() > 63)
    throw config::ConfigError("key '" + key + "': the pattern must have 1 to 63 bit characters, got " +
                              std::to_string(bits.size()));
  width_ = static_cast<uint32_t>(bits.size());
  for (std::size_t i = 0; i < bits.size(); ++i) {
    const uint64_t bit = uint64_t{1} << (bits.size() - 1 - i);
    switch (bits[i]) {
      case 'R': row_mask_ |= bit; ++row_bits_; break;
      case 'B': bank_mask_ |= bit; ++bank_bits_; break;
      case 'C': col_mask_ |= bit; break;
      case 'S': case '0': break;
      default: {
        // Report the position in the original string (dots included).
        std::size_t pos = 0, seen = 0;
        for (; pos < pattern.size(); ++pos)
          if (pattern[pos] != '.' && seen++ == i) break;
        throw config::ConfigError("key '" + key + "': character " + std::to_string(pos + 1) + " ('" +
                                  std::string(1, bits[i]) + "') is not one of R, B, C, S, 0, '.'");
      }
    }
  }
  if (bank_bits_ > 16) throw config::ConfigError("key '" + key + "': more than 16 bank bits");
  row_runs_ = Runs(row_mask_);
  bank_runs_ = Runs(bank_mask_);
  col_runs_ = Runs(col_mask_);
}

DramAddressMapping::Runs::Runs(uint64_t mask) {
  uint32_t out = 0;
  while (mask != 0) {
    const uint32_t lo = static_cast<uint32_t>(__builtin_ctzll(mask));
    const uint64_t from_lo = mask >> lo;
    const uint32_t width = from_lo == ~uint64_t{0} ? 64 - lo : static_cast<uint32_t>(__builtin_ctzll(~from_lo));
    const uint64_t bits = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    run[count].shift = static_cast<uint8_t>(lo);
    run[count].out = static_cast<uint8_t>(out);
    run[count].mask = bits;
    ++count;
    out += width;
    mask &= ~(bits << lo);
  }
}

uint64_t DramAddressMapping::deposit(uint64_t value, uint64_t mask) {
  uint64_t out = 0;
  int k = 0;
  for (int b = 0; b < 64; ++b)
    if (mask & (uint64_t{1} << b)) out |= ((value >> k++) & 1u) << b;
  return out;
}

DramCoordinates DramAddressMapping::decode(uint64_t a) const {
  DramCoordinates c;
  c.bank = static_cast<uint32_t>(bank_runs_.extract(a));
  c.column = col_runs_.extract(a);
  c.row = row_runs_.extract(a) | ((a >> width_) << row_bits_);
  return c;
}

uint64_t DramAddressMapping::encode(const DramCoordinates& c) const {
  const uint64_t row_low = c.row & ((uint64_t{1} << row_bits_) - 1);
  return deposit(row_low, row_mask_) | deposit(c.bank, bank_mask_) | deposit(c.column, col_mask_) |
         ((c.row >> row_bits_) << width_);
}

}  // namespace gputlm
