// Recursive-descent PTX parser (module level, declarations, function bodies, operands).
// Internal to the front end; the public entry points are in isa/ptx_parser.h.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "isa/frontend/lexer.h"
#include "isa/frontend/raw.h"
#include "isa/ir.h"

namespace gputlm::isa::frontend {

class Parser : public DecodeContext {
 public:
  Parser(std::string_view src, std::string file);
  Module run();

  // DecodeContext
  NameRef lookup(std::string_view name) const override;
  const Module& module() const override { return mod_; }
  Function& function() override { return mod_.functions[cur_fn_]; }
  void add_label_ref(uint32_t instr, const Token* tok, std::string_view label) override;
  void add_call_ref(uint32_t instr, const Token* tok, std::string_view callee) override;
  const std::string& file_name() const override { return file_; }

 private:
  struct LabelRef {
    uint32_t instr;
    const Token* tok;
    std::string_view label;
  };
  struct CallRef {
    uint32_t function;
    uint32_t instr;
    const Token* tok;
    std::string_view callee;
  };
  struct Decl {  // one variable/parameter declaration
    StateSpace space = StateSpace::None;
    ScalarType type = ScalarType::None;
    uint32_t align = 0;      // 0 = natural
    uint32_t vec = 1;
    bool is_array = false;
    bool unsized_array = false;
    uint64_t count = 1;      // elements (incl. vector width)
    StateSpace ptr_space = StateSpace::None;
    uint32_t ptr_align = 0;
    std::string_view name;
    const Token* name_tok = nullptr;
    std::vector<uint8_t> init;
    std::vector<Relocation> relocs;
    Linkage linkage = Linkage::None;
  };

  // token access
  const Token& peek(size_t ahead = 0) const;
  const Token& next();
  bool accept(char c);
  bool accept_dot(std::string_view d);
  const Token& expect(char c, const char* what);
  const Token& expect_ident(const char* what);
  uint64_t expect_uint(const char* what);
  [[noreturn]] void fail_here(const std::string& message) const;

  // module level (parser.cpp)
  void parse_module_item();
  void parse_version();
  void parse_target();
  void skip_line_directive();  // .loc / .file: the rest of the source line
  void skip_section();
  void parse_pragma();
  void parse_function(Linkage linkage, bool is_entry);
  void parse_param_list(std::vector<Param>& out, SymbolKind kind, uint32_t fn);
  void parse_perf_directives(Function& f);
  Decl parse_decl_head(StateSpace space, Linkage linkage);
  void parse_decl_suffix(Decl& d);
  void parse_initializer(Decl& d);
  void parse_init_list(Decl& d, std::vector<uint8_t>& bytes, uint64_t& elems, int depth);
  void append_init_value(Decl& d, std::vector<uint8_t>& bytes, const Token& sign_tok);
  void append_init_address(Decl& d, std::vector<uint8_t>& bytes);
  void parse_module_variable(StateSpace space, Linkage linkage);
  uint32_t add_symbol(Symbol s, const Token* tok, bool module_scope);

  // function bodies (parser_body.cpp)
  void parse_body(uint32_t fn);
  void parse_block(int depth);
  void parse_reg_decl();
  void parse_local_decl(StateSpace space);
  void parse_statement();
  void parse_instruction(const Token* guard_tok, std::string_view guard, bool guard_neg);
  RawOperand parse_operand(int depth);
  void parse_mem_operand(RawOperand& op);
  int64_t parse_signed_int(const char* what);
  void finish_function(uint32_t fn);
  void finish_module();
  void layout_module();

  std::string file_;
  std::string_view src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  Module mod_;

  std::map<std::string, uint32_t, std::less<>> module_names_;    // symbols
  std::map<std::string, uint32_t, std::less<>> function_names_;  // functions
  std::vector<std::map<std::string, NameRef, std::less<>>> scopes_;  // function body scopes
  std::map<std::string, uint32_t, std::less<>> labels_;          // current function
  std::vector<LabelRef> label_refs_;
  std::vector<CallRef> call_refs_;
  uint32_t cur_fn_ = kNone;
  std::vector<uint32_t> entry_shared_;  // shared symbols declared in entry bodies
  std::vector<uint32_t> module_shared_;  // module / .func-scope shared symbols
};

}  // namespace gputlm::isa::frontend
