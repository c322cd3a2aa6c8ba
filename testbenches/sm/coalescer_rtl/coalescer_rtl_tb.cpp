// Equivalence testbench of the coalescer RTL (modules/sm/lsu/rtl/coalescer.sv) against the
// C++ model (sm/lsu/coalescer.h), MatchLib style: directed and random warp accesses under
// random input gaps and output stalls. Every request is compared with the model's
// (transaction by transaction) and every handshake's cycle with a golden cycle model of
// the RTL's timing contract (cycle by cycle); a mismatch prints the first difference with
// both sides. The test-only RTL build with an injected bug must be caught.
#include <catch2/catch.hpp>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "coalescer_stimulus.h"
#include "Vgputlm_coalescer.h"
#include "Vgputlm_coalescer_bug.h"
#include "core/random/splitmix64.h"
#include "sm/lsu/coalescer.h"
#include "sm/lsu/rtl/coalescer_rtl.h"
#include "verilated.h"

using namespace gputlm;
using namespace gputlm::sm;
using namespace gputlm::sm::tb;

namespace {

// The handshakes of one access, one line per event: "<cycle> in <piece>",
// "<cycle> out <request>", "<cycle> done".
using Log = std::vector<std::string>;

// Per-cycle choices of the environment, drawn identically for the RTL and the golden model:
// whether a new piece is offered (once offered it is held until accepted) and out_ready.
struct Environment {
  explicit Environment(uint64_t seed, uint32_t gap_pct, uint32_t stall_pct)
      : state(seed), gap(gap_pct), stall(stall_pct) {}
  uint64_t state;
  uint32_t gap, stall;
  bool offer_new() { return SplitMix64::step(state) % 100 >= gap; }
  bool ready() { return SplitMix64::step(state) % 100 >= stall; }
};

// Drives the Verilated RTL cycle by cycle.
template <class Model>
Log run_rtl(const Access& a, Environment env, std::vector<LineRequest>& reqs) {
  VerilatedContext ctx;
  Model m(&ctx, "coalescer");
  auto tick = [&] {
    m.clk = 1;
    m.eval();
    m.clk = 0;
    m.eval();
  };
  m.clk = 0;
  m.rst_n = 0;
  m.eval();
  m.rst_n = 1;
  const uint32_t parts = a.atomic ? a.cfg.atomic_warp_parts : a.cfg.warp_parts;
  m.cfg_line_log2 = log2_of(a.cfg.line_size);
  m.cfg_sector_log2 = log2_of(a.cfg.sector_size);
  m.cfg_unit_log2 = log2_of(a.atomic ? a.cfg.atomic_segment : a.cfg.line_size);
  m.cfg_part_lanes_log2 = log2_of(32 / parts);
  m.cfg_atomic = a.atomic;
  Log log;
  reqs.clear();
  std::size_t next = 0;
  bool holding = false;
  for (uint64_t c = 0; c < 10000; ++c) {
    const bool offer_new = env.offer_new(), ready = env.ready();
    const bool offer = next < a.pieces.size() && (holding || offer_new);
    m.in_valid = offer;
    if (offer) {
      const LaneAccess& p = a.pieces[next];
      m.in_addr = p.address;
      m.in_bytes = p.bytes;
      m.in_lane = p.lane;
      m.in_last = next + 1 == a.pieces.size();
    }
    m.out_ready = ready;
    m.eval();
    if (offer && m.in_ready) log.push_back(std::to_string(c) + " in " + std::to_string(next));
    if (m.out_valid && ready) {
      LineRequest r;
      r.line_address = m.out_line_addr;
      r.segment_address = m.out_seg_addr;
      r.sector_mask = m.out_sector_mask;
      r.lane_mask = m.out_lane_mask;
      for (uint32_t b = 0; b < 128; ++b)
        if ((m.out_byte_mask[b / 32] >> (b % 32)) & 1u) r.byte_mask.set(b);
      reqs.push_back(r);
      log.push_back(std::to_string(c) + " out " + to_string(r) + (m.out_last ? " last" : ""));
    }
    const bool done = m.done;
    const bool accepted = offer && m.in_ready;
    if (done) log.push_back(std::to_string(c) + " done");
    tick();
    holding = offer && !accepted;
    if (accepted) ++next;
    if (done) break;
  }
  m.final();
  return log;
}

// Golden cycle model of the contract in coalescer.sv's header, fed the model's requests.
Log run_golden(const Access& a, Environment env, const std::vector<LineRequest>& reqs) {
  const uint64_t unit = a.atomic ? a.cfg.atomic_segment : a.cfg.line_size;
  auto chunks = [&](const LaneAccess& p) -> uint32_t {
    if (p.bytes == 0) return 1;
    return static_cast<uint32_t>((p.address + p.bytes - 1) / unit - p.address / unit + 1);
  };
  Log log;
  std::size_t next = 0, sent = 0;
  uint32_t rem = 0;       // chunks of the current piece still to handle
  bool rem_last = false;  // the current piece is the last
  bool emit = false, holding = false;
  for (uint64_t c = 0; c < 10000; ++c) {
    const bool offer_new = env.offer_new(), ready = env.ready();
    const bool offer = next < a.pieces.size() && (holding || offer_new);
    bool accepted = false;
    if (!emit) {
      if (rem > 0) {
        if (--rem == 0 && rem_last) emit = true;
      } else if (offer) {
        accepted = true;
        log.push_back(std::to_string(c) + " in " + std::to_string(next));
        rem = chunks(a.pieces[next]) - 1;
        rem_last = next + 1 == a.pieces.size();
        if (rem == 0 && rem_last) emit = true;
      }
      holding = offer && !accepted;
      if (accepted) ++next;
      continue;
    }
    holding = offer;
    if (sent < reqs.size()) {
      if (ready) {
        log.push_back(std::to_string(c) + " out " + to_string(reqs[sent]) + (sent + 1 == reqs.size() ? " last" : ""));
        ++sent;
      }
      continue;
    }
    log.push_back(std::to_string(c) + " done");
    break;
  }
  return log;
}

std::string first_log_difference(const Log& golden, const Log& rtl) {
  for (std::size_t i = 0; i < std::max(golden.size(), rtl.size()); ++i) {
    const std::string g = i < golden.size() ? golden[i] : "(none)", r = i < rtl.size() ? rtl[i] : "(none)";
    if (g != r) return "event " + std::to_string(i) + ":\n  golden: " + g + "\n  rtl:    " + r;
  }
  return "";
}

// One access through model, RTL pins and golden timing; returns the first difference or "".
template <class Model>
std::string check(const Access& a, uint64_t seed, uint32_t gap_pct, uint32_t stall_pct) {
  Coalescer model(a.cfg);
  std::vector<LineRequest> want, got;
  if (a.atomic)
    model.coalesce_atomic(a.pieces.data(), a.pieces.size(), 32, want);
  else
    model.coalesce(a.pieces.data(), a.pieces.size(), 32, want);
  const Environment env(seed, gap_pct, stall_pct);
  const Log rtl = run_rtl<Model>(a, env, got);
  std::string d = first_difference(want, got);
  if (!d.empty()) return "transaction mismatch at " + d;
  d = first_log_difference(run_golden(a, env, want), rtl);
  if (!d.empty()) return "cycle mismatch at " + d;
  return "";
}

}  // namespace

TEST_CASE("coalescer RTL equals the model on directed accesses, request by request and cycle by cycle", "[rtl]") {
  uint64_t seed = 1;
  for (const Access& a : directed())
    for (uint32_t stall : {0u, 30u}) {
      const std::string d = check<Vgputlm_coalescer>(a, seed++, stall, stall);
      INFO("directed access of " << a.pieces.size() << " pieces, stall " << stall << "%");
      CHECK(d == "");
    }
}

TEST_CASE("coalescer RTL equals the model on 2000 random accesses under random gaps and stalls", "[rtl]") {
  uint64_t s = 0xc0a1e5ce;
  for (int i = 0; i < 2000; ++i) {
    const Access a = random_access(s);
    const std::string d = check<Vgputlm_coalescer>(a, s, static_cast<uint32_t>(i % 4) * 20, static_cast<uint32_t>(i % 3) * 25);
    INFO("random access " << i << " (" << a.pieces.size() << " pieces, atomic " << a.atomic << ", line "
                          << a.cfg.line_size << ")");
    REQUIRE(d == "");
  }
}

TEST_CASE("coalescer RTL with the injected bug is caught and the first difference printed", "[rtl]") {
  std::string first;
  int caught = 0, total = 0;
  for (const Access& a : directed()) {
    ++total;
    const std::string d = check<Vgputlm_coalescer_bug>(a, 7, 0, 0);
    if (!d.empty()) {
      ++caught;
      if (first.empty()) first = d;
    }
  }
  INFO(first);
  CHECK(caught > 0);
  CHECK(first.find("transaction mismatch at request") != std::string::npos);
  CHECK(first.find("model: line 0x") != std::string::npos);
  CHECK(first.find("rtl:   line 0x") != std::string::npos);
  // Through the transactor the same bug is seen by impl=compare's check.
  auto bug = make_rtl_coalescer(CoalescerConfig{}, true);
  Coalescer model{CoalescerConfig{}};
  const auto p = golden::strided(0x1000, 4, 4);
  std::vector<LineRequest> want, got;
  model.coalesce(p.data(), p.size(), 32, want);
  bug->coalesce(p.data(), p.size(), 32, got);
  CHECK(first_difference(want, got).find("lanes 0xffffffff") != std::string::npos);
}

TEST_CASE("coalescer transactor gives the model's requests through the LSU interface", "[rtl]") {
  uint64_t s = 99;
  CoalescerConfig cfg;
  auto rtl = make_coalescer([&] { auto c = cfg; c.impl = "rtl"; return c; }(), "sm.lsu.coalescer");
  auto cmp = make_coalescer([&] { auto c = cfg; c.impl = "compare"; return c; }(), "sm.lsu.coalescer");
  Coalescer model(cfg);
  for (int i = 0; i < 300; ++i) {
    Access a = random_access(s);
    a.cfg = cfg;
    std::vector<LineRequest> want, got, via_compare;
    model.coalesce_atomic(a.pieces.data(), a.pieces.size(), 32, want);
    const bool atomic_fits = want.size() <= kRtlMaxRequests;
    model.coalesce(a.pieces.data(), a.pieces.size(), 32, want);
    if (want.size() > kRtlMaxRequests || !atomic_fits) continue;  // beyond the RTL's table (own test)
    rtl->coalesce(a.pieces.data(), a.pieces.size(), 32, got);
    cmp->coalesce(a.pieces.data(), a.pieces.size(), 32, via_compare);
    REQUIRE(first_difference(want, got) == "");
    REQUIRE(first_difference(want, via_compare) == "");
    model.coalesce_atomic(a.pieces.data(), a.pieces.size(), 32, want);
    rtl->coalesce_atomic(a.pieces.data(), a.pieces.size(), 32, got);
    REQUIRE(first_difference(want, got) == "");
  }
  std::vector<LineRequest> none;
  rtl->coalesce(nullptr, 0, 32, none);
  CHECK(none.empty());
  CHECK(rtl_coalescer_cycles() > 0);
}

TEST_CASE("coalescer RTL overflow: more requests than its table is an error naming MAX_REQS", "[rtl]") {
  std::vector<LaneAccess> p;  // 32 lanes x 3 pieces in distinct lines: 96 requests
  for (uint8_t l = 0; l < 32; ++l)
    for (uint32_t k = 0; k < 3; ++k) p.push_back(LaneAccess{0x100000 + (l * 3u + k) * 128u, 4, l});
  auto rtl = make_rtl_coalescer(CoalescerConfig{});
  std::vector<LineRequest> out;
  CHECK_THROWS_WITH(rtl->coalesce(p.data(), p.size(), 32, out), Catch::Contains("MAX_REQS"));
  // The transactor is usable again afterwards (the RTL finished the access and reset its table).
  const auto q = golden::strided(0x1000, 4, 4);
  rtl->coalesce(q.data(), q.size(), 32, out);
  CHECK(out.size() == 1);
}
