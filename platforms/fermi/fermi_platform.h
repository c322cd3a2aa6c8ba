// The Fermi GTX480 platform (docs/platforms/fermi.md): the GPU top (modules/gpu) with the
// parameters of GPGPU-Sim's SM2_GTX480 configuration and seed-mechanisms §P1. The
// values live in configs/fermi_gtx480.json; the variants of the seed papers' setups in
// configs/variants/ extend it. Configs are read by platforms::read_gpu_config.
#pragma once

#include "platforms/gpu_platform.h"

namespace gputlm::platforms::fermi {

PlatformInfo platform_info();

}  // namespace gputlm::platforms::fermi
