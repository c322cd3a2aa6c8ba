// PTX parser, module level: directives, module-scope variables with initialisers,
// function headers and parameter lists, module finalisation (layout, call resolution,
// analysis).
#include "isa/frontend/parser.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "isa/analysis/cfg.h"
#include "isa/frontend/types.h"
#include "isa/ptx_parser.h"

namespace gputlm::isa {

namespace {
std::string format_error(const std::string& file, uint32_t line, uint32_t col,
                         const std::string& token, const std::string& message) {
  std::ostringstream os;
  os << file << ':' << line << ':' << col << ": " << message;
  if (!token.empty()) os << " (at '" << token << "')";
  return os.str();
}
}  // namespace

PtxError::PtxError(std::string file, uint32_t line, uint32_t column, std::string token,
                   const std::string& message)
    : std::runtime_error(format_error(file, line, column, token, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      token_(std::move(token)),
      detail_(message) {}

Module parse_ptx_string(std::string_view text, const std::string& name) {
  frontend::Parser p(text, name);
  return p.run();
}

Module parse_ptx_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open PTX file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw std::runtime_error(path + ": error reading PTX file");
  std::string text = ss.str();
  return parse_ptx_string(text, path);
}

namespace frontend {

constexpr int kMaxInitDepth = 8;
constexpr uint64_t kMaxVariableBytes = uint64_t{1} << 32;
constexpr uint64_t kMaxInitBytes = uint64_t{1} << 26;

Parser::Parser(std::string_view src, std::string file) : file_(std::move(file)), src_(src) {}

// ----------------------------------------------------------------------------------------
// token helpers
// ----------------------------------------------------------------------------------------
const Token& Parser::peek(size_t ahead) const {
  size_t i = pos_ + ahead;
  return i < toks_.size() ? toks_[i] : toks_.back();
}

const Token& Parser::next() {
  const Token& t = toks_[pos_];
  if (pos_ + 1 < toks_.size()) ++pos_;  // End is sticky
  return t;
}

bool Parser::accept(char c) {
  if (peek().is(c)) {
    next();
    return true;
  }
  return false;
}

bool Parser::accept_dot(std::string_view d) {
  if (peek().is_dot(d)) {
    next();
    return true;
  }
  return false;
}

const Token& Parser::expect(char c, const char* what) {
  if (!peek().is(c)) fail_here(std::string("expected '") + c + "' " + what);
  return next();
}

const Token& Parser::expect_ident(const char* what) {
  if (peek().kind != TokKind::Ident) fail_here(std::string("expected ") + what);
  return next();
}

uint64_t Parser::expect_uint(const char* what) {
  if (peek().kind != TokKind::Int) fail_here(std::string("expected ") + what);
  return next().int_value;
}

void Parser::fail_here(const std::string& message) const { fail(&peek(), message); }

// ----------------------------------------------------------------------------------------
// module level
// ----------------------------------------------------------------------------------------
Module Parser::run() {
  toks_ = tokenize(src_, file_);
  mod_.file = file_;
  if (!peek().is_dot(".version"))
    fail_here(peek().kind == TokKind::End ? "empty PTX input (expected .version)"
                                          : "a PTX module must start with .version");
  while (peek().kind != TokKind::End) parse_module_item();
  finish_module();
  return std::move(mod_);
}

void Parser::parse_module_item() {
  const Token& t = peek();
  if (t.kind != TokKind::Dot) fail_here("expected a directive at module scope");
  if (t.text == ".version") {
    if (!mod_.version.empty()) fail_here("duplicate .version directive");
    return parse_version();
  }
  if (t.text == ".target") return parse_target();
  if (t.text == ".address_size") {
    next();
    uint64_t n = expect_uint("address size");
    if (n != 32 && n != 64) fail(&toks_[pos_ - 1], ".address_size must be 32 or 64");
    mod_.address_size = static_cast<uint32_t>(n);
    return;
  }
  if (t.text == ".file" || t.text == ".loc") return skip_line_directive();
  if (t.text == ".section") return skip_section();
  if (t.text == ".pragma") return parse_pragma();
  Linkage linkage = Linkage::None;
  if (accept_dot(".visible")) linkage = Linkage::Visible;
  else if (accept_dot(".extern")) linkage = Linkage::Extern;
  else if (accept_dot(".weak")) linkage = Linkage::Weak;
  else if (accept_dot(".common")) linkage = Linkage::Common;
  const Token& d = peek();
  if (d.is_dot(".entry")) return parse_function(linkage, true);
  if (d.is_dot(".func")) return parse_function(linkage, false);
  StateSpace sp = space_from_dot(d.text);
  if (d.kind == TokKind::Dot &&
      (sp == StateSpace::Global || sp == StateSpace::Const || sp == StateSpace::Shared ||
       sp == StateSpace::Local))
    return parse_module_variable(sp, linkage);
  fail_here("unknown or unsupported module-scope directive");
}

void Parser::parse_version() {
  next();
  const Token& v = next();
  if (v.kind != TokKind::Float && v.kind != TokKind::Int)
    fail(&v, "expected a version number after .version");
  mod_.version = std::string(v.text);
}

void Parser::parse_target() {
  next();
  const Token& t = expect_ident("target name after .target");
  mod_.target = std::string(t.text);
  while (accept(',')) expect_ident("target option");
}

void Parser::skip_line_directive() {
  const Token& d = next();
  while (peek().kind != TokKind::End && peek().line == d.line) next();
}

void Parser::skip_section() {
  // .section .debug_xxx { ... }: debug data, skipped with brace matching.
  next();
  if (peek().kind != TokKind::Dot && peek().kind != TokKind::Ident)
    fail_here("expected a section name after .section");
  next();
  if (peek().is('{')) {
    const Token& open = next();
    int depth = 1;
    while (depth > 0) {
      const Token& t = next();
      if (t.kind == TokKind::End) fail(&open, "unbalanced '{' in .section (end of file reached)");
      if (t.is('{')) ++depth;
      if (t.is('}')) --depth;
    }
  }
}

void Parser::parse_pragma() {
  next();
  if (peek().kind != TokKind::String) fail_here("expected a string after .pragma");
  next();
  while (accept(',')) {
    if (peek().kind != TokKind::String) fail_here("expected a string in .pragma list");
    next();
  }
  expect(';', "after .pragma");
}

uint32_t Parser::add_symbol(Symbol s, const Token* tok, bool module_scope) {
  if (module_scope) {
    auto it = module_names_.find(s.name);
    if (it != module_names_.end()) {
      Symbol& old = mod_.symbols[it->second];
      // An .extern declaration may be followed by (or follow) the definition.
      bool compatible = old.kind == s.kind &&
                        (old.linkage == Linkage::Extern || s.linkage == Linkage::Extern);
      if (!compatible) fail(tok, "redefinition of symbol '" + s.name + "'");
      if (s.linkage != Linkage::Extern) {
        s.line = tok->line;
        old = std::move(s);
      }
      return it->second;
    }
  } else if (!scopes_.empty()) {
    auto& sc = scopes_.back();
    if (sc.count(s.name)) fail(tok, "redefinition of '" + s.name + "' in the same scope");
  }
  s.line = tok->line;
  s.column = tok->column;
  auto idx = static_cast<uint32_t>(mod_.symbols.size());
  std::string name = s.name;
  mod_.symbols.push_back(std::move(s));
  if (module_scope) module_names_.emplace(name, idx);
  else scopes_.back().emplace(name, NameRef{NameRef::Kind::Symbol, idx});
  return idx;
}

Parser::Decl Parser::parse_decl_head(StateSpace space, Linkage linkage) {
  Decl d;
  d.space = space;
  d.linkage = linkage;
  for (int guard = 0; guard < 16 && peek().kind == TokKind::Dot; ++guard) {
    const Token& t = peek();
    if (t.text == ".align") {
      next();
      uint64_t a = expect_uint("alignment after .align");
      if (a == 0 || (a & (a - 1)) != 0 || a > 4096)
        fail(&toks_[pos_ - 1], "alignment must be a power of two up to 4096");
      d.align = static_cast<uint32_t>(a);
    } else if (t.text == ".v2" || t.text == ".v4" || t.text == ".v8") {
      d.vec = static_cast<uint32_t>(t.text[2] - '0');
      next();
    } else if (t.text == ".ptr") {
      next();
      for (int g = 0; g < 2 && peek().kind == TokKind::Dot; ++g) {
        StateSpace ps = space_from_dot(peek().text);
        if (ps != StateSpace::None && ps != StateSpace::Reg && ps != StateSpace::Param) {
          d.ptr_space = ps;
          next();
        } else if (peek().text == ".align") {
          next();
          d.ptr_align = static_cast<uint32_t>(expect_uint("alignment after .ptr .align"));
        } else {
          break;
        }
      }
    } else if (type_from_dot(t.text) != ScalarType::None) {
      if (d.type != ScalarType::None) fail(&t, "more than one type in declaration");
      d.type = type_from_dot(t.text);
      next();
    } else {
      fail(&t, "unexpected attribute in declaration");
    }
  }
  if (d.type == ScalarType::None) fail_here("declaration has no type");
  if (d.type == ScalarType::Pred && space != StateSpace::Reg)
    fail_here(".pred is only allowed for .reg declarations");
  return d;
}

void Parser::parse_decl_suffix(Decl& d) {
  d.name_tok = &expect_ident("a name in declaration");
  d.name = d.name_tok->text;
  d.count = d.vec;
  for (int dims = 0; peek().is('['); ++dims) {
    if (dims >= 4) fail_here("too many array dimensions");
    next();
    d.is_array = true;
    if (peek().is(']')) {
      if (dims != 0) fail_here("only the first array dimension may be left unsized");
      d.unsized_array = true;
      next();
      continue;
    }
    uint64_t n = expect_uint("array size");
    if (n == 0 || n > (uint64_t{1} << 32)) fail(&toks_[pos_ - 1], "array size out of range");
    d.count *= n;
    if (d.count * type_bytes(d.type) > kMaxVariableBytes)
      fail(&toks_[pos_ - 1], "array too large (more than 4 GiB)");
    expect(']', "after array size");
  }
}

void Parser::append_init_address(Decl& d, std::vector<uint8_t>& bytes) {
  // sym | sym+N | generic(sym) | generic(sym)+N
  const Token& first = next();
  Relocation r;
  const Token* name = &first;
  if (first.text == "generic" && peek().is('(')) {
    next();
    name = &expect_ident("a variable name inside generic(...)");
    expect(')', "to close generic(...)");
    r.generic = true;
  }
  auto it = module_names_.find(name->text);
  if (it == module_names_.end()) {
    bool is_fn = function_names_.count(name->text) != 0;
    fail(name, is_fn ? "function addresses in initialisers are not supported"
                     : "undefined variable '" + std::string(name->text) + "' in initialiser");
  }
  const Symbol& target = mod_.symbols[it->second];
  if (target.kind != SymbolKind::Global && target.kind != SymbolKind::Const)
    fail(name, "initialisers may only take the address of .global or .const variables");
  uint32_t n = type_bytes(d.type);
  if (n != mod_.address_size / 8 || !(is_bits(d.type) || is_unsigned_int(d.type) || is_signed_int(d.type)))
    fail(name, "an address initialiser needs a " + std::to_string(mod_.address_size) + "-bit integer type");
  if (peek().is('+') || peek().is('-')) {
    bool neg = next().is('-');
    if (!neg && peek().is('-')) neg = next().is('-');  // "sym+-4"
    const Token& off = peek();
    if (off.kind != TokKind::Int || off.int_value > (uint64_t{1} << 62)) fail(&off, "expected an offset");
    next();
    r.addend = neg ? -static_cast<int64_t>(off.int_value) : static_cast<int64_t>(off.int_value);
  }
  r.offset = bytes.size();
  r.symbol = it->second;
  r.bytes = static_cast<uint8_t>(n);
  d.relocs.push_back(r);
  bytes.insert(bytes.end(), n, 0);
}

void Parser::append_init_value(Decl& d, std::vector<uint8_t>& bytes, const Token& sign_tok) {
  bool negative = sign_tok.is('-');
  const Token& v = peek();
  uint32_t n = type_bytes(d.type);
  uint64_t bits = 0;
  if (v.kind == TokKind::Ident) {
    if (negative) fail(&v, "an address initialiser cannot be negated");
    append_init_address(d, bytes);
    return;
  } else if (v.kind == TokKind::Int || v.kind == TokKind::F32Bits || v.kind == TokKind::F64Bits ||
             v.kind == TokKind::Float) {
    ImmLiteral lit{v.kind, v.int_value, v.kind == TokKind::Float ? v.float_value : 0.0, negative};
    std::string err;
    if (!encode_immediate(lit, d.type, bits, err)) fail(&v, err);
    next();
  } else {
    fail(&v, "expected a constant in initialiser");
  }
  for (uint32_t i = 0; i < n; ++i) bytes.push_back(static_cast<uint8_t>(bits >> (8 * i)));
}

void Parser::parse_init_list(Decl& d, std::vector<uint8_t>& bytes, uint64_t& elems, int depth) {
  if (depth > kMaxInitDepth) fail_here("initialiser nested too deeply");
  expect('{', "to open initialiser list");
  if (peek().is('}')) fail_here("empty initialiser list");
  for (;;) {
    if (peek().is('{')) {
      parse_init_list(d, bytes, elems, depth + 1);
    } else {
      const Token& s = peek();
      if (s.is('-')) next();
      append_init_value(d, bytes, s);
      ++elems;
    }
    if (accept(',')) continue;
    expect('}', "to close initialiser list");
    return;
  }
}

void Parser::parse_initializer(Decl& d) {
  if (d.space != StateSpace::Global && d.space != StateSpace::Const)
    fail_here("initialisers are only allowed on .global and .const variables");
  uint64_t elems = 0;
  if (peek().is('{')) {
    parse_init_list(d, d.init, elems, 0);
  } else {
    const Token& s = peek();
    if (s.is('-')) next();
    append_init_value(d, d.init, s);
    elems = 1;
  }
  if (d.unsized_array) {
    d.count = elems * d.vec;
    d.unsized_array = false;
  }
  if (elems > d.count) fail(d.name_tok, "too many initialisers for '" + std::string(d.name) + "'");
  if (d.count * type_bytes(d.type) > kMaxInitBytes)
    fail(d.name_tok, "initialised variable '" + std::string(d.name) + "' is larger than 64 MiB");
  d.init.resize(d.count * type_bytes(d.type), 0);
}

void Parser::parse_module_variable(StateSpace space, Linkage linkage) {
  const Token& head = next();
  Decl d = parse_decl_head(space, linkage);
  for (;;) {
    parse_decl_suffix(d);
    if (accept('=')) parse_initializer(d);
    Symbol s;
    s.name = std::string(d.name);
    s.space = space;
    s.type = d.type;
    s.align = d.align ? d.align : type_bytes(d.type) * (d.vec == 1 ? 1 : d.vec);
    s.linkage = linkage;
    s.init = std::move(d.init);
    s.relocations = std::move(d.relocs);
    d.init.clear();
    d.relocs.clear();
    if (space == StateSpace::Global) s.kind = SymbolKind::Global;
    else if (space == StateSpace::Const) s.kind = SymbolKind::Const;
    else if (space == StateSpace::Local)
      fail(&head, "module-scope .local variables are not supported");
    else s.kind = (d.unsized_array && linkage == Linkage::Extern) ? SymbolKind::ExternShared
                                                                 : SymbolKind::Shared;
    if (d.unsized_array && s.kind != SymbolKind::ExternShared &&
        linkage != Linkage::Extern)
      fail(d.name_tok, "array '" + s.name + "' has no size and no initialiser");
    s.size = d.unsized_array ? 0 : d.count * type_bytes(d.type);
    uint32_t idx = add_symbol(std::move(s), d.name_tok, true);
    if (mod_.symbols[idx].kind == SymbolKind::Shared &&
        std::find(module_shared_.begin(), module_shared_.end(), idx) == module_shared_.end())
      module_shared_.push_back(idx);
    if (!accept(',')) break;
    d.is_array = false;
    d.unsized_array = false;
  }
  expect(';', "after variable declaration");
}

void Parser::parse_param_list(std::vector<Param>& out, SymbolKind kind, uint32_t fn) {
  expect('(', "to open parameter list");
  uint32_t offset = 0;
  if (!peek().is(')')) {
    for (;;) {
      if (!peek().is_dot(".param") && !peek().is_dot(".reg"))
        fail_here("expected .param in parameter list");
      const Token& sp = next();
      if (sp.text == ".reg") fail(&sp, ".reg parameters are not supported");
      Decl d = parse_decl_head(StateSpace::Param, Linkage::None);
      parse_decl_suffix(d);
      if (d.unsized_array) fail(d.name_tok, "parameter arrays must have a size");
      Param p;
      p.name = std::string(d.name);
      p.type = d.type;
      p.size = static_cast<uint32_t>(d.count * type_bytes(d.type));
      p.align = d.align ? d.align : type_bytes(d.type) * d.vec;
      if (p.align == 0) p.align = 1;
      p.array_count = d.is_array ? static_cast<uint32_t>(d.count / d.vec) : 0;
      p.ptr_space = d.ptr_space;
      p.ptr_align = d.ptr_align;
      offset = (offset + p.align - 1) / p.align * p.align;
      p.offset = offset;
      offset += p.size;
      Symbol s;
      s.name = p.name;
      s.kind = kind;
      s.space = StateSpace::Param;
      s.type = p.type;
      s.align = p.align;
      s.size = p.size;
      s.offset = p.offset;
      s.function = fn;
      // Parameters live in the function's outermost scope.
      if (scopes_.back().count(s.name)) fail(d.name_tok, "duplicate parameter '" + s.name + "'");
      s.line = d.name_tok->line;
      s.column = d.name_tok->column;
      p.symbol = static_cast<uint32_t>(mod_.symbols.size());
      scopes_.back().emplace(s.name, NameRef{NameRef::Kind::Symbol, p.symbol});
      mod_.symbols.push_back(std::move(s));
      out.push_back(std::move(p));
      if (accept(',')) continue;
      break;
    }
  }
  expect(')', "to close parameter list");
}

void Parser::parse_perf_directives(Function& f) {
  for (int guard = 0; guard < 32 && peek().kind == TokKind::Dot; ++guard) {
    const Token& t = peek();
    auto read3 = [&](std::array<uint32_t, 3>& v) {
      next();
      v = {1, 1, 1};
      for (int i = 0; i < 3; ++i) {
        uint64_t n = expect_uint("thread count");
        if (n == 0 || n > 1024) fail(&toks_[pos_ - 1], "thread count out of range");
        v[static_cast<size_t>(i)] = static_cast<uint32_t>(n);
        if (!accept(',')) break;
      }
    };
    if (t.text == ".maxntid") read3(f.maxntid);
    else if (t.text == ".reqntid") read3(f.reqntid);
    else if (t.text == ".minnctapersm") {
      next();
      f.minnctapersm = static_cast<uint32_t>(expect_uint("CTA count"));
    } else if (t.text == ".maxnreg") {
      next();
      f.maxnreg = static_cast<uint32_t>(expect_uint("register count"));
    } else if (t.text == ".noreturn") {
      next();
    } else if (t.text == ".pragma") {
      parse_pragma();
    } else {
      return;
    }
  }
}

void Parser::parse_function(Linkage linkage, bool is_entry) {
  const Token& kw = next();
  Function f;
  f.is_entry = is_entry;
  f.linkage = linkage;
  auto fn = static_cast<uint32_t>(mod_.functions.size());
  scopes_.clear();
  scopes_.emplace_back();
  std::vector<Param> returns;
  if (!is_entry && peek().is('(')) parse_param_list(returns, SymbolKind::FuncReturn, fn);
  const Token& name = expect_ident("function name");
  f.name = std::string(name.text);
  f.line = name.line;
  f.column = name.column;
  if (peek().is('('))
    parse_param_list(f.params, is_entry ? SymbolKind::KernelParam : SymbolKind::FuncParam, fn);
  f.returns = std::move(returns);
  for (const Param& p : f.params) f.param_bytes = std::max(f.param_bytes, p.offset + p.size);
  for (const Param& p : f.returns) f.return_bytes = std::max(f.return_bytes, p.offset + p.size);
  parse_perf_directives(f);

  // Declaration (prototype) or definition; a definition replaces an earlier declaration.
  auto existing = function_names_.find(f.name);
  if (existing != function_names_.end()) {
    Function& old = mod_.functions[existing->second];
    if (!old.is_declaration || old.is_entry != is_entry)
      fail(&name, "redefinition of function '" + f.name + "'");
  }
  bool is_decl = peek().is(';');
  if (is_decl) {
    next();
    f.is_declaration = true;
    if (existing == function_names_.end()) {
      mod_.functions.push_back(std::move(f));
      function_names_.emplace(mod_.functions.back().name, fn);
    } else {
      // A repeated declaration: its parameter symbols belong to the first one.
      for (auto& [n, ref] : scopes_.back())
        if (ref.kind == NameRef::Kind::Symbol) mod_.symbols[ref.index].function = existing->second;
    }
    scopes_.clear();
    return;
  }
  if (!peek().is('{')) fail_here("expected '{' or ';' after function header");
  uint32_t target = fn;
  if (existing != function_names_.end()) {
    // Re-point the parameter symbols created above to the declared function's index.
    target = existing->second;
    for (auto& [n, ref] : scopes_.back())
      if (ref.kind == NameRef::Kind::Symbol) mod_.symbols[ref.index].function = target;
    mod_.functions[target] = std::move(f);
  } else {
    mod_.functions.push_back(std::move(f));
    function_names_.emplace(mod_.functions.back().name, fn);
  }
  (void)kw;
  parse_body(target);
  scopes_.clear();
}

// ----------------------------------------------------------------------------------------
// module finalisation
// ----------------------------------------------------------------------------------------
void Parser::finish_module() {
  for (const CallRef& c : call_refs_) {
    auto it = function_names_.find(c.callee);
    if (it == function_names_.end())
      throw PtxError(file_, c.tok->line, c.tok->column, std::string(c.callee),
                     "call to undefined function '" + std::string(c.callee) + "'");
    Function& caller = mod_.functions[c.function];
    caller.code[c.instr].callee = it->second;
    const Function& callee = mod_.functions[it->second];
    const Instruction& ins = caller.code[c.instr];
    if (ins.call_arg_count != callee.params.size() || ins.call_ret_count != callee.returns.size())
      throw PtxError(file_, c.tok->line, c.tok->column, std::string(c.callee),
                     "call to '" + callee.name + "' passes " + std::to_string(ins.call_arg_count) +
                         " arguments and " + std::to_string(ins.call_ret_count) +
                         " return values; the function declares " +
                         std::to_string(callee.params.size()) + " and " +
                         std::to_string(callee.returns.size()));
  }
  // Calls to functions that are only declared (.extern vprintf, __assertfail, malloc)
  // stay: Instruction::callee names a Function with is_declaration set, and the
  // executor decides what to do with it.
  layout_module();
  for (Function& f : mod_.functions)
    if (!f.is_declaration) analysis::compute_reconvergence(f);
}

void Parser::layout_module() {
  auto align_up = [](uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; };
  for (Symbol& s : mod_.symbols) {
    if (s.function != kNone) continue;
    if (s.kind == SymbolKind::Global) {
      s.offset = align_up(mod_.global_bytes, s.align);
      mod_.global_bytes = s.offset + s.size;
    } else if (s.kind == SymbolKind::Const) {
      s.offset = align_up(mod_.const_bytes, s.align);
      mod_.const_bytes = s.offset + s.size;
    }
  }
  // Shared windows: module- and .func-scope static shared first (they must have one
  // address whichever kernel calls the function), then each kernel's own shared, then
  // the dynamic (extern) area at one module-wide offset.
  uint64_t shared = 0;
  for (uint32_t i : module_shared_) {
    Symbol& s = mod_.symbols[i];
    s.offset = align_up(shared, s.align);
    shared = s.offset + s.size;
  }
  mod_.module_shared_bytes = static_cast<uint32_t>(shared);
  uint64_t max_end = shared;
  for (Function& f : mod_.functions) {
    if (!f.is_entry) continue;
    uint64_t end = shared;
    for (uint32_t i : f.shared_symbols) {
      Symbol& s = mod_.symbols[i];
      s.offset = align_up(end, s.align);
      end = s.offset + s.size;
    }
    f.shared_end = static_cast<uint32_t>(end);
    max_end = std::max(max_end, end);
  }
  uint32_t dyn_align = 16;
  for (const Symbol& s : mod_.symbols)
    if (s.kind == SymbolKind::ExternShared) dyn_align = std::max(dyn_align, s.align);
  mod_.dynamic_shared_align = dyn_align;
  mod_.dynamic_shared_offset = static_cast<uint32_t>(align_up(max_end, dyn_align));
  for (Symbol& s : mod_.symbols)
    if (s.kind == SymbolKind::ExternShared) s.offset = mod_.dynamic_shared_offset;
  for (Function& f : mod_.functions)
    if (f.is_entry) f.shared_end = std::max<uint32_t>(f.shared_end, mod_.module_shared_bytes);
  // Code layout: functions in module order, each aligned to kFunctionAlign.
  uint64_t pc = 0;
  for (Function& f : mod_.functions) {
    f.pc_base = pc;
    pc = align_up(pc + uint64_t{kInstrBytes} * f.code.size(), kFunctionAlign);
  }
}

}  // namespace frontend
}  // namespace gputlm::isa
