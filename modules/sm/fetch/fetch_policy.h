// Fetch-order policies (which warp the fetch unit serves first) and the L1I prefetcher
// hook. Created by name from FetchConfig. See docs/blocks/fetch.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mem/cache/cache_types.h"
#include "sm/sm_config.h"

namespace gputlm::sm {

// The schedulers' current priority orders (highest first), for coordinated fetch.
class SchedulerOrderIF {
 public:
  virtual ~SchedulerOrderIF() = default;
  virtual uint32_t scheduler_count() const = 0;
  virtual const std::vector<uint32_t>& priority_order(uint32_t scheduler) const = 0;
};

class FetchOrderIF {
 public:
  virtual ~FetchOrderIF() = default;
  virtual const char* name() const = 0;
  // Appends warp slots in the order fetch considers them this cycle; `live` lists the
  // resident warps that may still issue, ascending.
  virtual void order(const std::vector<uint32_t>& live, std::vector<uint32_t>& out) = 0;
  virtual void fetched(uint32_t slot) = 0;
};

// round_robin: the warps after the last one fetched, wrapping around.
std::unique_ptr<FetchOrderIF> make_round_robin_fetch();
// scheduler_priority (ELF 000 §3.3): S0's best, S1's best, S0's second, ...; warps that no
// scheduler lists (throttled) are not fetched.
std::unique_ptr<FetchOrderIF> make_scheduler_priority_fetch(const SchedulerOrderIF& schedulers);

// Interleaves the lists: a[0], b[0], c[0], a[1], b[1], ... (skipping exhausted lists).
void interleave_orders(const std::vector<const std::vector<uint32_t>*>& lists, std::vector<uint32_t>& out);

class InstructionPrefetcherIF {
 public:
  virtual ~InstructionPrefetcherIF() = default;
  virtual const char* name() const = 0;
  // Every L1I access (from the cache's access hook).
  virtual void observe(const mem::AccessRecord& rec) = 0;
  // Byte address of a line to prefetch now, given the occupied MSHRs of L1I + L1D; false
  // when there is nothing to prefetch or the gate is closed.
  virtual bool next(uint32_t occupied_mshrs, uint64_t& line_address) = 0;
  // The candidate returned by next() was sent (true) or refused by the cache (false).
  virtual void sent(bool accepted) = 0;
  // False for a prefetcher that never sends: the fetch stage may then sleep on cycles
  // where no warp can fetch.
  virtual bool may_prefetch() const { return true; }
};

// "none" or "next_line" (ELF 000 §3.5: on a demand miss to line X, prefetch X+1 while
// occupied MSHRs < threshold; threshold 0 disables).
std::unique_ptr<InstructionPrefetcherIF> make_instruction_prefetcher(const FetchConfig& cfg, uint32_t line_size);

}  // namespace gputlm::sm
