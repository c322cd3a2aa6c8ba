// CUDA math-library code (inlined libdevice: polynomials, Newton steps seeded by
// rcp.approx, Payne-Hanek argument reduction with madc carry chains) run by the executor
// and compared with the host's libm within the CUDA documented error bounds (a few ulp).
#include <catch2/catch.hpp>

#include <cmath>

#include "simt_test_util.h"

using namespace simt_test;

namespace {
const char* kMathlibPtx = "tests/isa/exec/cu/mathlib.ptx";

bool close(double got, double ref, double rel, double abs_tol) {
  if (std::isnan(ref)) return std::isnan(got);
  if (std::isinf(ref)) return got == ref;
  bool ok = std::fabs(got - ref) <= abs_tol + rel * std::fabs(ref);
  if (!ok) UNSCOPED_INFO("got " << std::hexfloat << got << " expected " << ref << std::defaultfloat << " ("
                                << got << " vs " << ref << ")");
  return ok;
}
}  // namespace

TEST_CASE("functional: f64 math library functions match the host within a few ulp", "[functional]") {
  TestDevice dev(kMathlibPtx);
  std::vector<double> x = {0.0, 0.5, -1.25, 3.14159, 10.0, -77.7, 1234.5, 1e6, -3e8, 1e10, 6.02e15, 1e22, -2.5e100, 1e300};
  for (int i = 0; i < 50; ++i) x.push_back(std::sin(i * 1.3) * std::pow(10.0, i % 12));
  const int n = static_cast<int>(x.size());
  uint64_t dx = dev.upload(x), out = dev.alloc<double>(6 * n, 0.0);
  dev.run("math_f64", d1((n + 31) / 32), d1(32), 0, dx, out, n);
  auto o = dev.download<double>(out, 6 * n);
  for (int t = 0; t < n; ++t) {
    double v = x[t];
    INFO("x = " << v);
    CHECK(close(o[6 * t + 0], std::sin(v), 1e-15, 1e-300));
    CHECK(close(o[6 * t + 1], std::cos(v), 1e-15, 1e-300));
    CHECK(close(o[6 * t + 2], std::exp(v * 1e-3), 1e-15, 0));
    CHECK(close(o[6 * t + 3], std::log(std::fabs(v) + 1.0), 1e-15, 0));
    CHECK(close(o[6 * t + 4], std::pow(std::fabs(v) * 1e-3 + 0.5, 1.7), 1e-14, 0));
    double sq = std::sqrt(std::fabs(v)), cb = std::cbrt(v);
    CHECK(close(o[6 * t + 5], sq + cb, 0, 1e-15 * (sq + std::fabs(cb)) + 1e-300));  // may cancel
  }
}

TEST_CASE("functional: f32 math library functions match the host within a few ulp", "[functional]") {
  TestDevice dev(kMathlibPtx);
  std::vector<float> x = {0.0f, 0.5f, -1.25f, 3.14159f, 10.0f, -77.7f, 1234.5f, 1e5f, -3e5f, 1e6f, 3e7f, -1e9f};
  for (int i = 0; i < 50; ++i) x.push_back(float(std::sin(i * 0.7) * std::pow(10.0, i % 6)));
  const int n = static_cast<int>(x.size());
  uint64_t dx = dev.upload(x), out = dev.alloc<float>(6 * n, 0.0f);
  dev.run("math_f32", d1((n + 31) / 32), d1(32), 0, dx, out, n);
  auto o = dev.download<float>(out, 6 * n);
  for (int t = 0; t < n; ++t) {
    double v = x[t];
    INFO("x = " << v);
    // Arguments computed in f32 exactly as the PTX does (fma.rn.f32 for the pow base);
    // results rounded to f32 so overflow/underflow behave alike.
    float xf = x[t];
    auto f = [](double r) { return double(float(r)); };
    CHECK(close(o[6 * t + 0], f(std::sin(v)), 5e-7, 1e-7));
    CHECK(close(o[6 * t + 1], f(std::cos(v)), 5e-7, 1e-7));
    CHECK(close(o[6 * t + 2], f(std::exp(double(xf * 1e-3f))), 5e-7, 0));
    CHECK(close(o[6 * t + 3], f(std::log(double(std::fabs(xf) + 1.0f))), 5e-7, 0));
    CHECK(close(o[6 * t + 4], f(std::pow(double(std::fma(std::fabs(xf), 1e-3f, 0.5f)), double(1.7f))), 5e-7, 0));
    CHECK(close(o[6 * t + 5], f(std::tanh(double(xf * 1e-2f)) + std::atan2(v, 3.0)), 1e-6, 2e-7));
  }
}
