// Helpers shared by the front-end tests.
#pragma once

#include <string>

#include "isa/ptx_parser.h"

namespace gputlm::isa::test {

inline const char* kCuDir = "tests/isa/frontend/cu";

// Wraps `body` (declarations + instructions) in a module with one kernel "k" and the
// usual register declarations.
inline std::string kernel_ptx(const std::string& body, const std::string& params = "",
                              const std::string& prelude = "") {
  return ".version 9.0\n.target sm_75\n.address_size 64\n" + prelude +
         "\n.visible .entry k(" + params + ")\n{\n"
         "  .reg .pred %p<8>;\n  .reg .b16 %rs<8>;\n  .reg .b32 %r<16>;\n"
         "  .reg .f32 %f<16>;\n  .reg .b64 %rd<16>;\n  .reg .f64 %fd<8>;\n" +
         body + "\n}\n";
}

inline Module parse_kernel(const std::string& body, const std::string& params = "",
                           const std::string& prelude = "") {
  return parse_ptx_string(kernel_ptx(body, params, prelude), "test.ptx");
}

// Index of the first instruction whose text starts with `prefix`.
inline uint32_t find_instr(const Function& f, const std::string& prefix) {
  for (uint32_t i = 0; i < f.code.size(); ++i)
    if (f.text[i].compare(0, prefix.size(), prefix) == 0) return i;
  return kNone;
}

}  // namespace gputlm::isa::test
