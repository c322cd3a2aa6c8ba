// Replacement policies (policy objects, created by name). A victim is chosen among the
// candidate ways of a set (the cache excludes reserved lines); invalid candidates are
// taken first (lowest way). LRU orders by last touch, FIFO by insertion; ties cannot
// occur because stamps come from a per-policy counter, never from the clock.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gputlm::mem {

class ReplacementIF {
 public:
  virtual ~ReplacementIF() = default;
  virtual const char* name() const = 0;
  virtual void on_insert(uint32_t set, uint32_t way) = 0;  // line (re)allocated
  virtual void on_hit(uint32_t set, uint32_t way) = 0;
  // Among ways with candidate[w] true, the one to evict; -1 if none.
  virtual int32_t victim(uint32_t set, const std::vector<uint8_t>& candidate,
                         const std::vector<uint8_t>& valid) const = 0;
};

const std::vector<std::string>& replacement_policies();
std::unique_ptr<ReplacementIF> make_replacement(const std::string& name, uint32_t sets, uint32_t ways,
                                                const std::string& key);

}  // namespace gputlm::mem
