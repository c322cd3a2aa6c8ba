// Address width: [reg+imm] through a 32-bit register addresses the 32-bit spaces
// (.shared .local .const .param) modulo 2^32, as nvcc relies on (Rodinia NW forms
// `temp - 64*tid` in a 32-bit register and adds a positive offset); 64-bit registers add
// in 64 bits; a 32-bit register for a generic or .global address, and cvta.u32, are
// 32-bit addressing that a .address_size 64 module cannot use (ptxas refuses both);
// every address of a .address_size 32 module wraps at 32 bits.
#include <catch2/catch.hpp>

#include "isa/ptx_parser.h"
#include "simt_test_util.h"

using namespace simt_test;

namespace {
const std::string kHeader64 = ".version 7.5\n.target sm_75\n.address_size 64\n";
const std::string kHeader32 = ".version 7.5\n.target sm_75\n.address_size 32\n";

// Parses a module of one kernel `k` whose body is `body` and returns the load error.
std::string load_error(const std::string& header, const std::string& body) {
  const std::string text = header + ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n" +
                           "  .shared .align 4 .b8 buf[128];\n" + body + "\n  ret;\n}\n";
  try {
    parse_ptx_string(text, "width.ptx");
  } catch (const PtxError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("simt: 32-bit shared addresses wrap modulo 2^32 in ld, st, atom, red and vector forms", "[simt]") {
  // Thread t: %r3 = buf + 4t - 64 (negative for t < 16, buf being at shared offset 0);
  // [%r3+64] is buf[t] for every access form.
  TestDevice dev(TestDevice::Text{}, kHeader64 + R"(
.visible .entry wrap(.param .u64 p_out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  .shared .align 8 .b8 buf[256];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, buf;
  shl.b32 %r4, %r1, 2;
  add.u32 %r3, %r2, %r4;
  sub.u32 %r3, %r3, 64;
  mul.lo.u32 %r5, %r1, 10;
  st.shared.u32 [%r3+64], %r5;
  bar.sync 0;
  atom.shared.add.u32 %r6, [%r3+64], 1;
  red.shared.add.u32 [%r3+64], 2;
  bar.sync 0;
  ld.shared::cta.u32 %r7, [%r3+64];
  shl.b32 %r8, %r1, 3;
  add.u32 %r9, %r2, %r8;
  sub.u32 %r9, %r9, 128;
  st.shared.v2.u32 [%r9+128], {%r1, %r5};
  ld.shared.v2.u32 {%r10, %r11}, [%r9+128];
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r1, 16;
  add.u64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r6, %r7, %r10, %r11};
  ret;
}
)", "wrap.ptx");
  uint64_t out = dev.alloc<uint32_t>(4 * 32, 0);
  dev.run("wrap", d1(1), d1(32), 0, out);
  auto o = dev.download<uint32_t>(out, 4 * 32);
  for (uint32_t t = 0; t < 32; ++t) {
    INFO("thread " << t);
    CHECK(o[4 * t] == 10 * t);          // atom returned the stored value
    CHECK(o[4 * t + 1] == 10 * t + 3);  // +1 (atom) +2 (red), read back through ld.shared::cta
    CHECK(o[4 * t + 2] == t);           // vector store/load through a wrapped base
    CHECK(o[4 * t + 3] == 10 * t);
  }
}

TEST_CASE("simt: 32-bit shared addresses wrap at exactly 2^32 and the bounds check sees the wrapped address", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader64 + R"(
.visible .entry edge(.param .u64 p_out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r1, 7;
  st.shared.u32 [buf], %r1;
  mov.u32 %r1, 9;
  st.shared.u32 [buf+4], %r1;
  mov.u32 %r1, 123;
  st.shared.u32 [buf+124], %r1;
  mov.u32 %r2, -4;
  ld.shared.u32 %r3, [%r2+4];
  ld.shared.u32 %r4, [%r2+8];
  ld.shared.u32 %r5, [%r2+128];
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r2};
  ret;
}
.visible .entry past_end()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r2, -4;
  ld.shared.u32 %r3, [%r2+129];
  ret;
}
.visible .entry high_half()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r2, 0x80000000;
  ld.shared.u32 %r3, [%r2+0];
  ret;
}
.visible .entry top()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r2, -1;
  st.shared.u32 [%r2], %r2;
  ret;
}
.visible .entry max_valid()
{
  .reg .b32 %r<4>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r2, 124;
  ld.shared.u32 %r3, [%r2+0];
  ld.shared.u32 %r3, [%r2+1];
  ret;
}
)", "edge.ptx");
  uint64_t out = dev.alloc<uint32_t>(4, 0);
  dev.run("edge", d1(1), d1(1), 0, out);
  auto o = dev.download<uint32_t>(out, 4);
  CHECK(o[0] == 7);    // 0xFFFFFFFC + 4 = 2^32 -> 0
  CHECK(o[1] == 9);    // -> 4
  CHECK(o[2] == 123);  // -> 124, the last word of the 128 bytes
  CHECK(o[3] == 0xFFFFFFFCu);
  // One byte past the end is still out of bounds, reported at the wrapped address.
  CHECK_THROWS_WITH(dev.run("past_end", d1(1), d1(1), 0),
                    Catch::Contains("out-of-bounds shared read of 4 bytes at address 0x7d (CTA shared memory is 128 bytes)"));
  CHECK_THROWS_WITH(dev.run("high_half", d1(1), d1(1), 0),
                    Catch::Contains("out-of-bounds shared read of 4 bytes at address 0x80000000"));
  CHECK_THROWS_WITH(dev.run("top", d1(1), d1(1), 0),
                    Catch::Contains("out-of-bounds shared write of 4 bytes at address 0xffffffff"));
  CHECK_THROWS_WITH(dev.run("max_valid", d1(1), d1(1), 0),
                    Catch::Contains("out-of-bounds shared read of 4 bytes at address 0x7d"));
}

TEST_CASE("simt: 32-bit local, const and param addresses wrap modulo 2^32", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader64 + R"(
.const .align 4 .u32 tab[4] = {11, 22, 33, 44};
.visible .entry spaces(.param .u64 p_out, .param .u32 p_a, .param .u32 p_b)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  .local .align 4 .b8 loc[16];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, loc;
  sub.u32 %r3, %r2, 100;
  add.u32 %r4, %r1, 1000;
  st.local.u32 [%r3+108], %r4;
  ld.local.u32 %r5, [%r2+8];
  mov.u32 %r6, tab;
  sub.u32 %r7, %r6, 16;
  ld.const.u32 %r8, [%r7+20];
  mov.u32 %r9, p_b;
  sub.u32 %r10, %r9, 64;
  ld.param.u32 %r11, [%r10+64];
  ld.param.u32 %r12, [%r10+60];
  ld.param.u64 %rd1, [p_out];
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd2, %r1, 16;
  add.u64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r5, %r8, %r11, %r12};
  ret;
}
)", "spaces.ptx");
  uint64_t out = dev.alloc<uint32_t>(4 * 32, 0);
  dev.run("spaces", d1(1), d1(32), 0, out, uint32_t{0xAAAA}, uint32_t{0xBBBB});
  auto o = dev.download<uint32_t>(out, 4 * 32);
  for (uint32_t t = 0; t < 32; ++t) {
    INFO("thread " << t);
    CHECK(o[4 * t] == 1000 + t);  // local: loc - 100 + 108 = loc + 8
    CHECK(o[4 * t + 1] == 22);    // const: tab - 16 + 20 = tab[1]
    CHECK(o[4 * t + 2] == 0xBBBB);  // param: p_b - 64 + 64
    CHECK(o[4 * t + 3] == 0xAAAA);  // param: p_b - 4 = p_a
  }
}

TEST_CASE("simt: 64-bit address registers add in 64 bits", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader64 + R"(
.visible .entry wide(.param .u64 p_out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r1, 5;
  st.shared.u32 [buf+4], %r1;
  mov.u64 %rd1, -64;
  ld.shared.u32 %r2, [%rd1+68];
  ld.param.u64 %rd2, [p_out];
  cvta.to.global.u64 %rd2, %rd2;
  st.global.u32 [%rd2], %r2;
  ret;
}
.visible .entry zero_extended()
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, -64;
  cvt.u64.u32 %rd1, %r1;
  ld.shared.u32 %r2, [%rd1+68];
  ret;
}
)", "wide.ptx");
  uint64_t out = dev.alloc<uint32_t>(1, 0);
  dev.run("wide", d1(1), d1(1), 0, out);
  CHECK(dev.download<uint32_t>(out, 1)[0] == 5);  // 2^64 - 64 + 68 = 4
  // A zero-extended 32-bit value in a 64-bit register is a 64-bit address: no wrap.
  CHECK_THROWS_WITH(dev.run("zero_extended", d1(1), d1(1), 0),
                    Catch::Contains("out-of-bounds shared read of 4 bytes at address 0x100000004"));
}

TEST_CASE("simt: a 32-bit shared offset converts to a generic address and back", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader64 + R"(
.visible .entry round_trip(.param .u64 p_out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 buf[128];
  mov.u32 %r1, 31;
  st.shared.u32 [buf+4], %r1;
  mov.u32 %r2, buf;
  sub.u32 %r2, %r2, 64;
  add.u32 %r2, %r2, 68;
  cvt.u64.u32 %rd1, %r2;
  cvta.shared.u64 %rd2, %rd1;
  ld.u32 %r3, [%rd2];
  cvta.to.shared.u64 %rd3, %rd2;
  cvt.u32.u64 %r4, %rd3;
  sub.u32 %r4, %r4, 68;
  ld.shared.u32 %r5, [%r4+68];
  ld.param.u64 %rd4, [p_out];
  cvta.to.global.u64 %rd4, %rd4;
  st.global.v2.u32 [%rd4], {%r3, %r5};
  ret;
}
)", "round_trip.ptx");
  uint64_t out = dev.alloc<uint32_t>(2, 0);
  dev.run("round_trip", d1(1), d1(1), 0, out);
  auto o = dev.download<uint32_t>(out, 2);
  CHECK(o[0] == 31);  // generic load through the shared window
  CHECK(o[1] == 31);  // cvta.to.shared, truncated to 32 bits, wrapped base + offset
}

TEST_CASE("simt: 32-bit generic and .global addressing is a load error in a 64-bit module", "[simt]") {
  CHECK_THAT(load_error(kHeader64, "  ld.global.u32 %r1, [%r2+4];"),
             Catch::Contains("width.ptx") &&
                 Catch::Contains("32-bit address register '%r2' for a .global address in a .address_size 64 module"));
  CHECK_THAT(load_error(kHeader64, "  st.u32 [%r2], %r1;"),
             Catch::Contains("32-bit address register '%r2' for a generic address"));
  CHECK_THAT(load_error(kHeader64, "  atom.global.add.u32 %r1, [%r2], 1;"),
             Catch::Contains("32-bit address register '%r2' for a .global address"));
  CHECK_THAT(load_error(kHeader64, "  prefetch.global.L2 [%r2];"),
             Catch::Contains("32-bit address register '%r2' for a .global address"));
  CHECK_THAT(load_error(kHeader64, "  cvta.shared.u32 %r1, %r2;"),
             Catch::Contains("cvta.u32 in a .address_size 64 module (generic addresses are 64 bits)"));
  CHECK_THAT(load_error(kHeader64, "  cvta.to.shared.u32 %r1, %r2;"),
             Catch::Contains("cvta.u32 in a .address_size 64 module"));
  // The 32-bit spaces take 32-bit registers.
  CHECK(load_error(kHeader64, "  ld.shared.u32 %r1, [%r2+-4];\n  ld.local.u32 %r1, [%r2];\n"
                              "  ld.const.u32 %r1, [%r2];\n  ld.param.u32 %r1, [%r2];\n"
                              "  atom.shared.add.u32 %r1, [%r2+8], 1;")
            .empty());
  CHECK(load_error(kHeader64, "  cvta.shared.u64 %rd1, %rd2;\n  cvta.to.shared.u64 %rd1, %rd2;").empty());
}

TEST_CASE("simt: every address of a .address_size 32 module wraps at 32 bits", "[simt]") {
  TestDevice dev(TestDevice::Text{}, kHeader32 + R"(
.visible .entry narrow(.param .u32 p_out)
{
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [p_out];
  cvta.to.global.u32 %r2, %r2;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  sub.u32 %r4, %r4, 536870912;
  add.u32 %r5, %r1, 40;
  st.global.u32 [%r4+536870912], %r5;
  cvta.global.u32 %r6, %r4;
  ld.u32 %r7, [%r6+536870912];
  add.u32 %r7, %r7, 1;
  st.u32 [%r6+536870912], %r7;
  ret;
}
)", "narrow.ptx");
  uint64_t out = dev.alloc<uint32_t>(32, 0);
  // out - 2^29 wraps below zero in the 32-bit register; + 2^29 in the address wraps back.
  REQUIRE(out < (uint64_t{1} << 29));
  dev.run("narrow", d1(1), d1(32), 0, static_cast<uint32_t>(out));
  auto o = dev.download<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t) CHECK(o[t] == 41 + t);
  CHECK_THAT(load_error(kHeader32, "  cvta.shared.u32 %r1, %r2;"),
             Catch::Contains("cvta of .shared addresses in a .address_size 32 module"));
  CHECK_THAT(load_error(kHeader32, "  cvta.global.u64 %rd1, %rd2;"),
             Catch::Contains("cvta.u64 in a .address_size 32 module"));
}
