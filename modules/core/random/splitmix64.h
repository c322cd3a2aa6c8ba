// The one pseudo-random generator of gputlm's launch specs and workload generators:
// SplitMix64 (Steele, Lea, Flood 2014), chosen because its output is fully specified
// here (std::uniform_*_distribution is implementation-defined), so users can reproduce
// every "random" buffer in any language. docs/launch-spec.md repeats the definition.
// The traffic generator's address streams use it too.
#pragma once

#include <cstdint>

namespace gputlm {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  static constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ull;

  uint64_t next() { return step(state_); }
  // One step on a caller-held state (testbenches keep the state in their own objects).
  static uint64_t step(uint64_t& state) { return mix(state += kGamma); }
  // The SplitMix64 output function (a bijective 64-bit hash).
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform real in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
  // Uniform integer in [lo, hi] (inclusive), by 128-bit multiply-shift (Lemire); the
  // tiny bias of skipping rejection is accepted for simplicity and stated in the docs.
  int64_t uniform_int(int64_t lo, int64_t hi) {
    uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    if (span == 0) return static_cast<int64_t>(next());  // full 64-bit range
    __extension__ typedef unsigned __int128 U128;  // GCC/Clang builtin; not ISO C++
    U128 m = static_cast<U128>(next()) * span;
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + static_cast<uint64_t>(m >> 64));
  }

 private:
  uint64_t state_;
};

}  // namespace gputlm
