// PTX lexer: turns source text into a token vector once. Tokens keep line/column for
// error messages. Internal to the front end.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gputlm::isa::frontend {

enum class TokKind : uint8_t {
  End,
  Ident,      // foo, %r1, $L__BB0_1, _Z3fooPf
  Dot,        // .reg .f32 .L1::evict_last   (text includes the dot)
  Int,        // 123 0x1F 017 0b101 (optional U suffix)
  F32Bits,    // 0f3F800000
  F64Bits,    // 0d3FF0000000000000
  Float,      // 1.5 1e-3 .5e2
  String,     // "..." (text includes quotes)
  Punct,      // , ; : { } [ ] ( ) < > + - ! @ | =
};

struct Token {
  TokKind kind = TokKind::End;
  std::string_view text;
  uint32_t line = 0;
  uint32_t column = 0;
  uint64_t int_value = 0;   // Int, F32Bits, F64Bits (raw bits)
  double float_value = 0;   // Float
  bool is(char c) const { return kind == TokKind::Punct && text.size() == 1 && text[0] == c; }
  bool is_dot(std::string_view d) const { return kind == TokKind::Dot && text == d; }
};

// Throws PtxError for malformed input (bad characters, unterminated comments/strings,
// malformed numbers).
std::vector<Token> tokenize(std::string_view src, const std::string& file);

// Printable form of a token for error messages ("end of file" for End).
std::string token_display(const Token& t);

}  // namespace gputlm::isa::frontend
