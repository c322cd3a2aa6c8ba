// ptx_parser: every committed PTX parses; module layout, symbols, parameters, kernel
// lookup, debug directives.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "frontend_test_util.h"
#include "isa/ptx_parser.h"

using namespace gputlm::isa;
namespace fs = std::filesystem;

namespace {
std::vector<std::string> committed_ptx() {
  std::vector<std::string> files;
  for (const char* dir : {"tests/isa/frontend/cu", "tests/isa/exec/cu", "workloads"}) {
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".ptx") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}
}  // namespace

TEST_CASE("ptx_parser parses every committed PTX file", "[ptx_parser]") {
  auto files = committed_ptx();
  REQUIRE(files.size() >= 18);
  for (const auto& path : files) {
    INFO(path);
    Module m = parse_ptx_file(path);
    CHECK(m.version.rfind("9.", 0) == 0);
    CHECK(m.target == "sm_75");
    CHECK(m.address_size == 64);
    bool has_entry = false;
    for (const Function& f : m.functions) {
      has_entry |= f.is_entry;
      if (f.is_declaration) continue;
      REQUIRE(f.text.size() == f.code.size());
      CHECK(f.pc_base % kFunctionAlign == 0);
      for (uint32_t i = 0; i < f.code.size(); ++i) {
        const Instruction& ins = f.code[i];
        INFO(f.text[i]);
        CHECK(ins.op != Opcode::Count_);
        CHECK(ins.line > 0);
        if (ins.op == Opcode::Bra) CHECK(ins.target < f.code.size());
        if (ins.op == Opcode::Call) CHECK(ins.callee < m.functions.size());
        if (ins.is_load || ins.is_store) CHECK(ins.access_bytes > 0);
        for (uint32_t k = 0; k < ins.n_src_regs; ++k) CHECK(ins.src_regs[k] < f.regs.size());
        for (uint32_t k = 0; k < ins.n_dst_regs; ++k) CHECK(ins.dst_regs[k] < f.regs.size());
        for (uint32_t k = 0; k < ins.n_src_preds; ++k) CHECK(ins.src_preds[k] < f.preds.size());
      }
    }
    CHECK(has_entry);
  }
}

TEST_CASE("ptx_parser module symbols, initialisers and shared layout (memory.ptx)", "[ptx_parser]") {
  Module m = parse_ptx_file("tests/isa/frontend/cu/memory.ptx");
  uint32_t coef = m.find_symbol("kCoef");
  REQUIRE(coef != kNone);
  const Symbol& c = m.symbols[coef];
  CHECK(c.kind == SymbolKind::Const);
  CHECK(c.size == 32);
  REQUIRE(c.init.size() == 32);
  float f[8];
  std::memcpy(f, c.init.data(), 32);
  CHECK(f[0] == 0.5f);
  CHECK(f[5] == -2.5f);
  CHECK(f[7] == 100.0f);
  const Symbol& table = m.symbols[m.find_symbol("kTable")];
  REQUIRE(table.init.size() == 24);  // 21 initialisers, zero-padded
  CHECK(table.init[20] == 6);
  CHECK(table.init[23] == 0);
  CHECK(table.offset == 32);
  const Symbol& scale = m.symbols[m.find_symbol("kScale")];
  double d;
  std::memcpy(&d, scale.init.data(), 8);
  CHECK(d == 1.25);
  CHECK(scale.offset == 56);
  CHECK(m.const_bytes == 64);
  const Symbol& counter = m.symbols[m.find_symbol("g_counter")];
  CHECK(counter.kind == SymbolKind::Global);
  CHECK(counter.init == std::vector<uint8_t>{7, 0, 0, 0, 0, 0, 0, 0});
  const Symbol& arr = m.symbols[m.find_symbol("g_array")];
  int32_t a[4];
  std::memcpy(a, arr.init.data(), 16);
  CHECK(a[1] == -20);
  CHECK(a[3] == -40);
  CHECK(m.global_bytes == 24);
  const Symbol& dyn = m.symbols[m.find_symbol("dyn_smem")];
  CHECK(dyn.kind == SymbolKind::ExternShared);
  CHECK(dyn.size == 0);

  const Function& reduce = m.find_kernel("reduce");
  CHECK(reduce.shared_end == 1024);
  REQUIRE(reduce.shared_symbols.size() == 1);
  CHECK(m.symbols[reduce.shared_symbols[0]].offset == 0);
  const Function& atom = m.find_kernel("atomics");
  CHECK(atom.shared_end == 4);
  // Dynamic area: after the largest static window, 16-byte aligned.
  CHECK(m.dynamic_shared_offset == 1024);
  CHECK(dyn.offset == 1024);
  CHECK(m.shared_window_bytes(reduce, 0) == 1024);
  CHECK(m.shared_window_bytes(m.find_kernel("dynamic_shared"), 256) == 1024 + 256);

  REQUIRE(reduce.params.size() == 3);
  CHECK(reduce.params[0].offset == 0);
  CHECK(reduce.params[1].offset == 8);
  CHECK(reduce.params[2].offset == 16);
  CHECK(reduce.params[2].size == 4);
  CHECK(reduce.params[2].type == ScalarType::U32);
  CHECK(reduce.param_bytes == 20);

  const Function& local = m.find_kernel("local_array");
  CHECK(local.local_bytes == 64);
  REQUIRE(local.local_symbols.size() == 1);
  CHECK(m.symbols[local.local_symbols[0]].kind == SymbolKind::Local);
}

TEST_CASE("ptx_parser struct parameters, .func calls and call-sequence params (calls.ptx)", "[ptx_parser]") {
  Module m = parse_ptx_file("tests/isa/frontend/cu/calls.ptx");
  const Function& k = m.find_kernel("with_calls");
  REQUIRE(k.params.size() == 3);
  CHECK(k.params[0].size == 32);
  CHECK(k.params[0].align == 8);
  CHECK(k.params[0].array_count == 32);
  CHECK(k.params[0].type == ScalarType::B8);
  CHECK(k.params[1].offset == 32);
  CHECK(k.params[2].offset == 40);
  CHECK(k.param_bytes == 48);
  uint32_t blend = m.find_function("_Z5blendffi");
  REQUIRE(blend != kNone);
  const Function& b = m.functions[blend];
  CHECK_FALSE(b.is_entry);
  CHECK(b.params.size() == 3);
  CHECK(b.returns.size() == 1);
  CHECK(b.return_bytes == 4);
  // The kernel calls blend with one return value and three arguments.
  bool found = false;
  for (const Instruction& ins : k.code) {
    if (ins.op != Opcode::Call || ins.callee != blend) continue;
    found = true;
    CHECK(ins.call_ret_count == 1);
    CHECK(ins.call_arg_count == 3);
    const Operand& arg0 = k.operand_pool[ins.call_arg_first];
    CHECK(m.symbols[arg0.symbol].kind == SymbolKind::CallParam);
    CHECK(m.symbols[arg0.symbol].function == m.find_kernel_index("with_calls"));
    CHECK(ins.cls == OpClass::Call);
  }
  CHECK(found);
  CHECK(k.call_param_bytes >= 16);
  // fib is recursive: it calls itself.
  uint32_t fib = m.find_function("_Z3fibi");
  REQUIRE(fib != kNone);
  bool self_call = false;
  for (const Instruction& ins : m.functions[fib].code) self_call |= ins.op == Opcode::Call && ins.callee == fib;
  CHECK(self_call);
}

TEST_CASE("ptx_parser -lineinfo output (.loc/.file/.section) decodes like plain output", "[ptx_parser]") {
  for (const char* name : {"arith", "calls", "control", "memory", "warp", "mathfn"}) {
    INFO(name);
    std::string dir = "tests/isa/frontend/cu/";
    Module plain = parse_ptx_file(dir + name + ".ptx");
    Module dbg = parse_ptx_file(dir + name + ".lineinfo.ptx");
    REQUIRE(plain.functions.size() == dbg.functions.size());
    for (size_t i = 0; i < plain.functions.size(); ++i) {
      CHECK(plain.functions[i].name == dbg.functions[i].name);
      CHECK(plain.functions[i].text == dbg.functions[i].text);
    }
  }
}

TEST_CASE("ptx_parser kernel lookup by mangled, demangled and prefix names", "[ptx_parser]") {
  Module m = parse_ptx_file("tests/isa/frontend/cu/memory.ptx");
  CHECK(m.find_kernel("_Z6reducePKfPfi").name == "_Z6reducePKfPfi");
  CHECK(m.find_kernel("reduce").name == "_Z6reducePKfPfi");
  CHECK(m.find_kernel("reduce(float const*, float*, int)").name == "_Z6reducePKfPfi");
  CHECK(m.find_kernel("dyn").name == "_Z14dynamic_sharedPKfPfi");
  CHECK(m.find_kernel("_Z7atom").name == "_Z7atomicsPiPjPyPfPdPx");
  CHECK(demangle("_Z6reducePKfPfi") == "reduce(float const*, float*, int)");
  CHECK(demangle("plain") == "plain");
  try {
    m.find_kernel("nosuch");
    FAIL("expected an error");
  } catch (const std::runtime_error& e) {
    std::string msg = e.what();
    CHECK(msg.find("no kernel named 'nosuch'") != std::string::npos);
    CHECK(msg.find("_Z6reducePKfPfi") != std::string::npos);  // lists the kernels
  }
  Module two = parse_ptx_string(
      ".version 9.0\n.target sm_75\n.address_size 64\n"
      ".visible .entry scale_a() { ret; }\n.visible .entry scale_b() { ret; }\n", "two.ptx");
  try {
    two.find_kernel("scale");
    FAIL("expected an error");
  } catch (const std::runtime_error& e) {
    std::string msg = e.what();
    CHECK(msg.find("ambiguous") != std::string::npos);
    CHECK(msg.find("scale_a") != std::string::npos);
    CHECK(msg.find("scale_b") != std::string::npos);
  }
}

TEST_CASE("ptx_parser template kernels, half precision and extern device functions (extra.ptx)", "[ptx_parser]") {
  Module m = parse_ptx_file("tests/isa/frontend/cu/extra.ptx");
  CHECK(m.find_kernel("scale<float, 3>").name == "_Z5scaleIfLi3EEvPT_S0_x");
  CHECK(m.find_kernel("void scale<double, 2>(double*, double, long long)").name == "_Z5scaleIdLi2EEvPT_S0_x");
  CHECK(m.find_kernel("scale<int").name == "_Z5scaleIiLi4EEvPT_S0_x");
  CHECK(m.find_kernel("halves").name == "_Z6halvesPK6__halfS1_PS_P7__half2i");
  CHECK_THROWS_WITH(m.find_kernel("scale"), Catch::Contains("ambiguous"));
  // printf and assert call functions that are only declared.
  const Function& k = m.find_kernel("with_printf");
  int extern_calls = 0;
  for (const Instruction& ins : k.code)
    if (ins.op == Opcode::Call && m.functions[ins.callee].is_declaration) ++extern_calls;
  CHECK(extern_calls == 2);
  CHECK(m.functions[m.find_function("vprintf")].returns.size() == 1);
  const Function& h = m.find_kernel("halves");
  bool f16 = false;
  for (const Instruction& ins : h.code) f16 |= ins.cls == OpClass::Fp16;
  CHECK(f16);
}

TEST_CASE("ptx_parser address initialisers become relocations", "[ptx_parser]") {
  // As nvcc writes `__device__ int* p = &x[1];` and a pointer table.
  Module m = parse_ptx_string(R"(
.version 9.0
.target sm_75
.address_size 64
.global .align 4 .b8 x[16];
.const .align 4 .u32 c[2] = {1, 2};
.global .align 8 .u64 p = generic(x)+4;
.global .align 8 .u64 table[3] = {generic(x), 7, c+-4};
.visible .entry k() { ret; }
)",
                              "reloc.ptx");
  const Symbol& p = m.symbols[m.find_symbol("p")];
  REQUIRE(p.relocations.size() == 1);
  CHECK(p.relocations[0].symbol == m.find_symbol("x"));
  CHECK(p.relocations[0].addend == 4);
  CHECK(p.relocations[0].offset == 0);
  CHECK(p.relocations[0].bytes == 8);
  CHECK(p.relocations[0].generic);
  CHECK(p.init == std::vector<uint8_t>(8, 0));
  const Symbol& t = m.symbols[m.find_symbol("table")];
  REQUIRE(t.relocations.size() == 2);
  CHECK(t.relocations[0].offset == 0);
  CHECK(t.relocations[1].offset == 16);
  CHECK(t.relocations[1].symbol == m.find_symbol("c"));
  CHECK(t.relocations[1].addend == -4);
  CHECK_FALSE(t.relocations[1].generic);
  REQUIRE(t.init.size() == 24);
  CHECK(t.init[8] == 7);
}

TEST_CASE("ptx_parser instruction PCs follow the base + 8*i convention", "[ptx_parser]") {
  Module m = parse_ptx_file("tests/isa/frontend/cu/calls.ptx");
  uint64_t expect_base = 0;
  for (const Function& f : m.functions) {
    CHECK(f.pc_base == expect_base);
    expect_base = (f.pc_base + 8 * f.code.size() + kFunctionAlign - 1) / kFunctionAlign * kFunctionAlign;
    if (f.code.empty()) continue;
    CHECK(f.pc_of(3) == f.pc_base + 24);
    CHECK(f.index_of(f.pc_base + 16) == 2);
    CHECK(f.index_of(f.pc_base + 17) == kNone);
    CHECK(f.index_of(f.pc_base + 8 * f.code.size()) == kNone);
    CHECK(m.function_at(f.pc_of(1)) == static_cast<uint32_t>(&f - m.functions.data()));
  }
}

TEST_CASE("ptx_parser nested initialisers, scopes and module declarations", "[ptx_parser]") {
  Module m = parse_ptx_string(R"(
.version 9.0
.target sm_75
.address_size 64
.global .align 4 .s32 grid[2][3] = {{1, -2, 3}, {4, 5, -6}};
.global .f32 half = 0.5;
.global .f64 dd[2] = {1.5, 0d4000000000000000};
.const .u16 h16[4] = {0x10, 010, 0b11, 65535};
.global .u8 bytes[] = {1, 2, 3};
.extern .func (.param .b32 r) ext_fn (.param .b32 a);
.visible .entry k(.param .u64 .ptr .global .align 16 p, .param .align 8 .b8 s[12])
.maxntid 128, 1, 1
.minnctapersm 2
{
  .reg .b32 %r<3>;
  .reg .pred %p;
  {
    .reg .b32 inner;
    mov.u32 inner, 5;
    mov.u32 %r1, inner;
  }
  {
    .reg .b32 inner;
    mov.u32 inner, 6;
  }
  @!%p bra $L_end;
  mov.u32 %r2, 0;
$L_end:
  ret;
}
)",
                              "decls.ptx");
  const Symbol& g = m.symbols[m.find_symbol("grid")];
  REQUIRE(g.init.size() == 24);
  int32_t v[6];
  std::memcpy(v, g.init.data(), 24);
  CHECK(v[1] == -2);
  CHECK(v[5] == -6);
  float h;
  std::memcpy(&h, m.symbols[m.find_symbol("half")].init.data(), 4);
  CHECK(h == 0.5f);
  double dd[2];
  std::memcpy(dd, m.symbols[m.find_symbol("dd")].init.data(), 16);
  CHECK(dd[0] == 1.5);
  CHECK(dd[1] == 2.0);
  const auto& h16 = m.symbols[m.find_symbol("h16")].init;
  CHECK(h16 == std::vector<uint8_t>{0x10, 0, 8, 0, 3, 0, 0xff, 0xff});
  CHECK(m.symbols[m.find_symbol("bytes")].size == 3);
  const Function& k = m.find_kernel("k");
  CHECK(k.maxntid == std::array<uint32_t, 3>{128, 1, 1});
  CHECK(k.minnctapersm == 2);
  CHECK(k.params[0].ptr_space == StateSpace::Global);
  CHECK(k.params[0].ptr_align == 16);
  CHECK(k.params[1].offset == 8);
  CHECK(k.params[1].size == 12);
  CHECK(k.regs.size() == 5);  // %r0..%r2 and two scoped "inner"
  CHECK(k.code[0].ops[0].index != k.code[2].ops[0].index);  // the two inner registers differ
  CHECK(k.code[3].guard_neg);
  CHECK(m.functions[m.find_function("ext_fn")].is_declaration);
}
