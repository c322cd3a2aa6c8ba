// The MSHR array interface shared by every organisation (seed-mechanisms §E): the cache
// asks an MSHR array how a miss would be handled (plan), then applies the decision
// (commit) once the cache's own resources (miss queue) are known to be available, and
// releases the entry when the block is filled.
//
// TSMA-style organisations keep no block tags: the pending block's tag lives in the
// cache's tag array. The cache therefore describes what its tag array saw (MissQuery:
// a matching reserved line and its stored MSHR index, the replacement victim, the
// victim's hit bit, the number of reserved lines in the set) and the plan tells the
// cache whether to reserve ("share") the victim line now and which MSHR index to
// store in it. The lower level returns that index in MemExtension::mshr_index[level].
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <tlm>

#include "core/stats/stats.h"
#include "core/tlm/mem_extension.h"
#include "mem/mshr/mshr_config.h"

namespace gputlm::mem {

// "0x1f80": addresses in error messages.
inline std::string hex_address(uint64_t a) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(a));
  return b;
}

// One merged request waiting for a block.
struct MshrField {
  tlm::tlm_generic_payload* request = nullptr;  // the upstream request to answer at fill
  int32_t warp = -1;                            // LAWS: WID of the requester
  bool write = false;                           // a store/atomic (write-allocate: line dirty at fill)
};

// Which structure of the array handles a miss (HTSMA has two).
enum class MshrStructure : uint8_t { Main, Small };

// What the cache's tag array saw for an access that did not hit a valid line.
struct MissQuery {
  uint64_t block = 0;          // block (line) address = byte address / line size
  uint32_t set = 0;            // cache set of the block
  uint32_t ways = 1;           // cache associativity
  int32_t matched_way = -1;    // way holding this block as a reserved (pending) line, or -1
  int32_t matched_index = -1;  // MSHR index stored in that line, or -1
  int32_t victim_way = -1;     // replacement victim among non-reserved ways, -1 if all reserved
  bool victim_hit = false;     // HTSMA: hit bit of the victim line
  uint32_t set_reserved = 0;   // reserved (TSMA: shared) lines in the set: HTSMA share_cnt
  bool allocate_on_miss = true;  // the cache's allocation policy (conventional organisations)
};

enum class MshrAction : uint8_t { Merge, Allocate, Fail };

struct MshrPlan {
  MshrAction action = MshrAction::Fail;
  ReservationFail cause = ReservationFail::None;  // when action == Fail
  int32_t entry = -1;          // entry to merge into / to allocate
  bool reserve_line = false;   // Allocate: reserve the victim line now (on-miss / tag sharing)
  MshrStructure structure = MshrStructure::Main;
};

class MshrIF {
 public:
  virtual ~MshrIF() = default;
  virtual const char* organisation() const = 0;

  // How the miss described by q would be handled. Counts the tag comparisons of the
  // search (also for a search that ends in a failure); changes no other state.
  virtual MshrPlan plan(const MissQuery& q) = 0;
  // Applies an Allocate or Merge plan returned by the last plan() for `block`.
  virtual void commit(const MshrPlan& p, uint64_t block, const MshrField& f) = 0;
  // The entry a returning block belongs to: by the index the response carries (TSMA) or
  // by an associative search (conventional; counts comparisons). Throws a
  // std::runtime_error naming the block and index if no entry waits for it.
  virtual int32_t find_for_fill(uint64_t block, int32_t returned_index) = 0;
  virtual void release(int32_t entry) = 0;

  // True when `entry` (0..capacity()-1) is allocated; the accessors below need one.
  virtual bool in_use(int32_t entry) const = 0;
  virtual uint32_t field_count(int32_t entry) const = 0;
  virtual const MshrField& field(int32_t entry, uint32_t i) const = 0;
  virtual uint64_t block_of(int32_t entry) const = 0;
  // True when the entry was allocated with reserve_line (its line is reserved in the cache).
  virtual bool line_reserved(int32_t entry) const = 0;

  // Occupied entries (all structures), total entries, Mascar's "almost full" flag.
  virtual uint32_t occupied() const = 0;
  virtual uint32_t capacity() const = 0;
  virtual bool almost_full() const = 0;

  // Adds the constant statistic `storage_bits` (mshr_storage.h) to the array's group.
  virtual void expose_storage_bits(uint64_t bits) = 0;
};

struct MshrStorageGeometry;

// Creates the organisation named by cfg.organisation; its statistics go in a group
// "mshr" under `parent`, with `storage_bits` when the cache's `geometry` is given.
// Throws config::ConfigError for an unknown name.
std::unique_ptr<MshrIF> make_mshr(const MshrConfig& cfg, stats::Group& parent,
                                  const MshrStorageGeometry* geometry = nullptr);

}  // namespace gputlm::mem
