// Floating-point handlers (f32, f64): arithmetic with rounding/ftz/sat modifiers, min/max,
// special functions, copysign and testp.
#include "isa/exec/exec_context.h"

namespace gputlm::isa::exec_detail {

using namespace sem;

namespace {

template <class F, int Kind>  // 0 add, 1 sub, 2 mul, 3 div (IEEE), 4 min, 5 max, 6 copysign
void h_fbinary(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  uint64_t* d = dst(c, 0);
  FpModifiers m = fp_mods(c.in);
  bool nan = (c.in.flags & kNaN) != 0;
  bool relu = (c.in.flags & kRelu) != 0;
  for_each_lane(c.mask, [&](uint32_t l) {
    F x = get<F>(a[l]), y = get<F>(b[l]), r;
    if constexpr (Kind == 0) r = fp_add(x, y, m);
    else if constexpr (Kind == 1) r = fp_sub(x, y, m);
    else if constexpr (Kind == 2) r = fp_mul(x, y, m);
    else if constexpr (Kind == 3) r = fp_div(x, y, m);
    else if constexpr (Kind == 4) r = fp_min(x, y, m.ftz, nan);
    else if constexpr (Kind == 5) r = fp_max(x, y, m.ftz, nan);
    else r = fp_copysign(x, y);
    if constexpr (Kind == 4 || Kind == 5) {
      if (relu && !std::isnan(r) && r < F(0)) r = F(0);
    }
    d[l] = put<F>(r);
  });
}

template <class F>
void h_ffma(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  FpModifiers m = fp_mods(c.in);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<F>(fp_fma(get<F>(a[l]), get<F>(b[l]), get<F>(e[l]), m)); });
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GPUTLM_HW_FMA 1
// fma.rn.f32 without ftz/sat on hosts with FMA3: the fused multiply-add inlines to one
// instruction (same IEEE result as std::fma, without a libm call per lane).
__attribute__((target("fma"))) void h_ffma_f32_rn_hw(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) {
    float r = __builtin_fmaf(get<float>(a[l]), get<float>(b[l]), get<float>(e[l]));
    d[l] = r != r ? kCanonicalNanF32 : f32_bits(r);
  });
}
#endif

template <class F, int Kind>  // 0 abs, 1 neg, 2 sqrt (IEEE), 3 rcp (IEEE)
void h_funary(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  FpModifiers m = fp_mods(c.in);
  for_each_lane(c.mask, [&](uint32_t l) {
    F x = get<F>(a[l]), r;
    if constexpr (Kind == 0) r = fp_abs(x, m.ftz);
    else if constexpr (Kind == 1) r = fp_neg(x, m.ftz);
    else if constexpr (Kind == 2) r = fp_sqrt(x, m);
    else r = fp_rcp(x, m);
    d[l] = put<F>(r);
  });
}

template <ApproxOp Op>
void h_approx_f32(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  bool ftz = (c.in.flags & kFtz) != 0;
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<float>(approx_f32(Op, get<float>(a[l]), ftz)); });
}
template <ApproxOp Op>
void h_approx_f64(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint64_t* d = dst(c, 0);
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<double>(approx_f64(Op, get<double>(a[l]))); });
}
void h_div_approx_f32(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  uint64_t* d = dst(c, 0);
  bool ftz = (c.in.flags & kFtz) != 0;
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = put<float>(div_approx_f32(get<float>(a[l]), get<float>(b[l]), ftz)); });
}

template <class F>
void h_testp(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint32_t r = 0;
  TestpOp op = c.in.testp;
  for_each_lane(c.mask, [&](uint32_t l) { r |= uint32_t(fp_testp(get<F>(a[l]), op)) << l; });
  write_pred(c, c.in.ops[0], r);
}

template <int Kind>
ExecFn by_float(ScalarType t) {
  if (t == ScalarType::F32) return &h_fbinary<float, Kind>;
  if (t == ScalarType::F64) return &h_fbinary<double, Kind>;
  return nullptr;
}
template <int Kind>
ExecFn by_float_unary(ScalarType t) {
  if (t == ScalarType::F32) return &h_funary<float, Kind>;
  if (t == ScalarType::F64) return &h_funary<double, Kind>;
  return nullptr;
}
template <ApproxOp Op>
ExecFn approx(ScalarType t) {
  if (t == ScalarType::F32) return &h_approx_f32<Op>;
  if (t == ScalarType::F64) return &h_approx_f64<Op>;
  return nullptr;
}

}  // namespace

ExecFn select_float_handler(const Instruction& in) {
  ScalarType t = in.type;
  bool apx = (in.flags & kApprox) != 0;
  switch (in.op) {
    case Opcode::Add: return by_float<0>(t);
    case Opcode::Sub: return by_float<1>(t);
    case Opcode::Mul: return by_float<2>(t);
    case Opcode::Div:
      if (t == ScalarType::F32 && (apx || (in.flags & kFull))) return &h_div_approx_f32;
      return by_float<3>(t);
    case Opcode::Min: return by_float<4>(t);
    case Opcode::Max: return by_float<5>(t);
    case Opcode::Copysign: return by_float<6>(t);
    case Opcode::Mad: case Opcode::Fma:
#ifdef GPUTLM_HW_FMA
      if (t == ScalarType::F32 && (in.rnd == Rounding::Rn || in.rnd == Rounding::None) &&
          !(in.flags & (kFtz | kSat)) && __builtin_cpu_supports("fma"))
        return &h_ffma_f32_rn_hw;
#endif
      if (t == ScalarType::F32) return &h_ffma<float>;
      if (t == ScalarType::F64) return &h_ffma<double>;
      return nullptr;
    case Opcode::Abs: return by_float_unary<0>(t);
    case Opcode::Neg: return by_float_unary<1>(t);
    case Opcode::Sqrt: return apx ? approx<ApproxOp::Sqrt>(t) : by_float_unary<2>(t);
    case Opcode::Rcp: return apx ? approx<ApproxOp::Rcp>(t) : by_float_unary<3>(t);
    case Opcode::Rsqrt: return approx<ApproxOp::Rsqrt>(t);
    case Opcode::Sin: return approx<ApproxOp::Sin>(t);
    case Opcode::Cos: return approx<ApproxOp::Cos>(t);
    case Opcode::Lg2: return approx<ApproxOp::Lg2>(t);
    case Opcode::Ex2: return approx<ApproxOp::Ex2>(t);
    case Opcode::Tanh: return approx<ApproxOp::Tanh>(t);
    case Opcode::Testp:
      if (t == ScalarType::F32) return &h_testp<float>;
      if (t == ScalarType::F64) return &h_testp<double>;
      return nullptr;
    default: return nullptr;
  }
}

}  // namespace gputlm::isa::exec_detail
