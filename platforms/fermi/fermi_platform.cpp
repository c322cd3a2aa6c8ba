#include "platforms/fermi/fermi_platform.h"

namespace gputlm::platforms::fermi {

PlatformInfo platform_info() {
  return gpu_platform_info(
      "Fermi GTX480: 15 SMs, crossbar, 6 memory partitions (L2 + GDDR5); runs kernels "
      "with `gputlm run SPEC.json --config configs/fermi_gtx480.json`");
}

}  // namespace gputlm::platforms::fermi
