// Spelling <-> enum helpers and immediate encoding shared by the parser and the decoder.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "isa/frontend/lexer.h"
#include "isa/ir.h"

namespace gputlm::isa::frontend {

ScalarType type_from_dot(std::string_view dot);   // ".f32" -> F32, else None
StateSpace space_from_dot(std::string_view dot);  // ".global" -> Global, else None

struct ImmLiteral {
  TokKind kind = TokKind::Int;  // Int, F32Bits, F64Bits, Float
  uint64_t bits = 0;            // Int magnitude / raw float bits
  double value = 0;             // Float
  bool negative = false;        // a leading '-'
};

// Encodes a literal as the bits of `type` (zero-extended to 64 bits). Returns false
// with a reason when the literal does not fit the type.
bool encode_immediate(const ImmLiteral& lit, ScalarType type, uint64_t& bits, std::string& error);

}  // namespace gputlm::isa::frontend
