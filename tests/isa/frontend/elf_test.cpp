// elf: program points, scores, merging and the priority calculator on constructed
// instruction sequences. Expected tables are derived by hand in the comments
// (docs/isa.md "ELF" gives the readings used).
#include <catch2/catch.hpp>

#include "frontend_test_util.h"
#include "isa/analysis/elf.h"

using namespace gputlm::isa;
using namespace gputlm::isa::analysis;
using gputlm::isa::test::parse_kernel;

namespace {
struct Pp {
  uint32_t index;
  bool is_branch;
  uint32_t score;
};
void check_table(const ElfProgramPoints& elf, const std::vector<Pp>& want) {
  REQUIRE(elf.table().size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("PP " << i);
    CHECK(elf.table()[i].index == want[i].index);
    CHECK(elf.table()[i].is_branch == want[i].is_branch);
    CHECK(elf.table()[i].score == want[i].score);
  }
}
std::vector<uint32_t> priorities(const ElfProgramPoints& elf, uint32_t n) {
  std::vector<uint32_t> p;
  for (uint32_t i = 0; i < n; ++i) p.push_back(elf.priority_at(i));
  return p;
}
// Loop whose taken path is shorter than its fall-through path.
// 0 mov; 1 L: ld.global; 2 add; 3 setp; 4 @p bra L; 5-8 add x4; 9 ld.global; 10 ret
const char* kLoop = R"(
  mov.u32 %r1, 0;
L:
  ld.global.u32 %r2, [%rd1];
  add.s32 %r1, %r1, %r2;
  setp.lt.s32 %p1, %r1, 100;
  @%p1 bra L;
  add.s32 %r3, %r1, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  add.s32 %r3, %r3, 1;
  ld.global.u32 %r4, [%rd2];
  ret;
)";
}  // namespace

TEST_CASE("elf straight-line loads: only global loads are program points", "[elf]") {
  // 0 mov; 1 ld.global; 2 add; 3 add; 4 ld.global; 5 ld.shared; 6 ld.const; 7 ld.param; 8 ret
  Module m = parse_kernel(R"(
  mov.u32 %r1, 0;
  ld.global.u32 %r2, [%rd1];
  add.s32 %r1, %r1, %r2;
  add.s32 %r1, %r1, %r2;
  ld.global.nc.u32 %r3, [%rd1];
  ld.shared.u32 %r4, [%r1];
  ld.const.u32 %r5, [%rd2];
  ld.param.u32 %r6, [p];
  ret;
  )", ".param .u32 p");
  ElfProgramPoints elf(m.functions.back());
  check_table(elf, {{1, false, 0}, {4, false, 0}});
  CHECK(elf.points_before_merge() == 2);
  CHECK(elf.max_score() == 255);
  CHECK(priorities(elf, 9) == std::vector<uint32_t>{1, 0, 2, 1, 0, 255, 255, 255, 255});
  // PCs use the function base: priority(pc) == priority_at(index).
  const Function& f = m.functions.back();
  CHECK(elf.priority(f.pc_of(2)) == 2);
  CHECK(elf.table()[1].pc == f.pc_of(4));
  CHECK(elf.priority(f.pc_base + 8 * f.code.size()) == 255);  // outside the function
}

TEST_CASE("elf backward branch whose taken path is shorter keeps its score", "[elf]") {
  // Init: {1 L:0, 4 B:255, 9 L:0}. Relax b4 (conditional): taken dist(1)+1 = 1,
  // fall-through dist(5)+1 = (4+0)+1 = 5 -> score 1. Drop? 1 != 255, 1 != 5: keep.
  Module m = parse_kernel(kLoop);
  ElfProgramPoints elf(m.functions.back());
  check_table(elf, {{1, false, 0}, {4, true, 1}, {9, false, 0}});
  CHECK(elf.recalc(4));  // taken (1) shorter than fall-through (5)
  CHECK_FALSE(elf.recalc(3));
  // pc0->PP1 n=1; pc1 0; pc2->B4 n=2 +1; pc3 1+1; pc4 0+1; pc5->L9 4; ... pc9 0; pc10 none.
  CHECK(priorities(elf, 11) == std::vector<uint32_t>{1, 0, 3, 2, 1, 4, 3, 2, 1, 0, 255});
}

TEST_CASE("elf branch that never shortens the path is dropped", "[elf]") {
  // 0 mov; 1 L: add; 2 setp; 3 ld.global; 4 add; 5 @p bra L; 6 add; 7 add; 8 ld.global; 9 ret
  // Init {3 L, 5 B:255, 8 L}. b5: taken dist(1)+1 = 2+1 = 3; fall dist(6)+1 = 2+1 = 3;
  // score 3 == fall-through + 1 -> dropped.
  Module m = parse_kernel(R"(
  mov.u32 %r1, 0;
L:
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p1, %r1, 10;
  ld.global.f32 %f1, [%rd1];
  add.f32 %f2, %f2, %f1;
  @%p1 bra L;
  add.s32 %r3, %r1, 1;
  add.s32 %r3, %r3, 1;
  ld.global.u32 %r4, [%rd2];
  ret;
  )");
  ElfProgramPoints elf(m.functions.back());
  check_table(elf, {{3, false, 0}, {8, false, 0}});
  CHECK(elf.points_before_merge() == 2);
  CHECK_FALSE(elf.recalc(5));  // 3 < 3 is false
  CHECK(priorities(elf, 10) == std::vector<uint32_t>{3, 2, 1, 0, 4, 3, 2, 1, 0, 255});
}

TEST_CASE("elf unconditional backward branch uses only its target; forward branches are not PPs", "[elf]") {
  // 0 add; 1 L: setp; 2 @p bra OUT (forward); 3 ld.global; 4 add; 5 bra.uni L; 6 OUT: add; 7 add; 8 ret
  // Init {3 L, 5 B:255}. b5 unconditional: dist(1)+1 = 2+1 = 3. Drop? fall-through
  // dist(6)+1 saturates at 255 != 3: keep.
  Module m = parse_kernel(R"(
  add.s32 %r1, %r1, 1;
L:
  setp.ge.s32 %p1, %r1, 10;
  @%p1 bra OUT;
  ld.global.u32 %r2, [%rd1];
  add.s32 %r1, %r1, %r2;
  bra.uni L;
OUT:
  add.s32 %r3, %r1, 1;
  add.s32 %r3, %r3, 1;
  ret;
  )");
  ElfProgramPoints elf(m.functions.back());
  check_table(elf, {{3, false, 0}, {5, true, 3}});
  CHECK(elf.recalc(5));         // unconditional branches always recalculate
  CHECK_FALSE(elf.recalc(2));   // taken path (255) is not shorter than fall-through (1)
  CHECK(priorities(elf, 9) == std::vector<uint32_t>{3, 2, 1, 0, 4, 3, 255, 255, 255});
}

TEST_CASE("elf merging folds a branch into the next load (max_pp = 2)", "[elf]") {
  // From the kLoop table {1 L:0, 4 B:1, 9 L:0}: L1 has no predecessor; L9's predecessor
  // is B4: d = dist(5)+1 = 5, best = 5 -> L9.score = 5 - B4.score(1) = 4; B4 removed.
  Module m = parse_kernel(kLoop);
  ElfConfig cfg;
  cfg.max_pp = 2;
  ElfProgramPoints elf(m.functions.back(), cfg);
  CHECK(elf.points_before_merge() == 3);
  check_table(elf, {{1, false, 0}, {9, false, 4}});
  // pc2: n=7 >= 4 -> 3 (= 2 to the branch + its score 1); pc5: n=4 >= 4 -> 0;
  // pc6: n=3 < 4 -> 3.
  CHECK(priorities(elf, 11) == std::vector<uint32_t>{1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 255});
}

TEST_CASE("elf merging picks the closest load pair and recovers distances", "[elf]") {
  // 0 add; 1 ld.global; 2 add; 3 ld.global; 4-9 add x6; 10 ld.global; 11 ret
  // PP {1, 3, 10}. max_pp 2: pairs (L3<-L1) d = dist(2)+1 = 2, (L10<-L3) d = 7 -> merge
  // L1 into L3 (score 2). max_pp 1: then (L10<-L3) d = dist(4)+1 = 7 -> L10 score 7.
  std::string body = "  add.s32 %r1, %r1, 1;\n  ld.global.u32 %r2, [%rd1];\n  add.s32 %r1, %r1, 1;\n"
                     "  ld.global.u32 %r3, [%rd1];\n";
  for (int i = 0; i < 6; ++i) body += "  add.s32 %r1, %r1, 1;\n";
  body += "  ld.global.u32 %r4, [%rd1];\n  ret;\n";
  Module m = parse_kernel(body);
  ElfConfig two;
  two.max_pp = 2;
  ElfProgramPoints e2(m.functions.back(), two);
  check_table(e2, {{3, false, 2}, {10, false, 0}});
  CHECK(priorities(e2, 12) == std::vector<uint32_t>{1, 0, 1, 0, 6, 5, 4, 3, 2, 1, 0, 255});
  ElfConfig one;
  one.max_pp = 1;
  ElfProgramPoints e1(m.functions.back(), one);
  check_table(e1, {{10, false, 7}});
  // pc0: n=10 >= 7 -> 3; pc3: n=7 -> 0; pc4: n=6 < 7 -> 6.
  CHECK(priorities(e1, 12) == std::vector<uint32_t>{3, 2, 1, 0, 6, 5, 4, 3, 2, 1, 0, 255});
}

TEST_CASE("elf score width saturates priorities", "[elf]") {
  std::string body;
  for (int i = 0; i < 20; ++i) body += "  add.s32 %r1, %r1, 1;\n";
  body += "  ld.global.u32 %r4, [%rd1];\n  ret;\n";
  Module m = parse_kernel(body);
  ElfConfig cfg;
  cfg.score_bits = 4;
  ElfProgramPoints elf(m.functions.back(), cfg);
  CHECK(elf.max_score() == 15);
  CHECK(elf.priority_at(0) == 15);
  CHECK(elf.priority_at(5) == 15);
  CHECK(elf.priority_at(6) == 14);
  CHECK(elf.priority_at(21) == 15);  // ret: no PP ahead
  CHECK_THROWS_AS(ElfProgramPoints(m.functions.back(), ElfConfig{0, 8, true, true}), std::invalid_argument);
  CHECK_THROWS_AS(ElfProgramPoints(m.functions.back(), ElfConfig{32, 0, true, true}), std::invalid_argument);
}

TEST_CASE("elf on an nvcc kernel: sorted table within the slot limit, loads get priority 0", "[elf]") {
  Module m = parse_ptx_file("tests/isa/frontend/cu/arith.ptx");
  for (Function& f : m.functions) {
    if (!f.is_entry) continue;
    ElfConfig cfg;
    cfg.max_pp = 4;
    ElfProgramPoints elf(f, cfg);
    CHECK(elf.table().size() <= 4);
    CHECK(elf.points_before_merge() >= elf.table().size());
    for (size_t i = 1; i < elf.table().size(); ++i) CHECK(elf.table()[i - 1].pc < elf.table()[i].pc);
    for (const ProgramPoint& p : elf.table())
      if (!p.is_branch) CHECK(elf.priority(p.pc) == 0);
    elf.apply_recalc_bits(f);
    for (uint32_t i = 0; i < f.code.size(); ++i)
      CHECK(((f.code[i].flags & kElfRecalc) != 0) == elf.recalc(i));
  }
}

// §Z3 and §Z4 (seed-mechanisms.md): Alg. 2 compares candidate distances d before the
// branch-score subtraction, and the priority calculator uses n >= score at a merged load.
// 0 L: add; 1 add; 2 add; 3 ld.global Lc; 4 setp; 5 @p bra L; 6-11 add x6; 12 ld.global Lz;
// 13-16 add x4; 17 ld.global Lw; 18 ret
// B5: taken dist(0)+1 = 3+1 = 4, fall-through dist(6)+1 = 6+1 = 7 -> score 4, kept.
// Pairs: Lc has no predecessor; (Lz <- B5) d = dist(6)+1 = 7; (Lw <- Lz) d = dist(13)+1 = 5.
// Our reading picks d = 5 (Lw <- Lz). The literal Alg. 2 compares d - B5.score = 3 < 5 and
// would merge the branch pair instead (the bias §Z3 describes).
TEST_CASE("elf Z3: merging compares distances before the branch-score subtraction", "[elf]") {
  std::string body = "L:\n  add.s32 %r1, %r1, 1;\n  add.s32 %r1, %r1, 1;\n  add.s32 %r1, %r1, 1;\n"
                     "  ld.global.u32 %r2, [%rd1];\n  setp.lt.s32 %p1, %r1, 100;\n  @%p1 bra L;\n";
  for (int i = 0; i < 6; ++i) body += "  add.s32 %r3, %r3, 1;\n";
  body += "  ld.global.u32 %r4, [%rd2];\n";
  for (int i = 0; i < 4; ++i) body += "  add.s32 %r3, %r3, 1;\n";
  body += "  ld.global.u32 %r5, [%rd2];\n  ret;\n";
  Module m = parse_kernel(body);
  ElfProgramPoints full(m.functions.back());
  check_table(full, {{3, false, 0}, {5, true, 4}, {12, false, 0}, {17, false, 0}});
  CHECK(full.recalc(5));
  ElfConfig three;
  three.max_pp = 3;
  ElfProgramPoints elf(m.functions.back(), three);
  CHECK(elf.points_before_merge() == 4);
  check_table(elf, {{3, false, 0}, {5, true, 4}, {17, false, 5}});
  // §Z4: at the merged-away load (pc 12) n = 5 >= 5 gives 0 (a strict > would give 5);
  // before it n = 11 -> 6, the true distance to Lz; after it n = 4 < 5 -> 4.
  CHECK(elf.priority_at(12) == 0);
  CHECK(elf.priority_at(6) == 6);
  CHECK(elf.priority_at(13) == 4);
  CHECK(elf.priority_at(17) == 0);
  // The loop body still follows the branch: pc 4 -> B5 n = 1 + 4.
  CHECK(elf.priority_at(4) == 5);
}

// §Z3 (second half): a load with no predecessor PP is never merged; when no pair
// qualifies the PP with the highest PC is dropped so the table fits.
// 0 L: ld.global; 1 setp; 2 @p bra L; 3 ret. B2: taken dist(0)+1 = 1, fall-through
// MAX_SCORE -> score 1, kept. max_pp = 1: L0 has no predecessor, no pair -> drop B2.
TEST_CASE("elf Z3: no mergeable pair drops the highest-PC program point", "[elf]") {
  Module m = parse_kernel(R"(
L:
  ld.global.u32 %r2, [%rd1];
  setp.lt.s32 %p1, %r2, 100;
  @%p1 bra L;
  ret;
  )");
  ElfProgramPoints full(m.functions.back());
  check_table(full, {{0, false, 0}, {2, true, 1}});
  ElfConfig one;
  one.max_pp = 1;
  ElfProgramPoints elf(m.functions.back(), one);
  CHECK(elf.points_before_merge() == 2);
  check_table(elf, {{0, false, 0}});
  CHECK(elf.priority_at(2) == 255);  // no PP ahead of the branch any more
}

// §Z5: local and generic loads are program points by default (both may reach off-chip
// memory) and each can be excluded; shared/const/param loads never are.
TEST_CASE("elf Z5: local and generic loads are program points unless excluded", "[elf]") {
  // 0 ld.local; 1 add; 2 ld (generic); 3 add; 4 ld.global; 5 ret
  Module m = parse_kernel(R"(
  ld.local.u32 %r1, [%rd1];
  add.s32 %r1, %r1, 1;
  ld.u32 %r2, [%rd2];
  add.s32 %r2, %r2, 1;
  ld.global.u32 %r3, [%rd3];
  ret;
  )");
  const Function& f = m.functions.back();
  ElfProgramPoints both(f);
  check_table(both, {{0, false, 0}, {2, false, 0}, {4, false, 0}});
  CHECK(is_program_point_load(f.code[0], ElfConfig{}));
  ElfConfig no_local;
  no_local.local_loads = false;
  ElfProgramPoints a(f, no_local);
  check_table(a, {{2, false, 0}, {4, false, 0}});
  CHECK_FALSE(is_program_point_load(f.code[0], no_local));
  ElfConfig no_generic;
  no_generic.generic_loads = false;
  ElfProgramPoints b(f, no_generic);
  check_table(b, {{0, false, 0}, {4, false, 0}});
  CHECK(b.priority_at(1) == 3);  // the generic load at 2 no longer counts
}
