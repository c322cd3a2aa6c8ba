// Parsed-but-not-decoded instruction form handed from the statement parser to the
// instruction decoder (decode.cpp). Internal to the front end.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "isa/frontend/lexer.h"
#include "isa/ir.h"

namespace gputlm::isa::frontend {

struct RawOperand {
  enum class Kind : uint8_t { Name, Imm, Mem, Vector, Sink, List };
  Kind kind = Kind::Name;
  const Token* tok = nullptr;  // first token (error position)
  // Name: register, predicate, symbol, label, function or special register.
  std::string_view name;
  bool neg = false;            // "!%p"
  int component = -1;          // "%tid.x" -> 0
  int64_t offset = 0;          // "sym+4" (Name) or displacement (Mem)
  std::string_view pipe_name;  // "d|p": the p part
  const Token* pipe_tok = nullptr;
  // Imm
  TokKind lit = TokKind::Int;
  uint64_t bits = 0;     // Int value (two's complement if negative), F32/F64 raw bits
  double fvalue = 0;     // Float
  // Mem: [name + offset] or [offset] when name is empty.
  // Vector / List elements.
  std::vector<RawOperand> elems;
};

struct RawInstruction {
  const Token* guard_tok = nullptr;
  std::string_view guard;
  bool guard_neg = false;
  const Token* op_tok = nullptr;
  std::vector<const Token*> mods;  // Dot tokens after the opcode, in order
  std::vector<RawOperand> ops;
  std::string text;  // source text (for messages)
};

// What a name means inside the current function body.
struct NameRef {
  enum class Kind : uint8_t { None, Reg, Pred, Symbol, Function };
  Kind kind = Kind::None;
  uint32_t index = kNone;
};

// Services the decoder needs from the statement parser.
class DecodeContext {
 public:
  virtual ~DecodeContext() = default;
  virtual NameRef lookup(std::string_view name) const = 0;
  virtual const Module& module() const = 0;
  virtual Function& function() = 0;
  // Records that operand `slot` (0..) of instruction `instr` names a label, resolved when
  // the function body ends.
  virtual void add_label_ref(uint32_t instr, const Token* tok, std::string_view label) = 0;
  // Records a call target, resolved when the module ends (functions may be defined later).
  virtual void add_call_ref(uint32_t instr, const Token* tok, std::string_view callee) = 0;
  virtual const std::string& file_name() const = 0;
  // Throws PtxError at token `at` (non-null).
  [[noreturn]] void fail(const Token* at, const std::string& message) const;
};

// True if `name` is an opcode the decoder knows (checked before operands are parsed so
// that unsupported instructions are reported at the opcode).
bool is_known_opcode(std::string_view name);

// Decodes `raw` into `out` (which is code[instr_index] of the current function).
void decode_instruction(const RawInstruction& raw, uint32_t instr_index, DecodeContext& ctx,
                        Instruction& out);

// Fills cls/lat/is_load/is_store/access_*/register read-write lists of a decoded
// instruction (classify.cpp).
void classify_instruction(const Function& f, Instruction& ins);

}  // namespace gputlm::isa::frontend
