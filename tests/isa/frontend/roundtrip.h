// Reprints a parsed module from its decoded form (isa/printer.h), for the round-trip test
// and the fuzz target: every symbol renamed __sym<original index>, functions __fn<i>,
// registers %R<i>, predicates %P<i>, a label $I<i> before every instruction.
#pragma once

#include <sstream>
#include <string>

#include "isa/printer.h"
#include "isa/ptx_parser.h"

namespace gputlm::isa::test {

inline std::string sym_name(uint32_t s) { return "__sym" + std::to_string(s); }

inline std::string reprint(const Module& m) {
  std::ostringstream os;
  os << ".version " << m.version << "\n";
  if (!m.target.empty()) os << ".target " << m.target << "\n";
  os << ".address_size " << m.address_size << "\n";
  auto array = [](const Symbol& s, uint32_t idx) {
    std::string n = sym_name(idx);
    return ".align " + std::to_string(s.align) + " .b8 " + n + "[" +
           (s.size == 0 ? std::string() : std::to_string(s.size)) + "]";
  };
  auto ext = [](const Symbol& s) { return s.linkage == Linkage::Extern ? ".extern " : ""; };
  auto fn_name = [](uint32_t i) { return "__fn" + std::to_string(i); };
  for (uint32_t i = 0; i < m.symbols.size(); ++i) {
    const Symbol& s = m.symbols[i];
    if (s.function != kNone) continue;
    if (s.kind == SymbolKind::Global) os << ext(s) << ".global " << array(s, i) << ";\n";
    else if (s.kind == SymbolKind::Const) os << ext(s) << ".const " << array(s, i) << ";\n";
    else if (s.kind == SymbolKind::Shared) os << ext(s) << ".shared " << array(s, i) << ";\n";
    else if (s.kind == SymbolKind::ExternShared) os << ".extern .shared " << array(s, i) << ";\n";
  }
  for (const Function& f : m.functions) {
    auto plist = [&](const std::vector<Param>& ps) {
      std::string s = "(";
      for (size_t k = 0; k < ps.size(); ++k)
        s += (k ? ", " : "") + std::string(".param ") + array(m.symbols[ps[k].symbol], ps[k].symbol);
      return s + ")";
    };
    if (f.is_declaration) os << ".extern ";
    os << (f.is_entry ? ".entry " : ".func ");
    if (!f.is_entry && !f.returns.empty()) os << plist(f.returns) << " ";
    os << fn_name(static_cast<uint32_t>(&f - m.functions.data())) << plist(f.params);
    if (f.is_declaration) {
      os << ";\n";
      continue;
    }
    os << "\n{\n";
    for (uint32_t r = 0; r < f.regs.size(); ++r) os << ".reg ." << type_name(f.regs[r].type) << " %R" << r << ";\n";
    for (uint32_t p = 0; p < f.preds.size(); ++p) os << ".reg .pred %P" << p << ";\n";
    for (uint32_t i = 0; i < m.symbols.size(); ++i) {
      const Symbol& s = m.symbols[i];
      if (s.function != static_cast<uint32_t>(&f - m.functions.data())) continue;
      if (s.kind == SymbolKind::Local) os << ".local " << array(s, i) << ";\n";
      else if (s.kind == SymbolKind::Shared) os << ".shared " << array(s, i) << ";\n";
      else if (s.kind == SymbolKind::CallParam) os << ".param " << array(s, i) << ";\n";
    }
    PrintNames names;
    names.symbol = sym_name;
    names.reg = [](uint32_t r) { return "%R" + std::to_string(r); };
    names.pred = [](uint32_t p) { return "%P" + std::to_string(p); };
    names.function = fn_name;
    for (uint32_t i = 0; i < f.code.size(); ++i)
      os << "$I" << i << ":\n  " << format_instruction(m, f, f.code[i], names) << "\n";
    os << "}\n";
  }
  return os.str();
}

}  // namespace gputlm::isa::test
