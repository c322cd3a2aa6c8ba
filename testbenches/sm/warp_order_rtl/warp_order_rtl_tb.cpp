// Equivalence testbench of the GTO/LRR warp-order RTL (modules/sm/scheduler/rtl/
// warp_order.sv) against the C++ policies: random and directed event streams (warps
// arriving and leaving, issues, freed slots, several in one cycle) drive the RTL's pins
// and the C++ policy; after every clock the RTL's order pins must equal the policy's
// order (cycle by cycle). A mismatch prints the cycle, the events and both orders. The
// test-only RTL build with an injected bug must be caught; the transactor must give the
// policy's order through SchedulerPolicyIF.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "Vgputlm_warp_order.h"
#include "Vgputlm_warp_order_bug.h"
#include "core/random/splitmix64.h"
#include "isa/ir.h"
#include "sm/scheduler/rtl/warp_order_rtl.h"
#include "sm/scheduler/scheduler_policy.h"
#include "verilated.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {

constexpr uint32_t kN = kRtlWarpOrderWarps;
constexpr uint32_t kSchedulers = 2, kId = 1;  // locals map to slots local * 2 + 1

std::string list(const std::vector<uint32_t>& v) {
  std::string s;
  for (uint32_t x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return "[" + s + "]";
}

// One cycle's events (-1: none); applied drop, add, forget, issued.
struct Events {
  int drop = -1, add = -1, forget = -1, issued = -1;
  std::string str() const {
    return "drop " + std::to_string(drop) + " add " + std::to_string(add) + " forget " + std::to_string(forget) +
           " issued " + std::to_string(issued);
  }
};

template <class Model>
std::string run(bool gto, const std::vector<Events>& stream) {
  VerilatedContext ctx;
  Model m(&ctx, "warp_order");
  m.cfg_gto = gto;
  m.clk = 0;
  m.rst_n = 0;
  m.eval();
  m.rst_n = 1;
  m.eval();
  auto policy = make_base_policy(gto ? "gto" : "lrr", "policy");
  std::vector<bool> resident(kN, false);
  std::vector<uint64_t> age(kN, 0);
  uint64_t next_age = 1;
  isa::Instruction in{};
  std::vector<WarpView> views;
  std::vector<uint32_t> want, got;
  for (std::size_t c = 0; c < stream.size(); ++c) {
    const Events& e = stream[c];
    m.drop_valid = e.drop >= 0;
    m.drop_idx = e.drop >= 0 ? e.drop : 0;
    m.add_valid = e.add >= 0;
    m.add_idx = e.add >= 0 ? e.add : 0;
    m.forget_valid = e.forget >= 0;
    m.forget_idx = e.forget >= 0 ? e.forget : 0;
    m.issued_valid = e.issued >= 0;
    m.issued_idx = e.issued >= 0 ? e.issued : 0;
    m.clk = 1;
    m.eval();
    m.clk = 0;
    m.eval();
    if (e.drop >= 0) resident[static_cast<uint32_t>(e.drop)] = false;
    if (e.add >= 0) {
      resident[static_cast<uint32_t>(e.add)] = true;
      age[static_cast<uint32_t>(e.add)] = next_age++;
    }
    if (e.forget >= 0) policy->warp_removed(static_cast<uint32_t>(e.forget) * kSchedulers + kId);
    if (e.issued >= 0) policy->issued(static_cast<uint32_t>(e.issued) * kSchedulers + kId, in);
    views.clear();
    for (uint32_t l = 0; l < kN; ++l)
      if (resident[l]) views.push_back(WarpView{l * kSchedulers + kId, l, age[l]});
    want.clear();
    policy->order(views, want);
    for (uint32_t& w : want) w = (w - kId) / kSchedulers;  // back to local indices
    got.clear();
    for (uint32_t p = 0; p < m.order_count; ++p) {
      uint32_t local = 0;
      for (uint32_t b = 0; b < 5; ++b) {
        const uint32_t bit = p * 5 + b;
        local |= ((m.order[bit / 32] >> (bit % 32)) & 1u) << b;
      }
      got.push_back(local);
    }
    if (want != got)
      return "cycle " + std::to_string(c) + " (" + e.str() + "): model " + list(want) + ", rtl " + list(got);
  }
  m.final();
  return "";
}

// Random events: warps arrive and leave, issues mostly from resident warps, freed slots.
std::vector<Events> random_stream(uint64_t seed, std::size_t cycles) {
  std::vector<Events> v;
  std::vector<bool> resident(kN, false);
  uint64_t s = seed;
  auto r = [&](uint64_t n) { return static_cast<int>(SplitMix64::step(s) % n); };
  for (std::size_t c = 0; c < cycles; ++c) {
    Events e;
    if (r(6) == 0) {
      const int w = r(kN);
      if (resident[static_cast<uint32_t>(w)]) e.drop = w;
    }
    if (r(4) == 0) {
      const int w = r(kN);
      if (!resident[static_cast<uint32_t>(w)] && w != e.drop) e.add = w;
    }
    if (r(8) == 0) e.forget = r(kN);
    if (r(3) != 0) {
      std::vector<int> live;
      for (uint32_t l = 0; l < kN; ++l)
        if ((resident[l] && static_cast<int>(l) != e.drop) || static_cast<int>(l) == e.add) live.push_back(static_cast<int>(l));
      if (!live.empty()) e.issued = live[static_cast<std::size_t>(r(live.size()))];
    }
    if (e.drop >= 0) resident[static_cast<uint32_t>(e.drop)] = false;
    if (e.add >= 0) resident[static_cast<uint32_t>(e.add)] = true;
    v.push_back(e);
  }
  return v;
}

std::vector<Events> directed_stream() {
  std::vector<Events> v;
  for (int w : {5, 2, 9, 0, 31}) v.push_back(Events{-1, w, -1, -1});  // arrivals out of index order
  v.push_back(Events{-1, -1, -1, 9});                                 // 9 issues: greedy / last
  v.push_back(Events{-1, -1, -1, 31});                                // wrap-around after the top index
  v.push_back(Events{9, -1, 9, -1});                                  // 9 leaves and is forgotten
  v.push_back(Events{-1, 9, -1, 2});                                  // 9 is back, youngest; 2 issues
  v.push_back(Events{2, -1, -1, -1});                                 // the greedy warp leaves, not forgotten
  v.push_back(Events{-1, 2, -1, -1});                                 // and returns: GTO's greedy again
  v.push_back(Events{-1, -1, 2, 5});                                  // forget and issue in one cycle
  return v;
}

}  // namespace

TEST_CASE("warp-order RTL equals the GTO and LRR policies cycle by cycle on directed events", "[rtl]") {
  for (bool gto : {true, false}) {
    INFO((gto ? "gto" : "lrr"));
    CHECK(run<Vgputlm_warp_order>(gto, directed_stream()) == "");
  }
}

TEST_CASE("warp-order RTL equals the GTO and LRR policies cycle by cycle on 40 random streams", "[rtl]") {
  for (uint64_t seed = 1; seed <= 40; ++seed)
    for (bool gto : {true, false}) {
      INFO("seed " << seed << (gto ? " gto" : " lrr"));
      REQUIRE(run<Vgputlm_warp_order>(gto, random_stream(seed, 2000)) == "");
    }
}

TEST_CASE("warp-order RTL with the injected bug is caught with both orders printed", "[rtl]") {
  const std::string d = run<Vgputlm_warp_order_bug>(false, directed_stream());
  INFO(d);
  CHECK(d.find("cycle ") == 0);
  CHECK(d.find("model [") != std::string::npos);
  CHECK(d.find("rtl [") != std::string::npos);
  CHECK(run<Vgputlm_warp_order_bug>(true, directed_stream()) == "");  // the bug is in LRR only
}

TEST_CASE("warp-order transactor gives the policy's order through SchedulerPolicyIF", "[rtl]") {
  for (bool gto : {true, false}) {
    auto rtl = make_rtl_warp_order(gto);
    auto model = make_base_policy(gto ? "gto" : "lrr", "policy");
    CHECK(std::string(rtl->name()) == model->name());
    uint64_t s = 7;
    uint64_t next_age = 100;
    std::vector<WarpView> views;
    std::vector<uint32_t> want, got;
    isa::Instruction in{};
    for (int step = 0; step < 3000; ++step) {
      const uint64_t r = SplitMix64::step(s);
      if (r % 7 == 0 && !views.empty()) {  // a warp retires (its slot freed)
        const std::size_t i = (r >> 8) % views.size();
        const uint32_t slot = views[i].slot;
        views.erase(views.begin() + static_cast<std::ptrdiff_t>(i));
        model->warp_removed(slot);
        rtl->warp_removed(slot);
      } else if (r % 5 == 0 && views.size() < 24) {  // a CTA of up to 4 warps arrives
        for (uint32_t k = 0; k < 1 + (r >> 8) % 4 && views.size() < 24; ++k) {
          uint32_t local = static_cast<uint32_t>((r >> 16) + k * 7) % 24;
          while (std::any_of(views.begin(), views.end(), [&](const WarpView& w) { return w.local == local; }))
            local = (local + 1) % 24;
          views.push_back(WarpView{local * kSchedulers + kId, local, next_age++});
        }
        std::sort(views.begin(), views.end(), [](const WarpView& a, const WarpView& b) { return a.slot < b.slot; });
      }
      want.clear();
      got.clear();
      model->order(views, want);
      rtl->order(views, got);
      REQUIRE(want == got);
      if (!want.empty()) {  // the scheduler issues one of the first ready warps
        const uint32_t slot = want[(r >> 24) % std::min<std::size_t>(want.size(), 3)];
        model->issued(slot, in);
        rtl->issued(slot, in);
      }
    }
  }
  CHECK(rtl_warp_order_cycles() > 0);
}

TEST_CASE("warp-order transactor refuses a warp beyond 32 per scheduler and arrivals older than residents", "[rtl]") {
  auto rtl = make_rtl_warp_order(true);
  std::vector<uint32_t> out;
  CHECK_THROWS_WITH(rtl->order({WarpView{80, 40, 1}}, out), Catch::Contains("beyond the 32 warps"));
  auto rtl2 = make_rtl_warp_order(true);
  rtl2->order({WarpView{3, 1, 50}}, out);
  CHECK_THROWS_WITH(rtl2->order({WarpView{3, 1, 50}, WarpView{5, 2, 10}}, out), Catch::Contains("older than a resident"));
}

TEST_CASE("scheduler impl=rtl is refused for policies the RTL does not implement", "[rtl]") {
  SchedulerConfig cfg;
  cfg.policy = "two_level";
  cfg.impl = "rtl";
  CHECK_THROWS_WITH(make_scheduler_policy(cfg, "sm.scheduler"), Catch::Contains("sm.scheduler.impl") &&
                                                                    Catch::Contains("two_level"));
}
