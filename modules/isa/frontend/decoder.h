// Instruction decoder internals: modifier consumption and operand resolution shared by
// the per-family decoders (decode_alu.cpp, decode_mem.cpp).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "isa/frontend/raw.h"
#include "isa/frontend/types.h"

namespace gputlm::isa::frontend {

class Decoder {
 public:
  Decoder(const RawInstruction& raw, uint32_t index, DecodeContext& ctx, Instruction& out);
  void run();

 private:
  // --- modifiers ---
  bool take(std::string_view m);  // consume modifier m if present
  // Consumes the first modifier present from `names`; returns its position in the list or -1.
  int take_one(std::initializer_list<std::string_view> names);
  ScalarType take_type(bool required);  // next unconsumed type modifier (in order)
  void take_vec();
  StateSpace take_space();
  void take_rounding(bool int_rounding_allowed);
  CmpOp take_cmp(bool required);
  void take_sem_scope();
  void finish_mods();  // errors on any modifier not consumed

  // --- operands ---
  [[noreturn]] void fail(const RawOperand& r, const std::string& msg) const;
  [[noreturn]] void fail_op(const std::string& msg) const;
  void expect_ops(size_t lo, size_t hi);
  Operand value(const RawOperand& r, ScalarType t);        // reg/pred/imm/special/symbol
  Operand reg(const RawOperand& r, ScalarType t);          // general register only
  Operand dst(const RawOperand& r, ScalarType t);          // register/vector/sink
  Operand pred(const RawOperand& r, bool allow_neg, bool allow_imm);
  Operand pred_dst(const RawOperand& r);
  Operand mem(const RawOperand& r);
  Operand vector(const RawOperand& r, ScalarType t, bool is_dst);
  void set(uint32_t i, Operand op);
  void no_pipe(const RawOperand& r) const;

  // --- families ---
  void decode_arith();
  void decode_bits();
  void decode_fpspecial();
  void decode_compare();
  void decode_move();
  void decode_memory();
  void decode_atomic();
  void decode_sync();
  void decode_control();
  void decode_warp();

  const RawInstruction& raw_;
  uint32_t index_;
  DecodeContext& ctx_;
  Instruction& ins_;
  Function& fn_;
  std::string name_;  // opcode as written
  std::vector<bool> used_;
};

}  // namespace gputlm::isa::frontend
