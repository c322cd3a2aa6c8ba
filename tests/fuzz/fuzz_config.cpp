// Fuzz target: the GPU config loader. Input: a config file's text, optionally followed by
// "\n%%\n" and one `-p key=value` override per line. The file is loaded from a copy of
// configs/variants/ (so "extends": "../fermi_gtx480.json" resolves as in the tree), the
// overrides are applied and the result is read and validated as a GPU config. Every input
// must be accepted or rejected with config::ConfigError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/config/config_source.h"
#include "fuzz_support.h"
#include "platforms/gpu_platform.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace gputlm;
  const auto [file, overrides] = fuzz::split_input(data, size);
  const std::string path = fuzz::write_scratch("configs/variants/fuzz.json", file);
  try {
    config::ConfigSource src = config::ConfigSource::from_file(path);
    std::size_t at = 0;
    while (at < overrides.size()) {
      std::size_t end = overrides.find('\n', at);
      if (end == std::string_view::npos) end = overrides.size();
      if (end > at) src.apply_override(std::string(overrides.substr(at, end - at)));
      at = end + 1;
    }
    (void)platforms::read_gpu_config(src);
  } catch (const config::ConfigError&) {
  } catch (const std::exception& e) {
    fuzz::unexpected("fuzz_config", e.what());
  }
  return 0;
}
