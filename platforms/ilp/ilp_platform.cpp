#include "platforms/ilp/ilp_platform.h"

namespace gputlm::platforms::ilp {

PlatformInfo platform_info() {
  return gpu_platform_info(
      "ILP baseline GPU of seed 004 Table 1: 30 SMs of one 8-lane SIMD group (a warp instruction per 4 cycles), "
      "stall-on-issue round robin, 8-cycle ALU, crossbar, 16 GDDR3 channels; runs kernels with `gputlm run "
      "SPEC.json --config configs/ilp_baseline.json` (the parameter defaults listed are the GTX480's; the config "
      "file sets 004's)");
}

}  // namespace gputlm::platforms::ilp
