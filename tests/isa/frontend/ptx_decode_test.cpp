// ptx_parser instruction decoding: modifiers, operand forms, immediates and the timing
// facts (op class, latency class, registers read/written, access shape).
#include <catch2/catch.hpp>

#include <cstring>

#include "frontend_test_util.h"

using namespace gputlm::isa;
using gputlm::isa::test::find_instr;
using gputlm::isa::test::parse_kernel;

namespace {
const Instruction& only(const Module& m, const std::string& prefix) {
  const Function& f = m.functions.back();
  uint32_t i = find_instr(f, prefix);
  REQUIRE(i != kNone);
  return f.code[i];
}
uint64_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
uint64_t f64_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
}  // namespace

TEST_CASE("ptx_parser decodes integer arithmetic modes and types", "[ptx_parser]") {
  Module m = parse_kernel(R"(
  mul.wide.s32 %rd1, %r1, 4;
  mad.hi.u32 %r2, %r3, %r4, %r5;
  mad.wide.u32 %rd2, %r1, %r2, %rd3;
  add.sat.s32 %r6, %r6, -1;
  add.cc.u32 %r7, %r7, %r8;
  addc.u32 %r9, %r9, 0;
  div.s32 %r10, %r10, %r11;
  rem.u64 %rd4, %rd4, %rd5;
  add.s16 %rs1, %rs2, 0x7fff;
  )");
  const Instruction& mw = only(m, "mul.wide");
  CHECK(mw.op == Opcode::Mul);
  CHECK(mw.mul == MulMode::Wide);
  CHECK(mw.type == ScalarType::S32);
  CHECK(mw.ops[2].kind == OperandKind::Imm);
  CHECK(mw.ops[2].bits == 4);
  CHECK(mw.ops[0].type == ScalarType::B64);  // the register's declared type
  CHECK(mw.cls == OpClass::IntMul);
  CHECK(mw.lat == LatencyClass::IntMul);
  CHECK(mw.n_dst_regs == 1);
  CHECK(mw.n_src_regs == 1);
  const Instruction& mh = only(m, "mad.hi");
  CHECK(mh.mul == MulMode::Hi);
  CHECK(mh.nops == 4);
  CHECK(mh.n_src_regs == 3);
  const Instruction& mdw = only(m, "mad.wide");
  CHECK(mdw.ops[3].type == ScalarType::B64);
  const Instruction& sat = only(m, "add.sat");
  CHECK((sat.flags & kSat) != 0);
  CHECK(sat.ops[2].bits == 0xffffffffu);  // -1 as s32
  CHECK(sat.n_src_regs == 1);             // %r6 read once, listed once
  CHECK((only(m, "add.cc").flags & kCarryOut) != 0);
  CHECK(only(m, "addc").op == Opcode::Addc);
  const Instruction& div = only(m, "div.s32");
  CHECK(div.cls == OpClass::IntDiv);
  CHECK(div.lat == LatencyClass::IntDiv);
  CHECK(only(m, "rem.u64").type == ScalarType::U64);
  CHECK(only(m, "add.s16").ops[2].bits == 0x7fff);
}

TEST_CASE("ptx_parser decodes floating-point modifiers and special functions", "[ptx_parser]") {
  Module m = parse_kernel(R"(
  add.rz.ftz.sat.f32 %f1, %f2, 0f3F800000;
  fma.rn.f64 %fd1, %fd2, %fd3, 0d3FF8000000000000;
  div.full.f32 %f3, %f4, %f5;
  div.rn.f64 %fd4, %fd5, %fd6;
  div.approx.ftz.f32 %f6, %f7, %f8;
  sqrt.approx.f32 %f9, %f9;
  rcp.rn.f64 %fd7, %fd7;
  rsqrt.approx.ftz.f64 %fd1, %fd1;
  ex2.approx.ftz.f32 %f10, %f10;
  lg2.approx.f32 %f11, %f11;
  sin.approx.f32 %f12, %f12;
  tanh.approx.f32 %f13, %f13;
  testp.notanumber.f64 %p1, %fd2;
  copysign.f32 %f14, %f1, %f2;
  mov.f32 %f15, 1.5;
  mov.f64 %fd2, 0f3F800000;
  min.ftz.f32 %f1, %f1, -2.0;
  )");
  const Instruction& add = only(m, "add.rz");
  CHECK(add.rnd == Rounding::Rz);
  CHECK((add.flags & (kFtz | kSat)) == (kFtz | kSat));
  CHECK(add.ops[2].bits == 0x3F800000u);
  CHECK(add.cls == OpClass::Fp32);
  const Instruction& fma = only(m, "fma.rn.f64");
  CHECK(fma.ops[3].bits == f64_bits(1.5));
  CHECK(fma.cls == OpClass::Fp64);
  CHECK((only(m, "div.full").flags & kFull) != 0);
  CHECK(only(m, "div.full").lat == LatencyClass::Fp32Div);
  CHECK(only(m, "div.rn.f64").lat == LatencyClass::Fp64Div);
  CHECK(only(m, "div.approx").cls == OpClass::Sfu);
  CHECK(only(m, "sqrt.approx").cls == OpClass::Sfu);
  CHECK(only(m, "rcp.rn.f64").lat == LatencyClass::Fp64Div);
  CHECK(only(m, "rsqrt.approx.ftz.f64").type == ScalarType::F64);
  CHECK(only(m, "ex2").cls == OpClass::Sfu);
  CHECK(only(m, "lg2").op == Opcode::Lg2);
  CHECK(only(m, "sin").op == Opcode::Sin);
  CHECK(only(m, "tanh").op == Opcode::Tanh);
  const Instruction& tp = only(m, "testp");
  CHECK(tp.testp == TestpOp::NotANumber);
  CHECK(tp.ops[0].kind == OperandKind::Pred);
  CHECK(tp.n_dst_preds == 1);
  CHECK(tp.cls == OpClass::Fp64);
  CHECK(only(m, "copysign").op == Opcode::Copysign);
  CHECK(only(m, "mov.f32").ops[1].bits == f32_bits(1.5f));
  CHECK(only(m, "mov.f64").ops[1].bits == f64_bits(1.0));  // f32 bit pattern widened
  CHECK(only(m, "min.ftz").ops[2].bits == f32_bits(-2.0f));
}

TEST_CASE("ptx_parser decodes compares, selects and predicate logic", "[ptx_parser]") {
  Module m = parse_kernel(R"(
  setp.lt.and.f32 %p1|%p2, %f1, 0f3F800000, !%p3;
  setp.gtu.f64 %p4, %fd1, %fd2;
  setp.hs.u32 %p5, %r1, 7;
  set.ne.u32.s32 %r2, %r3, %r4;
  selp.b32 %r5, 1, 0, %p1;
  slct.f32.s32 %f2, %f3, %f4, %r6;
  and.pred %p6, %p1, %p2;
  not.pred %p7, %p6;
  )");
  const Instruction& sp = only(m, "setp.lt");
  CHECK(sp.cmp == CmpOp::Lt);
  CHECK(sp.boolop == BoolOp::And);
  CHECK(sp.ops[0].kind == OperandKind::Pred);
  CHECK(sp.dst2.kind == OperandKind::Pred);
  CHECK(sp.ops[3].neg);
  CHECK(sp.n_dst_preds == 2);
  CHECK(sp.n_src_preds == 1);
  CHECK(sp.n_src_regs == 1);
  CHECK(only(m, "setp.gtu").cmp == CmpOp::Gtu);
  CHECK(only(m, "setp.hs").cmp == CmpOp::Hs);
  const Instruction& set = only(m, "set.ne");
  CHECK(set.type == ScalarType::U32);
  CHECK(set.type2 == ScalarType::S32);
  const Instruction& sel = only(m, "selp");
  CHECK(sel.ops[1].bits == 1);
  CHECK(sel.ops[3].kind == OperandKind::Pred);
  CHECK(sel.n_src_preds == 1);
  CHECK(only(m, "slct").type2 == ScalarType::S32);
  const Instruction& andp = only(m, "and.pred");
  CHECK(andp.n_src_preds == 2);
  CHECK(andp.n_dst_preds == 1);
}

TEST_CASE("ptx_parser decodes conversions and moves", "[ptx_parser]") {
  Module m = parse_kernel(R"(
  cvt.rzi.s32.f64 %r1, %fd1;
  cvt.rn.sat.f32.f64 %f1, %fd1;
  cvt.u64.u32 %rd1, %r1;
  cvt.s32.s8 %r2, %r3;
  cvt.rni.f32.f32 %f2, %f2;
  cvta.to.global.u64 %rd2, %rd1;
  cvta.shared.u64 %rd3, %rd2;
  mov.u32 %r4, %tid.y;
  mov.u32 %r5, %laneid;
  mov.u64 %rd4, %clock64;
  mov.u32 %r6, %lanemask_lt;
  mov.b64 %rd5, {%r1, %r2};
  mov.b64 {%r7, %r8}, %rd5;
  mov.b32 {%rs1, %rs2}, %r1;
  mov.u32 %r9, 0x10;
  mov.u32 %r10, 010;
  mov.u32 %r11, 0b101;
  mov.s32 %r12, -5;
  mov.u32 %r13, 4294967295U;
  )");
  const Instruction& c1 = only(m, "cvt.rzi");
  CHECK(c1.rnd == Rounding::Rzi);
  CHECK(c1.type == ScalarType::S32);
  CHECK(c1.type2 == ScalarType::F64);
  CHECK(c1.cls == OpClass::Conv);
  const Instruction& c2 = only(m, "cvt.rn.sat");
  CHECK((c2.flags & kSat) != 0);
  CHECK(only(m, "cvt.rni").rnd == Rounding::Rni);
  const Instruction& ct = only(m, "cvta.to");
  CHECK((ct.flags & kCvtaTo) != 0);
  CHECK(ct.space == StateSpace::Global);
  CHECK((only(m, "cvta.shared").flags & kCvtaTo) == 0);
  const Instruction& tid = only(m, "mov.u32 %r4");
  CHECK(tid.ops[1].kind == OperandKind::Special);
  CHECK(tid.ops[1].sreg == SpecialReg::Tid);
  CHECK(tid.ops[1].component == 1);
  CHECK(tid.n_src_regs == 0);
  CHECK(only(m, "mov.u32 %r5").ops[1].sreg == SpecialReg::Laneid);
  CHECK(only(m, "mov.u64 %rd4").ops[1].sreg == SpecialReg::Clock64);
  CHECK(only(m, "mov.u32 %r6").ops[1].sreg == SpecialReg::LanemaskLt);
  const Function& f = m.functions.back();
  const Instruction& pack = only(m, "mov.b64 %rd5");
  CHECK(pack.ops[1].kind == OperandKind::Vector);
  CHECK(pack.ops[1].count == 2);
  CHECK(f.operand_pool[pack.ops[1].first].type == ScalarType::B32);
  CHECK(pack.n_src_regs == 2);
  CHECK(pack.n_dst_regs == 1);
  const Instruction& unpack = only(m, "mov.b64 {");
  CHECK(unpack.ops[0].kind == OperandKind::Vector);
  CHECK(unpack.n_dst_regs == 2);
  CHECK(unpack.n_src_regs == 1);
  const Instruction& unpack16 = only(m, "mov.b32 {");
  CHECK(f.operand_pool[unpack16.ops[0].first].type == ScalarType::B16);
  CHECK(only(m, "mov.u32 %r9").ops[1].bits == 16);
  CHECK(only(m, "mov.u32 %r10").ops[1].bits == 8);
  CHECK(only(m, "mov.u32 %r11").ops[1].bits == 5);
  CHECK(only(m, "mov.s32 %r12").ops[1].bits == 0xfffffffbu);
  CHECK(only(m, "mov.u32 %r13").ops[1].bits == 0xffffffffu);
}

TEST_CASE("ptx_parser decodes loads, stores and address forms", "[ptx_parser]") {
  Module m = parse_kernel(R"(
  .shared .align 8 .b8 tile[64];
  .local .align 4 .b8 frame[16];
  ld.param.u64 %rd1, [p0];
  ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];
  ld.global.v2.u32 {%r1, _}, [%rd1+-8];
  st.shared.v2.f32 [tile+8], {%f1, %f2};
  ld.shared.u32 %r2, [%r3];
  ld.volatile.shared.u32 %r4, [tile];
  ld.local.u32 %r5, [frame+4];
  st.local.u32 [%rd2], %r5;
  ld.const.f32 %f5, [cdata+4];
  ld.u8 %rs1, [%rd3];
  st.global.cg.u16 [%rd3], %rs1;
  ld.acquire.gpu.global.u32 %r6, [%rd1];
  ld.global.ca.f64 %fd1, [%rd4];
  ldu.global.u32 %r7, [%rd1];
  ld.global.u32 %r8, [16];
  prefetch.global.L2 [%rd1];
  mov.u64 %rd5, cdata+8;
  )", ".param .u64 p0", ".const .align 4 .f32 cdata[4];");
  const Module& mm = m;
  const Function& f = mm.functions.back();
  const Instruction& lp = only(m, "ld.param");
  CHECK(lp.cls == OpClass::MemParam);
  CHECK(mm.symbols[lp.ops[1].symbol].kind == SymbolKind::KernelParam);
  const Instruction& v4 = only(m, "ld.global.nc.v4");
  CHECK((v4.flags & kNc) != 0);
  CHECK(v4.vec == 4);
  CHECK(v4.is_load);
  CHECK_FALSE(v4.is_store);
  CHECK(v4.access_bytes == 4);
  CHECK(v4.access_count == 4);
  CHECK(v4.n_dst_regs == 4);
  CHECK(v4.n_src_regs == 1);
  CHECK(v4.ops[1].kind == OperandKind::Mem);
  CHECK(v4.ops[1].offset == 16);
  CHECK(v4.cls == OpClass::MemGlobal);
  CHECK(v4.lat == LatencyClass::Memory);
  const Instruction& v2 = only(m, "ld.global.v2");
  CHECK(v2.ops[1].offset == -8);
  CHECK(f.operand_pool[v2.ops[0].first + 1].kind == OperandKind::Sink);
  CHECK(v2.n_dst_regs == 1);
  const Instruction& st = only(m, "st.shared.v2");
  CHECK(st.is_store);
  CHECK(st.ops[0].symbol != kNone);
  CHECK(st.ops[0].index == kNone);
  CHECK(st.ops[0].offset == 8);
  CHECK(st.n_src_regs == 2);
  CHECK(st.n_dst_regs == 0);
  CHECK(st.cls == OpClass::MemShared);
  CHECK(only(m, "ld.volatile").sem == MemSem::Volatile);
  const Instruction& ll = only(m, "ld.local");
  CHECK(ll.cls == OpClass::MemLocal);
  CHECK(mm.symbols[ll.ops[1].symbol].kind == SymbolKind::Local);
  CHECK(f.local_bytes == 16);
  const Instruction& lc = only(m, "ld.const");
  CHECK(lc.cls == OpClass::MemConst);
  CHECK(mm.symbols[lc.ops[1].symbol].name == "cdata");
  CHECK(lc.ops[1].offset == 4);
  const Instruction& gen = only(m, "ld.u8");
  CHECK(gen.cls == OpClass::MemGeneric);
  CHECK(gen.space == StateSpace::None);
  CHECK(gen.access_bytes == 1);
  CHECK(only(m, "st.global.cg").cache == CacheOp::Cg);
  const Instruction& acq = only(m, "ld.acquire");
  CHECK(acq.sem == MemSem::Acquire);
  CHECK(acq.scope == Scope::Gpu);
  CHECK(only(m, "ld.global.ca").cache == CacheOp::Ca);
  CHECK(only(m, "ldu").op == Opcode::Ldu);
  const Instruction& abs = only(m, "ld.global.u32 %r8");
  CHECK(abs.ops[1].index == kNone);
  CHECK(abs.ops[1].symbol == kNone);
  CHECK(abs.ops[1].offset == 16);
  CHECK(only(m, "prefetch").cls == OpClass::Nop);
  const Instruction& sa = only(m, "mov.u64 %rd5");
  CHECK(sa.ops[1].kind == OperandKind::SymAddr);
  CHECK(sa.ops[1].offset == 8);
  CHECK(f.shared_end == 64);
}

TEST_CASE("ptx_parser decodes atomics, barriers, fences and control flow", "[ptx_parser]") {
  Module m = parse_kernel(R"(
  atom.global.cas.b64 %rd1, [%rd2], %rd3, 5;
  atom.shared.add.f32 %f1, [%r1], 0f3F800000;
  atom.add.u32 %r2, [%rd2], 1;
  atom.global.inc.u32 %r3, [%rd2], 100;
  atom.relaxed.gpu.global.exch.b32 %r4, [%rd2], %r5;
  red.global.add.f64 [%rd2], %fd1;
  red.shared.or.b32 [%r1], %r6;
  bar.sync 0;
  bar.sync 1, 64;
  barrier.sync.aligned 2;
  bar.arrive 3, 128;
  bar.red.popc.u32 %r7, 0, %p1;
  bar.red.and.pred %p2, 0, !%p1;
  bar.warp.sync -1;
  membar.gl;
  fence.sc.gpu;
  fence.acq_rel.cta;
  @%p1 bra.uni $L_end;
  nanosleep.u32 100;
  trap;
$L_end:
  exit;
  )");
  const Instruction& cas = only(m, "atom.global.cas");
  CHECK(cas.atom == AtomOp::Cas);
  CHECK(cas.type == ScalarType::B64);
  CHECK(cas.nops == 4);
  CHECK(cas.cls == OpClass::Atomic);
  CHECK(cas.is_load);
  CHECK(cas.is_store);
  CHECK(cas.access_bytes == 8);
  CHECK(cas.n_src_regs == 2);
  CHECK(cas.n_dst_regs == 1);
  CHECK(only(m, "atom.shared.add.f32").space == StateSpace::Shared);
  CHECK(only(m, "atom.add.u32").space == StateSpace::None);
  CHECK(only(m, "atom.global.inc").atom == AtomOp::Inc);
  const Instruction& ex = only(m, "atom.relaxed");
  CHECK(ex.sem == MemSem::Relaxed);
  CHECK(ex.scope == Scope::Gpu);
  const Instruction& red = only(m, "red.global.add.f64");
  CHECK(red.op == Opcode::Red);
  CHECK_FALSE(red.is_load);
  CHECK(red.is_store);
  CHECK(red.n_dst_regs == 0);
  CHECK(red.n_src_regs == 2);
  CHECK(only(m, "red.shared.or").atom == AtomOp::Or);
  const Instruction& b0 = only(m, "bar.sync 0");
  CHECK(b0.bar == BarKind::Sync);
  CHECK((b0.flags & kBarrierExplicitCount) == 0);
  CHECK(b0.cls == OpClass::Barrier);
  const Instruction& b1 = only(m, "bar.sync 1");
  CHECK((b1.flags & kBarrierExplicitCount) != 0);
  CHECK(b1.ops[1].bits == 64);
  CHECK((only(m, "barrier.sync").flags & kAligned) != 0);
  CHECK(only(m, "bar.arrive").bar == BarKind::Arrive);
  const Instruction& br = only(m, "bar.red.popc");
  CHECK(br.bar == BarKind::Red);
  CHECK(br.boolop == BoolOp::Popc);
  CHECK(br.n_dst_regs == 1);
  CHECK(only(m, "bar.red.and").ops[2].neg);
  CHECK(only(m, "bar.warp.sync").op == Opcode::BarWarpSync);
  CHECK(only(m, "membar").membar == MembarLevel::Gl);
  CHECK(only(m, "membar").cls == OpClass::Membar);
  CHECK(only(m, "fence.sc").sem == MemSem::Sc);
  CHECK(only(m, "fence.acq_rel").scope == Scope::Cta);
  const Function& f = m.functions.back();
  const Instruction& bra = only(m, "@%p1 bra.uni");
  CHECK((bra.flags & kUni) != 0);
  CHECK(bra.guard != kNone);
  CHECK(bra.target == find_instr(f, "exit"));
  CHECK(bra.ops[0].kind == OperandKind::Label);
  CHECK(bra.ops[0].index == bra.target);
  CHECK(bra.cls == OpClass::Branch);
  CHECK(bra.n_src_preds == 1);
  CHECK(only(m, "nanosleep").cls == OpClass::Nop);
  CHECK(only(m, "trap").cls == OpClass::Exit);
  CHECK(only(m, "exit").cls == OpClass::Exit);
}

TEST_CASE("ptx_parser decodes warp collectives", "[ptx_parser]") {
  Module m = parse_kernel(R"(
  shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;
  shfl.sync.idx.b32 %r3, %r2, %r4, 0x1f, %r5;
  vote.sync.ballot.b32 %r6, %p1, -1;
  vote.sync.all.pred %p2, !%p1, %r5;
  vote.any.pred %p3, %p1;
  activemask.b32 %r7;
  match.any.sync.b32 %r8, %r2, -1;
  match.all.sync.b64 %r9|%p4, %rd1, -1;
  )");
  const Instruction& s = only(m, "shfl.sync.bfly");
  CHECK(s.shfl == ShflMode::Bfly);
  CHECK(s.dst2.kind == OperandKind::Pred);
  CHECK(s.ops[4].bits == 0xffffffffu);
  CHECK(s.n_dst_preds == 1);
  CHECK(s.nops == 5);
  CHECK(only(m, "shfl.sync.idx").n_src_regs == 3);
  CHECK(only(m, "vote.sync.ballot").vote == VoteMode::Ballot);
  const Instruction& va = only(m, "vote.sync.all");
  CHECK(va.ops[1].neg);
  CHECK(va.ops[0].kind == OperandKind::Pred);
  CHECK((only(m, "vote.any").flags & kSync) == 0);
  CHECK(only(m, "activemask").op == Opcode::Activemask);
  CHECK(only(m, "match.any").match == MatchMode::Any);
  const Instruction& ma = only(m, "match.all");
  CHECK(ma.type == ScalarType::B64);
  CHECK(ma.dst2.kind == OperandKind::Pred);
}

TEST_CASE("ptx_parser decodes bit manipulation", "[ptx_parser]") {
  Module m = parse_kernel(R"(
  prmt.b32.f4e %r1, %r2, %r3, %r4;
  prmt.b32 %r1, %r2, %r3, 0x5410;
  lop3.b32 %r5, %r1, %r2, %r3, 0x96;
  bfe.u32 %r6, %r5, 4, 8;
  bfi.b64 %rd1, %rd2, %rd3, %r1, 16;
  shf.r.clamp.b32 %r7, %r1, %r2, %r3;
  bfind.shiftamt.u32 %r8, %r1;
  popc.b64 %r9, %rd1;
  clz.b32 %r10, %r1;
  brev.b32 %r11, %r1;
  shl.b64 %rd4, %rd1, 3;
  cnot.b32 %r12, %r1;
  )");
  CHECK(only(m, "prmt.b32.f4e").prmt == PrmtMode::F4e);
  CHECK(only(m, "prmt.b32 ").prmt == PrmtMode::None);
  CHECK(only(m, "lop3").ops[4].bits == 0x96);
  CHECK(only(m, "bfe").ops[3].bits == 8);
  const Instruction& bfi = only(m, "bfi");
  CHECK(bfi.nops == 5);
  CHECK(bfi.ops[4].type == ScalarType::U32);
  CHECK(only(m, "shf").shf == ShfMode::RightClamp);
  CHECK((only(m, "bfind").flags & kShiftAmt) != 0);
  CHECK(only(m, "popc").ops[1].type == ScalarType::B64);
  CHECK(only(m, "shl.b64").ops[2].type == ScalarType::U32);
  CHECK(only(m, "cnot").cls == OpClass::IntAlu);
}
