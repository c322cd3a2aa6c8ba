// Random issue / writeback / commit sequences (fixed seeds) on the ilp_commit scoreboard,
// checked after every step against a golden model kept as one queue of instructions per
// warp (no shared entry array, no links, no match bits: the visible definition of a
// register is the newest queued instruction writing it). An instruction issues only when
// the golden model says it may, as the issue stage does; writebacks come in random order;
// commits run as the SM core calls them, with and without an SM-wide budget. Each warp's
// latest answer is kept as the issue stage caches it (until the SM core touches the warp:
// its issue, its writeback, a commit reporting it, a shared change) and must stay the
// golden model's answer while it is kept.
#include <catch2/catch.hpp>

#include <deque>
#include <random>
#include <set>
#include <vector>

#include "sm/pipeline_protocol.h"
#include "sm/scoreboard/ilp_commit_scoreboard.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
struct Queued {
  uint64_t seq = 0;
  std::set<uint32_t> keys;
  uint32_t mask = 0;
  bool memory = false, long_latency = false, store = false;
  bool complete = false, fresh = false;
};
struct GoldenWarp {
  std::deque<Queued> queue;  // oldest first
  bool solo = false, solo_memory = false;
  uint64_t solo_seq = 0;
};
struct Golden {
  uint32_t entries;
  std::vector<GoldenWarp> warps;
  uint32_t commits_per_cycle;
  bool store_completed;  // store_waits_for = completed

  uint32_t used() const {
    uint32_t n = 0;
    for (const GoldenWarp& w : warps) n += static_cast<uint32_t>(w.queue.size());
    return n;
  }
  const Queued* visible(const GoldenWarp& w, uint32_t key) const {
    for (auto it = w.queue.rbegin(); it != w.queue.rend(); ++it)
      if (it->keys.count(key)) return &*it;
    return nullptr;
  }
  static std::vector<uint32_t> sources(const isa::Instruction& in) {
    std::vector<uint32_t> k;
    for (uint8_t i = 0; i < in.n_src_regs; ++i) k.push_back(in.src_regs[i]);
    for (uint8_t i = 0; i < in.n_src_preds; ++i) k.push_back(kPredicateKeyBase + in.src_preds[i]);
    return k;
  }
  static std::vector<uint32_t> destinations(const isa::Instruction& in) {
    std::vector<uint32_t> k;
    for (uint8_t i = 0; i < in.n_dst_regs; ++i) k.push_back(in.dst_regs[i]);
    for (uint8_t i = 0; i < in.n_dst_preds; ++i) k.push_back(kPredicateKeyBase + in.dst_preds[i]);
    return k;
  }
  Hazard check(uint32_t warp, const isa::Instruction& in, uint32_t mask) const {
    const GoldenWarp& w = warps[warp];
    if (w.solo) return w.solo_memory ? Hazard::Memory : Hazard::Other;
    if (w.queue.empty()) return Hazard::None;
    bool any = false, memory = false;
    for (uint32_t k : sources(in))
      if (const Queued* q = visible(w, k); q && !q->complete) any = true, memory = memory || q->memory;
    if (any) return memory ? Hazard::Memory : Hazard::Other;
    for (uint32_t k : destinations(in))
      if (const Queued* q = visible(w, k); q && (q->mask & ~mask) != 0)
        any = true, memory = memory || (q->memory && !q->complete);
    if (any) return memory ? Hazard::Memory : Hazard::Other;
    bool store_queued = false, memory_queued = false;
    for (const Queued& q : w.queue) store_queued = store_queued || q.store, memory_queued = memory_queued || q.memory;
    if (in.is_store || (in.is_load && store_queued)) {
      bool waits = !in.is_store || !store_completed;
      for (const Queued& q : w.queue) waits = waits || !q.complete;
      if (waits) return memory_queued ? Hazard::Memory : Hazard::Other;
    }
    const bool needs = in.is_store || !destinations(in).empty();
    if (needs && used() == entries) return Hazard::Other;
    return Hazard::None;
  }
  void issue(const WarpInstruction& wi) {
    GoldenWarp& w = warps[wi.warp];
    const bool store = wi.instr->is_store;
    if (!store && wi.n_writes == 0) return;
    if (used() == entries) {
      w.solo = true;
      w.solo_memory = wi.is_memory;
      w.solo_seq = wi.seq;
      return;
    }
    Queued q;
    q.seq = wi.seq;
    if (!store)
      for (uint8_t i = 0; i < wi.n_writes; ++i) q.keys.insert(wi.writes[i]);
    q.mask = wi.active_mask;
    q.memory = wi.is_memory;
    q.long_latency = wi.long_latency_load;
    q.store = store;
    w.queue.push_back(q);
  }
  void writeback(const WarpInstruction& wi) {
    GoldenWarp& w = warps[wi.warp];
    for (Queued& q : w.queue)
      if (q.seq == wi.seq) {
        q.complete = q.fresh = true;
        return;
      }
    if (w.solo && w.solo_seq == wi.seq) w.solo = false;
  }
  // Returns what the scoreboard must report but `warps` (which the cached answers check);
  // `committed` gets the warps that committed an entry.
  ScoreboardIF::CommitResult commit(uint64_t& committed) {
    ScoreboardIF::CommitResult r;
    committed = 0;
    const bool was_full = used() == entries;
    uint32_t budget = commits_per_cycle == 0 ? ~0u : commits_per_cycle;
    for (uint32_t w = 0; w < warps.size() && budget > 0; ++w) {
      auto& q = warps[w].queue;
      if (q.empty() || !q.front().complete || q.front().fresh) continue;
      q.pop_front();
      --budget;
      committed |= uint64_t{1} << w;
      if (q.empty()) r.emptied |= uint64_t{1} << w;
    }
    for (GoldenWarp& w : warps)
      for (Queued& q : w.queue) {
        q.fresh = false;
        r.busy = r.busy || q.complete;
      }
    r.all = was_full && used() < entries;
    return r;
  }
  uint32_t pending(uint32_t warp) const {
    uint32_t n = warps[warp].solo ? 1 : 0;
    for (const Queued& q : warps[warp].queue)
      if (!q.complete) n += static_cast<uint32_t>(q.keys.size());
    return n;
  }
};

isa::Instruction random_instruction(std::mt19937_64& rng) {
  isa::Instruction in;
  std::uniform_int_distribution<uint32_t> reg(0, 7), kind(0, 9), n(0, 2);
  const uint32_t k = kind(rng);
  in.cls = k <= 2 ? isa::OpClass::MemGlobal : isa::OpClass::IntAlu;
  in.is_load = k <= 1;
  in.is_store = k == 2;
  in.n_src_regs = static_cast<uint8_t>(n(rng) + (in.is_store ? 1 : 0));
  for (uint8_t i = 0; i < in.n_src_regs; ++i) in.src_regs[i] = reg(rng);
  if (!in.is_store) {
    in.n_dst_regs = static_cast<uint8_t>(k == 9 ? 0 : 1 + n(rng) % 2);  // some without a destination
    for (uint8_t i = 0; i < in.n_dst_regs; ++i) in.dst_regs[i] = reg(rng);
    in.n_dst_preds = static_cast<uint8_t>(k == 8 ? 1 : 0);
    if (in.n_dst_preds) in.dst_preds[0] = reg(rng) % 2;
  }
  in.n_src_preds = static_cast<uint8_t>(k == 7 ? 1 : 0);
  if (in.n_src_preds) in.src_preds[0] = reg(rng) % 2;
  return in;
}

void run_random(uint32_t entries, uint32_t budget, uint64_t seed, bool store_completed = false) {
  constexpr uint32_t kWarps = 6;
  IlpCommitConfig cfg;
  cfg.entries = entries;
  cfg.commits_per_cycle = budget;
  cfg.store_waits_for = store_completed ? "completed" : "committed";
  IlpCommitScoreboard sb(("sb_" + std::to_string(seed)).c_str(), kWarps, cfg);
  int shared_changes = 0;
  Golden golden{entries, std::vector<GoldenWarp>(kWarps), budget, store_completed};
  std::mt19937_64 rng(seed);
  const uint32_t masks[] = {~0u, 0x0000ffffu, 0x00ff00ffu, 0x1u};
  std::deque<isa::Instruction> instrs;  // stable addresses
  std::vector<WarpInstruction> in_flight;
  struct Cached {
    const isa::Instruction* in = nullptr;  // none kept
    uint32_t mask = 0;
    Hazard answer = Hazard::None;
  };
  std::vector<Cached> cached(kWarps);
  sb.set_shared_change_hook([&] {
    ++shared_changes;
    for (Cached& c : cached) c.in = nullptr;  // the SM core touches every warp
  });
  uint64_t seq = 1, issued = 0, blocked = 0, solos = 0, commits = 0, alls = 0, kept = 0;
  for (int step = 0; step < 30000; ++step) {
    const uint32_t op = static_cast<uint32_t>(rng() % 10);
    if (op < 5) {  // try to issue
      const uint32_t w = static_cast<uint32_t>(rng() % kWarps);
      instrs.push_back(random_instruction(rng));
      const isa::Instruction& in = instrs.back();
      const uint32_t mask = masks[rng() % 4];
      const Hazard expect = golden.check(w, in, mask);
      REQUIRE(sb.check_masked(w, in, mask) == expect);
      cached[w] = Cached{&in, mask, expect};
      if (expect != Hazard::None) {
        ++blocked;
        continue;
      }
      cached[w].in = nullptr;  // its issue touches it
      WarpInstruction wi;
      wi.warp = w;
      wi.instr = &in;
      wi.seq = seq++;
      wi.pc = wi.seq * 8;
      wi.active_mask = mask;
      fill_register_keys(wi);
      wi.is_memory = in.is_load || in.is_store;
      wi.long_latency_load = is_long_latency_load(in);
      const bool full_before = sb.free_entries() == 0;
      const bool solo = (in.is_store || wi.n_writes > 0) && full_before;
      const int changes_before = shared_changes;
      sb.reserve(wi);
      golden.issue(wi);
      solos += solo ? 1 : 0;
      // The hook fires exactly when the last free entry is taken.
      REQUIRE((shared_changes != changes_before) == (!full_before && sb.free_entries() == 0));
      in_flight.push_back(wi);
      ++issued;
    } else if (op < 8 && !in_flight.empty()) {  // a writeback
      const std::size_t i = rng() % in_flight.size();
      const WarpInstruction wi = in_flight[i];
      in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(i));
      sb.release(wi);
      golden.writeback(wi);
      cached[wi.warp].in = nullptr;  // its writeback touches it
    } else {  // a cycle boundary: commit
      const ScoreboardIF::CommitResult got = sb.commit(static_cast<uint64_t>(step));
      uint64_t committed = 0;
      const ScoreboardIF::CommitResult want = golden.commit(committed);
      REQUIRE((got.warps & ~committed) == 0);  // only warps that committed
      REQUIRE(got.emptied == want.emptied);
      REQUIRE(got.all == want.all);
      REQUIRE(got.busy == want.busy);
      for (uint32_t w = 0; w < kWarps; ++w)
        if (got.all || ((got.warps >> w) & 1u)) cached[w].in = nullptr;
      commits += static_cast<uint64_t>(__builtin_popcountll(committed));
      alls += got.all ? 1 : 0;
    }
    // Every answer still kept is still right: the touches above are all a change needs.
    for (uint32_t w = 0; w < kWarps; ++w)
      if (cached[w].in) {
        REQUIRE(golden.check(w, *cached[w].in, cached[w].mask) == cached[w].answer);
        ++kept;
      }
    REQUIRE(sb.free_entries() == entries - golden.used());
    for (uint32_t w = 0; w < kWarps; ++w) {
      REQUIRE(sb.pending_writes(w) == golden.pending(w));
      REQUIRE(sb.quiet(w) == (golden.warps[w].queue.empty() && !golden.warps[w].solo));
    }
  }
  CHECK(issued > 3000);
  CHECK(blocked > 1000);
  CHECK(commits > 1000);
  CHECK(kept > 10000);
  if (entries < 8) {
    CHECK(solos > 10);
    CHECK(alls > 10);
  }
}
}  // namespace

TEST_CASE("ilp_commit: random issue writeback and commit against the golden model", "[sm][scoreboard][ilp]") {
  run_random(8, 0, 2024);  // 004's size, every warp commits each cycle
  run_random(2, 0, 7);     // a small table: full, solo instructions, frees
  run_random(3, 1, 99);    // one register-file write port for the SM
  run_random(8, 0, 5, true);  // stores wait for completion only (digest Z43)
}
