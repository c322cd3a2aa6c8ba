// What a cache reports about each access (per-access hook, statistics) and the small
// interfaces other blocks read or drive combinationally (architecture §4): MSHR
// occupancy and saturation (Mascar's flag, ELF's I-prefetch gate), a presence probe
// (prefetchers, Mascar stranded hits), the owner warp (Mascar) and kernel-boundary
// invalidation.
#pragma once

#include <cstdint>
#include <functional>
#include <systemc>
#include <tlm>

#include "core/tlm/mem_extension.h"

namespace gputlm::mem {

enum class AccessOutcome : uint8_t {
  Hit,              // valid line present
  HitReserved,      // line reserved for a pending fill (on-miss / TSMA shared): merged
  PrimaryMiss,      // new MSHR entry, request sent down
  SecondaryMiss,    // merged into an MSHR entry found by its search (on-fill, s-MSHR)
  MissNoAllocate,   // write-evict store to an absent line: written through only
  ReservationFail,  // refused; see the cause
  Nack,             // Mascar: a non-owner warp's miss while an owner is set
  LazyWrite,        // lazy fetch-on-read store to an absent line / sector: allocated, no fetch
};
inline constexpr int kAccessOutcomes = 8;
const char* to_string(AccessOutcome o);
// The access was refused (retried by its sender): a reservation fail or Mascar's NACK.
inline bool is_refusal(AccessOutcome o) { return o == AccessOutcome::ReservationFail || o == AccessOutcome::Nack; }

// LAWS (001 §2.5) load classes of seed-mechanisms §S: l1_MISS/INTRA/INTER/INTRA_M/INTER_M.
enum class LocalityClass : uint8_t { None, Miss, Intra, Inter, IntraMerge, InterMerge };
const char* to_string(LocalityClass c);

struct AccessRecord {
  uint64_t cycle = 0;
  uint64_t address = 0;
  uint32_t bytes = 0;  // data length of the access
  uint64_t block = 0;
  uint32_t set = 0;
  AccessKind kind = AccessKind::Load;
  int32_t sm = -1;
  int32_t warp = -1;
  AccessOutcome outcome = AccessOutcome::Hit;
  ReservationFail cause = ReservationFail::None;
  LocalityClass locality = LocalityClass::None;  // demand loads only
  int32_t mshr_entry = -1;
  bool mshr_full = false;  // every MSHR entry is occupied after this access (set for the hook)
  // LAWS (Hit, LT) signal: hit = L1 or MSHR hit, lt = same warp as line WID / field 0.
  bool laws_hit() const { return locality == LocalityClass::Intra || locality == LocalityClass::Inter ||
                                 locality == LocalityClass::IntraMerge || locality == LocalityClass::InterMerge; }
  bool laws_lt() const { return locality == LocalityClass::Intra || locality == LocalityClass::IntraMerge; }
};
using AccessHook = std::function<void(const AccessRecord&)>;
// Called when a fill is processed (block, MSHR entry), before the merged requests are
// answered: prefetch-usefulness tracking, golden models.
using FillHook = std::function<void(uint64_t cycle, uint64_t block, int32_t entry)>;
// Called when a valid line is replaced to make room for another block (a miss's reserved
// victim, an on-fill victim, a lazy write's victim), with the line's block and the warp
// that allocated it (CacheLine::wid): CCWS's victim tag arrays. Not called for
// write-evict invalidations or kernel-boundary invalidation.
using EvictionHook = std::function<void(uint64_t cycle, uint64_t block, int32_t wid)>;

// Read combinationally by the SM (LSU, scheduler, prefetch gate).
class CacheStatusIF : public virtual sc_core::sc_interface {
 public:
  virtual uint32_t mshr_occupied() const = 0;  // ELF gate: sum L1I + L1D
  virtual uint32_t mshr_capacity() const = 0;
  virtual bool saturated() const = 0;           // Mascar "almost full" (MSHR or miss queue)
  virtual bool probe(uint64_t address) const = 0;  // a valid line holds the address
  // probe() of any of `addresses`. With `since`: the caller found none of the same
  // addresses present when it last passed this stamp (the call updates it), so only lines
  // that gained valid sectors since then need a look; a default stamp asks every address.
  // The stamp also keeps a hashed set of the addresses' blocks, so a gained block that is
  // none of them costs one bit test.
  struct ProbeStamp {
    uint64_t gains = ~uint64_t{0}, unlogged = ~uint64_t{0};
    uint64_t blocks[4] = {0, 0, 0, 0};  // bit block_hash(b) for each address's block b
    static uint32_t block_hash(uint64_t block) {
      return static_cast<uint32_t>((block * 0x9E3779B97F4A7C15ull) >> 56);  // 0..255
    }
    void add(uint64_t block) {
      const uint32_t h = block_hash(block);
      blocks[h >> 6] |= uint64_t{1} << (h & 63);
    }
    bool may_hold(uint64_t block) const {
      const uint32_t h = block_hash(block);
      return (blocks[h >> 6] >> (h & 63)) & 1u;
    }
  };
  virtual bool probe_any(const uint64_t* addresses, uint32_t n, ProbeStamp* since) const = 0;
  // Changes whenever some probe() answer may have changed (Mascar's stranded-hit count
  // reuses its probes while it stays the same).
  virtual uint64_t contents_version() const = 0;
};

// What a cache reads of a request to decide an access: kept by a requester whose request
// was refused, so that it can try again through L1RetryIF.
struct AccessKey {
  uint64_t address = 0;
  uint32_t bytes = 0;
  AccessKind kind = AccessKind::Load;
  int32_t sm = -1;
  int32_t warp = -1;
};

struct RetryResult {
  enum class Outcome : uint8_t {
    NotTried,  // not decided at once (port taken, response queue full, stall mode): send BEGIN_REQ
    Accepted,  // as BEGIN_REQ answered END_REQ at once (TLM_UPDATED)
    Refused,   // as BEGIN_REQ answered TLM_COMPLETED with `status` and `cause`
  };
  Outcome outcome = Outcome::NotTried;
  MemStatus status = MemStatus::Ok;
  ReservationFail cause = ReservationFail::None;
};

// A simulation shortcut with no hardware behind it: retrying a refused request here decides
// exactly what its BEGIN_REQ would (the same port, queues, tags, MSHR, owner rule,
// statistics and hook) but reads the request from `key` instead of the payload, so a retry
// that is refused again touches neither the payload nor its extensions, nor sets their
// status (the requester clears it after a refusal anyway). Under Mascar's CAR the LSU
// rotates through up to 64 refused requests, one retry per cycle; reading each payload
// again cost more host time than the rest of Mascar (docs/performance.md, issue 13).
// A requester uses it only where nothing observes the socket (no tap).
class L1RetryIF : public virtual sc_core::sc_interface {
 public:
  // `gp` is the refused payload, `key` what was read of it; an accepted access takes it
  // as BEGIN_REQ would.
  virtual RetryResult retry(tlm::tlm_generic_payload& gp, const AccessKey& key) = 0;
};

// A prefetch request into an L1 (the L1D as the prefetch cache, 001 §4.3): what it became.
enum class PrefetchOutcome : uint8_t {
  Issued,         // an MSHR entry and a request to the next level; the line fills the cache
  Present,        // dropped: the line is valid in the cache
  InFlight,       // dropped: a miss (demand or prefetch) for the line is pending
  NoMshr,         // dropped: no MSHR entry could be allocated (or too few left, keep_free)
  MissQueueFull,  // dropped: no room in the queue towards the next level
};
inline constexpr int kPrefetchOutcomes = 5;

// Told by the cache when a prefetched line serves its first demand load (useful; also
// a demand merged into the prefetch's pending miss) or leaves the cache unused (useless).
class PrefetchFeedbackIF {
 public:
  virtual ~PrefetchFeedbackIF() = default;
  virtual void on_useful() = 0;
  virtual void on_useless() = 0;
};

// The prefetch path of an L1 (the LSU's data prefetcher): decided at once, in the cycle of
// the call, like an access, but without taking an access port; it never waits.
class L1PrefetchIF {
 public:
  virtual ~L1PrefetchIF() = default;
  virtual PrefetchOutcome prefetch(uint64_t address, int32_t sm, int32_t warp, uint64_t pc) = 0;
};

// Driven by the SM / GPU.
class CacheControlIF : public virtual sc_core::sc_interface {
 public:
  // Mascar owner warp (-1: none). With an owner set, a miss of another warp is NACKed.
  virtual void set_owner_warp(int32_t warp) = 0;
  virtual int32_t owner_warp() const = 0;
  // Kernel boundary: at the next edge every valid line is invalidated (dirty ones are
  // written back); lines reserved for pending fills are kept.
  virtual void invalidate_all() = 0;
};

}  // namespace gputlm::mem
