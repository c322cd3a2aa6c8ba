// Whether one more CTA fits an SM: the resource check shared by the SM (can a CTA start
// now?) and the GPU top (can a CTA of this kernel ever start on an empty SM?).
#pragma once

#include <cstdint>

#include "sm/sm_config.h"
#include "sm/sm_cta_if.h"

namespace gputlm::sm {

// The first exhausted resource, in the order CTA slots, threads, warps, registers,
// shared memory; `resource` is nullptr when the CTA fits. `needed` counts what is already
// used plus the CTA's demand, `capacity` the SM's amount (shared memory in bytes).
struct CtaShortfall {
  const char* resource = nullptr;
  uint64_t needed = 0;
  uint64_t capacity = 0;
  bool fits() const { return resource == nullptr; }
};

CtaShortfall cta_shortfall(const SmConfig& cfg, uint32_t resident_ctas, const CtaDemand& used,
                           const CtaDemand& demand);

}  // namespace gputlm::sm
