// PTX parser, function bodies: scopes, .reg/.local/.shared/.param declarations, labels,
// instruction statements and their operands (decoded by decode.cpp).
#include <algorithm>

#include "isa/frontend/parser.h"
#include "isa/frontend/types.h"
#include "isa/ptx_parser.h"

namespace gputlm::isa::frontend {

constexpr int kMaxBlockDepth = 64;
constexpr uint64_t kMaxRegRange = 1u << 20;

NameRef Parser::lookup(std::string_view name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return f->second;
  }
  auto s = module_names_.find(name);
  if (s != module_names_.end()) return {NameRef::Kind::Symbol, s->second};
  auto fn = function_names_.find(name);
  if (fn != function_names_.end()) return {NameRef::Kind::Function, fn->second};
  return {};
}

void Parser::add_label_ref(uint32_t instr, const Token* tok, std::string_view label) {
  label_refs_.push_back({instr, tok, label});
}

void Parser::add_call_ref(uint32_t instr, const Token* tok, std::string_view callee) {
  call_refs_.push_back({cur_fn_, instr, tok, callee});
}

void Parser::parse_body(uint32_t fn) {
  cur_fn_ = fn;
  labels_.clear();
  label_refs_.clear();
  parse_block(0);
  finish_function(fn);
  cur_fn_ = kNone;
}

void Parser::parse_block(int depth) {
  if (depth > kMaxBlockDepth) fail_here("blocks nested too deeply");
  const Token& open = expect('{', "to open a block");
  scopes_.emplace_back();
  for (;;) {
    const Token& t = peek();
    if (t.kind == TokKind::End) fail(&open, "unbalanced '{': end of file reached inside this block");
    if (t.is('}')) {
      next();
      break;
    }
    if (t.is('{')) {
      parse_block(depth + 1);
      continue;
    }
    parse_statement();
  }
  scopes_.pop_back();
}

void Parser::parse_statement() {
  const Token& t = peek();
  if (t.kind == TokKind::Dot) {
    if (t.text == ".reg") return parse_reg_decl();
    if (t.text == ".loc" || t.text == ".file") return skip_line_directive();
    if (t.text == ".pragma") return parse_pragma();
    if (t.text == ".local" || t.text == ".shared" || t.text == ".param")
      return parse_local_decl(space_from_dot(t.text));
    fail(&t, "unknown or unsupported directive in function body");
  }
  if (t.is('@')) {
    next();
    bool neg = accept('!');
    const Token& g = expect_ident("guard predicate after '@'");
    return parse_instruction(&g, g.text, neg);
  }
  if (t.kind == TokKind::Ident && peek(1).is(':')) {
    std::string name(t.text);
    if (labels_.count(name)) fail(&t, "duplicate label '" + name + "'");
    labels_.emplace(name, static_cast<uint32_t>(function().code.size()));
    next();
    next();
    return;
  }
  if (t.kind == TokKind::Ident) return parse_instruction(nullptr, {}, false);
  fail(&t, "expected an instruction, label or directive");
}

void Parser::parse_reg_decl() {
  next();
  if (peek().is_dot(".v2") || peek().is_dot(".v4"))
    fail_here("vector register declarations are not supported");
  if (peek().is_dot(".align")) fail_here(".align is not allowed on .reg");
  const Token& tt = peek();
  ScalarType type = type_from_dot(tt.text);
  if (tt.kind != TokKind::Dot || type == ScalarType::None) fail_here("expected a register type");
  next();
  Function& f = function();
  for (;;) {
    const Token& name = expect_ident("register name");
    uint64_t count = 0;  // 0 = a single register named exactly `name`
    if (accept('<')) {
      count = expect_uint("register count");
      if (count == 0 || count > kMaxRegRange) fail(&toks_[pos_ - 1], "register range out of bounds");
      if (f.regs.size() + f.preds.size() + count > kMaxRegRange)
        fail(&toks_[pos_ - 1], "too many registers in function (limit " + std::to_string(kMaxRegRange) + ")");
      expect('>', "after register count");
    }
    auto declare = [&](const std::string& n) {
      auto& scope = scopes_.back();
      if (scope.count(n)) fail(&name, "register '" + n + "' declared twice in the same scope");
      NameRef ref;
      RegisterInfo info{n, type, static_cast<uint8_t>(type_bytes(type))};
      if (type == ScalarType::Pred) {
        ref = {NameRef::Kind::Pred, static_cast<uint32_t>(f.preds.size())};
        f.preds.push_back(std::move(info));
      } else {
        ref = {NameRef::Kind::Reg, static_cast<uint32_t>(f.regs.size())};
        f.regs.push_back(std::move(info));
      }
      scope.emplace(n, ref);
    };
    if (count == 0) {
      declare(std::string(name.text));
    } else {
      for (uint64_t i = 0; i < count; ++i) declare(std::string(name.text) + std::to_string(i));
    }
    if (!accept(',')) break;
  }
  expect(';', "after register declaration");
}

void Parser::parse_local_decl(StateSpace space) {
  next();
  Decl d = parse_decl_head(space, Linkage::None);
  Function& f = function();
  auto align_up = [](uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; };
  for (;;) {
    parse_decl_suffix(d);
    if (d.unsized_array) fail(d.name_tok, "function-scope arrays must have a size");
    if (peek().is('=')) fail_here("initialisers are not allowed on function-scope variables");
    Symbol s;
    s.name = std::string(d.name);
    s.space = space;
    s.type = d.type;
    s.align = d.align ? d.align : type_bytes(d.type) * d.vec;
    if (s.align == 0) s.align = 1;
    s.size = d.count * type_bytes(d.type);
    s.function = cur_fn_;
    if (s.size > (uint64_t{1} << 31)) fail(d.name_tok, "variable too large");
    if (space == StateSpace::Local) {
      s.kind = SymbolKind::Local;
      s.offset = align_up(f.local_bytes, s.align);
      f.local_bytes = static_cast<uint32_t>(s.offset + s.size);
      f.local_symbols.push_back(static_cast<uint32_t>(mod_.symbols.size()));
    } else if (space == StateSpace::Param) {
      s.kind = SymbolKind::CallParam;
      s.offset = align_up(f.call_param_bytes, s.align);
      f.call_param_bytes = static_cast<uint32_t>(s.offset + s.size);
      f.call_param_symbols.push_back(static_cast<uint32_t>(mod_.symbols.size()));
    } else {
      s.kind = SymbolKind::Shared;
      auto idx = static_cast<uint32_t>(mod_.symbols.size());
      if (f.is_entry) f.shared_symbols.push_back(idx);
      else module_shared_.push_back(idx);
    }
    add_symbol(std::move(s), d.name_tok, false);
    if (!accept(',')) break;
    d.is_array = false;
  }
  expect(';', "after declaration");
}

int64_t Parser::parse_signed_int(const char* what) {
  bool neg = accept('-');
  const Token& t = peek();
  if (t.kind != TokKind::Int) fail_here(std::string("expected ") + what);
  next();
  if (t.int_value > (uint64_t{1} << 63) || (!neg && t.int_value == (uint64_t{1} << 63)))
    fail(&t, "offset out of range");
  return neg ? -static_cast<int64_t>(t.int_value) : static_cast<int64_t>(t.int_value);
}

void Parser::parse_mem_operand(RawOperand& op) {
  op.kind = RawOperand::Kind::Mem;
  const Token& t = peek();
  if (t.kind == TokKind::Ident) {
    op.name = t.text;
    next();
    if (accept('+')) {
      op.offset = parse_signed_int("an integer offset after '+'");
    } else if (peek().is('-')) {
      op.offset = parse_signed_int("an integer offset after '-'");
    }
  } else if (t.kind == TokKind::Int || t.is('-')) {
    op.offset = parse_signed_int("an address");
  } else {
    fail(&t, "expected a register, symbol or address inside '[...]'");
  }
  expect(']', "to close address operand");
}

RawOperand Parser::parse_operand(int depth) {
  RawOperand op;
  const Token& t = peek();
  op.tok = &t;
  if (depth > 2) fail(&t, "operand nested too deeply");
  if (t.is('[')) {
    next();
    parse_mem_operand(op);
    return op;
  }
  if (t.is('{') || t.is('(')) {
    char close = t.is('{') ? '}' : ')';
    op.kind = t.is('{') ? RawOperand::Kind::Vector : RawOperand::Kind::List;
    next();
    if (!peek().is(close)) {
      for (;;) {
        op.elems.push_back(parse_operand(depth + 1));
        if (op.elems.size() > 64) fail(op.tok, "operand list too long");
        if (!accept(',')) break;
      }
    }
    if (!peek().is(close))
      fail_here(std::string("expected '") + close + "' to close operand list (unbalanced braces?)");
    next();
    return op;
  }
  if (t.is('!')) {
    next();
    op = parse_operand(depth + 1);
    if (op.kind != RawOperand::Kind::Name) fail(&t, "'!' must be followed by a predicate");
    op.neg = true;
    op.tok = &t;
    return op;
  }
  bool negative = false;
  if (t.is('-')) {
    next();
    negative = true;
  }
  const Token& v = peek();
  if (v.kind == TokKind::Int || v.kind == TokKind::F32Bits || v.kind == TokKind::F64Bits ||
      v.kind == TokKind::Float) {
    next();
    op.kind = RawOperand::Kind::Imm;
    op.lit = v.kind;
    op.bits = v.int_value;
    op.fvalue = v.float_value;
    op.neg = negative;  // for immediates: a leading '-'
    return op;
  }
  if (negative) fail(&v, "expected a number after '-'");
  if (v.kind != TokKind::Ident) fail(&v, "expected an operand");
  next();
  if (v.text == "_") {
    op.kind = RawOperand::Kind::Sink;
    return op;
  }
  op.kind = RawOperand::Kind::Name;
  op.name = v.text;
  if (peek().kind == TokKind::Dot && v.text[0] == '%') {
    std::string_view c = peek().text;
    if (c == ".x") op.component = 0;
    else if (c == ".y") op.component = 1;
    else if (c == ".z") op.component = 2;
    else if (c == ".w") op.component = 3;
    if (op.component >= 0) next();
  }
  if (accept('|')) {
    op.pipe_tok = &expect_ident("second destination after '|'");
    op.pipe_name = op.pipe_tok->text;
  }
  if (peek().is('+') && (peek(1).kind == TokKind::Int || peek(1).is('-'))) {
    next();
    op.offset = parse_signed_int("an integer offset");
  }
  return op;
}

void Parser::parse_instruction(const Token* guard_tok, std::string_view guard, bool guard_neg) {
  RawInstruction raw;
  raw.guard_tok = guard_tok;
  raw.guard = guard;
  raw.guard_neg = guard_neg;
  raw.op_tok = &expect_ident("an instruction opcode");
  if (!is_known_opcode(raw.op_tok->text))
    fail(raw.op_tok, "unknown or unsupported instruction '" + std::string(raw.op_tok->text) + "'");
  const Token* first = guard_tok ? &toks_[static_cast<size_t>(guard_tok - toks_.data()) - 1 - (guard_neg ? 1 : 0)]
                                 : raw.op_tok;
  while (peek().kind == TokKind::Dot) {
    raw.mods.push_back(&next());
    if (raw.mods.size() > 16) fail(raw.mods.back(), "too many instruction modifiers");
  }
  if (!peek().is(';')) {
    for (;;) {
      raw.ops.push_back(parse_operand(0));
      if (raw.ops.size() > 16) fail(raw.ops.back().tok, "too many operands");
      if (!accept(',')) break;
    }
  }
  if (!peek().is(';')) fail_here("expected ',' or ';' after operand");
  const Token& semi = next();
  // Source text with whitespace runs collapsed (call sequences span several lines).
  size_t b = static_cast<size_t>(first->text.data() - src_.data());
  size_t e = static_cast<size_t>(semi.text.data() - src_.data());
  bool space = false;
  for (size_t i = b; i < e; ++i) {
    char c = src_[i];
    bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (ws) {
      space = true;
      continue;
    }
    if (space && !raw.text.empty()) raw.text.push_back(' ');
    space = false;
    raw.text.push_back(c);
  }
  Function& f = function();
  auto index = static_cast<uint32_t>(f.code.size());
  f.code.emplace_back();
  f.text.push_back(raw.text);
  Instruction& ins = f.code.back();
  ins.line = raw.op_tok->line;
  ins.column = raw.op_tok->column;
  decode_instruction(raw, index, *this, function().code[index]);
  classify_instruction(function(), function().code[index]);
}

void Parser::finish_function(uint32_t fn) {
  Function& f = mod_.functions[fn];
  for (const LabelRef& r : label_refs_) {
    auto it = labels_.find(r.label);
    if (it == labels_.end())
      fail(r.tok, "undefined label '" + std::string(r.label) + "'");
    if (it->second >= f.code.size())
      fail(r.tok, "label '" + std::string(r.label) + "' is not followed by an instruction");
    Instruction& ins = f.code[r.instr];
    ins.target = it->second;
    for (uint32_t i = 0; i < ins.nops; ++i)
      if (ins.ops[i].kind == OperandKind::Label) ins.ops[i].index = it->second;
  }
  label_refs_.clear();
}

}  // namespace gputlm::isa::frontend
