// Branch predictors (modules/sm/branch) on constructed branch sequences: static BTFN on a
// loop, gshare against a golden model (training on a fixed pattern, aliasing), the
// oracle, the registry and the configuration's errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "core/config/config_source.h"
#include "sm/branch/branch_predictor.h"
#include "sm/sm_config.h"

using namespace gputlm;
using namespace gputlm::sm;

namespace {
BranchSite site(uint64_t pc, uint64_t target, bool taken = false) {
  BranchSite b;
  b.pc = pc;
  b.target_pc = target;
  b.outcome_taken = taken;
  return b;
}

// gshare written out from digest §Z43's description, independently of gshare.cpp.
struct GoldenGshare {
  uint32_t entries, bits, history_bits;
  std::vector<int> table;
  uint64_t history = 0;
  GoldenGshare(uint32_t e, uint32_t b, uint32_t h) : entries(e), bits(b), history_bits(h), table(e, (1 << (b - 1)) - 1) {}
  uint32_t index(uint64_t pc) const { return static_cast<uint32_t>(((pc / 8) ^ (history % (1ull << history_bits))) % entries); }
  bool predict(uint64_t pc) const { return table[index(pc)] >= (1 << (bits - 1)); }
  void update(uint64_t pc, bool taken) {
    int& c = table[index(pc)];
    c = taken ? std::min(c + 1, (1 << bits) - 1) : std::max(c - 1, 0);
    history = (history * 2 + (taken ? 1 : 0)) % (1ull << history_bits);
  }
};
}  // namespace

TEST_CASE("branch predictor: static BTFN predicts a loop's backward branch taken and a forward one not", "[branch]") {
  auto p = make_static_btfn();
  // A loop of 10 iterations: the backward branch is taken 9 times, then falls through.
  int right = 0;
  for (int i = 0; i < 10; ++i) {
    const bool taken = i < 9;
    const BranchSite b = site(0x140, 0x100, taken);
    right += (p->predict(b) == Prediction::Taken) == taken;
    p->update(b, taken);
  }
  CHECK(right == 9);
  CHECK(p->predict(site(0x140, 0x180)) == Prediction::NotTaken);
  CHECK(p->predict(site(0x140, 0x140)) == Prediction::Taken);  // a branch to itself loops
}

TEST_CASE("branch predictor: gshare learns a fixed pattern as its golden model does", "[branch]") {
  GshareConfig cfg;  // §Z43: 512 x 2-bit counters, 9-bit history
  REQUIRE(cfg.table_entries == 512);
  REQUIRE(cfg.counter_bits == 2);
  REQUIRE(cfg.history_bits == 9);
  auto p = make_gshare(cfg);
  GoldenGshare golden(512, 2, 9);
  // Two branches interleaved: one with period 3 (T T N), one always taken.
  const bool pattern[3] = {true, true, false};
  int right_late = 0, late = 0;
  for (int i = 0; i < 600; ++i) {
    const uint64_t pc = i % 2 == 0 ? 0x1008 : 0x2010;
    const bool taken = i % 2 == 0 ? pattern[(i / 2) % 3] : true;
    const BranchSite b = site(pc, pc + 0x40, taken);
    const bool predicted = p->predict(b) == Prediction::Taken;
    INFO("branch " << i);
    REQUIRE(predicted == golden.predict(pc));
    if (i >= 300) {
      ++late;
      right_late += predicted == taken;
    }
    p->update(b, taken);
    golden.update(pc, taken);
  }
  CHECK(right_late == late);  // the history separates the pattern's phases once trained
}

TEST_CASE("branch predictor: gshare's counters are shared by branches whose index aliases", "[branch]") {
  GshareConfig cfg;
  cfg.table_entries = 16;
  cfg.counter_bits = 2;
  cfg.history_bits = 0;  // index = (pc / 8) mod 16
  auto p = make_gshare(cfg);
  const uint64_t a = 0x800, alias = a + 16 * 8, other = a + 8;
  CHECK(p->predict(site(alias, 0)) == Prediction::NotTaken);  // weakly not taken at first
  p->update(site(a, 0), true);
  CHECK(p->predict(site(alias, 0)) == Prediction::Taken);  // a's training moved alias's counter
  CHECK(p->predict(site(other, 0)) == Prediction::NotTaken);
  // Saturation: 3 is the top of a 2-bit counter, so two not-taken updates are needed.
  p->update(site(a, 0), true);
  p->update(site(a, 0), true);
  p->update(site(alias, 0), false);
  CHECK(p->predict(site(a, 0)) == Prediction::Taken);
  p->update(site(alias, 0), false);
  CHECK(p->predict(site(a, 0)) == Prediction::NotTaken);
  // With history the same pc reads another counter after a taken outcome.
  GshareConfig h = cfg;
  h.history_bits = 4;
  auto q = make_gshare(h);
  q->update(site(a, 0), true);   // trains counter (a/8)^0, history becomes 1
  CHECK(q->predict(site(a, 0)) == Prediction::NotTaken);  // reads (a/8)^1
  CHECK(q->predict(site(a + 8, 0)) == Prediction::Taken);  // (a/8+1)^1 = a/8 (a/8 is even)
}

TEST_CASE("branch predictor: the oracle and no-prediction policies", "[branch]") {
  auto perfect = make_perfect();
  CHECK(perfect->predict(site(0x100, 0x200, true)) == Prediction::Taken);
  CHECK(perfect->predict(site(0x100, 0x80, false)) == Prediction::NotTaken);
  CHECK(make_no_prediction()->predict(site(0x100, 0x80, true)) == Prediction::None);
}

TEST_CASE("branch predictor: the registry creates each policy and names the key of an unknown one", "[branch]") {
  BranchConfig cfg;
  CHECK(make_branch_predictor(cfg, "sm.branch") == nullptr);  // none: no control hazard
  for (const std::string& n : branch_predictor_names()) {
    cfg.predictor = n;
    CHECK((make_branch_predictor(cfg, "sm.branch") != nullptr) == (n != "none"));
  }
  cfg.predictor = "gshare2";
  CHECK_THROWS_WITH(make_branch_predictor(cfg, "sm.branch"),
                    Catch::Contains("sm.branch.predictor") && Catch::Contains("gshare2"));
  auto read = [](const std::string& override_text) {
    auto src = config::ConfigSource::from_json(nlohmann::json::object(), "test");
    src.apply_override(override_text);
    SmConfig sm;
    config::read(src, sm);
    return sm;
  };
  CHECK(read("branch.predictor=gshare").branch.predictor == "gshare");
  CHECK(read("scheduler.count=2").branch.predictor == "none");
  CHECK_THROWS_WITH(read("branch.predictor=btfn"), Catch::Contains("branch.predictor") && Catch::Contains("static_btfn"));
  CHECK_THROWS_WITH(read("branch.gshare.table_entries=500"), Catch::Contains("branch.gshare.table_entries"));
  CHECK_THROWS_WITH(read("branch.gshare.counter_bits=0"), Catch::Contains("branch.gshare.counter_bits"));
  CHECK_THROWS_WITH(read("branch.gshare.history_bits=33"), Catch::Contains("branch.gshare.history_bits"));
  CHECK_THROWS_WITH(read("branch.redirect_penalty=-1"), Catch::Contains("branch.redirect_penalty"));
}
