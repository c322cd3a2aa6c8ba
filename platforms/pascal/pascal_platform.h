// The Pascal TITAN X platform (docs/platforms/pascal.md): the same GPU top as Fermi
// (modules/gpu) with the parameters of the KAWS paper's Table 1 (seed 003) and GPGPU-Sim's
// SM6_TITANX configuration, in configs/pascal_titanx.json. Configs are read by
// platforms::read_gpu_config.
#pragma once

#include "platforms/gpu_platform.h"

namespace gputlm::platforms::pascal {

PlatformInfo platform_info();

}  // namespace gputlm::platforms::pascal
