// Decoders for memory, atomic, synchronisation, control-flow and warp-collective
// instructions.
#include <algorithm>

#include "isa/frontend/decoder.h"

namespace gputlm::isa::frontend {

void Decoder::decode_memory() {
  Opcode op = ins_.op;
  if (op == Opcode::Prefetch || op == Opcode::Prefetchu || op == Opcode::Discard) {
    // prefetch{.global,.local}.{L1,L2} [a]; prefetchu.L1 [a]; discard.global.L2 [a], 128
    StateSpace sp = take_space();
    if (sp != StateSpace::None && sp != StateSpace::Global && sp != StateSpace::Local)
      fail_op("'" + name_ + "' space must be .global or .local");
    ins_.space = sp;
    int lvl = take_one({".L1", ".L2"});
    if (lvl < 0) fail_op("'" + name_ + "' needs a cache level (.L1 or .L2)");
    take_one({".L2::evict_last", ".L2::evict_normal"});
    if (op == Opcode::Discard) {
      expect_ops(2, 2);
      set(0, mem(raw_.ops[0]));
      set(1, value(raw_.ops[1], ScalarType::U32));
      if (ins_.ops[1].kind != OperandKind::Imm || ins_.ops[1].bits != 128)
        fail(raw_.ops[1], "discard size must be 128");
    } else {
      expect_ops(1, 1);
      set(0, mem(raw_.ops[0]));
    }
    return;
  }
  take_sem_scope();
  if (ins_.sem == MemSem::Release && op != Opcode::St) fail_op(".release is only valid on st");
  if (ins_.sem == MemSem::Acquire && op == Opcode::St) fail_op(".acquire is not valid on st");
  if (ins_.sem == MemSem::AcqRel || ins_.sem == MemSem::Sc) fail_op("invalid memory ordering for '" + name_ + "'");
  if ((ins_.sem == MemSem::Relaxed || ins_.sem == MemSem::Acquire || ins_.sem == MemSem::Release) &&
      ins_.scope == Scope::None)
    fail_op("." + std::string(ins_.sem == MemSem::Relaxed ? "relaxed" : ins_.sem == MemSem::Acquire ? "acquire" : "release") +
            " needs a scope (.cta .gpu .sys)");
  ins_.space = take_space();
  if (op == Opcode::Ldu && ins_.space != StateSpace::Global && ins_.space != StateSpace::None)
    fail_op("ldu space must be .global");
  static const CacheOp cops[] = {CacheOp::Ca, CacheOp::Cg, CacheOp::Cs, CacheOp::Lu,
                                 CacheOp::Cv, CacheOp::Wb, CacheOp::Wt};
  int c = take_one({".ca", ".cg", ".cs", ".lu", ".cv", ".wb", ".wt"});
  if (c >= 0) {
    ins_.cache = cops[c];
    bool store_op = ins_.cache == CacheOp::Wb || ins_.cache == CacheOp::Wt;
    bool load_only = ins_.cache == CacheOp::Ca || ins_.cache == CacheOp::Lu || ins_.cache == CacheOp::Cv;
    if (op == Opcode::St && load_only) fail_op("load cache operator on st");
    if (op != Opcode::St && store_op) fail_op("store cache operator on a load");
  }
  if (take(".nc")) {
    if (op != Opcode::Ld || ins_.space != StateSpace::Global) fail_op(".nc is only valid on ld.global");
    ins_.flags |= kNc;
  }
  while (take_one({".L1::evict_normal", ".L1::evict_unchanged", ".L1::evict_first",
                   ".L1::evict_last", ".L1::no_allocate", ".L2::evict_first", ".L2::evict_last",
                   ".L2::evict_normal", ".L2::64B", ".L2::128B", ".L2::256B"}) >= 0)
    ins_.flags |= kCacheHint;
  take_vec();
  ScalarType t = take_type(true);
  ins_.type = t;
  if (t == ScalarType::Pred) fail_op("'" + name_ + "' cannot move .pred values");
  expect_ops(2, 2);
  const RawOperand& data = op == Opcode::St ? raw_.ops[1] : raw_.ops[0];
  const RawOperand& addr = op == Opcode::St ? raw_.ops[0] : raw_.ops[1];
  Operand d;
  if (ins_.vec > 1) {
    if (data.kind != RawOperand::Kind::Vector || data.elems.size() != ins_.vec)
      fail(data, "." + std::string(ins_.vec == 2 ? "v2" : ins_.vec == 4 ? "v4" : "v8") +
                     " needs a vector operand with " + std::to_string(ins_.vec) + " elements");
    d = vector(data, t, op != Opcode::St);
  } else {
    if (data.kind == RawOperand::Kind::Vector) fail(data, "vector operand needs .v2 or .v4");
    d = op == Opcode::St ? value(data, t) : dst(data, t);
    if (d.kind == OperandKind::Sink) fail(data, "'_' cannot be a scalar load destination");
  }
  Operand a = mem(addr);
  if (op == Opcode::St) {
    set(0, a);
    set(1, d);
  } else {
    set(0, d);
    set(1, a);
  }
  // A symbol address must be in the instruction's space (or any space for generic).
  if (a.symbol != kNone) {
    const Symbol& s = ctx_.module().symbols[a.symbol];
    if (ins_.space != StateSpace::None && s.space != ins_.space)
      fail(addr, "symbol '" + s.name + "' is in ." + space_name(s.space) + ", not ." +
                     space_name(ins_.space));
  }
}

void Decoder::decode_atomic() {
  Opcode op = ins_.op;
  take_sem_scope();
  if (ins_.sem == MemSem::Weak || ins_.sem == MemSem::Volatile) fail_op("invalid ordering on '" + name_ + "'");
  ins_.space = take_space();
  if (ins_.space != StateSpace::None && ins_.space != StateSpace::Global &&
      ins_.space != StateSpace::Shared)
    fail_op("'" + name_ + "' space must be .global or .shared (or generic)");
  static const AtomOp aops[] = {AtomOp::Add, AtomOp::Min, AtomOp::Max, AtomOp::Inc, AtomOp::Dec,
                                AtomOp::Cas, AtomOp::Exch, AtomOp::And, AtomOp::Or, AtomOp::Xor};
  int a = take_one({".add", ".min", ".max", ".inc", ".dec", ".cas", ".exch", ".and", ".or", ".xor"});
  if (a < 0) fail_op("'" + name_ + "' needs an operation (.add .min .max .inc .dec .cas .exch .and .or .xor)");
  ins_.atom = aops[a];
  if (take(".noftz")) ins_.flags |= kNoFtz;
  ScalarType t = take_type(true);
  ins_.type = t;
  AtomOp k = ins_.atom;
  bool bitwise = k == AtomOp::And || k == AtomOp::Or || k == AtomOp::Xor;
  bool ok = true;
  if (bitwise) ok = t == ScalarType::B32 || t == ScalarType::B64;
  else if (k == AtomOp::Cas || k == AtomOp::Exch)
    ok = t == ScalarType::B32 || t == ScalarType::B64 || t == ScalarType::U32 ||
         t == ScalarType::U64 || t == ScalarType::S32 || t == ScalarType::S64 || t == ScalarType::B16;
  else if (k == AtomOp::Inc || k == AtomOp::Dec) ok = t == ScalarType::U32;
  else if (k == AtomOp::Add)
    ok = t == ScalarType::U32 || t == ScalarType::S32 || t == ScalarType::U64 ||
         t == ScalarType::S64 || t == ScalarType::F32 || t == ScalarType::F64 ||
         t == ScalarType::F16 || t == ScalarType::F16x2;
  else  // min / max
    ok = t == ScalarType::U32 || t == ScalarType::S32 || t == ScalarType::U64 || t == ScalarType::S64;
  if (!ok)
    fail_op("'" + name_ + "' does not support ." + type_name(t) + " for this operation");
  size_t nsrc = k == AtomOp::Cas ? 2 : 1;
  size_t first = op == Opcode::Atom ? 1 : 0;
  if (op == Opcode::Red && k == AtomOp::Cas) fail_op("red does not support .cas");
  expect_ops(first + 1 + nsrc, first + 1 + nsrc);
  uint32_t i = 0;
  if (op == Opcode::Atom) set(i++, dst(raw_.ops[0], t));
  const RawOperand& addr = raw_.ops[first];
  set(i++, mem(addr));
  for (size_t s = 0; s < nsrc; ++s) set(i++, value(raw_.ops[first + 1 + s], t));
  if (ins_.ops[first].symbol != kNone) {
    const Symbol& s = ctx_.module().symbols[ins_.ops[first].symbol];
    if (s.space != StateSpace::Global && s.space != StateSpace::Shared)
      fail(addr, "atomic on symbol '" + s.name + "' in ." + space_name(s.space));
  }
}

void Decoder::decode_sync() {
  Opcode op = ins_.op;
  if (op == Opcode::Bar) {
    bool barrier_form = name_ == "barrier";
    if (!barrier_form && take(".warp")) {
      if (!take(".sync")) fail_op("bar.warp needs .sync");
      ins_.op = Opcode::BarWarpSync;
      ins_.flags |= kSync;
      expect_ops(1, 1);
      set(0, value(raw_.ops[0], ScalarType::B32));
      return;
    }
    take(".cta");
    int k = take_one({".sync", ".arrive", ".red"});
    if (k < 0) fail_op("'" + name_ + "' needs .sync, .arrive or .red");
    ins_.bar = k == 0 ? BarKind::Sync : (k == 1 ? BarKind::Arrive : BarKind::Red);
    if (barrier_form) ins_.flags |= kSync;
    if (take(".aligned")) ins_.flags |= kAligned;
    if (ins_.bar == BarKind::Red) {
      // bar.red.popc.u32 d, a{, b}, {!}c ; bar.red.{and,or}.pred p, a{, b}, {!}c
      int r = take_one({".popc", ".and", ".or"});
      if (r < 0) fail_op("bar.red needs .popc, .and or .or");
      ins_.boolop = r == 0 ? BoolOp::Popc : (r == 1 ? BoolOp::And : BoolOp::Or);
      ScalarType t = take_type(true);
      ins_.type = t;
      if ((r == 0) != (t == ScalarType::U32) || (r != 0 && t != ScalarType::Pred))
        fail_op("bar.red.popc needs .u32; bar.red.and/.or need .pred");
      expect_ops(3, 4);
      set(0, t == ScalarType::Pred ? pred_dst(raw_.ops[0]) : dst(raw_.ops[0], t));
      set(1, value(raw_.ops[1], ScalarType::U32));
      if (raw_.ops.size() == 4) {
        set(2, value(raw_.ops[2], ScalarType::U32));
        ins_.flags |= kBarrierExplicitCount;
      }
      set(static_cast<uint32_t>(raw_.ops.size() - 1), pred(raw_.ops.back(), true, false));
      return;
    }
    size_t lo = ins_.bar == BarKind::Arrive ? 2 : 1;
    expect_ops(lo, 2);
    set(0, value(raw_.ops[0], ScalarType::U32));
    if (raw_.ops.size() == 2) {
      set(1, value(raw_.ops[1], ScalarType::U32));
      ins_.flags |= kBarrierExplicitCount;
    }
    if (ins_.ops[0].kind == OperandKind::Imm && ins_.ops[0].bits > 15)
      fail(raw_.ops[0], "barrier id must be 0..15");
    return;
  }
  if (op == Opcode::Membar) {
    int l = take_one({".cta", ".gl", ".sys"});
    if (l < 0) fail_op("membar needs .cta, .gl or .sys");
    ins_.membar = l == 0 ? MembarLevel::Cta : (l == 1 ? MembarLevel::Gl : MembarLevel::Sys);
    expect_ops(0, 0);
    return;
  }
  // fence{.sc,.acq_rel}.scope
  int s = take_one({".sc", ".acq_rel"});
  ins_.sem = s == 0 ? MemSem::Sc : MemSem::AcqRel;
  static const Scope scopes[] = {Scope::Cta, Scope::Gpu, Scope::Sys, Scope::Cluster};
  int c = take_one({".cta", ".gpu", ".sys", ".cluster"});
  if (c < 0) fail_op("fence needs a scope (.cta .gpu .sys)");
  ins_.scope = scopes[c];
  expect_ops(0, 0);
}

void Decoder::decode_control() {
  Opcode op = ins_.op;
  if (op == Opcode::Bra) {
    if (take(".uni")) ins_.flags |= kUni;
    expect_ops(1, 1);
    const RawOperand& r = raw_.ops[0];
    if (r.kind != RawOperand::Kind::Name || r.neg || r.component >= 0 || r.offset != 0 ||
        !r.pipe_name.empty())
      fail(r, "bra needs a label");
    NameRef ref = ctx_.lookup(r.name);
    if (ref.kind == NameRef::Kind::Reg || ref.kind == NameRef::Kind::Pred)
      fail(r, "indirect branches (bra through a register) are not supported");
    Operand o;
    o.kind = OperandKind::Label;
    set(0, o);
    ctx_.add_label_ref(index_, r.tok, r.name);
    return;
  }
  if (op == Opcode::Call) {
    // call{.uni} (ret), f, (a, b); call f, (a); call (ret), f; call f;
    if (take(".uni")) ins_.flags |= kUni;
    expect_ops(1, 3);
    size_t i = 0;
    std::vector<Operand> rets, args;
    auto param_list = [&](const RawOperand& list, std::vector<Operand>& out) {
      for (const RawOperand& e : list.elems) {
        if (e.kind == RawOperand::Kind::Imm) {
          fail(e, "immediate call arguments are not supported (nvcc passes .param variables)");
        }
        if (e.kind != RawOperand::Kind::Name || e.neg || e.offset != 0)
          fail(e, "call arguments must be .param variables");
        NameRef ref = ctx_.lookup(e.name);
        if (ref.kind != NameRef::Kind::Symbol ||
            ctx_.module().symbols[ref.index].space != StateSpace::Param)
          fail(e, ref.kind == NameRef::Kind::None
                      ? "undefined call argument '" + std::string(e.name) + "'"
                      : "call argument '" + std::string(e.name) + "' is not a .param variable");
        Operand o;
        o.kind = OperandKind::SymAddr;
        o.symbol = ref.index;
        out.push_back(o);
      }
    };
    if (raw_.ops[0].kind == RawOperand::Kind::List) {
      param_list(raw_.ops[0], rets);
      ++i;
    }
    if (i >= raw_.ops.size()) fail_op("call needs a function name");
    const RawOperand& f = raw_.ops[i];
    if (f.kind != RawOperand::Kind::Name || f.neg || f.offset != 0)
      fail(f, "call needs a function name");
    NameRef ref = ctx_.lookup(f.name);
    if (ref.kind == NameRef::Kind::Reg)
      fail(f, "indirect calls (call through a register) are not supported");
    if (ref.kind != NameRef::Kind::Function && ref.kind != NameRef::Kind::None)
      fail(f, "'" + std::string(f.name) + "' is not a function");
    ++i;
    if (i < raw_.ops.size()) {
      if (raw_.ops[i].kind != RawOperand::Kind::List) fail(raw_.ops[i], "expected '(' argument list");
      param_list(raw_.ops[i], args);
      ++i;
    }
    if (i != raw_.ops.size()) fail(raw_.ops[i], "unexpected operand after call arguments");
    Operand fo;
    fo.kind = OperandKind::Func;
    set(0, fo);
    ins_.call_ret_first = static_cast<uint32_t>(fn_.operand_pool.size());
    ins_.call_ret_count = static_cast<uint32_t>(rets.size());
    fn_.operand_pool.insert(fn_.operand_pool.end(), rets.begin(), rets.end());
    ins_.call_arg_first = static_cast<uint32_t>(fn_.operand_pool.size());
    ins_.call_arg_count = static_cast<uint32_t>(args.size());
    fn_.operand_pool.insert(fn_.operand_pool.end(), args.begin(), args.end());
    ctx_.add_call_ref(index_, f.tok, f.name);
    return;
  }
  if (op == Opcode::Ret) {
    if (take(".uni")) ins_.flags |= kUni;
    expect_ops(0, 0);
    return;
  }
  if (op == Opcode::Nanosleep) {
    ScalarType t = take_type(true);
    if (t != ScalarType::U32) fail_op("nanosleep needs .u32");
    ins_.type = t;
    expect_ops(1, 1);
    set(0, value(raw_.ops[0], t));
    return;
  }
  expect_ops(0, 0);  // exit, trap, brkpt
}

void Decoder::decode_warp() {
  Opcode op = ins_.op;
  if (op == Opcode::Activemask) {
    ScalarType t = take_type(true);
    if (t != ScalarType::B32) fail_op("activemask needs .b32");
    ins_.type = t;
    expect_ops(1, 1);
    set(0, dst(raw_.ops[0], t));
    return;
  }
  bool sync = take(".sync");
  if (sync) ins_.flags |= kSync;
  if (op == Opcode::Shfl) {
    static const ShflMode modes[] = {ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx};
    int m = take_one({".up", ".down", ".bfly", ".idx"});
    if (m < 0) fail_op("shfl needs .up, .down, .bfly or .idx");
    ins_.shfl = modes[m];
    ScalarType t = take_type(true);
    if (t != ScalarType::B32) fail_op("shfl needs .b32");
    ins_.type = t;
    size_t n = sync ? 5 : 4;
    expect_ops(n, n);
    RawOperand d0 = raw_.ops[0];
    d0.pipe_name = {};
    set(0, dst(d0, t));
    if (!raw_.ops[0].pipe_name.empty()) {
      RawOperand q;
      q.kind = RawOperand::Kind::Name;
      q.tok = raw_.ops[0].pipe_tok;
      q.name = raw_.ops[0].pipe_name;
      ins_.dst2 = pred_dst(q);
    }
    set(1, value(raw_.ops[1], t));
    for (uint32_t i = 2; i < n; ++i) set(i, value(raw_.ops[i], ScalarType::B32));
    return;
  }
  if (op == Opcode::Vote) {
    static const VoteMode modes[] = {VoteMode::All, VoteMode::Any, VoteMode::Uni, VoteMode::Ballot};
    int m = take_one({".all", ".any", ".uni", ".ballot"});
    if (m < 0) fail_op("vote needs .all, .any, .uni or .ballot");
    ins_.vote = modes[m];
    ScalarType t = take_type(true);
    bool ballot = ins_.vote == VoteMode::Ballot;
    if (ballot ? t != ScalarType::B32 : t != ScalarType::Pred)
      fail_op(ballot ? "vote.ballot needs .b32" : "vote.all/.any/.uni need .pred");
    ins_.type = t;
    size_t n = sync ? 3 : 2;
    expect_ops(n, n);
    set(0, ballot ? dst(raw_.ops[0], t) : pred_dst(raw_.ops[0]));
    set(1, pred(raw_.ops[1], true, false));
    if (sync) set(2, value(raw_.ops[2], ScalarType::B32));
    return;
  }
  // match.{any,all}.sync.{b32,b64} d[|p], a, membermask
  if (!sync) fail_op("match needs .sync");
  int m = take_one({".any", ".all"});
  if (m < 0) fail_op("match needs .any or .all");
  ins_.match = m == 0 ? MatchMode::Any : MatchMode::All;
  ScalarType t = take_type(true);
  if (t != ScalarType::B32 && t != ScalarType::B64) fail_op("match needs .b32 or .b64");
  ins_.type = t;
  expect_ops(3, 3);
  RawOperand d0 = raw_.ops[0];
  d0.pipe_name = {};
  set(0, dst(d0, ScalarType::B32));
  if (!raw_.ops[0].pipe_name.empty()) {
    if (ins_.match != MatchMode::All) fail(raw_.ops[0], "only match.all has a predicate destination");
    RawOperand q;
    q.kind = RawOperand::Kind::Name;
    q.tok = raw_.ops[0].pipe_tok;
    q.name = raw_.ops[0].pipe_name;
    ins_.dst2 = pred_dst(q);
  }
  set(1, value(raw_.ops[1], t));
  set(2, value(raw_.ops[2], ScalarType::B32));
}

}  // namespace gputlm::isa::frontend
