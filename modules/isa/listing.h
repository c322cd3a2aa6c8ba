// Human-readable listing of decoded functions: PC, instruction text, decoded timing facts,
// branch targets and reconvergence points, and (optionally) the ELF program-point table.
// For debugging and for a CLI "show me what the front end made of this PTX".
#pragma once

#include <string>

#include "isa/analysis/elf.h"
#include "isa/ir.h"

namespace gputlm::isa {

// One line per instruction:
//   <pc hex> <index> <op class> <latency class> <reads/writes> [-> target] [reconv R] | text
// preceded by a header with the function's registers, frame, parameters and shared use.
std::string format_listing(const Module& m, const Function& f,
                           const analysis::ElfProgramPoints* elf = nullptr);

}  // namespace gputlm::isa
