// ptx_parser round trip: every instruction of every committed PTX file is printed from its
// decoded fields (isa/printer.h), parsed again, and must decode to the same instruction.
// This catches modifiers or operand details the decoder would drop.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "isa/ptx_parser.h"
#include "roundtrip.h"

using namespace gputlm::isa;
using gputlm::isa::test::reprint;
namespace fs = std::filesystem;

namespace {

uint32_t original_symbol(const Module& m2, uint32_t s) {
  if (s == kNone) return kNone;
  const std::string& n = m2.symbols[s].name;
  REQUIRE(n.rfind("__sym", 0) == 0);
  return static_cast<uint32_t>(std::stoul(n.substr(5)));
}

void same_operand(const Module& m2, const Function& f1, const Function& f2, const Operand& a,
                  const Operand& b) {
  CHECK(a.kind == b.kind);
  CHECK(a.type == b.type);
  CHECK(a.sreg == b.sreg);
  CHECK(a.component == b.component);
  CHECK(a.neg == b.neg);
  CHECK(a.index == b.index);
  CHECK(a.symbol == original_symbol(m2, b.symbol));
  CHECK(a.offset == b.offset);
  CHECK(a.bits == b.bits);
  CHECK(a.count == b.count);
  for (uint32_t k = 0; k < a.count && k < b.count; ++k)
    same_operand(m2, f1, f2, f1.operand_pool[a.first + k], f2.operand_pool[b.first + k]);
}

void same_instruction(const Module& m2, const Function& f1, const Function& f2, const Instruction& a,
                      const Instruction& b) {
  CHECK(a.op == b.op);
  CHECK(a.type == b.type);
  CHECK(a.type2 == b.type2);
  CHECK(a.space == b.space);
  CHECK(a.vec == b.vec);
  CHECK(a.rnd == b.rnd);
  CHECK(a.cmp == b.cmp);
  CHECK(a.boolop == b.boolop);
  CHECK(a.mul == b.mul);
  CHECK(a.atom == b.atom);
  CHECK(a.shfl == b.shfl);
  CHECK(a.vote == b.vote);
  CHECK(a.match == b.match);
  CHECK(a.prmt == b.prmt);
  CHECK(a.shf == b.shf);
  CHECK(a.testp == b.testp);
  CHECK(a.cache == b.cache);
  CHECK(a.sem == b.sem);
  CHECK(a.scope == b.scope);
  CHECK(a.bar == b.bar);
  CHECK(a.membar == b.membar);
  CHECK(a.flags == b.flags);
  CHECK(a.guard == b.guard);
  CHECK(a.guard_neg == b.guard_neg);
  REQUIRE(a.nops == b.nops);
  for (uint32_t i = 0; i < a.nops; ++i) same_operand(m2, f1, f2, a.ops[i], b.ops[i]);
  same_operand(m2, f1, f2, a.dst2, b.dst2);
  CHECK(a.target == b.target);
  CHECK(a.reconv == b.reconv);
  CHECK(a.callee == b.callee);
  REQUIRE(a.call_ret_count == b.call_ret_count);
  REQUIRE(a.call_arg_count == b.call_arg_count);
  for (uint32_t k = 0; k < a.call_ret_count; ++k)
    same_operand(m2, f1, f2, f1.operand_pool[a.call_ret_first + k], f2.operand_pool[b.call_ret_first + k]);
  for (uint32_t k = 0; k < a.call_arg_count; ++k)
    same_operand(m2, f1, f2, f1.operand_pool[a.call_arg_first + k], f2.operand_pool[b.call_arg_first + k]);
  CHECK(a.cls == b.cls);
  CHECK(a.lat == b.lat);
  CHECK(a.is_load == b.is_load);
  CHECK(a.is_store == b.is_store);
  CHECK(a.access_bytes == b.access_bytes);
  CHECK(a.access_count == b.access_count);
  CHECK(a.src_regs == b.src_regs);
  CHECK(a.dst_regs == b.dst_regs);
  CHECK(a.src_preds == b.src_preds);
  CHECK(a.dst_preds == b.dst_preds);
}

}  // namespace

TEST_CASE("ptx_parser round trip: printed decoded instructions decode identically", "[ptx_parser]") {
  std::vector<std::string> files;
  for (const char* dir : {"tests/isa/frontend/cu", "tests/isa/exec/cu", "workloads"}) {
    if (!fs::exists(dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".ptx") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  REQUIRE_FALSE(files.empty());
  size_t checked = 0;
  for (const std::string& path : files) {
    INFO(path);
    Module m1 = parse_ptx_file(path);
    std::string text = reprint(m1);
    Module m2;
    try {
      m2 = parse_ptx_string(text, path + ".reprinted");
    } catch (const PtxError& e) {
      // Show the offending printed line.
      std::istringstream in(text);
      std::string line;
      for (uint32_t i = 0; i < e.line() && std::getline(in, line);) ++i;
      FAIL(e.what() << "\nprinted line: " << line);
    }
    REQUIRE(m1.functions.size() == m2.functions.size());
    for (size_t fi = 0; fi < m1.functions.size(); ++fi) {
      const Function& f1 = m1.functions[fi];
      const Function& f2 = m2.functions[fi];
      REQUIRE(f1.code.size() == f2.code.size());
      for (uint32_t i = 0; i < f1.code.size(); ++i) {
        INFO(f1.name << " #" << i << ": " << f1.text[i] << "  ->  " << f2.text[i]);
        same_instruction(m2, f1, f2, f1.code[i], f2.code[i]);
        ++checked;
      }
    }
  }
  CHECK(checked > 5000);
}
