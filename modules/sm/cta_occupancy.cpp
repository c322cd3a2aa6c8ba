#include "sm/cta_occupancy.h"

namespace gputlm::sm {

CtaShortfall cta_shortfall(const SmConfig& cfg, uint32_t resident_ctas, const CtaDemand& used,
                           const CtaDemand& demand) {
  auto over = [](const char* what, uint64_t needed, uint64_t capacity) {
    return needed > capacity ? CtaShortfall{what, needed, capacity} : CtaShortfall{};
  };
  for (const CtaShortfall& s :
       {over("cta slots", uint64_t{resident_ctas} + 1, cfg.max_ctas),
        over("threads", uint64_t{used.threads} + demand.threads, cfg.max_threads),
        over("warps", uint64_t{used.warps} + demand.warps, cfg.max_warps),
        over("registers", uint64_t{used.registers} + demand.registers, cfg.registers),
        over("shared memory", uint64_t{used.shared_bytes} + demand.shared_bytes, cfg.shared_bytes)})
    if (!s.fits()) return s;
  return {};
}

}  // namespace gputlm::sm
