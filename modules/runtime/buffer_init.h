// Turns a launch-spec init (file, fill, iota, random) into the buffer's bytes, and
// compares a buffer against expected values within tolerance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/launch_spec.h"

namespace gputlm::runtime {

// The initial contents of `b` (count * elem_bytes(type) bytes). Errors (unreadable file,
// a fill value out of the type's range) are SpecErrors at b.key_path of `spec`.
std::vector<uint8_t> initial_bytes(const LaunchSpec& spec, const BufferSpec& b);

// The result of comparing `count` elements of `actual` with `expected`:
// element i matches when both are NaN, or |a - e| <= atol + rtol * |e| (floats; and
// integers when tolerances are given), or a == e exactly (integers, no tolerances).
struct CompareResult {
  uint64_t count = 0;
  uint64_t mismatches = 0;
  uint64_t first_bad = 0;  // valid when mismatches > 0
  std::string expected_value, actual_value;  // of first_bad
  double max_abs_error = 0;
  bool ok() const { return mismatches == 0; }
};

CompareResult compare_elements(const void* actual, const void* expected, ElemType type, uint64_t count,
                               double rtol, double atol, bool tolerance_given);

std::vector<uint8_t> read_binary_file(const std::string& path);
void write_binary_file(const std::string& path, const void* data, std::size_t bytes);

}  // namespace gputlm::runtime
