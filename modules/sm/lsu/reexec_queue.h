// The slot for a re-execution queue between the LSU and the L1 caches (Mascar CAR,
// digest §C1; ELF NewCAR, §C2). The LSU asks the policy object, every time it could
// send a request to an L1, whether a queued request goes first, whether a new request
// must queue behind older ones (ordering rules), and what to do with a request the L1
// refused (ReservationFail / Nack in its MemExtension). Policies are created by name
// (make_reexec_queue); "none" is the baseline: requests go straight to the L1 and a
// refused request stays at the head of the LSU, which retries it every cycle (stalls).
// CAR and NewCAR plug in as new classes + one registry line, without touching the LSU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <tlm>

#include "core/config/params.h"
#include "core/stats/stats.h"
#include "core/tlm/mem_extension.h"
#include "mem/cache/cache_types.h"

namespace gputlm::sm {

// Which L1 a request goes to.
// Bypass: straight to the SM's memory port, past the L1D (GPGPU-Sim's atomics).
enum class L1Port : uint8_t { Data, Constant, Texture, Bypass };
inline constexpr uint32_t kL1Ports = 4;

// A line request on its way from the LSU to an L1 (what a queue entry holds: the
// payload keeps address, masks, warp and kind in its MemExtension; the copies here let a
// refused request be retried without reading the payload, mem::L1RetryIF).
struct LsuRequest {
  tlm::tlm_generic_payload* gp = nullptr;
  uint64_t seq = 0;  // issue order of its warp instruction
  uint64_t address = 0;
  uint32_t bytes = 0;
  int32_t sm = -1;
  int32_t warp = -1;
  L1Port port = L1Port::Data;
  AccessKind kind = AccessKind::Load;
  bool nacked = false;   // set by the LSU on a refused request: the L1 NACKed it (Mascar owner rule)
  bool refused = false;  // an L1 refused it at least once
};

struct ReexecQueueConfig {
  std::string policy = "none";
  uint32_t entries = 32;
  std::string service = "rotate";
  std::string warp_hold = "issue";

  template <class V>
  void visit(V& v) {
    v.param("policy", policy,
            "re-execution queue between LSU and L1: none (a refused request blocks the LSU and is retried each "
            "cycle); newcar (ELF 000 §3.4: refused requests and those the per-warp ordering rules hold are "
            "queued, served when the queue is full or the LSU idle); car (Mascar 002 §III-C/D: refused and "
            "NACKed requests are queued, one memory instruction per warp, served head first when the queue is "
            "full or the LSU idle, a request refused again goes to the tail)",
            config::one_of({"none", "newcar", "car"}));
    v.param("entries", entries, "queue entries (Mascar / ELF: 32)", config::at_least(1));
    v.param("service", service,
            "newcar: which eligible entry is served (digest §Z7): rotate (after the L1 refuses a queued request, "
            "the entries queued after it go first, wrapping; else the oldest eligible) or oldest (always the "
            "oldest eligible: in effect first-in first-out)",
            config::one_of({"rotate", "oldest"}));
    v.param("warp_hold", warp_hold,
            "car: where a warp's next memory instruction waits while the warp has a queued request (digest §Z34, "
            "unspecified by 002): issue (the schedulers do not issue it; the LSU goes on with other warps) or lsu "
            "(it issues and waits in the LSU, which meanwhile serves only the queue and takes no new instruction)",
            config::one_of({"issue", "lsu"}));
  }
};

class ReexecQueueIF {
 public:
  virtual ~ReexecQueueIF() = default;
  virtual const char* name() const = 0;
  // The LSU has a free L1 send slot in `cycle`; `lsu_has_new` says whether it also has a
  // new request ready. Returns true and fills `out` if a queued request goes now.
  virtual bool pick(bool lsu_has_new, uint64_t cycle, LsuRequest& out) = 0;
  // True when the new request `r` may not bypass queued requests (NewCAR ordering
  // rules); the LSU then hands it to take() without sending it.
  virtual bool must_queue(const LsuRequest& r) const = 0;
  // A request the L1 refused (or one that must_queue). True: the queue keeps it and the
  // LSU moves on; false: the LSU keeps it and retries (the LSU stalls).
  virtual bool take(const LsuRequest& r, uint64_t cycle) = 0;
  // While true the LSU takes no new memory instruction (CAR: queue full).
  virtual bool blocks_new_instructions() const = 0;
  virtual uint32_t occupancy() const = 0;
  // Mascar: at most one queued instruction per warp; schedulers may read this.
  virtual bool has_queued(int32_t warp) const = 0;
  // Mascar: the warp of the entry the queue serves next (a new owner when ownership is
  // released with no memory-ready warp, 002 §III-D); -1 when empty or not tracked.
  virtual int32_t head_warp() const { return -1; }
  // Changes whenever has_queued() changes for some warp (a scheduler holding warps by it
  // re-decides then, Mascar's hand-over re-checks); the constant default suits only a
  // queue whose has_queued() never changes.
  virtual uint64_t queued_version() const { return 0; }
  // The L1 data cache's status, for policies that look at saturation / MSHR occupancy
  // (may be null when not bound).
  virtual void set_l1_status(const mem::CacheStatusIF* /*status*/) {}
};

// Throws config::ConfigError naming `key` for an unknown policy. A policy with statistics
// (car) puts its group under `stats_parent` when given.
std::unique_ptr<ReexecQueueIF> make_reexec_queue(const ReexecQueueConfig& cfg, const std::string& key,
                                                 stats::Group* stats_parent = nullptr);

// The baseline: no queue.
class NoReexecQueue final : public ReexecQueueIF {
 public:
  const char* name() const override { return "none"; }
  bool pick(bool, uint64_t, LsuRequest&) override { return false; }
  bool must_queue(const LsuRequest&) const override { return false; }
  bool take(const LsuRequest&, uint64_t) override { return false; }
  bool blocks_new_instructions() const override { return false; }
  uint32_t occupancy() const override { return 0; }
  bool has_queued(int32_t) const override { return false; }
};

}  // namespace gputlm::sm
