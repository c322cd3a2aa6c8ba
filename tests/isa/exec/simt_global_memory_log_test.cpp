// GlobalMemoryLog (deferred global memory for SMs stepped in parallel threads): stepping
// with one log per "SM" and replaying the logs in SM order after each batch of steps (a
// clock edge) must give exactly the step results, registers and memory of stepping without
// a log in the same order, and, for kernels whose results do not depend on the order, the
// functional runner's memory. The batches respect what the SM's scoreboard guarantees: no
// step reads or writes a register that a deferred load or atomic of the same batch writes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>

#include "simt_test_util.h"

using namespace simt_test;

namespace {

const std::string kHeader = ".version 7.5\n.target sm_75\n.address_size 64\n";

// Forms nvcc output does not isolate: sub-word loads sign-extended into 64-bit registers, a
// vector load with a sink element, a store whose source register is overwritten by the next
// instruction, red (plain and mixed shared/global generic), a mixed atomic with return, a
// load into a callee register that is dead when the callee returns, a callee whose frame is
// pushed again in the same batch, and a dead load right before the kernel exits (its CTA
// context may restart before replay).
const std::string kSnippets = kHeader + R"(
.global .align 4 .u32 memlog_word = 12345;

.visible .func dead_word_load()
{
  .reg .b32 %r<2>;
  ld.global.u32 %r1, [memlog_word];
  ret;
}

.visible .func dead_load(.param .b64 dead_load_p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [dead_load_p];
  ld.global.u32 %r1, [%rd1];
  ret;
}

.visible .func (.param .b32 load_add_ret) load_add(.param .b64 load_add_p, .param .b32 load_add_k)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [load_add_p];
  ld.param.u32 %r1, [load_add_k];
  ld.global.s16 %r2, [%rd1+2];
  add.s32 %r3, %r2, %r1;
  st.param.b32 [load_add_ret], %r3;
  ret;
}

.visible .entry snippets(.param .u64 p_in, .param .u64 p_out, .param .u64 p_acc)
{
  .reg .pred %p<3>;
  .reg .b16 %rs<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<20>;
  .shared .align 8 .b8 sh[64];
  ld.param.u64 %rd1, [p_in];
  ld.param.u64 %rd2, [p_out];
  ld.param.u64 %rd3, [p_acc];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd4, %r4, 8;
  add.s64 %rd5, %rd1, %rd4;
  mul.wide.u32 %rd6, %r4, 64;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.s8 %rd8, [%rd5];
  ld.global.s16 %r5, [%rd5+2];
  ld.global.v2.u16 {%rs1, _}, [%rd5+4];
  ld.global.v4.s8 {%r6, %r7, _, %r8}, [%rd5+4];
  st.global.u64 [%rd7], %rd8;
  add.s64 %rd8, %rd8, 1000;
  st.global.u32 [%rd7+8], %r5;
  mov.u32 %r5, 7;
  cvt.u32.u16 %r9, %rs1;
  st.global.v4.u32 [%rd7+16], {%r6, %r7, %r8, %r9};
  mov.u32 %r6, 0;
  st.global.u64 [%rd7+32], %rd8;
  st.global.u32 [%rd7+40], %r5;
  red.global.add.u32 [%rd3], %r4;
  red.global.max.s32 [%rd3+4], %r7;
  and.b32 %r10, %r1, 1;
  setp.eq.u32 %p1, %r10, 1;
  mov.u64 %rd9, sh;
  cvta.shared.u64 %rd9, %rd9;
  cvta.global.u64 %rd10, %rd3;
  selp.b64 %rd11, %rd9, %rd10, %p1;
  red.add.u32 [%rd11+8], 1;
  atom.add.u32 %r11, [%rd11+12], %r4;
  st.global.u32 [%rd7+44], %r11;
  ld.u32 %r12, [%rd11+12];
  st.global.u32 [%rd7+48], %r12;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd5;
  call.uni dead_load, (param0);
  }
  call.uni dead_word_load, ();
  call.uni dead_word_load, ();
  {
  .param .b64 param0;
  .param .b32 param1;
  .param .b32 retval0;
  st.param.b64 [param0+0], %rd5;
  st.param.b32 [param1+0], %r4;
  call.uni (retval0), load_add, (param0, param1);
  ld.param.b32 %r13, [retval0+0];
  }
  st.global.u32 [%rd7+52], %r13;
  ld.global.u32 %r14, [%rd5+4];
  ret;
}

.visible .entry oob_load(.param .u64 p_in, .param .u64 p_out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [p_in];
  ld.param.u64 %rd2, [p_out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r2;
  ret;
}
)";

using MakeDevice = std::function<std::unique_ptr<TestDevice>()>;
MakeDevice ptx_file(const std::string& path) {
  return [path] { return std::make_unique<TestDevice>(path); };
}
MakeDevice ptx_text(const std::string& text, const std::string& name) {
  return [text, name] { return std::make_unique<TestDevice>(TestDevice::Text{}, text, name); };
}
// Fills a launch's buffers and returns the launch. Allocation is deterministic, so run on
// several devices it gives the same addresses.
using Setup = std::function<LaunchParams(TestDevice&)>;

struct Interleaving {
  uint32_t sms = 3;          // SMs, each with its own log; logs replay in SM order
  uint32_t ctas_per_sm = 2;  // resident CTAs per SM
  // A warp issues 1 to 4 times per batch (pseudo-random, fixed), as long as its next
  // instruction touches no register a deferred load/atomic of the batch writes.
  bool multi_issue = false;
  // A finished CTA's context starts the next CTA within the batch, before replay.
  bool restart_in_batch = false;
};

uint64_t lcg(uint64_t& x) {
  x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x >> 17;
}

std::string diff_memory(const DeviceMemory& a, const DeviceMemory& b) {
  if (a.allocator.live() != b.allocator.live()) return "different allocations";
  std::vector<uint8_t> x, y;
  for (const auto& [start, size] : a.allocator.live()) {
    x.assign(size, 0);
    y.assign(size, 0);
    a.store.read(start, x.data(), size);
    b.store.read(start, y.data(), size);
    for (uint64_t i = 0; i < size; ++i)
      if (x[i] != y[i])
        return "memory differs at allocation " + std::to_string(start) + " + " + std::to_string(i) + ": " +
               std::to_string(x[i]) + " vs " + std::to_string(y[i]);
  }
  return "";
}

std::string diff_step(const StepResult& a, const StepResult& b) {
  if (a.pc != b.pc || a.exec_mask != b.exec_mask || a.is_memory != b.is_memory) return "step differs";
  if (!a.is_memory) return "";
  const MemAccess &x = a.mem, &y = b.mem;
  if (x.space != y.space || x.kind != y.kind || x.lane_mask != y.lane_mask || x.mixed_spaces != y.mixed_spaces)
    return "memory access differs";
  for (uint32_t l = 0; l < 32; ++l)
    if (((x.lane_mask >> l) & 1) && (x.addr[l] != y.addr[l] || (x.mixed_spaces && x.lane_space[l] != y.lane_space[l])))
      return "lane " + std::to_string(l) + " address differs";
  return "";
}

std::string diff_warp(const WarpContext& a, const WarpContext& b) {
  if (a.status != b.status || a.exited_mask != b.exited_mask || a.depth != b.depth || a.simt.size() != b.simt.size())
    return "warp state differs";
  for (size_t i = 0; i < a.simt.size(); ++i)
    if (a.simt[i].func != b.simt[i].func || a.simt[i].pc != b.simt[i].pc || a.simt[i].mask != b.simt[i].mask)
      return "SIMT stack differs";
  for (uint32_t f = 0; f < a.depth; ++f) {
    const CallFrame &x = a.frames[f], &y = b.frames[f];
    if (x.preds != y.preds) return "predicates of frame " + std::to_string(f) + " differ";
    if (x.regs.size() != y.regs.size()) return "register files differ";
    for (size_t i = 0; i < x.regs.size(); ++i)
      if (x.regs[i] != y.regs[i])
        return "frame " + std::to_string(f) + " register " + std::to_string(i / 32) + " lane " +
               std::to_string(i % 32) + ": " + std::to_string(x.regs[i]) + " vs " + std::to_string(y.regs[i]);
  }
  return "";
}

struct PendingReg {
  uint64_t activation;
  uint32_t reg;
};

// The scoreboard's guarantee: the warp's next instruction neither reads nor writes a
// register that a deferred load/atomic of this batch will write at replay.
bool scoreboard_blocks(const GridExecution& g, const WarpContext& w, const std::vector<PendingReg>& pending) {
  if (pending.empty()) return false;
  const Instruction* in = g.peek(w);
  if (!in) return true;
  const uint64_t act = w.frame().activation;
  auto busy = [&](uint32_t r) {
    for (const PendingReg& p : pending)
      if (p.activation == act && p.reg == r) return true;
    return false;
  };
  for (uint32_t i = 0; i < in->n_src_regs; ++i)
    if (busy(in->src_regs[i])) return true;
  for (uint32_t i = 0; i < in->n_dst_regs; ++i)
    if (busy(in->dst_regs[i])) return true;
  return false;
}

struct LockstepCounts {
  uint64_t batches = 0, steps = 0, deferred = 0, mixed_spaces = 0, multi_issued = 0, restarts_in_batch = 0;
};

// Runs launch `li` on `imm` (no log) and `ll` on `logged` (one log per SM, replayed after
// each batch) in the same interleaving, requiring equal step results after every step and
// equal registers and memory after every batch.
LockstepCounts run_lockstep(TestDevice& imm, const LaunchParams& li, TestDevice& logged, const LaunchParams& ll,
                            const Interleaving& il, std::vector<GlobalMemoryLog>& logs) {
  GridExecution ga(imm.module(), li), gb(logged.module(), ll);
  logs.resize(il.sms);
  struct Slot {
    CtaContext* a = nullptr;
    CtaContext* b = nullptr;
  };
  std::vector<Slot> slots(il.sms * il.ctas_per_sm);
  uint64_t next = 0;
  auto start = [&](Slot& s) {
    s = Slot{};
    if (next >= ga.cta_count()) return;
    s.a = &ga.start_cta(next);
    s.b = &gb.start_cta(next);
    ++next;
  };
  auto retire = [&](Slot& s) {
    ga.retire_cta(*s.a);
    gb.retire_cta(*s.b);
    start(s);
  };
  for (Slot& s : slots) start(s);
  LockstepCounts n;
  std::vector<PendingReg> pending;
  for (;; ++n.batches) {
    REQUIRE(n.batches < 200000);
    bool issued = false;
    for (uint32_t sm = 0; sm < il.sms; ++sm) {
      GlobalMemoryLog& log = logs[sm];
      for (uint32_t k = 0; k < il.ctas_per_sm; ++k) {
        Slot& s = slots[sm * il.ctas_per_sm + k];
        if (!s.a) continue;
        for (size_t wi = 0; wi < s.b->warps.size(); ++wi) {
          WarpContext &wa = s.a->warps[wi], &wb = s.b->warps[wi];
          pending.clear();
          uint64_t h = (n.batches * 0x9E3779B97F4A7C15ull) ^ (s.b->linear_id * 0xC2B2AE3D27D4EB4Full) ^ wi;
          h ^= h >> 29;
          const uint64_t limit = il.multi_issue ? 1 + (h * 0xBF58476D1CE4E5B9ull >> 62) : 1;
          for (uint64_t i = 0; i < limit && wb.status == WarpStatus::Ready; ++i) {
            if (i > 0 && scoreboard_blocks(gb, wb, pending)) break;
            const size_t before = log.size();
            const StepResult& rb = gb.step(wb, &log);
            const StepResult& ra = ga.step(wa);
            issued = true;
            ++n.steps;
            n.multi_issued += i > 0;
            n.mixed_spaces += rb.is_memory && rb.mem.mixed_spaces;
            const std::string d = diff_step(ra, rb);
            if (!d.empty()) FAIL(d << " at PC " << ra.pc << " (batch " << n.batches << ")");
            if (log.size() == before) continue;
            ++n.deferred;
            const GlobalMemoryLog::Op& op = log.ops().back();
            if (!op.dest.warp) continue;
            for (uint32_t e = 0; e < op.elements && e < 8; ++e)
              if (op.dest.regs[e] != kNone) pending.push_back({op.dest.activation, op.dest.regs[e]});
          }
        }
        if (il.restart_in_batch && s.b->finished()) {
          REQUIRE(s.a->finished());
          retire(s);
          ++n.restarts_in_batch;
        }
      }
    }
    for (GlobalMemoryLog& log : logs) {
      log.replay(logged.memory());
      REQUIRE(log.empty());
    }
    for (const Slot& s : slots) {
      if (!s.a) continue;
      for (size_t wi = 0; wi < s.a->warps.size(); ++wi) {
        const std::string d = diff_warp(s.a->warps[wi], s.b->warps[wi]);
        if (!d.empty()) FAIL(d << " (CTA " << s.a->linear_id << " warp " << wi << ", batch " << n.batches << ")");
      }
    }
    const std::string dm = diff_memory(imm.memory(), logged.memory());
    if (!dm.empty()) FAIL(dm << " (batch " << n.batches << ")");
    bool live = false;
    for (Slot& s : slots) {
      if (s.a && s.b->finished()) retire(s);
      live = live || s.a;
    }
    if (!live) break;
    REQUIRE(issued);  // otherwise every resident warp waits: a deadlock
  }
  return n;
}

// Golden comparison of one kernel in both interleavings; with `order_independent`, the
// immediate run must also leave the functional runner's memory. Returns the counts of the
// multi-issue run.
LockstepCounts check_kernel(const MakeDevice& make, const Setup& setup, bool order_independent) {
  LockstepCounts counts;
  for (const Interleaving il : {Interleaving{}, Interleaving{3, 2, true, true}}) {
    INFO("multi-issue and in-batch restarts: " << il.multi_issue);
    std::unique_ptr<TestDevice> imm = make(), logged = make();
    LaunchParams li = setup(*imm), ll = setup(*logged);
    REQUIRE(li.params == ll.params);
    std::vector<GlobalMemoryLog> logs;
    LockstepCounts n = run_lockstep(*imm, li, *logged, ll, il, logs);
    counts = n;
    CHECK(n.deferred > 0);
    if (il.multi_issue) CHECK(n.multi_issued > 0);
    if (order_independent) {
      std::unique_ptr<TestDevice> ref = make();
      LaunchParams lr = setup(*ref);
      run_grid_functional(ref->module(), lr);
      CHECK(diff_memory(ref->memory(), imm->memory()) == "");
    }
  }
  return counts;
}

const char* kLogPtx = "tests/isa/exec/cu/memory_log.ptx";

LaunchParams setup_widths(TestDevice& d) {
  const size_t n = 8 * 64;
  uint64_t x = 1;
  std::vector<int8_t> s8(n);
  std::vector<uint8_t> u8(n);
  std::vector<int16_t> s16(n);
  std::vector<uint16_t> u16(n);
  std::vector<int32_t> s32(n);
  std::vector<int64_t> s64(n);
  for (size_t i = 0; i < n; ++i) {
    s8[i] = static_cast<int8_t>(lcg(x));
    u8[i] = static_cast<uint8_t>(lcg(x));
    s16[i] = static_cast<int16_t>(lcg(x));
    u16[i] = static_cast<uint16_t>(lcg(x));
    s32[i] = static_cast<int32_t>(lcg(x));
    s64[i] = static_cast<int64_t>(lcg(x) * 0x9E3779B97F4A7C15ull);
  }
  uint64_t a = d.upload(s8), b = d.upload(u8), c = d.upload(s16), e = d.upload(u16), f = d.upload(s32),
           g = d.upload(s64);
  uint64_t out = d.alloc<int64_t>(n), o8 = d.alloc<int8_t>(n), o16 = d.alloc<int16_t>(n), o32 = d.alloc<int32_t>(n);
  return d.launch("widths", d1(8), d1(64), 0, a, b, c, e, f, g, out, o8, o16, o32);
}

LaunchParams setup_vectors(TestDevice& d) {
  const size_t n = 8 * 64;
  uint64_t x = 2;
  std::vector<float> a(4 * n);
  std::vector<double> b(2 * n);
  std::vector<uint8_t> c(4 * n);
  std::vector<int32_t> v(2 * n);
  for (float& f : a) f = static_cast<float>(static_cast<int64_t>(lcg(x) % 2001) - 1000) / 8.0f;
  for (double& f : b) f = static_cast<double>(static_cast<int64_t>(lcg(x) % 20001) - 10000) / 16.0;
  for (uint8_t& u : c) u = static_cast<uint8_t>(lcg(x));
  for (int32_t& i : v) i = static_cast<int32_t>(lcg(x));
  uint64_t da = d.upload(a), db = d.upload(b), dc = d.upload(c), dv = d.upload(v);
  uint64_t oa = d.alloc<float>(4 * n), ob = d.alloc<double>(2 * n), oc = d.alloc<uint8_t>(4 * n),
           ov = d.alloc<int32_t>(2 * n);
  return d.launch("vectors", d1(8), d1(64), 0, da, db, dc, dv, oa, ob, oc, ov);
}

LaunchParams setup_atomics_ret(TestDevice& d) {
  const size_t n = 8 * 64;
  uint64_t counter = d.alloc<int32_t>(1, 0), tickets = d.alloc<int32_t>(n, -1), order = d.alloc<int32_t>(n, -1);
  uint64_t cas_word = d.alloc<int32_t>(1, -1), cas_seen = d.alloc<int32_t>(n, 0);
  uint64_t exch_word = d.alloc<uint64_t>(1, 0), exch_seen = d.alloc<uint64_t>(n, 0);
  uint64_t mn = d.alloc<int32_t>(1, 1000), mx = d.alloc<int32_t>(1, -1000), seen = d.alloc<int32_t>(n, 0);
  uint64_t red_sum = d.alloc<uint32_t>(1, 0), red64 = d.alloc<uint64_t>(1, 0), fred = d.alloc<float>(1, 0.0f);
  return d.launch("atomics_ret", d1(8), d1(64), 0, counter, tickets, order, cas_word, cas_seen, exch_word,
                  exch_seen, mn, mx, seen, red_sum, red64, fred);
}

LaunchParams setup_generic(TestDevice& d) {
  const uint32_t ctas = 8, block = 128;
  uint64_t x = 3;
  std::vector<uint64_t> table(ctas);
  for (uint32_t c = 0; c < ctas; ++c) {
    std::vector<int32_t> region(block);
    for (int32_t& v : region) v = static_cast<int32_t>(lcg(x) % 100000);
    table[c] = d.upload(region);
  }
  uint64_t dt = d.upload(table), out = d.alloc<int32_t>(ctas * block, 0);
  return d.launch("generic_access", d1(ctas), d1(block), 0, dt, out);
}

LaunchParams setup_store_then_load(TestDevice& d) {
  const int n = 8 * 64;
  uint64_t data = d.alloc<int32_t>(n, 0), out = d.alloc<int32_t>(n, 0);
  return d.launch("store_then_load", d1(8), d1(64), 0, data, out, n);
}

LaunchParams setup_snippets(TestDevice& d) {
  const size_t n = 8 * 64;
  uint64_t x = 4;
  std::vector<uint8_t> in(8 * n);
  for (uint8_t& b : in) b = static_cast<uint8_t>(lcg(x));
  uint64_t din = d.upload(in), out = d.alloc<uint8_t>(64 * n, 0), acc = d.alloc<int32_t>(8, 0);
  return d.launch("snippets", d1(8), d1(64), 0, din, out, acc);
}

}  // namespace

TEST_CASE("global memory log: 1/2/4/8-byte and signed loads and stores match immediate execution", "[simt][memlog]") {
  check_kernel(ptx_file(kLogPtx), setup_widths, true);
}

TEST_CASE("global memory log: v2 and v4 loads and stores match immediate execution", "[simt][memlog]") {
  check_kernel(ptx_file(kLogPtx), setup_vectors, true);
}

TEST_CASE("global memory log: atomics with return values incl. CAS and exch replay in issue order", "[simt][memlog]") {
  check_kernel(ptx_file(kLogPtx), setup_atomics_ret, false);
  // The tickets form a permutation and the sums hold in the logged run too.
  std::unique_ptr<TestDevice> imm = ptx_file(kLogPtx)(), logged = ptx_file(kLogPtx)();
  LaunchParams li = setup_atomics_ret(*imm), ll = setup_atomics_ret(*logged);
  std::vector<GlobalMemoryLog> logs;
  run_lockstep(*imm, li, *logged, ll, Interleaving{}, logs);
  const int n = 8 * 64;
  uint64_t counter, order, red_sum, fred;
  std::memcpy(&counter, ll.params.data() + 0, 8);
  std::memcpy(&order, ll.params.data() + 16, 8);
  std::memcpy(&red_sum, ll.params.data() + 80, 8);
  std::memcpy(&fred, ll.params.data() + 96, 8);
  CHECK(logged->download<int32_t>(counter, 1)[0] == n);
  std::vector<int32_t> o = logged->download<int32_t>(order, n);
  std::sort(o.begin(), o.end());
  for (int i = 0; i < n; ++i) CHECK(o[i] == i);
  CHECK(logged->download<uint32_t>(red_sum, 1)[0] == uint32_t(n * (n - 1) / 2));
  CHECK(logged->download<float>(fred, 1)[0] == 0.25f * n);
}

TEST_CASE("global memory log: generic addresses incl. mixed shared and global lanes", "[simt][memlog]") {
  CHECK(check_kernel(ptx_file(kLogPtx), setup_generic, true).mixed_spaces > 0);
}

TEST_CASE("global memory log: loads see stores of earlier warps and SMs of the same batch", "[simt][memlog]") {
  check_kernel(ptx_file(kLogPtx), setup_store_then_load, false);
}

TEST_CASE("global memory log: overwritten store sources and red and dead callee loads and sign extension",
          "[simt][memlog]") {
  LockstepCounts n = check_kernel(ptx_text(kSnippets, "memlog_snippets.ptx"), setup_snippets, false);
  CHECK(n.mixed_spaces > 0);
  CHECK(n.restarts_in_batch > 0);
}

TEST_CASE("global memory log: contended atomics and CAS loops and calls from the executor kernels", "[simt][memlog]") {
  check_kernel(ptx_file("tests/isa/exec/cu/memory.ptx"), [](TestDevice& d) {
    const int n = 3000;
    std::vector<uint32_t> in(n);
    for (int i = 0; i < n; ++i) in[i] = uint32_t(i * 2654435761u) >> 7;
    uint64_t din = d.upload(in), hg = d.alloc<uint32_t>(16, 0), hs = d.alloc<uint32_t>(16, 0);
    return d.launch("histogram", d1(8), d1(64), 0, din, n, hg, hs);
  }, true);
  check_kernel(ptx_file("tests/isa/exec/cu/memory.ptx"), [](TestDevice& d) {
    const int n = 400;
    std::vector<long long> in(n);
    for (int i = 0; i < n; ++i) in[i] = (long long)(i * 7919 % 1000 - 500) * 1000000007LL;
    uint64_t din = d.upload(in);
    uint64_t sum = d.alloc<uint64_t>(1, 0), mn = d.alloc<long long>(1, 1LL << 62);
    uint64_t mx = d.alloc<long long>(1, -(1LL << 62));
    uint64_t dmax = d.alloc<double>(1, -1e300), inc = d.alloc<uint32_t>(1, 0), dec = d.alloc<uint32_t>(1, 0);
    uint64_t fsum = d.alloc<float>(1, 0.0f), dsum = d.alloc<double>(1, 0.0);
    return d.launch("atomics64", d1(8), d1(64), 0, din, n, sum, mn, mx, dmax, inc, dec, fsum, dsum);
  }, true);
  check_kernel(ptx_file("tests/isa/exec/cu/warp_calls.ptx"), [](TestDevice& d) {
    const int n = 8 * 32;
    std::vector<float> w = {0.5f, -1.0f, 2.0f, 0.25f, 3.0f, -0.75f, 1.5f, 1.0f};
    uint64_t dw = d.upload(w), steps = d.alloc<int>(n, 0), fibs = d.alloc<int>(n, 0), ws = d.alloc<float>(n, 0);
    return d.launch("calls", d1(8), d1(32), 0, dw, steps, fibs, ws);
  }, true);
}

TEST_CASE("global memory log: storage stops growing after warm-up", "[simt][memlog]") {
  std::vector<GlobalMemoryLog> logs;
  const Interleaving il{3, 2, true, true};
  std::vector<GlobalMemoryLog::Capacity> warm;
  for (int launch = 0; launch < 3; ++launch) {
    for (const Setup& setup : {Setup(setup_store_then_load), Setup(setup_atomics_ret), Setup(setup_vectors)}) {
      std::unique_ptr<TestDevice> imm = ptx_file(kLogPtx)(), logged = ptx_file(kLogPtx)();
      LaunchParams li = setup(*imm), ll = setup(*logged);
      run_lockstep(*imm, li, *logged, ll, il, logs);
    }
    std::vector<GlobalMemoryLog::Capacity> cap;
    for (const GlobalMemoryLog& log : logs) {
      CHECK(log.empty());
      cap.push_back(log.capacity());
    }
    if (launch == 0) {
      warm = cap;
      for (const GlobalMemoryLog::Capacity& c : cap) CHECK(c.ops > 0);
    } else {
      CHECK(cap == warm);  // the same launches again: no vector reallocated
    }
  }
}

TEST_CASE("global memory log: out-of-bounds global accesses are reported at issue as without a log", "[simt][memlog]") {
  auto first_error = [](TestDevice& d, const LaunchParams& lp, bool with_log) -> std::string {
    GridExecution g(d.module(), lp);
    GlobalMemoryLog log;
    CtaContext& cta = g.start_cta(0);
    try {
      for (int guard = 0; guard < 10000 && !cta.finished(); ++guard) {
        for (WarpContext& w : cta.warps)
          if (w.status == WarpStatus::Ready) g.step(w, with_log ? &log : nullptr);
        log.replay(d.memory());
      }
    } catch (const ExecError& e) {
      return e.what();
    }
    return "";
  };
  {
    TestDevice a("tests/isa/exec/cu/control.ptx"), b("tests/isa/exec/cu/control.ptx");
    const int n = 32;
    uint64_t pa = a.alloc<int>(n, 0), pb = b.alloc<int>(n, 0);
    std::string ea = first_error(a, a.launch("out_of_bounds", d1(1), d1(32), 0, pa, n), false);
    std::string eb = first_error(b, b.launch("out_of_bounds", d1(1), d1(32), 0, pb, n), true);
    CHECK_THAT(ea, Catch::Contains("out-of-bounds global write of 4 bytes"));
    CHECK(ea == eb);
  }
  {
    TestDevice a(TestDevice::Text{}, kSnippets, "memlog_snippets.ptx");
    TestDevice b(TestDevice::Text{}, kSnippets, "memlog_snippets.ptx");
    uint64_t ia = a.alloc<int>(20, 0), oa = a.alloc<int>(32, 0), ib = b.alloc<int>(20, 0), ob = b.alloc<int>(32, 0);
    std::string ea = first_error(a, a.launch("oob_load", d1(1), d1(32), 0, ia, oa), false);
    std::string eb = first_error(b, b.launch("oob_load", d1(1), d1(32), 0, ib, ob), true);
    CHECK_THAT(ea, Catch::Contains("out-of-bounds global read of 4 bytes") && Catch::Contains("lane 20"));
    CHECK(ea == eb);
  }
}
