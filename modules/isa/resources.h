// Per-kernel resource usage recorded by tools/regen-ptx.sh from `ptxas -v`
// (<name>.resources.json beside <name>.ptx). They bound CTA occupancy.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace gputlm::isa {

struct KernelResources {
  uint32_t registers = 0;     // registers per thread
  uint32_t shared_bytes = 0;  // static shared memory per CTA
  uint32_t local_bytes = 0;   // per-thread stack frame
  uint32_t const_bytes = 0;   // module user constant bank
};

struct ResourceTable {
  std::string file;
  std::map<std::string, KernelResources> kernels;  // by mangled entry name
  // Entry by exact mangled name; nullptr if absent.
  const KernelResources* find(const std::string& mangled) const;
};

// Reads a resources JSON. Throws std::runtime_error naming the file and the offending
// key for unreadable files, malformed JSON, unknown or missing keys, or bad values.
ResourceTable load_resources(const std::string& path);
ResourceTable parse_resources(const std::string& json_text, const std::string& name);

// "<dir>/<name>.resources.json" for "<dir>/<name>.ptx".
std::string resources_path_for(const std::string& ptx_path);

}  // namespace gputlm::isa
