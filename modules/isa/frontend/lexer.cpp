// Hand-written PTX lexer. Every loop advances the position, so malformed input ends in
// an error or end of file, never a hang.
#include "isa/frontend/lexer.h"

#include <cerrno>
#include <cstdlib>
#include <string>

#include "isa/ptx_parser.h"

namespace gputlm::isa::frontend {
namespace {

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '$';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  Lexer(std::string_view src, const std::string& file) : src_(src), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    out.reserve(src_.size() / 4 + 16);
    for (;;) {
      skip_space_and_comments();
      Token t;
      t.line = line_;
      t.column = col_;
      if (pos_ >= src_.size()) {
        t.kind = TokKind::End;
        out.push_back(t);
        return out;
      }
      size_t start = pos_;
      char c = src_[pos_];
      // ".5" is a number, but "tex.2d" is a modifier: a dot glued to a name is a Dot.
      bool glued = pos_ > 0 && is_ident_char(src_[pos_ - 1]);
      if (c == '.' && !glued && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1])) {
        lex_number(t);
      } else if (c == '.') {
        advance();
        if (pos_ >= src_.size() || !(is_ident_start(src_[pos_]) || is_digit(src_[pos_])))
          fail(t, src_.substr(start, 1), "'.' must be followed by a directive or modifier name");
        while (pos_ < src_.size()) {
          if (is_ident_char(src_[pos_])) {
            advance();
          } else if (src_[pos_] == ':' && pos_ + 2 < src_.size() && src_[pos_ + 1] == ':' &&
                     is_ident_char(src_[pos_ + 2])) {
            advance();  // ".L1::evict_last", ".L2::128B"
            advance();
          } else {
            break;
          }
        }
        t.kind = TokKind::Dot;
      } else if (is_ident_start(c)) {
        advance();
        while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
        t.kind = TokKind::Ident;
        if (src_.substr(start, pos_ - start) == "%")
          fail(t, "%", "'%' must be followed by a register name");
      } else if (is_digit(c)) {
        lex_number(t);
      } else if (c == '"') {
        advance();
        while (pos_ < src_.size() && src_[pos_] != '"' && src_[pos_] != '\n') advance();
        if (pos_ >= src_.size() || src_[pos_] != '"')
          fail(t, src_.substr(start, pos_ - start), "unterminated string literal");
        advance();
        t.kind = TokKind::String;
      } else if (std::string_view(",;:{}[]()<>+-!@|=").find(c) != std::string_view::npos) {
        advance();
        t.kind = TokKind::Punct;
      } else {
        fail(t, src_.substr(start, 1), "unexpected character");
      }
      t.text = src_.substr(start, pos_ - start);
      out.push_back(t);
    }
  }

 private:
  void advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  [[noreturn]] void fail(const Token& at, std::string_view tok, const std::string& msg) {
    throw PtxError(file_, at.line, at.column, std::string(tok), msg);
  }

  void skip_space_and_comments() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') advance();
      } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '*') {
        Token at;
        at.line = line_;
        at.column = col_;
        advance();
        advance();
        while (pos_ + 1 < src_.size() && !(src_[pos_] == '*' && src_[pos_ + 1] == '/')) advance();
        if (pos_ + 1 >= src_.size()) fail(at, "/*", "unterminated block comment");
        advance();
        advance();
      } else {
        return;
      }
    }
  }

  void lex_number(Token& t) {
    size_t start = pos_;
    auto text = [&] { return src_.substr(start, pos_ - start); };
    // Hex float bit patterns: 0f + 8 hex digits, 0d + 16 hex digits.
    if (src_[pos_] == '0' && pos_ + 1 < src_.size() &&
        (src_[pos_ + 1] == 'f' || src_[pos_ + 1] == 'F' || src_[pos_ + 1] == 'd' ||
         src_[pos_ + 1] == 'D')) {
      bool dbl = src_[pos_ + 1] == 'd' || src_[pos_ + 1] == 'D';
      advance();
      advance();
      uint64_t bits = 0;
      int n = 0;
      while (pos_ < src_.size() && is_ident_char(src_[pos_])) {
        int h = hex_value(src_[pos_]);
        if (h < 0) {
          while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
          fail(t, text(), "malformed hexadecimal floating-point literal");
        }
        bits = (bits << 4) | static_cast<uint64_t>(h);
        ++n;
        advance();
      }
      if (n != (dbl ? 16 : 8))
        fail(t, text(), std::string("hexadecimal ") + (dbl ? "f64 literal needs 16" : "f32 literal needs 8") +
                            " hex digits");
      t.kind = dbl ? TokKind::F64Bits : TokKind::F32Bits;
      t.int_value = bits;
      return;
    }
    if (src_[pos_] == '0' && pos_ + 1 < src_.size() &&
        (src_[pos_ + 1] == 'x' || src_[pos_ + 1] == 'X' || src_[pos_ + 1] == 'b' ||
         src_[pos_ + 1] == 'B')) {
      unsigned base = (src_[pos_ + 1] == 'x' || src_[pos_ + 1] == 'X') ? 16 : 2;
      advance();
      advance();
      parse_int_digits(t, start, base);
      return;
    }
    // Decimal integer, octal integer, or decimal float.
    size_t p = pos_;
    while (p < src_.size() && is_digit(src_[p])) ++p;
    bool is_float = p < src_.size() && (src_[p] == '.' || src_[p] == 'e' || src_[p] == 'E');
    if (is_float) {
      while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
      if (pos_ < src_.size() && src_[pos_] == '.') {
        advance();
        while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
      }
      if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
        advance();
        if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) advance();
        size_t exp_start = pos_;
        while (pos_ < src_.size() && is_digit(src_[pos_])) advance();
        if (pos_ == exp_start) fail(t, text(), "malformed floating-point exponent");
      }
      if (pos_ < src_.size() && is_ident_char(src_[pos_])) {
        while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
        fail(t, text(), "malformed floating-point literal");
      }
      std::string s(text());
      t.kind = TokKind::Float;
      t.float_value = std::strtod(s.c_str(), nullptr);
      return;
    }
    unsigned base = (src_[pos_] == '0' && p - pos_ > 1) ? 8 : 10;
    parse_int_digits(t, start, base);
  }

  void parse_int_digits(Token& t, size_t start, unsigned base) {
    auto text = [&] { return src_.substr(start, pos_ - start); };
    uint64_t v = 0;
    int n = 0;
    bool overflow = false;
    while (pos_ < src_.size() && is_ident_char(src_[pos_])) {
      char c = src_[pos_];
      if ((c == 'U' || c == 'u') &&
          (pos_ + 1 >= src_.size() || !is_ident_char(src_[pos_ + 1])) && n > 0) {
        advance();  // unsigned suffix
        break;
      }
      int d = hex_value(c);
      if (d < 0 || static_cast<unsigned>(d) >= base) {
        while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
        fail(t, text(), "malformed integer literal");
      }
      uint64_t nv = 0;
      if (__builtin_mul_overflow(v, uint64_t{base}, &nv) ||
          __builtin_add_overflow(nv, static_cast<uint64_t>(d), &nv))
        overflow = true;
      v = nv;
      ++n;
      advance();
    }
    if (n == 0) fail(t, text(), "integer literal has no digits");
    if (overflow) fail(t, text(), "integer literal does not fit in 64 bits");
    t.kind = TokKind::Int;
    t.int_value = v;
  }

  std::string_view src_;
  const std::string& file_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
};

}  // namespace

std::vector<Token> tokenize(std::string_view src, const std::string& file) {
  return Lexer(src, file).run();
}

std::string token_display(const Token& t) {
  if (t.kind == TokKind::End) return "end of file";
  return std::string(t.text);
}

}  // namespace gputlm::isa::frontend
