// Random issue / writeback sequences (fixed seed) on the scoreboard, checked after every
// step against a golden model: per warp, a map register key -> (from memory, long-latency
// load). An instruction issues only when the golden model says it has no hazard, as the
// issue stage does; writebacks complete in random order.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <vector>

#include "sm/scoreboard/scoreboard.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
struct GoldenEntry {
  bool memory = false;
  bool long_latency = false;
};
using Golden = std::map<uint32_t, GoldenEntry>;  // key -> flags

Hazard golden_check(const Golden& g, const isa::Instruction& in) {
  bool any = false, memory = false;
  auto look = [&](uint32_t key) {
    auto it = g.find(key);
    if (it != g.end()) {
      any = true;
      memory = memory || it->second.memory;
    }
  };
  for (uint8_t i = 0; i < in.n_src_regs; ++i) look(in.src_regs[i]);
  for (uint8_t i = 0; i < in.n_src_preds; ++i) look(kPredicateKeyBase + in.src_preds[i]);
  for (uint8_t i = 0; i < in.n_dst_regs; ++i) look(in.dst_regs[i]);
  for (uint8_t i = 0; i < in.n_dst_preds; ++i) look(kPredicateKeyBase + in.dst_preds[i]);
  return !any ? Hazard::None : memory ? Hazard::Memory : Hazard::Other;
}

bool golden_long(const Golden& g, const isa::Instruction& in) {
  for (uint8_t i = 0; i < in.n_src_regs; ++i) {
    auto it = g.find(in.src_regs[i]);
    if (it != g.end() && it->second.long_latency) return true;
  }
  return false;
}

isa::Instruction random_instruction(std::mt19937_64& rng) {
  isa::Instruction in;
  std::uniform_int_distribution<uint32_t> reg(0, 11), cls(0, 3), n(0, 3);
  const uint32_t c = cls(rng);
  in.cls = c == 0 ? isa::OpClass::MemGlobal : c == 1 ? isa::OpClass::MemShared : isa::OpClass::IntAlu;
  in.is_load = c <= 1;
  in.n_src_regs = static_cast<uint8_t>(n(rng));
  for (uint8_t i = 0; i < in.n_src_regs; ++i) in.src_regs[i] = reg(rng);
  in.n_dst_regs = static_cast<uint8_t>(std::min<uint32_t>(n(rng), 2));
  for (uint8_t i = 0; i < in.n_dst_regs; ++i) in.dst_regs[i] = reg(rng);
  in.n_src_preds = static_cast<uint8_t>(n(rng) % 2);
  if (in.n_src_preds) in.src_preds[0] = reg(rng) % 4;
  in.n_dst_preds = static_cast<uint8_t>(n(rng) % 2);
  if (in.n_dst_preds) in.dst_preds[0] = reg(rng) % 4;
  return in;
}
}  // namespace

TEST_CASE("scoreboard: random issue and writeback against the golden model", "[sm][scoreboard]") {
  constexpr uint32_t kWarps = 6;
  Scoreboard sb("sb", kWarps);
  std::vector<Golden> golden(kWarps);
  std::mt19937_64 rng(12345);
  std::vector<isa::Instruction> instrs;  // stable storage for in-flight instructions
  instrs.reserve(100000);
  std::vector<WarpInstruction> in_flight;
  uint64_t issued = 0, blocked = 0;
  for (int step = 0; step < 20000; ++step) {
    const bool do_issue = in_flight.empty() || (rng() % 3 != 0);
    if (do_issue) {
      const uint32_t w = static_cast<uint32_t>(rng() % kWarps);
      instrs.push_back(random_instruction(rng));
      const isa::Instruction& in = instrs.back();
      const Hazard expect = golden_check(golden[w], in);
      REQUIRE(sb.check(w, in) == expect);
      REQUIRE(sb.depends_on_long_latency_load(w, in) == golden_long(golden[w], in));
      if (expect != Hazard::None) {
        ++blocked;
        continue;
      }
      WarpInstruction wi;
      wi.warp = w;
      wi.instr = &in;
      fill_register_keys(wi);
      wi.is_memory = in.cls != isa::OpClass::IntAlu;
      wi.long_latency_load = is_long_latency_load(in);
      sb.reserve(wi);
      for (uint8_t i = 0; i < wi.n_writes; ++i) golden[w][wi.writes[i]] = {wi.is_memory, wi.long_latency_load};
      in_flight.push_back(wi);
      ++issued;
    } else {
      const std::size_t i = rng() % in_flight.size();
      const WarpInstruction wi = in_flight[i];
      in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(i));
      sb.release(wi);
      for (uint8_t k = 0; k < wi.n_writes; ++k) golden[wi.warp].erase(wi.writes[k]);
    }
    for (uint32_t w = 0; w < kWarps; ++w) REQUIRE(sb.pending_writes(w) == golden[w].size());
  }
  CHECK(issued > 1000);
  CHECK(blocked > 1000);
}
