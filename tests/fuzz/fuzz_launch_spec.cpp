// Fuzz target: the launch-spec loader and its binary input files. Input: the spec's text,
// optionally followed by "\n%%\n" and the bytes of `input.bin` beside it (a buffer's
// "init": {"file": "input.bin"}, an output's "expect"). The spec is parsed and, for every
// buffer and symbol of up to 64 MiB, its initial bytes are made (files read, fills,
// iota, random); an expected file is compared with them. Every input must be accepted or
// rejected with runtime::SpecError; anything else is a finding. (Larger buffers are
// what the spec asks for; `gputlm run` reports a host that cannot hold them.)
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "runtime/buffer_init.h"
#include "runtime/launch_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace gputlm::runtime;
  namespace fuzz = gputlm::fuzz;
  const auto [spec_text, input] = fuzz::split_input(data, size);
  fuzz::write_scratch("input.bin", input);
  fuzz::write_scratch("kernel.ptx", "");
  const std::string path = fuzz::scratch() + "/spec.json";
  try {
    const LaunchSpec spec = parse_launch_spec_text(std::string(spec_text), path);
    constexpr uint64_t kMaxBytes = uint64_t{64} << 20;
    auto made = [&](const BufferSpec& b) {
      const uint64_t bytes = b.count * elem_bytes(b.type);
      return bytes <= kMaxBytes ? initial_bytes(spec, b) : std::vector<uint8_t>{};
    };
    for (const BufferSpec& s : spec.symbols) (void)made(s);
    for (const BufferSpec& b : spec.buffers) {
      const std::vector<uint8_t> bytes = made(b);
      for (const OutputSpec& o : spec.outputs) {
        if (o.buffer != b.name || !o.has_expect || bytes.empty()) continue;
        const std::vector<uint8_t> expect = read_binary_file(o.expect_file);
        if (expect.size() != bytes.size()) continue;  // the parser checked the file's size
        (void)compare_elements(bytes.data(), expect.data(), b.type, b.count, o.rtol, o.atol, o.tolerance_given);
      }
    }
  } catch (const SpecError&) {
  } catch (const std::exception& e) {
    fuzz::unexpected("fuzz_launch_spec", e.what());
  }
  return 0;
}
