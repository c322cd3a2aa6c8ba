// The L1D data prefetchers' tables and rules (digest §D1-D5, 001 §4.1-4.4).
#include <catch2/catch.hpp>

#include "core/config/config_source.h"
#include "mem/cache/prefetch/data_prefetcher.h"
#include "mem/cache/prefetch/mt_hwp_prefetcher.h"
#include "mem/cache/prefetch/pcst_prefetcher.h"
#include "mem/cache/prefetch/stride_table.h"

using namespace gputlm;
using namespace gputlm::mem;

namespace {
LoadInfo load(uint64_t pc, int32_t warp, int32_t cta, uint64_t address, bool thread0) {
  LoadInfo l;
  l.pc = pc;
  l.warp = warp;
  l.cta = cta;
  l.thread0 = thread0;
  l.train_address = address;
  l.first_address = address;
  return l;
}
}  // namespace

TEST_CASE("stride FSM follows the digest D1 table in every transition", "[prefetch]") {
  using S = StrideState;
  struct Row {
    S from;
    bool correct;
    S to;
    bool replaces;
  };
  const Row golden[] = {
      {S::Init, true, S::Steady, false},          {S::Init, false, S::Transient, true},
      {S::Transient, true, S::Steady, false},     {S::Transient, false, S::NoPredict, true},
      {S::Steady, true, S::Steady, false},        {S::Steady, false, S::Transient, false},
      {S::NoPredict, true, S::Transient, false},  {S::NoPredict, false, S::NoPredict, true},
  };
  for (const Row& r : golden) {
    INFO(to_string(r.from) << (r.correct ? " correct" : " incorrect"));
    CHECK(next_stride_state(r.from, r.correct) == r.to);
    CHECK(replaces_stride(r.from, r.correct) == r.replaces);
  }
  CHECK_FALSE(predicts(S::Init));
  CHECK(predicts(S::Transient));
  CHECK(predicts(S::Steady));
  CHECK_FALSE(predicts(S::NoPredict));
}

TEST_CASE("stride table replays 001 Fig. 4.2 and every FSM edge with prev_addr advancing", "[prefetch]") {
  StrideTable t;
  auto step = [&](uint64_t addr) { return t.train_address(10, addr); };
  StrideEntry e = step(1000);  // (b): allocated
  CHECK((e.address == 1000 && e.stride == 0 && e.state == StrideState::Init));
  e = step(1004);  // (c): INIT, incorrect -> TRANSIENT, stride replaced
  CHECK((e.address == 1004 && e.stride == 4 && e.state == StrideState::Transient));
  e = step(1008);  // (d): TRANSIENT, correct -> STEADY
  CHECK((e.address == 1008 && e.stride == 4 && e.state == StrideState::Steady));
  e = step(1100);  // STEADY, incorrect -> TRANSIENT, stride kept
  CHECK((e.address == 1100 && e.stride == 4 && e.state == StrideState::Transient));
  e = step(1300);  // TRANSIENT, incorrect -> NO-PREDICT, stride replaced
  CHECK((e.address == 1300 && e.stride == 200 && e.state == StrideState::NoPredict));
  e = step(1350);  // NO-PREDICT, incorrect -> NO-PREDICT, stride replaced
  CHECK((e.address == 1350 && e.stride == 50 && e.state == StrideState::NoPredict));
  e = step(1400);  // NO-PREDICT, correct -> TRANSIENT
  CHECK((e.address == 1400 && e.stride == 50 && e.state == StrideState::Transient));
  CHECK(e.accesses == 7);  // seven updates
  StrideEntry f = t.train_address(20, 7);
  f = t.train_address(20, 7);  // INIT, correct (stride 0) -> STEADY
  CHECK((f.state == StrideState::Steady && f.stride == 0));
  CHECK(t.lookup(10) == 50);
  CHECK(t.lookup(20) == 0);
}

TEST_CASE("bounded stride table replaces its least recently used entry", "[prefetch]") {
  StrideTable t(2);
  t.train_address(1, 100);
  t.train_address(2, 200);
  t.lookup(1);  // 2 is now the least recently used
  t.train_address(3, 300);
  CHECK(t.find(1) != nullptr);
  CHECK(t.find(2) == nullptr);
  CHECK(t.find(3) != nullptr);
}

TEST_CASE("stride prefetcher predicts once its PC is TRANSIENT or STEADY", "[prefetch]") {
  DataPrefetchConfig cfg;
  auto p = make_stride_prefetcher(cfg);
  CHECK(p->on_load(load(10, 0, 0, 1000, false)) == 0);
  CHECK(p->on_load(load(10, 1, 0, 1004, false)) == 4);  // TRANSIENT
  CHECK(p->on_load(load(10, 2, 0, 1008, false)) == 4);  // STEADY
  CHECK(p->on_load(load(10, 3, 0, 1010, false)) == 4);  // STEADY -> TRANSIENT keeps 4
  CHECK(p->on_load(load(10, 4, 0, 1100, false)) == 0);  // TRANSIENT -> NO-PREDICT
}

TEST_CASE("PCST trains on thread 0 only and every warp looks up", "[prefetch]") {
  stats::Group g("pf");
  DataPrefetchConfig cfg;
  PcstPrefetcher p(cfg, false, false, g);
  // Other threads' loads never train.
  CHECK(p.on_load(load(8, 1, 0, 0, false)) == 0);
  CHECK(p.on_load(load(8, 1, 0, 100, false)) == 0);
  CHECK(p.pcst().size() == 0);
  // Thread 0 of CTA 0: a loop with stride 4096.
  CHECK(p.on_load(load(8, 0, 0, 1000, true)) == 0);
  CHECK(p.on_load(load(8, 0, 0, 5096, true)) == 4096);
  const StrideEntry* e = p.pcst().entries().count(8) ? &p.pcst().entries().at(8) : nullptr;
  REQUIRE(e);
  CHECK((e->address == 5096 && e->stride == 4096 && e->state == StrideState::Transient && e->accesses == 2));
  // Another warp's load at the PC prefetches with the stride and leaves the entry as it was.
  CHECK(p.on_load(load(8, 7, 0, 123456, false)) == 4096);
  e = &p.pcst().entries().at(8);
  CHECK((e->address == 5096 && e->accesses == 2 && e->state == StrideState::Transient));
  // Thread 0 of another CTA restarts the entry's address and #Access, keeping the stride.
  CHECK(p.on_load(load(8, 9, 1, 900000, true)) == 4096);
  e = &p.pcst().entries().at(8);
  CHECK((e->address == 900000 && e->accesses == 1 && e->owner == 1 && e->stride == 4096));
}

TEST_CASE("PCST with train_scope grid trains on the grid's thread 0 only", "[prefetch]") {
  stats::Group g("pf");
  DataPrefetchConfig cfg;
  cfg.train_scope = "grid";
  PcstPrefetcher p(cfg, false, false, g);
  p.on_load(load(8, 0, 3, 1000, true));  // thread 0 of CTA 3: not the grid's thread 0
  CHECK(p.pcst().size() == 0);
  p.on_load(load(8, 0, 0, 1000, true));
  CHECK(p.pcst().size() == 1);
}

TEST_CASE("ITPC learns inter-PC strides at CTA end from 001 Table 4.2", "[prefetch]") {
  stats::Group g("pf");
  DataPrefetchConfig cfg;
  PcstPrefetcher p(cfg, true, false, g);
  const uint64_t pcs[] = {20, 22, 24, 26, 28, 30, 32, 34, 50};
  auto run_cta = [&](int32_t cta, uint64_t base) {
    for (std::size_t i = 0; i < 9; ++i) p.on_load(load(pcs[i], 0, cta, base + 64 * i, true));
    p.on_cta_complete(cta);
  };
  run_cta(4, 268439552);  // Table 4.2 (a): one access per PC
  REQUIRE(p.itpc().size() == 8);  // PC 50 is the last entry: no next one
  for (std::size_t i = 0; i < 8; ++i) {
    const StrideEntry& e = p.itpc().entries().at(pcs[i]);
    CHECK((e.stride == 64 && e.state == StrideState::Init));  // Table 4.2 (b)
  }
  CHECK(p.itpc().entries().count(50) == 0);
  CHECK(p.on_load(load(20, 5, 4, 777, false)) == 0);  // INIT predicts nothing yet
  // A second CTA with the same inter-PC strides: STEADY; a warp's load at PC 20 now
  // prefetches its next PC's data (PCST has no stride: one access per thread).
  run_cta(5, 268439552 + 512);
  CHECK(p.itpc().entries().at(20).state == StrideState::Steady);
  CHECK(p.on_load(load(20, 5, 5, 777, false)) == 64);
  // Entries trained by another CTA are not scanned at this CTA's end.
  p.on_load(load(20, 0, 6, 1, true));
  p.on_cta_complete(7);
  CHECK(p.itpc().entries().at(20).state == StrideState::Steady);
}

TEST_CASE("ITPC is consulted only when PCST gives no stride", "[prefetch]") {
  stats::Group g("pf");
  DataPrefetchConfig cfg;
  PcstPrefetcher p(cfg, true, false, g);
  for (int32_t cta = 0; cta < 2; ++cta) {
    p.on_load(load(20, 0, cta, 1000 + 4096 * cta, true));
    p.on_load(load(22, 0, cta, 1064 + 4096 * cta, true));
    p.on_cta_complete(cta);
  }
  CHECK(p.on_load(load(20, 3, 1, 0, false)) == 64);  // from ITPC
  p.on_load(load(20, 0, 2, 10000, true));
  p.on_load(load(20, 0, 2, 10008, true));  // PCST: TRANSIENT, stride 8
  CHECK(p.on_load(load(20, 3, 2, 0, false)) == 8);
}

TEST_CASE("STPE clears both tables when useful < useless and turns off after the third clear", "[prefetch]") {
  stats::Group g("pf");
  DataPrefetchConfig cfg;
  PcstPrefetcher p(cfg, true, true, g);
  auto train = [&](int32_t cta) {
    p.on_load(load(8, 0, cta, 0, true));
    p.on_load(load(8, 0, cta, 128, true));
  };
  train(0);
  p.on_useful();
  p.on_useless();
  p.on_cta_complete(0);  // useful == useless: no clear
  CHECK(p.throttle_count() == 0);
  CHECK(p.pcst().size() == 1);
  for (uint32_t k = 1; k <= 3; ++k) {
    train(static_cast<int32_t>(k));
    p.on_useful();
    p.on_useless();
    p.on_useless();
    p.on_cta_complete(static_cast<int32_t>(k));
    CHECK(p.throttle_count() == k);
    CHECK(p.pcst().size() == 0);
    CHECK(p.itpc().size() == 0);
    CHECK(p.off() == (k == 3));
  }
  CHECK(g.find("throttle_events")->scalar(stats::View::Epoch) == 3);
  CHECK(g.find("prefetcher_off")->scalar(stats::View::Epoch) == 1);
  // Off: nothing trains or predicts any more.
  p.on_load(load(8, 0, 9, 0, true));
  p.on_load(load(8, 0, 9, 128, true));
  CHECK(p.pcst().size() == 0);
  CHECK(p.on_load(load(8, 3, 9, 0, false)) == 0);
}

TEST_CASE("STPE with interval cta compares the counts of one CTA and cumulative of the run", "[prefetch]") {
  for (const char* interval : {"cta", "cumulative"}) {
    stats::Group g("pf");
    DataPrefetchConfig cfg;
    cfg.throttle_interval = interval;
    PcstPrefetcher p(cfg, true, true, g);
    p.on_useless();
    p.on_cta_complete(0);  // 0 < 1: cleared
    p.on_useful();
    p.on_cta_complete(1);  // cta: 1 useful vs 0 useless; cumulative: 1 vs 1
    p.on_useful();
    p.on_useless();
    p.on_useless();
    p.on_cta_complete(2);  // cta: 1 < 2 cleared; cumulative: 2 < 3 cleared
    INFO(interval);
    CHECK(p.throttle_count() == 2);
    p.on_useful();
    p.on_useful();
    p.on_cta_complete(3);  // cta: 2 vs 0; cumulative: 4 vs 3
    CHECK(p.throttle_count() == 2);
    p.on_useless();
    p.on_cta_complete(4);  // cta: 0 < 1 cleared; cumulative: 4 vs 4
    CHECK(p.throttle_count() == (std::string(interval) == "cta" ? 3u : 2u));
  }
}

TEST_CASE("MT-HWP looks up global then inter-thread then per-warp and promotes steady strides", "[prefetch]") {
  stats::Group g("pf");
  DataPrefetchConfig cfg;
  cfg.mt_hwp.promotion_warps = 2;
  MtHwpPrefetcher p(cfg, g);
  // Per-warp training only (the same warp each time: no inter-thread stride).
  CHECK(p.on_load(load(8, 0, 0, 1000, false)) == 0);
  CHECK(p.on_load(load(8, 0, 0, 1100, false)) == 100);  // per-warp TRANSIENT
  CHECK(p.last_source() == MtHwpPrefetcher::PerWarp);
  // Warp 1 follows warp 0 by 4 bytes: the inter-thread table learns 4 per warp step...
  CHECK(p.on_load(load(8, 1, 0, 1104, false)) == 4);
  CHECK(p.last_source() == MtHwpPrefetcher::InterThread);
  // ... and comes before the per-warp table.
  p.on_load(load(8, 1, 0, 1204, false));  // same warp: no inter-thread update
  CHECK(p.inter_thread().entries().at(8).stride == 4);
  CHECK(p.on_load(load(8, 0, 0, 1200, false)) == 4);
  CHECK(p.last_source() == MtHwpPrefetcher::InterThread);
  // Two warps STEADY with stride 100: promoted; the global table now answers first.
  CHECK(p.global().size() == 0);          // warp 0 (1000, 1100, 1200) is STEADY: one warp so far
  p.on_load(load(8, 1, 0, 1304, false));  // warp 1: 1104, 1204, 1304 -> STEADY 100: two warps
  REQUIRE(p.global().size() == 1);
  CHECK(p.global().entries().at(8).stride == 100);
  CHECK(g.find("promotions")->scalar(stats::View::Epoch) == 1);
  CHECK(p.on_load(load(8, 0, 0, 1300, false)) == 100);
  CHECK(p.last_source() == MtHwpPrefetcher::Global);
}

TEST_CASE("data prefetcher registry knows every policy and names the key of an unknown one", "[prefetch]") {
  stats::Group g("pf");
  DataPrefetchConfig cfg;
  CHECK(data_prefetcher_names() == std::vector<std::string>{"none", "stride", "pcst", "pcst_itpc", "stpe", "mt_hwp"});
  for (const std::string& n : data_prefetcher_names()) {
    cfg.policy = n;
    stats::Group sub(g, n);
    CHECK((make_data_prefetcher(cfg, "sm.l1d_prefetch", sub) == nullptr) == (n == "none"));
  }
  cfg.policy = "stpee";
  CHECK_THROWS_WITH(make_data_prefetcher(cfg, "sm.l1d_prefetch", g),
                    Catch::Contains("sm.l1d_prefetch.policy") && Catch::Contains("stpee"));
}
