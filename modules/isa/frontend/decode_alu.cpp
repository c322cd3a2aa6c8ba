// Decoders for arithmetic, bit manipulation, special floating-point functions,
// compare/select and move/convert instructions.
#include "isa/frontend/decoder.h"

namespace gputlm::isa::frontend {

namespace {
ScalarType wide_of(ScalarType t) {
  switch (t) {
    case ScalarType::S16: return ScalarType::S32;
    case ScalarType::U16: return ScalarType::U32;
    case ScalarType::S32: return ScalarType::S64;
    case ScalarType::U32: return ScalarType::U64;
    case ScalarType::B16: return ScalarType::B32;
    case ScalarType::B32: return ScalarType::B64;
    default: return ScalarType::None;
  }
}
bool is_int(ScalarType t) { return is_signed_int(t) || is_unsigned_int(t) || is_bits(t); }
}  // namespace

void Decoder::decode_arith() {
  Opcode op = ins_.op;
  // Mode and rounding modifiers first so that take_type only sees types.
  int mm = take_one({".lo", ".hi", ".wide"});
  if (mm >= 0) ins_.mul = mm == 0 ? MulMode::Lo : (mm == 1 ? MulMode::Hi : MulMode::Wide);
  take_rounding(false);
  if (take(".ftz")) ins_.flags |= kFtz;
  if (take(".sat")) ins_.flags |= kSat;
  if (take(".cc")) ins_.flags |= kCarryOut;
  if (take(".approx")) ins_.flags |= kApprox;
  if (take(".full")) ins_.flags |= kFull;
  if (take(".NaN")) ins_.flags |= kNaN;
  if (take(".relu")) ins_.flags |= kRelu;
  ScalarType t = take_type(true);
  ins_.type = t;
  bool fp = is_float(t);
  if (t == ScalarType::Pred || t == ScalarType::B128) fail_op("'" + name_ + "' does not accept ." + type_name(t));

  // Validity of the mode modifiers per opcode and type.
  bool needs_mode = (op == Opcode::Mul || op == Opcode::Mad) && !fp;
  bool mode_allowed = needs_mode || op == Opcode::Mul24 || op == Opcode::Mad24 || op == Opcode::Madc;
  if (ins_.mul != MulMode::None && !mode_allowed)
    fail_op("'." + std::string(mm == 0 ? "lo" : mm == 1 ? "hi" : "wide") + "' not valid for '" + name_ + "." + type_name(t) + "'");
  if ((needs_mode || op == Opcode::Mul24 || op == Opcode::Mad24) && ins_.mul == MulMode::None)
    fail_op("'" + name_ + "' on integers needs .lo, .hi or .wide");
  if (ins_.mul == MulMode::Wide && wide_of(t) == ScalarType::None)
    fail_op(".wide needs a 16- or 32-bit integer type");
  if (fp && (ins_.flags & kCarryOut)) fail_op(".cc is only valid on integer arithmetic");
  if (!fp && ins_.rnd != Rounding::None) fail_op("rounding modifier on an integer instruction");
  if (!fp && (ins_.flags & (kFtz | kApprox | kFull)))
    fail_op(".ftz/.approx/.full are only valid on floating-point instructions");
  if (op == Opcode::Fma && ins_.rnd == Rounding::None) fail_op("fma needs a rounding modifier (.rn .rz .rm .rp)");
  if (op == Opcode::Div && t == ScalarType::F64 && ins_.rnd == Rounding::None &&
      !(ins_.flags & kApprox))
    fail_op("div.f64 needs a rounding modifier");
  if ((ins_.flags & kCarryOut) && !(op == Opcode::Add || op == Opcode::Sub || op == Opcode::Mad ||
                                    op == Opcode::Addc || op == Opcode::Subc || op == Opcode::Madc))
    fail_op(".cc not valid on '" + name_ + "'");
  if ((op == Opcode::Addc || op == Opcode::Subc || op == Opcode::Madc) && fp)
    fail_op("'" + name_ + "' needs an integer type");
  if ((op == Opcode::Rem || op == Opcode::Sad || op == Opcode::Mul24 || op == Opcode::Mad24) && fp)
    fail_op("'" + name_ + "' needs an integer type");

  ScalarType dt = ins_.mul == MulMode::Wide ? wide_of(t) : t;
  size_t nsrc = 2;
  if (op == Opcode::Abs || op == Opcode::Neg) nsrc = 1;
  if (op == Opcode::Mad || op == Opcode::Fma || op == Opcode::Mad24 || op == Opcode::Sad ||
      op == Opcode::Madc)
    nsrc = 3;
  expect_ops(nsrc + 1, nsrc + 1);
  set(0, dst(raw_.ops[0], dt));
  for (size_t i = 1; i <= nsrc; ++i) {
    // mad.wide: the addend has the wide type.
    ScalarType st = (i == 3 && ins_.mul == MulMode::Wide) ? dt : t;
    set(static_cast<uint32_t>(i), value(raw_.ops[i], st));
  }
}

void Decoder::decode_bits() {
  Opcode op = ins_.op;
  if (op == Opcode::Shf) {
    int dir = take_one({".l", ".r"});
    int mode = take_one({".wrap", ".clamp"});
    if (dir < 0 || mode < 0) fail_op("shf needs .l/.r and .wrap/.clamp");
    ins_.shf = dir == 0 ? (mode == 0 ? ShfMode::LeftWrap : ShfMode::LeftClamp)
                        : (mode == 0 ? ShfMode::RightWrap : ShfMode::RightClamp);
  }
  if (op == Opcode::Prmt) {
    static const PrmtMode modes[] = {PrmtMode::F4e, PrmtMode::B4e, PrmtMode::Rc8,
                                     PrmtMode::Ecl, PrmtMode::Ecr, PrmtMode::Rc16};
    int m = take_one({".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"});
    if (m >= 0) ins_.prmt = modes[m];
  }
  if (op == Opcode::Bfind && take(".shiftamt")) ins_.flags |= kShiftAmt;
  if (op == Opcode::Dp2a) {
    int m = take_one({".lo", ".hi"});
    if (m < 0) fail_op("dp2a needs .lo or .hi");
    ins_.mul = m == 0 ? MulMode::Lo : MulMode::Hi;
  }
  ScalarType t = take_type(true);
  ins_.type = t;
  if (is_float(t)) fail_op("'" + name_ + "' needs an integer or bit type");
  bool logical = op == Opcode::And || op == Opcode::Or || op == Opcode::Xor || op == Opcode::Not ||
                 op == Opcode::Cnot;
  if (t == ScalarType::Pred && !(logical && op != Opcode::Cnot))
    fail_op("'" + name_ + "' does not accept .pred");
  if ((op == Opcode::Shf || op == Opcode::Prmt || op == Opcode::Lop3) && t != ScalarType::B32)
    fail_op("'" + name_ + "' needs .b32");
  ScalarType u32 = ScalarType::U32;
  switch (op) {
    case Opcode::And: case Opcode::Or: case Opcode::Xor:
      expect_ops(3, 3);
      set(0, dst(raw_.ops[0], t));
      set(1, value(raw_.ops[1], t));
      set(2, value(raw_.ops[2], t));
      break;
    case Opcode::Not: case Opcode::Cnot: case Opcode::Brev:
      expect_ops(2, 2);
      set(0, dst(raw_.ops[0], t));
      set(1, value(raw_.ops[1], t));
      break;
    case Opcode::Popc: case Opcode::Clz: case Opcode::Bfind:
      expect_ops(2, 2);
      set(0, dst(raw_.ops[0], u32));
      set(1, value(raw_.ops[1], t));
      break;
    case Opcode::Shl: case Opcode::Shr:
      if (!is_int(t)) fail_op("'" + name_ + "' needs an integer or bit type");
      expect_ops(3, 3);
      set(0, dst(raw_.ops[0], t));
      set(1, value(raw_.ops[1], t));
      set(2, value(raw_.ops[2], u32));
      break;
    case Opcode::Shf:
      expect_ops(4, 4);
      set(0, dst(raw_.ops[0], t));
      for (uint32_t i = 1; i < 4; ++i) set(i, value(raw_.ops[i], t));
      break;
    case Opcode::Bfe:
      expect_ops(4, 4);
      set(0, dst(raw_.ops[0], t));
      set(1, value(raw_.ops[1], t));
      set(2, value(raw_.ops[2], u32));
      set(3, value(raw_.ops[3], u32));
      break;
    case Opcode::Bfi:
      expect_ops(5, 5);
      set(0, dst(raw_.ops[0], t));
      set(1, value(raw_.ops[1], t));
      set(2, value(raw_.ops[2], t));
      set(3, value(raw_.ops[3], u32));
      set(4, value(raw_.ops[4], u32));
      break;
    case Opcode::Prmt:
      expect_ops(4, 4);
      set(0, dst(raw_.ops[0], t));
      for (uint32_t i = 1; i < 4; ++i) set(i, value(raw_.ops[i], t));
      break;
    case Opcode::Lop3:
      expect_ops(5, 5);
      set(0, dst(raw_.ops[0], t));
      for (uint32_t i = 1; i < 4; ++i) set(i, value(raw_.ops[i], t));
      set(4, value(raw_.ops[4], u32));
      if (ins_.ops[4].kind != OperandKind::Imm || ins_.ops[4].bits > 255)
        fail(raw_.ops[4], "lop3 lookup table must be an immediate 0..255");
      break;
    case Opcode::Dp4a: case Opcode::Dp2a: {
      // dp4a.atype.btype d, a, b, c: d and c are .s32 if either input is signed.
      ScalarType bt = take_type(true);
      ins_.type2 = bt;
      bool sgn = is_signed_int(t) || is_signed_int(bt);
      ScalarType acc = sgn ? ScalarType::S32 : ScalarType::U32;
      if ((t != ScalarType::U32 && t != ScalarType::S32) || (bt != ScalarType::U32 && bt != ScalarType::S32))
        fail_op("'" + name_ + "' needs .u32/.s32 input types");
      expect_ops(4, 4);
      set(0, dst(raw_.ops[0], acc));
      set(1, value(raw_.ops[1], t));
      set(2, value(raw_.ops[2], bt));
      set(3, value(raw_.ops[3], acc));
      break;
    }
    default:
      fail_op("internal: unexpected opcode in bit decoder");
  }
}

void Decoder::decode_fpspecial() {
  Opcode op = ins_.op;
  if (op == Opcode::Testp) {
    static const TestpOp ops[] = {TestpOp::Finite, TestpOp::Infinite, TestpOp::Number,
                                  TestpOp::NotANumber, TestpOp::Normal, TestpOp::Subnormal};
    int k = take_one({".finite", ".infinite", ".number", ".notanumber", ".normal", ".subnormal"});
    if (k < 0) fail_op("testp needs an operation (.finite .infinite .number .notanumber .normal .subnormal)");
    ins_.testp = ops[k];
    ScalarType t = take_type(true);
    if (t != ScalarType::F32 && t != ScalarType::F64) fail_op("testp needs .f32 or .f64");
    ins_.type = t;
    expect_ops(2, 2);
    set(0, pred_dst(raw_.ops[0]));
    set(1, value(raw_.ops[1], t));
    return;
  }
  take_rounding(false);
  if (take(".approx")) ins_.flags |= kApprox;
  if (take(".full")) ins_.flags |= kFull;
  if (take(".ftz")) ins_.flags |= kFtz;
  ScalarType t = take_type(true);
  ins_.type = t;
  if (t != ScalarType::F32 && t != ScalarType::F64 && t != ScalarType::F16 &&
      t != ScalarType::F16x2 && t != ScalarType::BF16 && t != ScalarType::BF16x2)
    fail_op("'" + name_ + "' needs a floating-point type");
  bool approx = ins_.flags & kApprox;
  switch (op) {
    case Opcode::Copysign:
      if (ins_.rnd != Rounding::None || approx) fail_op("copysign takes no rounding modifier");
      expect_ops(3, 3);
      set(0, dst(raw_.ops[0], t));
      set(1, value(raw_.ops[1], t));
      set(2, value(raw_.ops[2], t));
      return;
    case Opcode::Sqrt: case Opcode::Rcp:
      if (!approx && ins_.rnd == Rounding::None)
        fail_op("'" + name_ + "' needs .approx or a rounding modifier");
      break;
    case Opcode::Rsqrt: case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2: case Opcode::Ex2:
    case Opcode::Tanh:
      if (!approx) fail_op("'" + name_ + "' needs .approx");
      if (ins_.rnd != Rounding::None) fail_op("'" + name_ + "' takes no rounding modifier");
      break;
    default:
      break;
  }
  expect_ops(2, 2);
  set(0, dst(raw_.ops[0], t));
  set(1, value(raw_.ops[1], t));
}

void Decoder::decode_compare() {
  Opcode op = ins_.op;
  if (op == Opcode::Setp || op == Opcode::Set) {
    ins_.cmp = take_cmp(true);
    static const BoolOp bops[] = {BoolOp::And, BoolOp::Or, BoolOp::Xor};
    int b = take_one({".and", ".or", ".xor"});
    if (b >= 0) ins_.boolop = bops[b];
    if (take(".ftz")) ins_.flags |= kFtz;
    ScalarType t1 = take_type(true);
    ScalarType t2 = op == Opcode::Set ? take_type(true) : t1;
    ScalarType ct = op == Opcode::Set ? t2 : t1;  // compared type
    if (op == Opcode::Set) {
      ins_.type = t1;
      ins_.type2 = t2;
    } else {
      ins_.type = t1;
      ins_.type2 = t1;
    }
    if (ct == ScalarType::Pred) fail_op("comparison type cannot be .pred");
    bool fcmp = is_float(ct);
    bool unordered = ins_.cmp >= CmpOp::Equ;
    bool unsigned_cmp = ins_.cmp == CmpOp::Lo || ins_.cmp == CmpOp::Ls || ins_.cmp == CmpOp::Hi ||
                        ins_.cmp == CmpOp::Hs;
    if (!fcmp && unordered) fail_op("unordered comparison on an integer type");
    if (fcmp && unsigned_cmp) fail_op(".lo/.ls/.hi/.hs are for integer comparisons");
    if (is_bits(ct) && ins_.cmp != CmpOp::Eq && ins_.cmp != CmpOp::Ne)
      fail_op("bit types only allow .eq and .ne");
    if (!fcmp && (ins_.flags & kFtz)) fail_op(".ftz on an integer comparison");
    size_t n = ins_.boolop == BoolOp::None ? 3 : 4;
    expect_ops(n, n);
    if (op == Opcode::Setp) {
      set(0, pred_dst(raw_.ops[0]));
      if (!raw_.ops[0].pipe_name.empty()) {
        RawOperand q;
        q.kind = RawOperand::Kind::Name;
        q.tok = raw_.ops[0].pipe_tok;
        q.name = raw_.ops[0].pipe_name;
        ins_.dst2 = pred_dst(q);
      }
    } else {
      if (t1 == ScalarType::Pred) fail_op("set destination cannot be .pred (use setp)");
      set(0, dst(raw_.ops[0], t1));
    }
    set(1, value(raw_.ops[1], ct));
    set(2, value(raw_.ops[2], ct));
    if (n == 4) set(3, pred(raw_.ops[3], true, false));
    return;
  }
  if (op == Opcode::Selp) {
    ScalarType t = take_type(true);
    ins_.type = t;
    if (t == ScalarType::Pred) fail_op("selp does not accept .pred");
    expect_ops(4, 4);
    set(0, dst(raw_.ops[0], t));
    set(1, value(raw_.ops[1], t));
    set(2, value(raw_.ops[2], t));
    set(3, pred(raw_.ops[3], false, false));
    return;
  }
  // slct[.ftz].dtype.s32/f32 d, a, b, c
  if (take(".ftz")) ins_.flags |= kFtz;
  ins_.type = take_type(true);
  ins_.type2 = take_type(true);
  if (ins_.type2 != ScalarType::S32 && ins_.type2 != ScalarType::F32)
    fail_op("slct selector type must be .s32 or .f32");
  expect_ops(4, 4);
  set(0, dst(raw_.ops[0], ins_.type));
  set(1, value(raw_.ops[1], ins_.type));
  set(2, value(raw_.ops[2], ins_.type));
  set(3, value(raw_.ops[3], ins_.type2));
}

void Decoder::decode_move() {
  Opcode op = ins_.op;
  if (op == Opcode::Mov) {
    take_vec();
    ScalarType t = take_type(true);
    ins_.type = t;
    if (ins_.vec != 1) fail_op("vector mov (.v2/.v4) is not supported");
    expect_ops(2, 2);
    if (t == ScalarType::Pred) {
      set(0, pred_dst(raw_.ops[0]));
      set(1, pred(raw_.ops[1], false, true));
      return;
    }
    // Packing "mov.b64 %rd, {%r1,%r2}" and unpacking "mov.b64 {%r1,%r2}, %rd": the
    // element type is the mov type split evenly.
    auto elem_type = [&](const RawOperand& r) {
      uint32_t bytes = type_bytes(t) / static_cast<uint32_t>(r.elems.size() ? r.elems.size() : 1);
      switch (bytes) {
        case 1: return ScalarType::B8;
        case 2: return ScalarType::B16;
        case 4: return ScalarType::B32;
        case 8: return ScalarType::B64;
        default: fail(r, "vector operand does not split ." + std::string(type_name(t)) + " evenly");
      }
    };
    if (raw_.ops[0].kind == RawOperand::Kind::Vector) {
      if (!is_bits(t)) fail(raw_.ops[0], "unpacking mov needs a .b type");
      set(0, vector(raw_.ops[0], elem_type(raw_.ops[0]), true));
    } else {
      set(0, dst(raw_.ops[0], t));
    }
    if (raw_.ops[1].kind == RawOperand::Kind::Vector) {
      if (!is_bits(t)) fail(raw_.ops[1], "packing mov needs a .b type");
      set(1, vector(raw_.ops[1], elem_type(raw_.ops[1]), false));
    } else {
      set(1, value(raw_.ops[1], t));
    }
    return;
  }
  if (op == Opcode::Cvt) {
    take_rounding(true);
    if (take(".ftz")) ins_.flags |= kFtz;
    if (take(".sat")) ins_.flags |= kSat;
    if (take(".relu")) ins_.flags |= kRelu;
    ScalarType d = take_type(true);
    ScalarType s = take_type(true);
    ins_.type = d;
    ins_.type2 = s;
    if (d == ScalarType::Pred || s == ScalarType::Pred) fail_op("cvt does not convert predicates");
    bool fi = is_float(d) || is_float(s);
    if (ins_.rnd != Rounding::None && !fi) fail_op("rounding modifier on an integer-to-integer cvt");
    bool int_rnd = ins_.rnd >= Rounding::Rni;
    if (int_rnd && !is_float(s)) fail_op("integer rounding (.rni/.rzi/...) needs a floating-point source");
    if (is_float(d) && is_float(s) && type_bytes(d) < type_bytes(s) && ins_.rnd == Rounding::None)
      fail_op("narrowing floating-point cvt needs a rounding modifier");
    if (is_float(d) && !is_float(s) && ins_.rnd == Rounding::None)
      fail_op("integer-to-float cvt needs a rounding modifier");
    if (!is_float(d) && is_float(s) && !int_rnd)
      fail_op("float-to-integer cvt needs an integer rounding modifier (.rni .rzi .rmi .rpi)");
    bool pair = d == ScalarType::F16x2 || d == ScalarType::BF16x2;
    expect_ops(pair ? 3 : 2, pair ? 3 : 2);
    set(0, dst(raw_.ops[0], d));
    set(1, value(raw_.ops[1], s));
    if (pair) set(2, value(raw_.ops[2], s));
    return;
  }
  if (op == Opcode::Cvta) {
    if (take(".to")) ins_.flags |= kCvtaTo;
    StateSpace sp = take_space();
    if (sp != StateSpace::Global && sp != StateSpace::Shared && sp != StateSpace::Local &&
        sp != StateSpace::Const && sp != StateSpace::Param)
      fail_op("cvta needs a state space (.global .shared .local .const .param)");
    ins_.space = sp;
    ScalarType t = take_type(true);
    if (t != ScalarType::U32 && t != ScalarType::U64) fail_op("cvta needs .u32 or .u64");
    // Generic addresses are as wide as the module's addresses (PTX: cvta's source and
    // destination are the same size); the generic windows of the non-global spaces sit
    // above 2^32, so a 32-bit module can only convert .global addresses.
    uint32_t bits = ctx_.module().address_size;
    if (type_bytes(t) * 8 != bits)
      fail_op(std::string("cvta.") + type_name(t) + " in a .address_size " + std::to_string(bits) +
              " module (generic addresses are " + std::to_string(bits) + " bits)");
    if (bits == 32 && sp != StateSpace::Global)
      fail_op(std::string("cvta of .") + space_name(sp) +
              " addresses in a .address_size 32 module: 32-bit generic windows are not modelled");
    ins_.type = t;
    expect_ops(2, 2);
    set(0, dst(raw_.ops[0], t));
    set(1, value(raw_.ops[1], t));
    return;
  }
  // isspacep.space p, a
  StateSpace sp = take_space();
  if (sp == StateSpace::None) fail_op("isspacep needs a state space");
  ins_.space = sp;
  ins_.type = ScalarType::U64;
  expect_ops(2, 2);
  set(0, pred_dst(raw_.ops[0]));
  set(1, value(raw_.ops[1], ScalarType::U64));
}

}  // namespace gputlm::isa::frontend
