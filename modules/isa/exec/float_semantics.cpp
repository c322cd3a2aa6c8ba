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
  float f = 0;
  switch (op) {
    // Reciprocals and roots: double precision, one rounding (correctly rounded).
    case ApproxOp::Rcp: f = static_cast<float>(1.0 / double(a)); break;
    case ApproxOp::Sqrt: f = static_cast<float>(std::sqrt(double(a))); break;
    case ApproxOp::Rsqrt: f = static_cast<float>(1.0 / std::sqrt(double(a))); break;
    // Transcendentals: the host's single-precision functions (glibc: < 1 ulp).
    case ApproxOp::Sin: f = std::sin(a); break;
    case ApproxOp::Cos: f = std::cos(a); break;
    case ApproxOp::Lg2: f = std::log2(a); break;
    case ApproxOp::Ex2: f = std::exp2(a); break;
    case ApproxOp::Tanh: f = std::tanh(a); break;
  }
  f = canon_f32(f);
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
