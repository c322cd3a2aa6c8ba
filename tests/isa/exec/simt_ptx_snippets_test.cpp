// Hand-written PTX snippets for behaviour nvcc output rarely isolates: bar.arrive, shared
// and local bounds, generic addressing, carry chains, collectives under partial masks,
// special registers, call-depth limit, unsupported-instruction errors.
#include <catch2/catch.hpp>

#include "simt_test_util.h"

using namespace simt_test;

namespace {
const std::string kHeader = ".version 7.5\n.target sm_75\n.address_size 64\n";
}

TEST_CASE("simt: bar.arrive lets a producer warp go on while the consumer waits", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry arrive(.param .u64 p_out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra CONSUME;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, buf;
  add.u32 %r4, %r3, %r2;
  mul.lo.u32 %r5, %r1, 7;
  st.shared.u32 [%r4], %r5;
  bar.arrive 1, 64;
  exit;
CONSUME:
  bar.sync 1, 64;
  sub.u32 %r2, %r1, 32;
  shl.b32 %r2, %r2, 2;
  mov.u32 %r3, buf;
  add.u32 %r4, %r3, %r2;
  ld.shared.u32 %r5, [%r4];
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  cvt.u64.u32 %rd2, %r2;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)", "arrive.ptx");
  uint64_t out = dev.alloc<uint32_t>(32, 0);
  dev.run("arrive", d1(2), d1(64), 0, out);
  auto o = dev.download<uint32_t>(out, 32);
  for (uint32_t l = 0; l < 32; ++l) CHECK(o[l] == l * 7);
}

TEST_CASE("simt: shared and local accesses outside their size are errors", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry shared_oob()
{
  .reg .b32 %r<3>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 7;
  st.shared.u32 [%r2], %r1;
  ret;
}
.visible .entry local_oob()
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  .local .align 4 .b8 arr[16];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd1, arr;
  st.local.u32 [%rd1+12], %r1;
  st.local.u32 [%rd1+16], %r1;
  ret;
}
)", "oob.ptx");
  CHECK_THROWS_WITH(dev.run("shared_oob", d1(1), d1(32), 0),
                    Catch::Contains("out-of-bounds shared write of 4 bytes at address 0x80 (CTA shared memory is 128 bytes)") &&
                        Catch::Contains("thread (1,0,0)") && Catch::Contains("oob.ptx"));
  CHECK_THROWS_WITH(dev.run("local_oob", d1(1), d1(32), 0),
                    Catch::Contains("out-of-bounds local write of 4 bytes at address 0x10") &&
                        Catch::Contains("st.local.u32 [%rd1+16], %r1"));
}

TEST_CASE("simt: generic addressing through cvta windows and isspacep", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry generic(.param .u64 p_out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b8 buf[128];
  .local .align 4 .b8 loc[8];
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd1, %r1;
  shl.b64 %rd1, %rd1, 2;
  mov.u64 %rd2, buf;
  add.u64 %rd2, %rd2, %rd1;
  cvta.shared.u64 %rd3, %rd2;
  add.u32 %r2, %r1, 100;
  st.u32 [%rd3], %r2;
  ld.shared.u32 %r3, [%rd2];
  mov.u64 %rd4, loc;
  cvta.local.u64 %rd5, %rd4;
  mul.lo.u32 %r4, %r1, 3;
  st.u32 [%rd5+4], %r4;
  ld.local.u32 %r5, [%rd4+4];
  isspacep.shared %p1, %rd3;
  isspacep.global %p2, %rd3;
  isspacep.local %p3, %rd5;
  selp.u32 %r6, 1, 0, %p1;
  selp.u32 %r7, 2, 0, %p2;
  selp.u32 %r8, 4, 0, %p3;
  or.b32 %r6, %r6, %r7;
  or.b32 %r6, %r6, %r8;
  cvta.to.shared.u64 %rd6, %rd3;
  setp.eq.u64 %p1, %rd6, %rd2;
  selp.u32 %r9, 8, 0, %p1;
  or.b32 %r6, %r6, %r9;
  ld.param.u64 %rd7, [p_out];
  cvta.to.global.u64 %rd7, %rd7;
  mul.wide.u32 %rd8, %r1, 12;
  add.u64 %rd9, %rd7, %rd8;
  st.global.u32 [%rd9], %r3;
  st.global.u32 [%rd9+4], %r5;
  st.global.u32 [%rd9+8], %r6;
  ret;
}
)", "generic.ptx");
  uint64_t out = dev.alloc<uint32_t>(3 * 32, 0);
  dev.run("generic", d1(1), d1(32), 0, out);
  auto o = dev.download<uint32_t>(out, 3 * 32);
  for (uint32_t l = 0; l < 32; ++l) {
    CHECK(o[3 * l] == l + 100);     // generic store landed in shared memory
    CHECK(o[3 * l + 1] == l * 3);   // generic store landed in the thread's local memory
    CHECK(o[3 * l + 2] == (1 | 4 | 8));  // shared yes, global no, local yes, round trip
  }
}

TEST_CASE("simt: add.cc/addc and sub.cc/subc carry across 32-bit halves", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry carry(.param .u64 p_out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, 0xFFFFFFFF;
  mov.u32 %r2, 1;
  add.cc.u32 %r3, %r1, 1;
  addc.u32 %r4, %r2, 0;
  sub.cc.u32 %r5, 0, 1;
  subc.u32 %r6, 5, 0;
  mad.lo.cc.u32 %r7, %r1, 2, 2;
  madc.hi.u32 %r8, %r1, 2, 0;
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};
  st.global.v2.u32 [%rd1+16], {%r7, %r8};
  ret;
}
)", "carry.ptx");
  uint64_t out = dev.alloc<uint32_t>(6, 0);
  dev.run("carry", d1(1), d1(1), 0, out);
  auto o = dev.download<uint32_t>(out, 6);
  CHECK(o[0] == 0u);           // 0xFFFFFFFF + 1: carry out
  CHECK(o[1] == 2u);           // 1 + 0 + carry
  CHECK(o[2] == 0xFFFFFFFFu);  // 0 - 1: borrow out
  CHECK(o[3] == 4u);           // 5 - 0 - borrow
  // 0xFFFFFFFF * 2 = 0x1_FFFFFFFE: lo 0xFFFFFFFE + 2 = 0 with carry; hi 1 + 0 + carry = 2.
  CHECK(o[4] == 0u);
  CHECK(o[5] == 2u);
}

TEST_CASE("simt: shfl and vote inside a divergent branch with a partial membermask", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry partial(.param .u64 p_out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %laneid;
  mul.lo.u32 %r2, %r1, 10;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra DONE;
  add.u32 %r7, %r1, 8;
  shfl.sync.idx.b32 %r3|%p2, %r2, %r7, 0x1f, 0xffff;
  shfl.sync.down.b32 %r4|%p3, %r2, 20, 0x1f, 0xffff;
  selp.u32 %r5, 1, 0, %p3;
  and.b32 %r8, %r1, 1;
  setp.eq.u32 %p2, %r8, 1;
  vote.sync.ballot.b32 %r6, %p2, 0xffff;
DONE:
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r1, 16;
  add.u64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
  ret;
}
)", "partial.ptx");
  uint64_t out = dev.alloc<uint32_t>(4 * 32, 0);
  dev.run("partial", d1(1), d1(32), 0, out);
  auto o = dev.download<uint32_t>(out, 4 * 32);
  for (uint32_t l = 0; l < 16; ++l) {
    CHECK(o[4 * l] == (l + 8) * 10);                 // idx: lanes 16..23 are inactive but hold l*10
    CHECK(o[4 * l + 1] == (l + 20 <= 31 ? (l + 20) * 10 : l * 10));  // down 20: out of range -> own
    CHECK(o[4 * l + 2] == (l + 20 <= 31 ? 1u : 0u));
    CHECK(o[4 * l + 3] == 0xAAAAu);                  // odd lanes among the 16 participants
  }
  for (uint32_t l = 16; l < 32; ++l) CHECK(o[4 * l + 3] == 0u);
}

TEST_CASE("simt: special registers", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry sregs(.param .u64 p_out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %ctaid.y;
  mov.u32 %r5, %nctaid.y;
  mov.u32 %r6, %laneid;
  mov.u32 %r7, %warpid;
  mov.u32 %r8, %lanemask_lt;
  mov.u32 %r9, %lanemask_ge;
  mov.u64 %rd1, %clock64;
  mov.u64 %rd2, %clock64;
  sub.u64 %rd3, %rd2, %rd1;
  cvt.u32.u64 %r10, %rd3;
  mov.u32 %r11, %tid.z;
  mad.lo.u32 %r1, %r2, %r3, %r1;
  ld.param.u64 %rd4, [p_out];
  cvta.to.global.u64 %rd4, %rd4;
  mul.wide.u32 %rd5, %r1, 32;
  add.u64 %rd6, %rd4, %rd5;
  st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r7};
  st.global.v4.u32 [%rd6+16], {%r8, %r9, %r10, %r11};
  ret;
}
)", "sregs.ptx");
  const uint32_t bx = 8, by = 8;  // 64 threads: 2 warps
  uint64_t out = dev.alloc<uint32_t>(8 * bx * by * 3, 0);
  // Grid (1, 3): only CTA y = 2 writes last; every CTA writes the same slots, so read CTA 2.
  dev.run("sregs", Dim3{1, 3, 1}, Dim3{bx, by, 1}, 0, out);
  auto o = dev.download<uint32_t>(out, 8 * bx * by);
  for (uint32_t t = 0; t < bx * by; ++t) {
    uint32_t lane = t % 32;
    CHECK(o[8 * t + 0] == 2u);  // %ctaid.y of the last CTA
    CHECK(o[8 * t + 1] == 3u);  // %nctaid.y
    CHECK(o[8 * t + 2] == lane);
    CHECK(o[8 * t + 3] == t / 32);  // %warpid (functional mode: warp index in the CTA)
    CHECK(o[8 * t + 4] == (1u << lane) - 1);
    CHECK(o[8 * t + 5] == ~((1u << lane) - 1));
    CHECK(o[8 * t + 6] >= 1u);  // %clock64 advances between two reads
    CHECK(o[8 * t + 7] == 0u);
  }
}

TEST_CASE("simt: unbounded recursion ends with a call-depth error", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.func (.param .b32 rv) down(.param .b32 n)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [n];
  add.s32 %r2, %r1, 1;
  {
  .param .b32 a0;
  st.param.b32 [a0], %r2;
  .param .b32 r0;
  call.uni (r0), down, (a0);
  ld.param.b32 %r3, [r0];
  }
  st.param.b32 [rv], %r3;
  ret;
}
.visible .entry recurse()
{
  .reg .b32 %r<2>;
  {
  .param .b32 a0;
  st.param.b32 [a0], 0;
  .param .b32 r0;
  call.uni (r0), down, (a0);
  ld.param.b32 %r1, [r0];
  }
  ret;
}
)", "recurse.ptx");
  dev.options.max_call_depth = 200;
  CHECK_THROWS_WITH(dev.run("recurse", d1(1), d1(32), 0),
                    Catch::Contains("call depth limit of 200 frames exceeded") && Catch::Contains("call.uni"));
}

TEST_CASE("simt: an instruction without semantics is a load-time error naming it", "[simt]") {
  std::string ptx = kHeader + R"(
.visible .entry halfadd()
{
  .reg .b16 %h<3>;
  mov.b16 %h1, 0x3C00;
  min.f16 %h2, %h1, %h1;
  ret;
}
)";
  DeviceMemory mem;
  CHECK_THROWS_WITH(LoadedModule(parse_ptx_string(ptx, "half.ptx"), mem),
                    Catch::Contains("half.ptx:9:") && Catch::Contains("unsupported instruction 'min.f16 %h2, %h1, %h1'"));
}

TEST_CASE("simt: f16 and f16x2 arithmetic is correctly rounded", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry halves(.param .u64 p_out)
{
  .reg .pred %p<3>;
  .reg .b16 %h<20>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<3>;
  mov.b16 %h1, 0x3C00;
  mov.b16 %h2, 0x1000;
  add.f16 %h3, %h1, %h2;
  mov.b16 %h4, 0x1200;
  add.f16 %h5, %h1, %h4;
  mov.b16 %h6, 0x4000;
  mov.b16 %h7, 0x4200;
  mul.f16 %h8, %h6, %h7;
  mov.b16 %h9, 0x3C01;
  mov.b16 %h10, 0xBC02;
  fma.rn.f16 %h11, %h9, %h9, %h10;
  neg.f16 %h12, %h1;
  add.sat.f16 %h13, %h1, %h1;
  mov.b16 %h14, 0x0001;
  mov.b16 %h15, 0x0000;
  add.ftz.f16 %h16, %h14, %h15;
  add.f16 %h17, %h14, %h15;
  mov.b32 %r1, {%h1, %h7};
  mov.b32 %r2, {%h6, %h6};
  add.f16x2 %r3, %r1, %r2;
  setp.lt.f16x2 %p1|%p2, %r1, %r2;
  selp.u32 %r4, 1, 0, %p1;
  selp.u32 %r5, 2, 0, %p2;
  or.b32 %r4, %r4, %r5;
  mov.b32 %r6, {%h3, %h5};
  mov.b32 %r7, {%h8, %h11};
  mov.b32 %r8, {%h12, %h13};
  mov.b32 %r9, {%h16, %h17};
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  st.global.v4.u32 [%rd1], {%r6, %r7, %r8, %r9};
  st.global.v2.u32 [%rd1+16], {%r3, %r4};
  ret;
}
)", "halves.ptx");
  uint64_t out = dev.alloc<uint32_t>(6, 0);
  dev.run("halves", d1(1), d1(1), 0, out);
  auto o = dev.download<uint32_t>(out, 6);
  auto lo = [](uint32_t v) { return v & 0xFFFFu; };
  auto hi = [](uint32_t v) { return v >> 16; };
  CHECK(lo(o[0]) == 0x3C00u);  // 1 + 2^-11: a tie, to even (1.0)
  CHECK(hi(o[0]) == 0x3C01u);  // 1 + 1.5 * 2^-11... = 1 + 0.75 ulp: up
  CHECK(lo(o[1]) == 0x4600u);  // 2 * 3 = 6
  CHECK(hi(o[1]) == 0x0010u);  // (1+2^-10)^2 - (1+2^-9) = 2^-20 exactly (single rounding)
  CHECK(lo(o[2]) == 0xBC00u);  // neg 1.0
  CHECK(hi(o[2]) == 0x3C00u);  // 1 + 1 saturated to 1
  CHECK(lo(o[3]) == 0x0000u);  // ftz: the smallest subnormal flushes
  CHECK(hi(o[3]) == 0x0001u);  // without ftz it stays
  CHECK(lo(o[4]) == 0x4200u);  // {1, 3} + {2, 2} = {3, 5}
  CHECK(hi(o[4]) == 0x4500u);
  CHECK(o[5] == 1u);           // 1 < 2 true (p), 3 < 2 false (q)
}

TEST_CASE("simt: dp4a and dp2a byte/halfword dot products", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry dots(.param .u64 p_out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, 0x01FF0203;
  mov.u32 %r2, 0x02020202;
  dp4a.s32.s32 %r3, %r1, %r2, 10;
  dp4a.u32.u32 %r4, %r1, %r2, 10;
  mov.u32 %r5, 0xFFFF0003;
  mov.u32 %r6, 0x04030201;
  dp2a.lo.s32.s32 %r7, %r5, %r6, 10;
  dp2a.hi.s32.s32 %r8, %r5, %r6, 10;
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  st.global.v4.u32 [%rd1], {%r3, %r4, %r7, %r8};
  ret;
}
)", "dots.ptx");
  uint64_t out = dev.alloc<uint32_t>(4, 0);
  dev.run("dots", d1(1), d1(1), 0, out);
  auto o = dev.download<uint32_t>(out, 4);
  CHECK(o[0] == 20u);   // 10 + 2 * (3 + 2 - 1 + 1)
  CHECK(o[1] == 532u);  // 10 + 2 * (3 + 2 + 255 + 1)
  CHECK(o[2] == 11u);   // 10 + 3 * 1 + (-1) * 2
  CHECK(o[3] == 15u);   // 10 + 3 * 3 + (-1) * 4
}

TEST_CASE("simt: setp combiners with two destinations, set, selp, slct, testp", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry compares(.param .u64 p_out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<16>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, %laneid;
  setp.lt.u32 %p1, %r1, 8;
  setp.ge.and.s32 %p2|%p3, %r1, 4, %p1;
  setp.ne.xor.u32 %p4|%p5, %r1, 2, !%p1;
  selp.u32 %r2, 1, 0, %p2;
  selp.u32 %r3, 2, 0, %p3;
  selp.u32 %r4, 4, 0, %p4;
  selp.u32 %r5, 8, 0, %p5;
  or.b32 %r2, %r2, %r3;
  or.b32 %r2, %r2, %r4;
  or.b32 %r2, %r2, %r5;
  cvt.rn.f32.u32 %f1, %r1;
  mov.f32 %f2, 0f7FC00000;
  set.ltu.u32.f32 %r6, %f2, %f1;
  set.gt.f32.f32 %r7, %f1, 0f40A00000;
  sub.s32 %r8, %r1, 16;
  slct.u32.s32 %r9, 100, 200, %r8;
  testp.notanumber.f32 %p6, %f2;
  selp.u32 %r10, 1, 0, %p6;
  copysign.f32 %f3, %f1, 0fC0000000;
  mov.b32 %r11, %f3;
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r1, 24;
  add.u64 %rd1, %rd1, %rd2;
  st.global.v2.u32 [%rd1], {%r2, %r6};
  st.global.v4.u32 [%rd1+8], {%r7, %r9, %r10, %r11};
  ret;
}
)", "compares.ptx");
  uint64_t out = dev.alloc<uint32_t>(6 * 32, 0);
  dev.run("compares", d1(1), d1(32), 0, out);
  auto o = dev.download<uint32_t>(out, 6 * 32);
  for (uint32_t l = 0; l < 32; ++l) {
    bool p1 = l < 8;
    bool p2 = (int(l) >= 4) && p1, p3 = !(int(l) >= 4) && p1;   // p = cmp AND c, q = !cmp AND c
    bool p4 = (l != 2) != !p1, p5 = !(l != 2) != !p1;           // XOR with !c
    CHECK(o[6 * l] == (uint32_t(p2) | uint32_t(p3) << 1 | uint32_t(p4) << 2 | uint32_t(p5) << 3));
    CHECK(o[6 * l + 1] == 0xFFFFFFFFu);                          // NaN <u x: unordered -> true
    CHECK(o[6 * l + 2] == (l > 5 ? 0x3F800000u : 0u));           // set.f32 gives 1.0f / 0.0f
    CHECK(o[6 * l + 3] == (int(l) - 16 >= 0 ? 100u : 200u));      // slct: c >= 0 selects a
    CHECK(o[6 * l + 4] == 1u);
    CHECK(o[6 * l + 5] == 0x40000000u);  // copysign d, a, b = |b| with a's sign: +2.0 (a = l >= +0)
  }
}

TEST_CASE("simt: a predicate immediate is true when nonzero (nvcc writes mov.pred %p, -1)", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader + R"(
.visible .entry pred_imm(.param .u64 p_out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  mov.pred %p1, -1;
  mov.pred %p2, 0;
  mov.pred %p3, 2;
  selp.u32 %r1, 7, 8, %p1;
  selp.u32 %r2, 7, 8, %p2;
  selp.u32 %r3, 7, 8, %p3;
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r2;
  st.global.u32 [%rd1+8], %r3;
  ret;
}
)", "pred_imm.ptx");
  uint64_t out = dev.alloc<uint32_t>(3, 0);
  dev.run("pred_imm", d1(1), d1(1), 0, out);
  auto o = dev.download<uint32_t>(out, 3);
  CHECK(o[0] == 7);
  CHECK(o[1] == 8);
  CHECK(o[2] == 7);
}
