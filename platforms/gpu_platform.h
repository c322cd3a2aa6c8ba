// The GPU platforms (fermi, pascal, ilp: gpu::GpuConfig::platforms()) share one GPU top
// (modules/gpu); they differ only in their configs (configs/fermi_gtx480.json,
// configs/pascal_titanx.json, configs/ilp_baseline.json). This reads such a config,
// whichever GPU it names.
#pragma once

#include <string>

#include "core/config/config_source.h"
#include "gpu/gpu_config.h"
#include "platforms/platform_registry.h"

namespace gputlm::platforms {

// Reads a GPU config whose "platform" is a GPU platform (any -p overrides already applied
// to `source`) and validates it. Throws config::ConfigError naming the file and key.
gpu::GpuConfig read_gpu_config(const config::ConfigSource& source);

// A GPU platform's registry entry: its parameters (keys and descriptions; the defaults
// listed are GpuConfig's, the GTX480's) and a runner that prints the config's summary.
PlatformInfo gpu_platform_info(const std::string& description);

}  // namespace gputlm::platforms
