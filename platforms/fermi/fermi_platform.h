// The Fermi GTX480 platform (docs/platforms/fermi.md): the GPU top (modules/gpu) with the
// parameters of GPGPU-Sim's SM2_GTX480 configuration and seed-mechanisms §P1. The
// values live in configs/fermi_gtx480.json; the variants of the seed papers' setups in
// configs/variants/ extend it.
#pragma once

#include "core/config/config_source.h"
#include "gpu/gpu_config.h"
#include "platforms/platform_registry.h"

namespace gputlm::platforms::fermi {

// Reads a GPU config whose "platform" is "fermi" (any -p overrides already applied to
// `source`) and validates it. Throws config::ConfigError naming the file and key.
gpu::GpuConfig read_gpu_config(const config::ConfigSource& source);

PlatformInfo platform_info();

}  // namespace gputlm::platforms::fermi
