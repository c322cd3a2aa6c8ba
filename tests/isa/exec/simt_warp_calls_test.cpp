// Warp collectives, non-inlined device functions (incl. recursion) and double precision
// on real nvcc PTX (cu/warp_calls.cu), checked against C++ reference computations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "simt_test_util.h"

using namespace simt_test;

namespace {
const char* kWarpCallsPtx = "tests/isa/exec/cu/warp_calls.ptx";
}

TEST_CASE("simt: warp shuffles, votes under a partial mask, match.any", "[simt]") {
  TestDevice dev(kWarpCallsPtx);
  const int n = 128;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 53 + 11) % 97;
  uint64_t din = dev.upload(in), sum = dev.alloc<int>(n / 32, 0), mx = dev.alloc<int>(n, 0);
  uint64_t scan = dev.alloc<int>(n, 0), ballots = dev.alloc<uint32_t>(n, 0), votes = dev.alloc<int>(n, 0);
  uint64_t match = dev.alloc<uint32_t>(n, 0);
  dev.run("warp_ops", d1(2), d1(64), 0, din, sum, mx, scan, ballots, votes, match);
  auto osum = dev.download<int>(sum, n / 32);
  auto omx = dev.download<int>(mx, n);
  auto oscan = dev.download<int>(scan, n);
  auto oballot = dev.download<uint32_t>(ballots, n);
  auto ovotes = dev.download<int>(votes, n);
  auto omatch = dev.download<uint32_t>(match, n);
  for (int w = 0; w < n / 32; ++w) {
    const int* v = &in[w * 32];
    int s = 0, m = v[0];
    uint32_t odd = 0, by3 = 0;
    bool any = false, all = true;
    for (int l = 0; l < 32; ++l) {
      s += v[l];
      m = std::max(m, v[l]);
      odd |= uint32_t(v[l] & 1) << l;
      if (l < 20) {
        by3 |= uint32_t(v[l] % 3 == 0) << l;
        any = any || v[l] > 90;
        all = all && v[l] >= 0;
      }
    }
    CHECK(osum[w] == s);
    int run = 0;
    for (int l = 0; l < 32; ++l) {
      run += v[l];
      CHECK(omx[w * 32 + l] == m);
      CHECK(oscan[w * 32 + l] == run);
      CHECK(oballot[w * 32 + l] == (l < 20 ? (odd ^ by3) : odd));
      CHECK(ovotes[w * 32 + l] == (l < 20 ? int(any) * 2 + int(all) : -1));
      uint32_t same = 0;
      for (int k = 0; k < 32; ++k) same |= uint32_t(v[k] % 4 == v[l] % 4) << k;
      CHECK(omatch[w * 32 + l] == same);
    }
  }
}

namespace {
int collatz(long long x) {
  int s = 0;
  while (x != 1) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++s;
  }
  return s;
}
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
}  // namespace

TEST_CASE("simt: non-inlined device functions, divergent calls and recursion", "[simt]") {
  TestDevice dev(kWarpCallsPtx);
  const int n = 96;
  std::vector<float> w = {0.5f, -1.0f, 2.0f, 0.25f, 3.0f, -0.75f, 1.5f, 1.0f};
  uint64_t dw = dev.upload(w), steps = dev.alloc<int>(n, 0), fibs = dev.alloc<int>(n, 0), ws = dev.alloc<float>(n, 0);
  dev.run("calls", d1(3), d1(32), 0, dw, steps, fibs, ws);
  auto os = dev.download<int>(steps, n);
  auto of = dev.download<int>(fibs, n);
  auto ow = dev.download<float>(ws, n);
  for (int t = 0; t < n; ++t) {
    CHECK(os[t] == collatz(t + 1));
    CHECK(of[t] == (t % 3 == 0 ? fib(t % 15) : -1));
    int k = t % 8;
    double s = 0;
    for (int i = 0; i < 8; ++i) s += double(w[(((i * 3 + k) % 8) + k) % 8]) * t;
    CHECK(ow[t] == Approx(s).epsilon(1e-6).margin(1e-6));
  }
}

TEST_CASE("functional: double precision fma, division, sqrt and conversions are IEEE-exact", "[functional]") {
  TestDevice dev(kWarpCallsPtx);
  const int n = 100;
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = std::sin(i * 0.37) * 12.5;
    b[i] = std::cos(i * 0.11) * 3.0 + 0.5;
  }
  uint64_t da = dev.upload(a), db = dev.upload(b), out = dev.alloc<double>(n, 0.0);
  dev.run("dp", d1(4), d1(32), 0, da, db, out, n);
  auto o = dev.download<double>(out, n);
  for (int t = 0; t < n; ++t) {
    double x = a[t], y = b[t];
    double r = std::fma(x, y, 1.0) / (y + 3.0) + std::sqrt(std::fabs(x)) - double((long long)(x * 10.0));
    CHECK(o[t] == r);
  }
}
