// Runs a parsed launch spec on a Runtime: allocates and initialises its buffers and
// symbols, performs its launches in order, writes its outputs and checks them against
// the expected files. What `gputlm run` and the workload tests use.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/buffer_init.h"
#include "runtime/launch_spec.h"
#include "runtime/runtime.h"

namespace gputlm::runtime {

struct OutputReport {
  std::string buffer;
  ElemType type = ElemType::U8;
  std::string written_file;  // empty if not written
  bool checked = false;      // had an "expect"
  double rtol = 0, atol = 0;
  CompareResult compare;
  // One line: "ok" or the first bad index, expected and actual, and the count of bad
  // elements.
  std::string message() const;
};

struct SpecReport {
  std::string spec_path;
  std::string backend;
  std::vector<LaunchResult> launches;
  std::vector<OutputReport> outputs;
  std::map<std::string, DevicePtr> buffers;  // device address of every spec buffer
  bool ok() const;
};

// Throws SpecError (naming the spec and key path) for problems found only with the PTX
// at hand: unknown kernel, arguments that do not fit, symbols that do not exist. Errors
// of execution (out-of-bounds access, deadlock) propagate naming the launch.
SpecReport run_launch_spec(const LaunchSpec& spec, Runtime& rt);

// The steps of run_launch_spec, also used by run_concurrent_spec (concurrent_spec.h).
ModuleId load_spec_module(const LaunchSpec& spec, Runtime& rt);
// Allocates and initialises every buffer of the spec: name -> device address. With a
// stream, the copies wait only for that stream's launches (memcpy_to_device_on_stream).
std::map<std::string, DevicePtr> allocate_spec_buffers(const LaunchSpec& spec, Runtime& rt,
                                                       std::optional<uint32_t> stream = std::nullopt);
void init_spec_symbols(const LaunchSpec& spec, Runtime& rt, ModuleId m);
// Where a spec's launches go: a stream that replaces each launch's own, and a prefix of
// their labels ("c1.r0." for a component of a concurrent spec).
struct SpecLaunchPlacement {
  std::optional<uint32_t> stream;
  std::string label_prefix;
};
// Issues the spec's launches in order (no synchronisation) on the buffers of `device`.
void issue_spec_launches(const LaunchSpec& spec, Runtime& rt, ModuleId m,
                         const std::map<std::string, DevicePtr>& device, const SpecLaunchPlacement& place);
// Reads back and checks the spec's outputs; reports name them `name_prefix` + buffer;
// each output's "file" is written only when `write_files`.
std::vector<OutputReport> check_spec_outputs(const LaunchSpec& spec, Runtime& rt,
                                             const std::map<std::string, DevicePtr>& device,
                                             const std::string& name_prefix, bool write_files);

}  // namespace gputlm::runtime
