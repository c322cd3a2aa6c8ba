// Concurrent specs (docs/launch-spec.md, "Concurrent specs"): a JSON file
//   {"concurrent": [{"spec": "../../nqueen/small/spec.json", "stream": 0, "repeat": 2}, ...]}
// that runs the kernels of several launch specs at once as one job, each component on its
// own stream, with its own buffers, its outputs checked against its own references. What
// seed 004's concurrent-kernel pairs need (issue 16 point 5).
//
// parse_spec_file() reads either kind of spec file, so `gputlm run` takes both.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "runtime/launch_spec.h"
#include "runtime/runtime.h"
#include "runtime/spec_runner.h"

namespace gputlm::runtime {

inline constexpr uint32_t kMaxSpecRepeat = 1000;

struct ConcurrentComponent {
  LaunchSpec spec;       // a plain launch spec (composites do not nest)
  uint32_t stream = 0;   // every launch of the component runs on it; distinct per component
  uint32_t repeat = 1;   // the component's launch sequence runs this many times, one after the other
  // After its repeats, the component runs again (each run on fresh buffers) while another
  // component has not finished its repeats: 004 §V's pairs "loop until the longer kernel
  // finishes one run". At most kMaxSpecRepeat runs in all.
  bool loop = false;
  std::string key_path;  // "concurrent[1]"
};

struct ConcurrentSpec {
  std::string path, dir;
  std::vector<ConcurrentComponent> components;
  SpecError error(const std::string& key_path, const std::string& message) const {
    return SpecError(path, key_path, message);
  }
};

// Either kind of spec file.
using SpecFile = std::variant<LaunchSpec, ConcurrentSpec>;

// Reads a spec file: a concurrent spec when its top level has "concurrent", else a launch
// spec (parse_launch_spec, unchanged). Every problem is a SpecError naming the file and key.
SpecFile parse_spec_file(const std::string& path);
ConcurrentSpec parse_concurrent_spec_text(const std::string& text, const std::string& path);
// True when the JSON text is a concurrent spec (an object with the key "concurrent").
bool is_concurrent_spec_text(const std::string& text);

// Runs every component concurrently: each component's module is loaded once, its buffers
// are allocated once per repeat (so every repeat starts from the spec's inputs, whatever
// its kernels write), all launches are issued (round by round of repeats) and synchronised
// once, and every repeat's outputs are checked. A looping component is relaunched, on new
// buffers initialised on its own stream, each time its stream drains while another
// component is short of its repeats. Reports name a component's launches
// "c<k>.r<i>.<launch>" and its outputs "c<k>.r<i>.<buffer>"; output files are not written.
SpecReport run_concurrent_spec(const ConcurrentSpec& spec, Runtime& rt);

// run_launch_spec or run_concurrent_spec.
SpecReport run_spec_file(const SpecFile& spec, Runtime& rt);

// The spec file's path (either kind).
const std::string& spec_file_path(const SpecFile& spec);

}  // namespace gputlm::runtime
