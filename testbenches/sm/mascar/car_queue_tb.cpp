// Mascar's CAR (002 §III-C/D, digest §C1) through ReexecQueueIF, driven as the LSU drives
// it: head-first service with refused requests recycled to the tail, service only when
// the queue is full or the LSU idle, a full queue keeping new instructions out, program
// order per warp (an instruction that reached the LSU after an older one of its warp was
// queued waits behind it), and a scripted LSU and L1 in MP mode: non-owner misses NACKed
// and recycled while hits (also behind refused requests) are served, the owner's misses
// accepted while MSHRs are free, ownership handed to the queue's head warp, and every
// warp's requests reaching the L1 in program order with nothing left behind.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/random/splitmix64.h"
#include "sm/lsu/car_queue.h"
#include "sm/lsu/reexec_queue.h"
#include "support/sm/reexec_queue_driver.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {

// Requests are told apart by their payload pointer; the payloads are never dereferenced.
std::vector<tlm::tlm_generic_payload> g_payloads(4096);

LsuRequest req(int id, int32_t warp, uint64_t seq, AccessKind kind = AccessKind::Load) {
  LsuRequest r;
  r.gp = &g_payloads.at(static_cast<std::size_t>(id));
  r.warp = warp;
  r.kind = kind;
  r.seq = seq;
  return r;
}
int id_of(const LsuRequest& r) { return static_cast<int>(r.gp - g_payloads.data()); }
std::vector<int> ids(const CarQueue& q) {
  std::vector<int> v;
  for (const LsuRequest& r : q.entries()) v.push_back(id_of(r));
  return v;
}

}  // namespace

TEST_CASE("car serves the head first and recycles a refused request to the tail", "[car]") {
  stats::Group root("tb");
  CarQueue q(32, &root);
  LsuRequest out;
  REQUIRE(q.take(req(1, 1, 10), 0));
  REQUIRE(q.take(req(2, 2, 11), 0));
  REQUIRE(q.take(req(3, 3, 12), 0));
  CHECK(q.head_warp() == 1);
  REQUIRE(q.pick(false, 1, out));
  CHECK(id_of(out) == 1);
  out.nacked = true;
  REQUIRE(q.take(out, 1));  // NACKed again: from the head to the tail
  CHECK(ids(q) == std::vector<int>{2, 3, 1});
  CHECK(q.head_warp() == 2);
  REQUIRE(q.pick(false, 2, out));  // accepted (not given back)
  CHECK(id_of(out) == 2);
  REQUIRE(q.pick(false, 3, out));
  CHECK(id_of(out) == 3);
  out.nacked = false;
  REQUIRE(q.take(out, 3));  // refused (no MSHR): to the tail as well
  CHECK(ids(q) == std::vector<int>{1, 3});
  CarStats& st = *q.stats();
  CHECK(st.enqueued.value() == 3);
  CHECK(st.services.value() == 3);
  CHECK(st.recycled.value() == 2);
  CHECK(st.recycled_nacked.value() == 1);
  CHECK(st.occupancy_cycles.value() == 3 * 1 + 3 * 1 + 2 * 1);  // 3 entries in cycles 0, 1, 2 ... then 2
}

TEST_CASE("car is served when full or when the LSU is idle and a full queue keeps new instructions out", "[car]") {
  CarQueue q(2, nullptr);
  LsuRequest out;
  REQUIRE(q.take(req(1, 1, 1), 0));
  CHECK_FALSE(q.blocks_new_instructions());
  CHECK_FALSE(q.pick(true, 1, out));  // the LSU has a new request: it goes first
  REQUIRE(q.pick(false, 1, out));     // the LSU is idle: the queue is served
  CHECK(id_of(out) == 1);
  REQUIRE(q.take(req(2, 1, 2), 2));
  REQUIRE(q.take(req(3, 2, 3), 2));
  CHECK(q.blocks_new_instructions());    // full: the LSU takes no new instruction
  CHECK_FALSE(q.take(req(4, 3, 4), 2));  // and a refused request stays in the LSU
  REQUIRE(q.pick(true, 3, out));         // full: served although the LSU has a new request
  CHECK(id_of(out) == 2);
  CHECK_FALSE(q.blocks_new_instructions());
}

TEST_CASE("car keeps a warp's instructions in program order", "[car]") {
  CarQueue q(32, nullptr);
  LsuRequest out;
  REQUIRE(q.take(req(1, 1, 5), 0));  // instruction 5 of warp 1: two requests refused
  CHECK_FALSE(q.must_queue(req(2, 1, 5)));  // the same instruction's next request goes to the L1
  REQUIRE(q.take(req(2, 1, 5), 0));
  CHECK(q.has_queued(1));
  CHECK_FALSE(q.has_queued(2));
  // Instruction 7 of warp 1 was issued before instruction 5 was queued: it waits behind it.
  CHECK(q.must_queue(req(3, 1, 7)));
  CHECK_FALSE(q.must_queue(req(4, 2, 9)));  // other warps pass
  REQUIRE(q.take(req(3, 1, 7), 0));
  CHECK(q.stats() == nullptr);
  REQUIRE(q.pick(false, 1, out));
  CHECK(id_of(out) == 1);
  REQUIRE(q.take(out, 1));  // recycled: [2, 3, 1]
  REQUIRE(q.pick(false, 2, out));
  CHECK(id_of(out) == 2);
  REQUIRE(q.take(out, 2));  // recycled: [3, 1, 2]
  // The head (instruction 7) may not pass instruction 5 of its warp: request 1 goes.
  REQUIRE(q.pick(false, 3, out));
  CHECK(id_of(out) == 1);
  CHECK(ids(q) == std::vector<int>{3, 2});
  REQUIRE(q.pick(false, 4, out));
  CHECK(id_of(out) == 2);
  REQUIRE(q.pick(false, 5, out));  // instruction 5 is out of the queue: 7 may go
  CHECK(id_of(out) == 3);
}

TEST_CASE("car scripted LSU and L1 in MP mode serve hits under NACKed misses and keep warp order", "[car]") {
  // 6 warps each issue 30 memory instructions of 1..3 requests to 24 lines; a warp with a
  // queued request issues nothing (the scheduler's filter), and an instruction reaches the
  // LSU at least two cycles after issue, so one may arrive while an older one of its warp
  // is queued. The L1 holds 6 lines (FIFO) and 3 MSHRs of 12 cycles. MP mode while 2 or 3
  // MSHRs are busy: a hit is served, the owner's miss takes an MSHR if one is free (else
  // it is refused), another warp's miss is NACKed; in EP mode any miss takes a free MSHR.
  // The owner is released when it has nothing unsent; the next one is the queue's head
  // warp, else the warp of the LSU's next request.
  stats::Group root("tb");
  CarQueue q(8, &root);
  uint64_t s = 7;
  constexpr int kWarps = 6;
  constexpr uint32_t kPerWarp = 30;
  struct Instr {
    int32_t warp;
    uint64_t seq, issued_at;
    uint32_t index;  // in its warp's program
    int requests;
  };
  std::vector<uint32_t> issued(kWarps, 0);
  std::deque<Instr> lsu_in;    // issued, on the way to the LSU
  std::deque<LsuRequest> lsu;  // the LSU's requests not yet sent, in order
  std::map<int, uint32_t> index_of;  // request id -> instruction index in its warp
  std::map<int, uint64_t> line_of;
  std::deque<uint64_t> l1;                          // resident lines, FIFO
  std::vector<std::pair<uint64_t, uint64_t>> mshr;  // (line, fill cycle)
  std::map<int32_t, std::vector<uint32_t>> reached;  // per warp: instruction index of each accepted request
  std::vector<int> unsent(kWarps, 0);
  int32_t owner = -1;
  uint64_t seq = 0, cycle = 0;
  int next_id = 0, accepted = 0, total = 0, hits_while_queued = 0, nacks = 0, handovers = 0;
  auto all_issued = [&] { return std::all_of(issued.begin(), issued.end(), [](uint32_t n) { return n == kPerWarp; }); };
  for (; cycle < 50000 && !(all_issued() && accepted == total); ++cycle) {
    for (std::size_t i = 0; i < mshr.size();) {  // fills
      if (mshr[i].second > cycle) {
        ++i;
        continue;
      }
      l1.push_back(mshr[i].first);
      if (l1.size() > 6) l1.pop_front();
      mshr.erase(mshr.begin() + static_cast<std::ptrdiff_t>(i));
    }
    const int32_t w = static_cast<int32_t>(SplitMix64::step(s) % kWarps);
    if (issued[static_cast<std::size_t>(w)] < kPerWarp && !q.has_queued(w) && SplitMix64::step(s) % 2 == 0) {
      const int n = 1 + static_cast<int>(SplitMix64::step(s) % 3);
      lsu_in.push_back(Instr{w, seq++, cycle, issued[static_cast<std::size_t>(w)]++, n});
      unsent[static_cast<std::size_t>(w)] += n;
      total += n;
    }
    if (lsu.empty() && !lsu_in.empty() && lsu_in.front().issued_at + 2 <= cycle) {
      const Instr in = lsu_in.front();
      lsu_in.pop_front();
      for (int k = 0; k < in.requests; ++k) {
        const int id = next_id++;
        index_of[id] = in.index;
        line_of[id] = SplitMix64::step(s) % 24;
        lsu.push_back(req(id, in.warp, in.seq, SplitMix64::step(s) % 4 == 0 ? AccessKind::Store : AccessKind::Load));
      }
    }
    const bool mp = mshr.size() >= 2;
    if (!mp || (owner >= 0 && unsent[static_cast<std::size_t>(owner)] == 0)) owner = -1;
    if (mp && owner < 0) {
      handovers += q.head_warp() >= 0;
      owner = q.head_warp() >= 0 ? q.head_warp() : !lsu.empty() ? lsu.front().warp : -1;
    }
    test::SendSlot slot;
    if (!test::lsu_send_slot(q, lsu, cycle, slot)) continue;
    LsuRequest& r = slot.request;
    const uint64_t line = line_of[id_of(r)];
    const bool hit = std::find(l1.begin(), l1.end(), line) != l1.end();
    bool ok = hit;
    r.nacked = false;
    if (!hit && mp && r.warp != owner) {
      r.nacked = true;
      ++nacks;
    } else if (!hit) {
      ok = std::any_of(mshr.begin(), mshr.end(), [&](const auto& m) { return m.first == line; });
      if (!ok && mshr.size() < 3) {
        mshr.push_back({line, cycle + 12});
        ok = true;
      }
    }
    if (!ok) {
      test::lsu_refused(q, lsu, slot, cycle);
      if (slot.from_queue) CHECK(id_of(q.entries().back()) == id_of(r));  // recycled to the tail
      continue;
    }
    if (hit && q.occupancy() > 0) ++hits_while_queued;
    test::lsu_accepted(lsu, slot);
    reached[r.warp].push_back(index_of[id_of(r)]);
    --unsent[static_cast<std::size_t>(r.warp)];
    ++accepted;
  }
  INFO("cycles " << cycle << ", accepted " << accepted << " of " << total);
  REQUIRE(all_issued());
  CHECK(accepted == total);
  CHECK(q.occupancy() == 0);
  CHECK(nacks > 0);
  CHECK(handovers > 0);
  CHECK(hits_while_queued > 0);  // hits under misses: the stranded-hit case CAR exists for
  for (const auto& [warp, order] : reached) {
    INFO("warp " << warp);
    CHECK(std::is_sorted(order.begin(), order.end()));  // program order per warp
  }
  CarStats& st = *q.stats();
  CHECK(st.services.value() - st.recycled.value() == st.enqueued.value());  // everything queued was served
  CHECK(st.recycled_nacked.value() > 0);
  CHECK(st.recycled_nacked.value() <= st.recycled.value());
  CHECK(st.held.value() > 0);  // an instruction reached the LSU behind a queued one of its warp
}

TEST_CASE("car queued version changes when a warp gets its first or loses its last queued request", "[car]") {
  CarQueue q(32, nullptr);
  LsuRequest out;
  const uint64_t v0 = q.queued_version();
  REQUIRE(q.take(req(1, 1, 5), 0));
  const uint64_t v1 = q.queued_version();
  CHECK(v1 != v0);
  REQUIRE(q.take(req(2, 1, 5), 0));  // warp 1 had one already: has_queued unchanged
  REQUIRE(q.take(req(3, 2, 9), 0));
  const uint64_t v2 = q.queued_version();
  CHECK(v2 != v1);
  REQUIRE(q.pick(false, 1, out));  // one of warp 1's two leaves
  CHECK(id_of(out) == 1);
  CHECK(q.queued_version() == v2);
  REQUIRE(q.pick(false, 2, out));  // its last leaves (the L1 took the first)
  CHECK(id_of(out) == 2);
  CHECK(q.queued_version() != v2);
  CHECK_FALSE(q.has_queued(1));
  CHECK(q.has_queued(2));
  // Warp 2's only request is refused again: it leaves and comes back in one service, so
  // no warp's has_queued() changed and neither does the version.
  const uint64_t v3 = q.queued_version();
  REQUIRE(q.pick(false, 3, out));
  CHECK(id_of(out) == 3);
  LsuRequest again = out;
  again.nacked = true;
  REQUIRE(q.take(again, 3));
  CHECK(q.queued_version() == v3);
  CHECK(q.has_queued(2));
  // The same, but read while it is out (an L1 port busy for a cycle): the reader saw a
  // state without it, so its return is a new version, never one seen before.
  REQUIRE(q.pick(false, 3, out));
  CHECK_FALSE(q.has_queued(2));
  const uint64_t v_out = q.queued_version();
  CHECK(v_out != v3);
  REQUIRE(q.take(again, 3));
  CHECK(q.queued_version() != v_out);
  CHECK(q.queued_version() != v3);
  const uint64_t v4 = q.queued_version();
  // Served and taken by the L1 (no take): its warp has nothing queued any more.
  REQUIRE(q.pick(false, 4, out));
  REQUIRE(q.pick(false, 5, out) == false);
  CHECK(q.queued_version() != v4);
  CHECK_FALSE(q.has_queued(2));
}

TEST_CASE("car is created by name and a queue without entries is a config error naming the key", "[car]") {
  ReexecQueueConfig cfg;
  cfg.policy = "car";
  stats::Group root("tb");
  auto q = make_reexec_queue(cfg, "sm.lsu.reexec_queue", &root);
  CHECK(std::string(q->name()) == "car");
  CHECK(root.to_json().contains("car"));
  cfg.entries = 0;
  CHECK_THROWS_WITH(make_reexec_queue(cfg, "sm.lsu.reexec_queue"), Catch::Contains("sm.lsu.reexec_queue.entries"));
  cfg.policy = "kar";
  cfg.entries = 32;
  CHECK_THROWS_WITH(make_reexec_queue(cfg, "sm.lsu.reexec_queue"), Catch::Contains("sm.lsu.reexec_queue.policy"));
}
