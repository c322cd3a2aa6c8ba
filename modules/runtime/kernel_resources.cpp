#include "runtime/kernel_resources.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace gputlm::runtime {

ResourceTable ResourceTable::load(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot open the resources file");
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(f);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(path + ": invalid JSON: " + e.what());
  }
  ResourceTable t;
  t.source_ = path;
  if (!root.is_object() || !root.contains("kernels") || !root["kernels"].is_object())
    throw std::runtime_error(path + ": kernels: missing or not an object");
  for (const auto& [name, k] : root["kernels"].items()) {
    std::string key = "kernels." + name;
    if (!k.is_object()) throw std::runtime_error(path + ": " + key + ": expected an object");
    KernelResources r;
    for (const auto& [field, v] : k.items()) {
      uint32_t* dst = field == "registers"      ? &r.registers
                      : field == "shared_bytes" ? &r.shared_bytes
                      : field == "local_bytes"  ? &r.local_bytes
                      : field == "const_bytes"  ? &r.const_bytes
                                                : nullptr;
      if (!dst) throw std::runtime_error(path + ": " + key + "." + field + ": unknown key");
      if (!v.is_number_unsigned() || v.get<uint64_t>() > 0xffffffffu)
        throw std::runtime_error(path + ": " + key + "." + field + ": expected a non-negative integer");
      *dst = v.get<uint32_t>();
    }
    t.kernels_[name] = r;
  }
  return t;
}

ResourceTable ResourceTable::load_beside(const std::string& ptx_path) {
  std::filesystem::path p(ptx_path);
  p.replace_extension(".resources.json");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) return ResourceTable{};
  return load(p.string());
}

std::optional<KernelResources> ResourceTable::find(const std::string& mangled_name) const {
  auto it = kernels_.find(mangled_name);
  if (it == kernels_.end()) return std::nullopt;
  return it->second;
}

}  // namespace gputlm::runtime
