// Prints a decoded instruction back as PTX, from the decoded fields only (not the source
// text). Parsing the printed text decodes to the same instruction, which the front-end
// tests check for every committed PTX file; it also gives readable text for instructions
// built programmatically.
#pragma once

#include <functional>
#include <string>

#include "isa/ir.h"

namespace gputlm::isa {

struct PrintNames {
  // Names printed for a symbol index, a branch target instruction index, a register, a
  // predicate and a function. Defaults: their own names, and "$I<index>" for labels.
  std::function<std::string(uint32_t symbol)> symbol;
  std::function<std::string(uint32_t target)> label;
  std::function<std::string(uint32_t reg)> reg;
  std::function<std::string(uint32_t pred)> pred;
  std::function<std::string(uint32_t function)> function;  // default: the function's name
};

std::string format_instruction(const Module& m, const Function& f, const Instruction& ins,
                               const PrintNames& names = {});

}  // namespace gputlm::isa
