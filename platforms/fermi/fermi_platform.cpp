#include "platforms/fermi/fermi_platform.h"

namespace gputlm::platforms::fermi {

gpu::GpuConfig read_gpu_config(const config::ConfigSource& source) {
  const std::string platform = platform_of(source);
  if (platform != "fermi")
    throw config::ConfigError(source.origin_of("platform") + ": platform '" + platform +
                              "' is not a GPU platform (a GPU config says \"platform\": \"fermi\")");
  gpu::GpuConfig cfg;  // the defaults are the GTX480's
  config::read(source, cfg);
  cfg.validate();
  return cfg;
}

PlatformInfo platform_info() {
  PlatformInfo info;
  info.description = "Fermi GTX480: 15 SMs, crossbar, 6 memory partitions (L2 + GDDR5); runs kernels "
                     "with `gputlm run SPEC.json --config configs/fermi_gtx480.json`";
  info.list_params = [] { return config::list(gpu::GpuConfig{}); };
  info.run = [](const config::ConfigSource& source, const RunOptions& opts, std::ostream& out) {
    const gpu::GpuConfig cfg = read_gpu_config(source);
    if (!opts.quiet) {
      out << cfg.summary();
      out << "(a GPU platform runs kernels: gputlm run SPEC.json --config " << source.main_file() << ")\n";
    }
    return 0;
  };
  return info;
}

}  // namespace gputlm::platforms::fermi
