// ptx_parser errors: every malformed input gives a PtxError naming file:line:column and
// the offending token; nothing crashes or hangs.
#include <catch2/catch.hpp>

#include "frontend_test_util.h"

using namespace gputlm::isa;
using gputlm::isa::test::kernel_ptx;

namespace {
// kernel_ptx() puts the body on line 13 (header 3 lines, prelude line, entry line,
// brace, 6 .reg lines).
constexpr uint32_t kBodyLine = 13;

struct Expect {
  uint32_t line;
  uint32_t column;
  std::string token;
  std::string detail;  // substring of the message
};

void check_error(const std::string& text, const Expect& e) {
  try {
    parse_ptx_string(text, "bad.ptx");
    FAIL("expected a PtxError for: " << text);
  } catch (const PtxError& err) {
    INFO(err.what());
    std::string msg = err.what();
    std::string where = "bad.ptx:" + std::to_string(e.line) + ":" + std::to_string(e.column) + ":";
    CHECK(msg.rfind(where, 0) == 0);
    CHECK(err.line() == e.line);
    CHECK(err.column() == e.column);
    CHECK(err.token() == e.token);
    CHECK(msg.find("'" + e.token + "'") != std::string::npos);
    CHECK(msg.find(e.detail) != std::string::npos);
  }
}

void check_body_error(const std::string& body_line, uint32_t column, const std::string& token,
                      const std::string& detail, const std::string& prelude = "") {
  check_error(kernel_ptx(body_line, "", prelude), {kBodyLine, column, token, detail});
}
}  // namespace

TEST_CASE("ptx_parser error: unknown instruction and modifiers", "[ptx_parser]") {
  check_body_error("  frobnicate.b32 %r1, %r2;", 3, "frobnicate", "unknown or unsupported instruction");
  check_body_error("  add.zz.s32 %r1, %r2, %r3;", 6, ".zz", "unsupported or misplaced modifier");
  check_body_error("  add.s32.s32 %r1, %r2, %r3;", 10, ".s32", "unsupported or misplaced modifier");
  check_body_error("  fma.f32 %f1, %f2, %f3, %f4;", 3, "fma", "rounding");
  check_body_error("  tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [%rd1, {%f5,%f6}];", 3, "tex",
                   "unknown or unsupported instruction");
  check_body_error("  cvt.s32.f32 %r1, %f1;", 3, "cvt", "integer rounding");
}

TEST_CASE("ptx_parser error: bad operands", "[ptx_parser]") {
  check_body_error("  add.s32 %r1, %p1, 1;", 16, "%p1", "predicate '%p1' used where");
  check_body_error("  ld.global.u32 %r1, %rd1;", 22, "%rd1", "expected an address operand");
  check_body_error("  add.s32 %r1, %r2;", 3, "add", "takes 3 operands, got 2");
  check_body_error("  add.s32 %r1, %r2, %r3, %r4;", 26, "%r4", "takes 3 operands");
  check_body_error("  setp.lt.s32 %r1, %r2, %r3;", 15, "%r1", "expected a predicate");
  check_body_error("  ld.global.v4.f32 {%f1, %f2}, [%rd1];", 20, "{", "needs a vector operand with 4");
  check_body_error("  mov.u32 %r1, %tid;", 16, "%tid", "needs .x, .y or .z");
  check_body_error("  mov.u32 %r1, %r2 + 4;", 16, "%r2", "only allowed after a symbol");
  check_body_error("  st.global.u32 [%p1], %r1;", 17, "[", "cannot be an address");
  check_body_error("  bra %r1;", 7, "%r1", "indirect branches");
}

TEST_CASE("ptx_parser error: undefined names", "[ptx_parser]") {
  check_body_error("  bra $L_nowhere;", 7, "$L_nowhere", "undefined label '$L_nowhere'");
  check_body_error("  add.s32 %r1, %r99, 1;", 16, "%r99", "undefined register or symbol '%r99'");
  check_body_error("  @%q1 bra $L;\n$L: ret;", 4, "%q1", "undefined guard predicate");
  check_body_error("  ld.global.u32 %r1, [nosym];", 22, "[", "undefined register or symbol 'nosym'");
  check_body_error("  call.uni missing_fn, ();", 12, "missing_fn", "call to undefined function");
  check_error(kernel_ptx("$L: ret;\n$L: ret;"), {kBodyLine + 1, 1, "$L", "duplicate label"});
  check_body_error("  .reg .b32 %r1;", 13, "%r1", "declared twice");
}

TEST_CASE("ptx_parser error: bad immediates", "[ptx_parser]") {
  check_body_error("  mov.f32 %f1, 0f3F80;", 16, "0f3F80", "needs 8 hex digits");
  check_body_error("  mov.f64 %fd1, 0d3FF0;", 17, "0d3FF0", "needs 16");
  check_body_error("  mov.u32 %r1, 0x;", 16, "0x", "no digits");
  check_body_error("  mov.u32 %r1, 0x1G;", 16, "0x1G", "malformed integer");
  check_body_error("  mov.u32 %r1, 99999999999999999999;", 16, "99999999999999999999", "does not fit in 64 bits");
  check_body_error("  mov.u16 %rs1, 70000;", 17, "70000", "does not fit in .u16");
  check_body_error("  mov.u32 %r1, 1.5;", 16, "1.5", "floating-point literal used with integer type");
  check_body_error("  mov.u32 %r1, 1e;", 16, "1e", "exponent");
  check_body_error("  mov.u32 %r1, 09;", 16, "09", "malformed integer");
  check_body_error("  lop3.b32 %r1, %r2, %r3, %r4, 300;", 32, "300", "lookup table");
  check_body_error("  mov.pred %p1, 1.0;", 17, "1.0", "predicate immediates must be integers");
}

TEST_CASE("ptx_parser error: unbalanced braces and truncated files", "[ptx_parser]") {
  check_body_error("  st.global.v2.f32 [%rd1], {%f1, %f2;", 37, ";", "expected '}'");
  check_body_error("  ld.global.u32 %r1, [%rd1;", 27, ";", "expected ']'");
  // The inner block is closed by the function's brace; the function's brace is unbalanced.
  check_error(kernel_ptx("  { mov.u32 %r1, 1;"), {6, 1, "{", "unbalanced '{'"});
  std::string full = kernel_ptx("  mov.u32 %r1, 1;\n  ret;");
  // Cut inside the instruction: "mov.u32 %r1" then end of file.
  std::string cut = full.substr(0, full.find(", 1;"));
  check_error(cut, {kBodyLine, 14, "end of file", "expected ',' or ';'"});
  // Cut after the function's opening brace: the error names the brace.
  std::string cut2 = full.substr(0, full.find("  ret;"));
  check_error(cut2, {6, 1, "{", "unbalanced '{'"});
  check_error(".version 9.0\n.target sm_75\n/* never closed", {3, 1, "/*", "unterminated block comment"});
  check_error(".version 9.0\n.visible .entry k(.param .u32 a", {2, 32, "end of file", "expected ')'"});
  check_error(".version 9.0\n.section .debug_info {\n .b8 1,2\n", {2, 22, "{", "unbalanced '{'"});
  check_error(".version 9.0\n.global .u32 x[2] = {1, 2, 3};\n", {2, 14, "x", "too many initialisers"});
  check_error(".version 9.0\n.global .u32 x = {{1};\n", {2, 22, ";", "expected '}'"});
  check_error(".version 9.0\n.global .u32 x = ;\n", {2, 18, ";", "expected a constant"});
  check_error(".version 9.0\n.global .u64 x[65536][65536] = {1};\n", {2, 23, "65536", "array too large"});
  check_error(".version 9.0\n.global .u64 x[16777216] = {1};\n", {2, 14, "x", "larger than 64 MiB"});
  check_error(".version 9.0\n.global .u64 p = generic(nosuch);\n", {2, 26, "nosuch", "undefined variable 'nosuch'"});
  check_error(".version 9.0\n.global .u32 x;\n.global .u32 p = x;\n", {3, 18, "x", "needs a 64-bit integer type"});
  check_error(".version 9.0\n.visible .entry k() { ret; }\n.global .u64 p = k;\n", {3, 18, "k", "function addresses"});
  check_error("", {1, 1, "end of file", "empty PTX input"});
  check_error("  // comment only\n.target sm_75\n", {2, 1, ".target", "must start with .version"});
  check_error(".version 9.0\n.version 9.0\n", {2, 1, ".version", "duplicate .version"});
  check_error(".version 9.0\nadd.s32 %r1, %r2, %r3;\n", {2, 1, "add", "expected a directive"});
  check_error(".version 9.0\n.target sm_75 #\n", {2, 15, "#", "unexpected character"});
}

TEST_CASE("ptx_parser error: unreadable file is a runtime_error naming the path", "[ptx_parser]") {
  try {
    parse_ptx_file("tests/isa/frontend/cu/does_not_exist.ptx");
    FAIL("expected an error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("does_not_exist.ptx: cannot open") != std::string::npos);
  }
}

TEST_CASE("ptx_parser error: deeply nested input is rejected, not a stack overflow", "[ptx_parser]") {
  std::string deep(10000, '{');
  std::string text = kernel_ptx(deep);
  CHECK_THROWS_AS(parse_ptx_string(text, "deep.ptx"), PtxError);
  std::string init = ".version 9.0\n.global .u32 x[4] = " + std::string(5000, '{') + "1;";
  CHECK_THROWS_AS(parse_ptx_string(init, "init.ptx"), PtxError);
}
