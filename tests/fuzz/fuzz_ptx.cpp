// Fuzz target: the PTX front end (parser, decoder, ELF analysis). Any input must either
// parse (and survive the analyses) or throw PtxError; crashes, hangs, sanitizer reports
// and other exceptions are findings. What parses must reprint and parse again with the
// same instruction count (tests/isa/frontend/roundtrip.h).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "isa/analysis/elf.h"
#include "isa/ptx_parser.h"
#include "roundtrip.h"

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
    // What parsed must print and parse again (decoder and printer agree on every form).
    std::string again = gputlm::isa::test::reprint(m);
    try {
      gputlm::isa::Module m2 = gputlm::isa::parse_ptx_string(again, "reprinted.ptx");
      size_t n1 = 0, n2 = 0;
      for (const auto& f : m.functions) n1 += f.code.size();
      for (const auto& f : m2.functions) n2 += f.code.size();
      if (n1 != n2) {
        std::fprintf(stderr, "round trip changed the instruction count: %zu -> %zu\n", n1, n2);
        std::abort();
      }
    } catch (const gputlm::isa::PtxError& e) {
      std::fprintf(stderr, "reprinted module does not parse: %s\n", e.what());
      std::abort();
    }
  } catch (const gputlm::isa::PtxError&) {
  }
  return 0;
}
