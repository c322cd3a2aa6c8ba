#include "isa/exec/warp_collectives.h"

#include "isa/exec/convert_semantics.h"
#include "isa/exec/float_semantics.h"
#include "isa/exec/int_semantics.h"

namespace gputlm::isa::sem {

void shfl_warp(ShflMode mode, const uint32_t values[kWarpSize], const uint32_t b[kWarpSize],
               const uint32_t c[kWarpSize], uint32_t active, uint32_t out[kWarpSize],
               bool pred_out[kWarpSize]) {
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (!((active >> lane) & 1)) continue;
    ShflSource s = shfl_source(mode, lane, b[lane], c[lane]);
    out[lane] = values[s.lane];
    pred_out[lane] = s.valid;
  }
}

bool vote_all(uint32_t pred_mask, uint32_t participating) {
  return (pred_mask & participating) == participating;
}
bool vote_any(uint32_t pred_mask, uint32_t participating) { return (pred_mask & participating) != 0; }
bool vote_uni(uint32_t pred_mask, uint32_t participating) {
  uint32_t p = pred_mask & participating;
  return p == 0 || p == participating;
}
uint32_t vote_ballot(uint32_t pred_mask, uint32_t participating) { return pred_mask & participating; }

void match_any(const uint64_t values[kWarpSize], uint32_t participating, uint32_t out[kWarpSize]) {
  for (uint32_t i = 0; i < kWarpSize; ++i) {
    if (!((participating >> i) & 1)) continue;
    uint32_t m = 0;
    for (uint32_t j = 0; j < kWarpSize; ++j)
      if (((participating >> j) & 1) && values[j] == values[i]) m |= 1u << j;
    out[i] = m;
  }
}

uint32_t match_all(const uint64_t values[kWarpSize], uint32_t participating, bool* all_equal) {
  bool eq = true, have = false;
  uint64_t first = 0;
  for (uint32_t j = 0; j < kWarpSize; ++j) {
    if (!((participating >> j) & 1)) continue;
    if (!have) { first = values[j]; have = true; }
    else if (values[j] != first) eq = false;
  }
  *all_equal = eq;
  return eq ? participating : 0;
}

namespace {
template <class T>
T int_atomic(AtomOp op, T old, T b, T c) {
  switch (op) {
    case AtomOp::Add: return wrap_add(old, b);
    case AtomOp::Min: return old < b ? old : b;
    case AtomOp::Max: return old > b ? old : b;
    case AtomOp::Inc: return old >= b ? T(0) : wrap_add(old, T(1));
    case AtomOp::Dec: return (old == 0 || old > b) ? b : wrap_sub(old, T(1));
    case AtomOp::Cas: return old == b ? c : old;
    case AtomOp::Exch: return b;
    case AtomOp::And: return T(old & b);
    case AtomOp::Or: return T(old | b);
    case AtomOp::Xor: return T(old ^ b);
    case AtomOp::None: break;
  }
  return old;
}
}  // namespace

namespace {
// Adds packed 16-bit floats lane-wise (`halves` of them), rounding each sum to nearest.
uint64_t add_small_floats(uint64_t old, uint64_t b, uint32_t halves, bool bf16) {
  uint64_t r = 0;
  for (uint32_t k = 0; k < halves; ++k) {
    uint16_t x = static_cast<uint16_t>(old >> (16 * k)), y = static_cast<uint16_t>(b >> (16 * k));
    double s = bf16 ? double_from_bf16(x) + double_from_bf16(y) : double_from_half(x) + double_from_half(y);
    r |= uint64_t{bf16 ? bf16_from_double(s, RoundMode::Rn) : half_from_double(s, RoundMode::Rn)} << (16 * k);
  }
  return r;
}
}  // namespace

uint64_t atomic_update(AtomOp op, ScalarType t, uint64_t old, uint64_t b, uint64_t c) {
  switch (t) {
    case ScalarType::F16: return op == AtomOp::Add ? add_small_floats(old, b, 1, false) : old;
    case ScalarType::F16x2: return op == AtomOp::Add ? add_small_floats(old, b, 2, false) : old;
    case ScalarType::BF16: return op == AtomOp::Add ? add_small_floats(old, b, 1, true) : old;
    case ScalarType::BF16x2: return op == AtomOp::Add ? add_small_floats(old, b, 2, true) : old;
    case ScalarType::F32: {
      if (op == AtomOp::Exch) return b & 0xFFFFFFFFu;
      if (op == AtomOp::Cas) return (old & 0xFFFFFFFFu) == (b & 0xFFFFFFFFu) ? (c & 0xFFFFFFFFu) : old;
      float r = fp_add(f32_from_bits(uint32_t(old)), f32_from_bits(uint32_t(b)),
                       FpModifiers{RoundMode::Rn, true, false});
      return f32_bits(r);
    }
    case ScalarType::F64: {
      if (op == AtomOp::Exch) return b;
      if (op == AtomOp::Cas) return old == b ? c : old;
      return f64_bits(f64_from_bits(old) + f64_from_bits(b));
    }
    case ScalarType::S32:
      return uint32_t(int_atomic<int32_t>(op, int32_t(old), int32_t(b), int32_t(c)));
    case ScalarType::S64:
      return uint64_t(int_atomic<int64_t>(op, int64_t(old), int64_t(b), int64_t(c)));
    case ScalarType::U64: case ScalarType::B64:
      return int_atomic<uint64_t>(op, old, b, c);
    case ScalarType::U16: case ScalarType::B16:
      return int_atomic<uint16_t>(op, uint16_t(old), uint16_t(b), uint16_t(c));
    default:  // u32, b32
      return int_atomic<uint32_t>(op, uint32_t(old), uint32_t(b), uint32_t(c));
  }
}

}  // namespace gputlm::isa::sem
