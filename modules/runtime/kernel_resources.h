// Per-kernel resources recorded by `ptxas -v` beside each PTX file
// (<stem>.resources.json: {"kernels": {"<mangled>": {"registers": N, "shared_bytes": N,
// "local_bytes": N, "const_bytes": N}}}). They bound CTA occupancy in the timing model;
// the functional backend only reports them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace gputlm::runtime {

struct KernelResources {
  uint32_t registers = 0;      // per thread
  uint32_t shared_bytes = 0;   // static shared memory per CTA
  uint32_t local_bytes = 0;    // per-thread stack frame
  uint32_t const_bytes = 0;
};

class ResourceTable {
 public:
  // Reads `path`; throws std::runtime_error naming the file and key on malformed input.
  static ResourceTable load(const std::string& path);
  // The JSON beside `ptx_path` (x.ptx -> x.resources.json), or an empty table if absent.
  static ResourceTable load_beside(const std::string& ptx_path);

  std::optional<KernelResources> find(const std::string& mangled_name) const;
  const std::string& source() const { return source_; }
  bool empty() const { return kernels_.empty(); }

 private:
  std::string source_;
  std::map<std::string, KernelResources> kernels_;
};

}  // namespace gputlm::runtime
