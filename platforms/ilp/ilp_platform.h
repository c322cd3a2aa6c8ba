// The ILP paper's baseline GPU (docs/platforms/ilp.md): the same GPU top as Fermi
// (modules/gpu) with the parameters of seed 004's Table 1 (30 SMs of 8 lanes with a
// stall-on-issue round-robin scheduler and an 8-cycle ALU, 16 GDDR3 channels) and, where
// Table 1 is silent, GPGPU-Sim 3.0.1's QuadroFX5800 DRAM and the GTX480's other values, in
// configs/ilp_baseline.json. Configs are read by platforms::read_gpu_config.
#pragma once

#include "platforms/gpu_platform.h"

namespace gputlm::platforms::ilp {

PlatformInfo platform_info();

}  // namespace gputlm::platforms::ilp
