#include "platforms/pascal/pascal_platform.h"

namespace gputlm::platforms::pascal {

PlatformInfo platform_info() {
  return gpu_platform_info(
      "Pascal TITAN X: 28 SMs of 4 dual-issue schedulers, crossbar, 12 memory partitions of 2 L2 slices "
      "(GDDR5X); runs kernels with `gputlm run SPEC.json --config configs/pascal_titanx.json` (the "
      "parameter defaults listed are the GTX480's; the config file sets Pascal's)");
}

}  // namespace gputlm::platforms::pascal
