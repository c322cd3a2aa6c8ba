// Runs a parsed launch spec on a Runtime: allocates and initialises its buffers and
// symbols, performs its launches in order, writes its outputs and checks them against
// the expected files. What `gputlm run` and the workload tests use.
#pragma once

#include <map>
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

}  // namespace gputlm::runtime
