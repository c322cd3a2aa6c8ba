// PTX front end entry points: text -> decoded isa::Module (ir.h), with control-flow
// analysis (reconvergence points) already applied. Errors are isa::PtxError naming
// file:line:column and the offending token.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "isa/ir.h"

namespace gputlm::isa {

class PtxError : public std::runtime_error {
 public:
  PtxError(std::string file, uint32_t line, uint32_t column, std::string token,
           const std::string& message);
  const std::string& file() const { return file_; }
  uint32_t line() const { return line_; }
  uint32_t column() const { return column_; }
  const std::string& token() const { return token_; }
  // The message without the "file:line:col: " prefix.
  const std::string& detail() const { return detail_; }

 private:
  std::string file_;
  uint32_t line_;
  uint32_t column_;
  std::string token_;
  std::string detail_;
};

// Parses a PTX file. Throws PtxError on any syntax/semantic error and
// std::runtime_error when the file cannot be read.
Module parse_ptx_file(const std::string& path);

// Parses PTX text; `name` is used as the file name in error messages.
Module parse_ptx_string(std::string_view text, const std::string& name = "<string>");

}  // namespace gputlm::isa
