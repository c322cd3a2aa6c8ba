// NewCAR (ELF 000 §3.4, digest §C2) through ReexecQueueIF, driven as the LSU drives it:
// every ordering rule, the service priority (new request first; the queue when full or
// the LSU idle), out-of-order service after a refusal, and a random scripted LSU/L1 whose
// checker fails on any load that passes an older store of its warp.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/random/splitmix64.h"
#include "sm/lsu/newcar_queue.h"
#include "sm/lsu/reexec_queue.h"
#include "support/sm/reexec_queue_driver.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {

// Requests are told apart by their payload pointer; the payloads are never dereferenced.
std::vector<tlm::tlm_generic_payload> g_payloads(512);

LsuRequest req(int id, int32_t warp, AccessKind kind) {
  LsuRequest r;
  r.gp = &g_payloads.at(static_cast<std::size_t>(id));
  r.warp = warp;
  r.kind = kind;
  return r;
}
int id_of(const LsuRequest& r) { return static_cast<int>(r.gp - g_payloads.data()); }

constexpr AccessKind L = AccessKind::Load, S = AccessKind::Store, A = AccessKind::Atomic;

}  // namespace

TEST_CASE("newcar ordering rules for a new request against queued ones of its warp", "[newcar]") {
  NewCarQueue q(32, true);
  CHECK_FALSE(q.must_queue(req(0, 1, L)));  // empty queue: nothing to respect
  REQUIRE(q.take(req(1, 1, L), 0));          // warp 1 has a queued load
  CHECK_FALSE(q.must_queue(req(2, 1, L)));  // a load may bypass a load of its warp
  CHECK(q.must_queue(req(3, 1, S)));        // a store must queue behind it
  CHECK(q.must_queue(req(4, 1, A)));        // so must an atomic (it writes)
  CHECK_FALSE(q.must_queue(req(5, 2, S)));  // any other warp may bypass
  REQUIRE(q.take(req(6, 3, S), 0));          // warp 3 has a queued store
  CHECK(q.must_queue(req(7, 3, L)));        // a load must queue behind a store of its warp
  CHECK(q.must_queue(req(8, 3, S)));        // and a store
  CHECK_FALSE(q.must_queue(req(9, 2, L)));
  CHECK(q.has_queued(1));
  CHECK(q.has_queued(3));
  CHECK_FALSE(q.has_queued(2));
  CHECK(q.occupancy() == 2);
}

TEST_CASE("newcar serves a new request first and the queue only when full or the LSU is idle", "[newcar]") {
  NewCarQueue q(2, true);
  LsuRequest out;
  REQUIRE(q.take(req(1, 1, L), 0));
  CHECK_FALSE(q.pick(true, 1, out));  // the LSU has a new request: it goes first
  REQUIRE(q.pick(false, 1, out));     // the LSU is idle: the queue is served
  CHECK(id_of(out) == 1);
  REQUIRE(q.take(req(2, 1, L), 2));
  REQUIRE(q.take(req(3, 2, L), 2));
  CHECK(q.blocks_new_instructions());  // full: the LSU takes no new instruction
  CHECK_FALSE(q.take(req(4, 3, L), 2));  // and a refused request stays in the LSU
  REQUIRE(q.pick(true, 3, out));      // full: served even though the LSU has a new request
  CHECK(id_of(out) == 2);
  CHECK_FALSE(q.blocks_new_instructions());
}

TEST_CASE("newcar after a refusal serves the entries queued after it and keeps warp order", "[newcar]") {
  for (bool rotate : {true, false}) {
    NewCarQueue q(32, rotate);
    LsuRequest out;
    REQUIRE(q.take(req(1, 1, L), 0));
    REQUIRE(q.take(req(2, 1, S), 0));  // must not pass request 1
    REQUIRE(q.take(req(3, 2, L), 0));
    REQUIRE(q.pick(false, 1, out));
    CHECK(id_of(out) == 1);
    REQUIRE(q.take(out, 1));  // the L1 refuses it again: back in its place (still the oldest)
    REQUIRE(q.pick(false, 2, out));
    // rotate: the entries after the refused one first, but warp 1's store may not pass its
    // load, so warp 2's load goes; oldest: the refused load again.
    CHECK(id_of(out) == (rotate ? 3 : 1));
    if (rotate) {
      REQUIRE(q.pick(false, 3, out));  // accepted (not given back): the scan restarts at the oldest
      CHECK(id_of(out) == 1);
    }
  }
}

TEST_CASE("newcar scripted LSU and L1 never let a load pass an older store of its warp", "[newcar]") {
  // A random LSU issues requests of 6 warps into an L1 that refuses 40 % of them; the
  // checker records, per warp, the order in which requests reached the L1 and must see a
  // store after every older request of its warp, and a load after every older store.
  for (bool rotate : {true, false}) {
    NewCarQueue q(8, rotate);
    uint64_t s = rotate ? 11 : 12;
    std::deque<LsuRequest> lsu;  // new requests in program order
    std::map<int, int> issue_index;  // request id -> its index in its warp's program order
    std::map<int32_t, int> next_index;
    std::map<int32_t, std::vector<std::pair<int, AccessKind>>> reached;  // per warp: (index, kind)
    int next_id = 0, sent = 0;
    for (uint64_t cycle = 0; cycle < 4000; ++cycle) {
      if (next_id < 500 && SplitMix64::step(s) % 3 != 0) {
        const int32_t w = static_cast<int32_t>(SplitMix64::step(s) % 6);
        const AccessKind k = SplitMix64::step(s) % 3 == 0 ? S : L;
        issue_index[next_id] = next_index[w]++;
        lsu.push_back(req(next_id++, w, k));
      }
      test::SendSlot slot;
      if (!test::lsu_send_slot(q, lsu, cycle, slot)) continue;
      if (SplitMix64::step(s) % 10 < 4) {  // the L1 refuses
        test::lsu_refused(q, lsu, slot, cycle);
        continue;
      }
      test::lsu_accepted(lsu, slot);
      const LsuRequest& r = slot.request;
      reached[r.warp].push_back({issue_index[id_of(r)], r.kind});
      ++sent;
    }
    CHECK(sent == 500);
    for (const auto& [warp, order] : reached)
      for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size(); ++j) {
          const bool later_older = order[j].first < order[i].first;  // j was issued before i
          if (!later_older) continue;
          INFO("warp " << warp << ": request " << order[i].first << " reached the L1 before older request "
                       << order[j].first);
          CHECK(order[i].second == L);  // only a load may pass ...
          CHECK(order[j].second == L);  // ... and only an older load
        }
  }
}

TEST_CASE("newcar queued version changes when a warp gets its first or loses its last queued request", "[newcar]") {
  NewCarQueue q(32, true);
  LsuRequest out;
  const uint64_t v0 = q.queued_version();
  REQUIRE(q.take(req(1, 1, L), 0));
  const uint64_t v1 = q.queued_version();
  CHECK(v1 != v0);
  REQUIRE(q.take(req(2, 1, L), 0));  // warp 1 had one already: has_queued unchanged
  CHECK(q.queued_version() == v1);
  REQUIRE(q.pick(false, 1, out));  // one of its two leaves
  CHECK(q.queued_version() == v1);
  REQUIRE(q.pick(false, 2, out));  // the last leaves (the L1 took the first)
  CHECK(q.queued_version() != v1);
  CHECK_FALSE(q.has_queued(1));
}

TEST_CASE("newcar is created by name and bad names are config errors naming the key", "[newcar]") {
  ReexecQueueConfig cfg;
  cfg.policy = "newcar";
  CHECK(std::string(make_reexec_queue(cfg, "sm.lsu.reexec_queue")->name()) == "newcar");
  cfg.policy = "car2";
  CHECK_THROWS_WITH(make_reexec_queue(cfg, "sm.lsu.reexec_queue"), Catch::Contains("sm.lsu.reexec_queue.policy"));
}
