// kernel_analysis: CFG construction and immediate post-dominator reconvergence points
// on hand-written control flow (expected values derived by hand from the listings).
#include <catch2/catch.hpp>

#include "frontend_test_util.h"
#include "isa/analysis/cfg.h"
#include "isa/analysis/elf.h"
#include "isa/listing.h"

using namespace gputlm::isa;
using namespace gputlm::isa::analysis;
using gputlm::isa::test::find_instr;
using gputlm::isa::test::parse_kernel;

TEST_CASE("kernel_analysis nested if/else reconverges at the inner and outer joins", "[kernel_analysis]") {
  // 0 setp; 1 @p1 bra ELSE; 2 setp; 3 @p2 bra IELSE; 4 add; 5 bra IJOIN;
  // 6 IELSE: sub; 7 IJOIN: add; 8 bra JOIN; 9 ELSE: mul; 10 JOIN: st; 11 ret
  Module m = parse_kernel(R"(
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra ELSE;
  setp.eq.s32 %p2, %r2, 0;
  @%p2 bra IELSE;
  add.s32 %r3, %r3, 1;
  bra.uni IJOIN;
IELSE:
  sub.s32 %r3, %r3, 1;
IJOIN:
  add.s32 %r3, %r3, 2;
  bra.uni JOIN;
ELSE:
  mul.lo.s32 %r3, %r3, 3;
JOIN:
  st.global.u32 [%rd1], %r3;
  ret;
  )");
  const Function& f = m.functions.back();
  Cfg g = build_cfg(f);
  // Blocks: [0-1] [2-3] [4-5] [6] [7-8] [9] [10-11]
  REQUIRE(g.blocks.size() == 7);
  CHECK(g.blocks[0].last == 1);
  CHECK(g.blocks[2].first == 4);
  CHECK(g.blocks[6].first == 10);
  CHECK(g.blocks[0].succs == std::vector<uint32_t>{5, 1});
  CHECK(g.blocks[2].succs == std::vector<uint32_t>{4});
  CHECK(g.blocks[6].succs == std::vector<uint32_t>{Cfg::kExitBlock});
  CHECK(g.ipdom[0] == 6);
  CHECK(g.ipdom[1] == 4);
  CHECK(g.ipdom[6] == Cfg::kExitBlock);
  CHECK(f.code[1].reconv == 10);  // outer branch -> JOIN
  CHECK(f.code[3].reconv == 7);   // inner branch -> IJOIN
  CHECK(f.code[5].reconv == 7);   // unconditional: its own target
  CHECK(f.code[8].reconv == 10);
}

TEST_CASE("kernel_analysis loop with break and continue", "[kernel_analysis]") {
  // 0 mov; 1 HEAD: setp; 2 @p1 bra EXIT(break by bound); 3 setp; 4 @p2 bra CONT;
  // 5 setp; 6 @p3 bra EXIT (break); 7 add; 8 CONT: add; 9 bra HEAD; 10 EXIT: st; 11 ret
  Module m = parse_kernel(R"(
  mov.u32 %r1, 0;
HEAD:
  setp.ge.s32 %p1, %r1, %r2;
  @%p1 bra EXIT;
  setp.eq.s32 %p2, %r3, 0;
  @%p2 bra CONT;
  setp.gt.s32 %p3, %r4, 10;
  @%p3 bra EXIT;
  add.s32 %r4, %r4, %r1;
CONT:
  add.s32 %r1, %r1, 1;
  bra.uni HEAD;
EXIT:
  st.global.u32 [%rd1], %r4;
  ret;
  )");
  const Function& f = m.functions.back();
  CHECK(f.code[2].reconv == 10);  // loop exit test reconverges after the loop
  // continue: the other side may break out of the loop (6 -> EXIT), so CONT does not
  // post-dominate it; the join is after the loop.
  CHECK(f.code[4].reconv == 10);
  CHECK(f.code[6].reconv == 10);  // break: joins after the loop
  CHECK(f.code[9].reconv == 1);   // back edge: its target
  CHECK((f.code[9].flags & kBackwardBranch) != 0);
  CHECK((f.code[2].flags & kBackwardBranch) == 0);
}

TEST_CASE("kernel_analysis early exit and return paths reconverge at exit", "[kernel_analysis]") {
  // 0 setp; 1 @p1 bra OUT; 2 add; 3 @p2 exit; 4 st; 5 OUT: ret
  Module m = parse_kernel(R"(
  setp.ge.s32 %p1, %r1, %r2;
  @%p1 bra OUT;
  add.s32 %r3, %r3, 1;
  @%p2 exit;
  st.global.u32 [%rd1], %r3;
OUT:
  ret;
  )");
  const Function& f = m.functions.back();
  Cfg g = build_cfg(f);
  // Blocks: [0-1] [2-3] [4] [5]; block 1 ends in a guarded exit: succs exit and 2.
  REQUIRE(g.blocks.size() == 4);
  CHECK(g.blocks[1].succs == std::vector<uint32_t>{Cfg::kExitBlock, 2});
  // The fall-through side may leave through the guarded exit, so OUT does not
  // post-dominate the branch: it reconverges only at exit.
  CHECK(g.ipdom[0] == Cfg::kExitBlock);
  CHECK(g.ipdom[1] == Cfg::kExitBlock);
  CHECK(g.ipdom[2] == 3);
  CHECK(f.code[1].reconv == kNone);

  // A branch whose paths only meet at the virtual exit: one side exits, the other returns.
  Module m2 = parse_kernel(R"(
  setp.ge.s32 %p1, %r1, %r2;
  @%p1 bra OUT;
  st.global.u32 [%rd1], %r3;
  exit;
OUT:
  ret;
  )");
  CHECK(m2.functions.back().code[1].reconv == kNone);
}

TEST_CASE("kernel_analysis infinite loop has no post-dominator and is ignored by others", "[kernel_analysis]") {
  Module m = parse_kernel(R"(
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra DONE;
SPIN:
  add.s32 %r1, %r1, 1;
  bra.uni SPIN;
DONE:
  ret;
  )");
  const Function& f = m.functions.back();
  Cfg g = build_cfg(f);
  CHECK(g.ipdom[g.block_of[3]] == kNone);  // the spin loop never reaches an exit
  // Blocks that never reach an exit do not constrain the others: the branch into the
  // spin loop reconverges at DONE.
  CHECK(f.code[1].reconv == 4);
  CHECK(f.code[3].reconv == kNone);
}

TEST_CASE("kernel_analysis reconvergence points of nvcc output are block leaders", "[kernel_analysis]") {
  for (const char* file : {"control.ptx", "control.O0.ptx", "calls.ptx", "memory.ptx", "mathfn.ptx"}) {
    Module m = parse_ptx_file(std::string("tests/isa/frontend/cu/") + file);
    for (const Function& f : m.functions) {
      if (f.code.empty()) continue;
      Cfg g = build_cfg(f);
      for (uint32_t i = 0; i < f.code.size(); ++i) {
        const Instruction& ins = f.code[i];
        if (ins.op != Opcode::Bra) continue;
        INFO(file << " " << f.name << " " << i << ": " << f.text[i]);
        if (ins.reconv == kNone) continue;
        CHECK(g.blocks[g.block_of[ins.reconv]].first == ins.reconv);
        // The reconvergence point is not the branch's own block.
        CHECK(g.block_of[ins.reconv] != g.block_of[i]);
      }
    }
  }
}

TEST_CASE("kernel_analysis listing shows timing facts, reconvergence and ELF priorities", "[kernel_analysis]") {
  Module m = parse_kernel(R"(
  ld.global.u32 %r1, [%rd1];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  add.s32 %r2, %r1, 1;
DONE:
  ret;
  )");
  const Function& f = m.functions.back();
  analysis::ElfProgramPoints elf(f);
  std::string s = format_listing(m, f, &elf);
  CHECK(s.find(".entry k") != std::string::npos);
  CHECK(s.find("mem_global") != std::string::npos);
  CHECK(s.find("w[%r1] ld 1x4B") != std::string::npos);
  CHECK(s.find("r[%p1] w[] -> 4 reconv 4") != std::string::npos);
  CHECK(s.find("r[%r1] w[%p1]") != std::string::npos);
  CHECK(s.find("ELF program points (1, 1 before merging, MAX_SCORE 255)") != std::string::npos);
  CHECK(s.find("load   @0 score 0") != std::string::npos);
}
