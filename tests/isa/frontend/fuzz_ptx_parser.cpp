// libFuzzer target for the PTX front end: any input must either parse (and survive the
// analyses) or throw PtxError; crashes, hangs, sanitizer reports and other exceptions
// are bugs. Built with -DGPUTLM_FUZZ=ON (clang); see docs/isa.md for the command.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "isa/analysis/elf.h"
#include "isa/ptx_parser.h"

// libsystemc.so references sc_main; libFuzzer provides main(), so SystemC never runs.
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    gputlm::isa::Module m = gputlm::isa::parse_ptx_string(text, "fuzz.ptx");
    for (const gputlm::isa::Function& f : m.functions) {
      if (!f.is_entry) continue;
      gputlm::isa::analysis::ElfConfig cfg;
      cfg.max_pp = 4;
      gputlm::isa::analysis::ElfProgramPoints elf(f, cfg);
      for (uint32_t i = 0; i < f.code.size(); ++i) (void)elf.priority_at(i);
    }
  } catch (const gputlm::isa::PtxError&) {
  }
  return 0;
}
