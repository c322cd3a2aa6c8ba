// "0x1f" text of an address or PC for error messages and traces (one definition for every
// block's messages, so they read alike).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace gputlm {

inline std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace gputlm
