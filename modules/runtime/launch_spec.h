// Launch specs: JSON files that describe how to run kernels without host code (the
// format is documented in docs/launch-spec.md). parse_launch_spec() validates the whole
// file up front; every problem is a SpecError naming the spec file and the JSON key path
// (e.g. "saxpy.json: buffers.x.init.file: ..."). Checks that need the PTX (kernel
// names, parameter types) happen when the spec is run (spec_runner.h) and name the key
// path the same way.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/element_type.h"

namespace gputlm::runtime {

class SpecError : public std::runtime_error {
 public:
  SpecError(const std::string& file, const std::string& key_path, const std::string& message);
  const std::string& file() const { return file_; }
  const std::string& key_path() const { return key_path_; }

 private:
  std::string file_, key_path_;
};

// How a buffer (or symbol) is initialised.
struct InitSpec {
  enum class Kind : uint8_t { File, Fill, Iota, Random } kind = Kind::Fill;
  std::string file;  // File: absolute or spec-relative path, already resolved
  Number value = Number::of_signed(0);  // Fill
  Number start = Number::of_signed(0), step = Number::of_signed(1);  // Iota
  uint64_t seed = 0;  // Random
  Number min = Number::of_signed(0), max = Number::of_signed(1);  // Random
};

struct BufferSpec {
  std::string name;
  ElemType type = ElemType::U8;
  uint64_t count = 0;  // elements; for a File init without "count", the file's size decides
  bool count_given = false;
  InitSpec init;
  std::string key_path;  // "buffers.x"
};

struct ArgSpec {
  bool is_buffer = false;
  std::string buffer;  // a buffer name (device address)
  Number number;
  std::string key_path;  // "args[2]" or "launches[1].args[2]"
};

struct LaunchEntry {
  std::string kernel;
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  uint32_t shared_bytes = 0;  // dynamic shared memory per CTA
  std::vector<ArgSpec> args;
  std::optional<uint32_t> registers, shared_static_bytes;  // override the resources JSON
  uint32_t stream = 0;  // launches on different streams may run concurrently (timing model)
  std::string key_path;  // "" (top level) or "launches[3]"
};

struct OutputSpec {
  std::string buffer;
  std::string file;  // resolved; empty = do not write
  bool has_expect = false;
  std::string expect_file;  // resolved
  double rtol = 0, atol = 0;
  bool tolerance_given = false;
  std::string key_path;  // "outputs.y"
};

struct LaunchSpec {
  std::string path;  // the spec file
  std::string dir;   // its folder; relative paths resolve here
  std::string ptx;   // resolved PTX path
  std::vector<BufferSpec> buffers;  // sorted by name
  std::vector<BufferSpec> symbols;  // module __constant__/__device__ symbols to initialise
  std::vector<LaunchEntry> launches;
  std::vector<OutputSpec> outputs;  // sorted by buffer name

  const BufferSpec* find_buffer(const std::string& name) const;
  // A SpecError for this spec at `key_path`.
  SpecError error(const std::string& key_path, const std::string& message) const {
    return SpecError(path, key_path, message);
  }
};

LaunchSpec parse_launch_spec(const std::string& path);
// The spec file's text; a file that cannot be opened is a SpecError naming it.
std::string read_spec_text(const std::string& path);
// Parses spec text; `path` names it in errors and decides where relative paths resolve.
LaunchSpec parse_launch_spec_text(const std::string& text, const std::string& path);

}  // namespace gputlm::runtime
