// Fuzz target: the study-file loader. Input: a study file's text, loaded from an
// experiments/ folder beside a copy of configs/ (so "config": "../configs/gpu_h.json"
// resolves as in the tree). Every
// variant that runs is then read as its job would read it: its config with its overrides,
// validated as a GPU config. Every input must be accepted or rejected with
// study::StudyError (the study) or config::ConfigError (a variant's config); anything
// else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/config/config_source.h"
#include "fuzz_support.h"
#include "platforms/gpu_platform.h"
#include "study/study_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace gputlm;
  const std::string path =
      fuzz::write_scratch("experiments/fuzz.json", std::string_view(reinterpret_cast<const char*>(data), size));
  try {
    const study::StudySpec s = study::read_study(path);
    for (const study::Variant& v : s.variants) {
      config::ConfigSource src = config::ConfigSource::from_file(v.config);
      for (const std::string& o : v.overrides) src.apply_override(o);
      (void)platforms::read_gpu_config(src);
    }
  } catch (const study::StudyError&) {
  } catch (const config::ConfigError&) {
  } catch (const std::exception& e) {
    fuzz::unexpected("fuzz_study", e.what());
  }
  return 0;
}
