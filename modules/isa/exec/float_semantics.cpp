#include "isa/exec/float_semantics.h"

#include <cfenv>

namespace gputlm::isa::sem {

namespace {
int host_mode(RoundMode m) {
  switch (m) {
    case RoundMode::Rn: return FE_TONEAREST;
    case RoundMode::Rz: return FE_TOWARDZERO;
    case RoundMode::Rm: return FE_DOWNWARD;
    case RoundMode::Rp: return FE_UPWARD;
  }
  return FE_TONEAREST;
}
}  // namespace

RoundingModeGuard::RoundingModeGuard(RoundMode m) : saved_(FE_TONEAREST), active_(m != RoundMode::Rn) {
  if (active_) {
    saved_ = std::fegetround();
    std::fesetround(host_mode(m));
  }
}

RoundingModeGuard::~RoundingModeGuard() {
  if (active_) std::fesetround(saved_);
}

float approx_f32(ApproxOp op, float a, bool ftz) {
  if (ftz) a = flush_f32(a);
  double x = a, r = 0;
  switch (op) {
    case ApproxOp::Rcp: r = 1.0 / x; break;
    case ApproxOp::Sqrt: r = std::sqrt(x); break;
    case ApproxOp::Rsqrt: r = 1.0 / std::sqrt(x); break;
    case ApproxOp::Sin: r = std::sin(x); break;
    case ApproxOp::Cos: r = std::cos(x); break;
    case ApproxOp::Lg2: r = std::log2(x); break;
    case ApproxOp::Ex2: r = std::exp2(x); break;
    case ApproxOp::Tanh: r = std::tanh(x); break;
  }
  float f = canon_f32(static_cast<float>(r));
  return ftz ? flush_f32(f) : f;
}

double approx_f64(ApproxOp op, double a) {
  switch (op) {
    case ApproxOp::Rcp: return 1.0 / a;
    case ApproxOp::Sqrt: return std::sqrt(a);
    case ApproxOp::Rsqrt: return 1.0 / std::sqrt(a);
    case ApproxOp::Sin: return std::sin(a);
    case ApproxOp::Cos: return std::cos(a);
    case ApproxOp::Lg2: return std::log2(a);
    case ApproxOp::Ex2: return std::exp2(a);
    case ApproxOp::Tanh: return std::tanh(a);
  }
  return a;
}

float div_approx_f32(float a, float b, bool ftz) {
  if (ftz) { a = flush_f32(a); b = flush_f32(b); }
  float f = canon_f32(static_cast<float>(double(a) / double(b)));
  return ftz ? flush_f32(f) : f;
}

}  // namespace gputlm::isa::sem
