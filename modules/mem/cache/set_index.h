// Set-index functions (policy objects, created by name): which set a block maps to.
//  linear     : block mod sets (GPGPU-Sim's default).
//  xor        : the index bits XORed with every higher group of log2(sets) block-address
//               bits, for any power-of-two number of sets; spreads power-of-two strides
//               that all map to one set under linear indexing.
//  fermi_hash : GPGPU-Sim's hashed index ('H') from Nugteren et al. (HPCA 2014), which
//               the thesis adds to L1 and L2 in ch.5 [NBC14]; defined for 32 or 64 sets.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gputlm::mem {

class SetIndexIF {
 public:
  virtual ~SetIndexIF() = default;
  virtual const char* name() const = 0;
  // block = byte address / line size.
  virtual uint32_t set_of(uint64_t block) const = 0;
};

const std::vector<std::string>& set_index_functions();
// Throws config::ConfigError naming `key` if the function does not support `sets`.
std::unique_ptr<SetIndexIF> make_set_index(const std::string& name, uint32_t sets, uint32_t line_size,
                                           const std::string& key);

}  // namespace gputlm::mem
