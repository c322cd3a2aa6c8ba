// The step API the timing model drives: one warp instruction per call, with the facts
// the pipeline needs (PC, masks, per-lane addresses, divergence, barrier waits, exits).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "simt_test_util.h"

using namespace simt_test;

// Counts heap allocations so the steady-state "no allocation per step" property is tested.
// (g++ cannot see that the replaced new and delete pair malloc with free.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
namespace {
std::atomic<uint64_t> g_allocations{0};
}
void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
// The nothrow forms too: left to the runtime's, their memory would reach the free() below
// (AddressSanitizer: alloc-dealloc-mismatch; Catch allocates its test cases this way).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return operator new(n, std::nothrow); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

TEST_CASE("simt step API: addresses, exits, divergence and barrier release per warp", "[simt]") {
  TestDevice dev("tests/isa/exec/cu/sync.ptx");
  const int block = 128, live = 48;
  std::vector<int> in(block);
  for (int i = 0; i < block; ++i) in[i] = i + 1;
  uint64_t din = dev.upload(in), dout = dev.alloc<int>(1, 0);
  GridExecution g(dev.module(), dev.launch("barrier_with_exited", d1(1), d1(block), 0, din, dout, live));
  CHECK(g.warps_per_cta() == 4);
  CtaContext& cta = g.start_cta(0);
  REQUIRE(cta.warps.size() == 4);

  // Warp 0 runs up to the first barrier.
  WarpContext& w0 = cta.warps[0];
  bool saw_param = false, saw_global_load = false, saw_shared_store = false;
  for (int guard = 0; guard < 1000 && w0.status == WarpStatus::Ready; ++guard) {
    const Instruction* next = g.peek(w0);
    uint64_t next_pc = g.peek_pc(w0);
    const StepResult& r = g.step(w0);
    CHECK(r.instr == next);
    CHECK(r.pc == next_pc);
    CHECK(r.active_mask == 0xFFFFFFFFu);
    if (r.is_memory && r.mem.space == StateSpace::Param) saw_param = true;
    if (r.is_memory && r.mem.space == StateSpace::Global && r.mem.kind == AccessKind::Load) {
      saw_global_load = true;
      CHECK(r.mem.element_bytes == 4);
      CHECK(r.mem.elements == 1);
      CHECK(r.mem.lane_mask == 0xFFFFFFFFu);
      for (uint32_t l = 0; l < 32; ++l) CHECK(r.mem.addr[l] == din + 4 * l);
    }
    if (r.is_memory && r.mem.space == StateSpace::Shared && r.mem.kind == AccessKind::Store) {
      saw_shared_store = true;
      for (uint32_t l = 0; l < 32; ++l) CHECK(r.mem.addr[l] == 4 * l);  // buf[t], t = lane
    }
    if (r.at_barrier) {
      CHECK_FALSE(r.barrier_released);  // warps 1..3 have not arrived or exited yet
      CHECK(r.barrier_id == 0);
    }
  }
  CHECK(saw_param);
  CHECK(saw_global_load);
  CHECK(saw_shared_store);
  REQUIRE(w0.status == WarpStatus::AtBarrier);
  CHECK_THROWS_AS(g.step(w0), ExecError);  // a waiting warp cannot issue

  // Warps 2 and 3 (threads 64..127 >= live) exit without reaching the barrier.
  for (int wi : {2, 3}) {
    WarpContext& w = cta.warps[wi];
    bool finished = false;
    for (int guard = 0; guard < 100 && !finished; ++guard) {
      const StepResult& r = g.step(w);
      if (r.exited_mask) CHECK(r.exited_mask == 0xFFFFFFFFu);
      finished = r.warp_finished;
    }
    CHECK(finished);
    CHECK(w.status == WarpStatus::Finished);
    CHECK(g.peek(w) == nullptr);
  }
  CHECK(w0.status == WarpStatus::AtBarrier);

  // Warp 1: lanes 16..31 (threads 48..63) branch straight to the final `ret`, which is
  // the branch's reconvergence point, so they wait there (PDOM) while lanes 0..15 reach
  // the barrier. That arrival completes the barrier: warps 2 and 3 exited and no longer
  // count, and warp 1 counts as a whole.
  WarpContext& w1 = cta.warps[1];
  bool diverged = false, released = false, at_barrier = false;
  for (int guard = 0; guard < 1000 && !at_barrier; ++guard) {
    const StepResult& r = g.step(w1);
    diverged = diverged || r.diverged;
    CHECK(r.exited_mask == 0u);
    if (r.at_barrier) {
      at_barrier = true;
      CHECK(r.active_mask == 0x0000FFFFu);
      released = r.barrier_released;
    }
  }
  CHECK(diverged);
  CHECK(released);
  CHECK(w0.status == WarpStatus::Ready);
  CHECK(w1.status == WarpStatus::Ready);

  for (int guard = 0; guard < 100000 && !cta.finished(); ++guard)
    for (WarpContext& w : cta.warps)
      if (w.status == WarpStatus::Ready) g.step(w);
  REQUIRE(cta.finished());
  g.check_deadlock(cta);  // a finished CTA is not a deadlock
  int s = 0;
  for (int i = 0; i < live; ++i) s += in[i];
  CHECK(dev.download<int>(dout, 1)[0] == s);
  CHECK(g.counters().warp_instructions > 0);
  CHECK(g.counters().ctas == 1);
}

TEST_CASE("simt step API: a divergent branch reports its masks and reconverges", "[simt]") {
  TestDevice dev("tests/isa/exec/cu/control.ptx");
  uint64_t out = dev.alloc<int>(32, 0), mask = dev.alloc<uint32_t>(32, 0);
  GridExecution g(dev.module(), dev.launch("nested_divergence", d1(1), d1(32), 0, out, mask));
  CtaContext& cta = g.start_cta(0);
  WarpContext& w = cta.warps[0];
  int diverged = 0, reconverged = 0;
  uint32_t min_active = 0xFFFFFFFFu;
  bool store_full = true;
  while (w.status == WarpStatus::Ready) {
    const StepResult& r = g.step(w);
    diverged += r.diverged;
    reconverged += r.reconverged;
    if (__builtin_popcount(r.active_mask) < __builtin_popcount(min_active)) min_active = r.active_mask;
    if (r.is_memory && r.mem.kind == AccessKind::Store) store_full = store_full && r.exec_mask == 0xFFFFFFFFu;
  }
  // nvcc if-converts the inner conditions of the even side and of t*5(+100) with selp:
  // two real divergent branches remain (t odd/even, then (t & 3) == 1 on the odd side).
  CHECK(diverged == 2);
  CHECK(reconverged >= 1);
  CHECK(min_active != 0xFFFFFFFFu);
  CHECK(store_full);                // the stores after the if/else nest run with all lanes
}

TEST_CASE("simt step API: stepping a reused CTA context does not allocate", "[simt]") {
  TestDevice dev("tests/isa/exec/cu/sync.ptx");
  const int ctas = 2, block = 128;
  std::vector<int> in(ctas * block, 3);
  uint64_t din = dev.upload(in), dout = dev.alloc<int>(ctas, 0);
  GridExecution g(dev.module(), dev.launch("barrier_with_exited", d1(ctas), d1(block), 0, din, dout, 100));
  auto run_cta = [&](uint64_t id) {
    CtaContext& cta = g.start_cta(id);
    while (!cta.finished())
      for (WarpContext& w : cta.warps)
        while (w.status == WarpStatus::Ready) g.step(w);
    g.retire_cta(cta);
  };
  run_cta(0);  // warm-up: storage grows to its steady-state size
  uint64_t before = g_allocations.load();
  run_cta(1);
  CHECK(g_allocations.load() == before);
  CHECK(dev.download<int>(dout, 2) == std::vector<int>{300, 300});
}

TEST_CASE("simt step API: the SIMT stack stays shallow in loops whose lanes leave one by one", "[simt]") {
  // loop_break_continue: lane t iterates t times (with continue/break inside), so the loop
  // exit diverges on 31 different iterations; entries must not pile up per iteration.
  TestDevice dev("tests/isa/exec/cu/control.ptx");
  uint64_t out = dev.alloc<int>(32, 0), mask = dev.alloc<uint32_t>(32, 0);
  GridExecution g(dev.module(), dev.launch("loop_break_continue", d1(1), d1(32), 0, out, mask));
  CtaContext& cta = g.start_cta(0);
  WarpContext& w = cta.warps[0];
  size_t deepest = 0;
  int diverged = 0;
  while (w.status == WarpStatus::Ready) {
    diverged += g.step(w).diverged;
    deepest = std::max(deepest, w.simt.size());
  }
  CHECK(diverged > 10);
  CHECK(deepest <= 6);
  CHECK(dev.download<uint32_t>(mask, 32) == std::vector<uint32_t>(32, 0xFFFFFFFFu));
}

TEST_CASE("simt step API: peek_global_load gives the addresses the next load will read", "[simt]") {
  // Every warp of barrier_with_exited (global loads, shared stores, a barrier, exits): before
  // each step, peek_global_load must say true exactly for ld/ldu of global (or generic) data,
  // and the step's own lanes and addresses must match what it predicted.
  TestDevice dev("tests/isa/exec/cu/sync.ptx");
  const int block = 128, live = 48;
  std::vector<int> in(block);
  for (int i = 0; i < block; ++i) in[i] = i + 1;
  uint64_t din = dev.upload(in), dout = dev.alloc<int>(1, 0);
  GridExecution g(dev.module(), dev.launch("barrier_with_exited", d1(1), d1(block), 0, din, dout, live));
  CtaContext& cta = g.start_cta(0);
  int loads = 0, others = 0;
  for (int round = 0; round < 4; ++round)
    for (WarpContext& w : cta.warps)
      for (int guard = 0; guard < 1000 && w.status == WarpStatus::Ready; ++guard) {
        uint64_t addr[32];
        uint32_t mask = 0;
        const bool peeked = g.peek_global_load(w, addr, mask);
        const StepResult& r = g.step(w);
        const bool global_load = r.is_memory && r.mem.kind == AccessKind::Load &&
                                 (r.instr->op == Opcode::Ld || r.instr->op == Opcode::Ldu) &&
                                 r.mem.space == StateSpace::Global;
        CHECK(peeked == global_load);
        if (!peeked) {
          ++others;
          continue;
        }
        ++loads;
        CHECK(mask == r.mem.lane_mask);
        for (uint32_t l = 0; l < 32; ++l)
          if (mask & (1u << l)) CHECK(addr[l] == r.mem.addr[l]);
      }
  CHECK(loads > 0);
  CHECK(others > 0);
  CHECK(cta.finished());
}
