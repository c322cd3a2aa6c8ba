// Loader for <name>.resources.json (tools/regen-ptx.sh).
#include "isa/resources.h"

#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace gputlm::isa {

const KernelResources* ResourceTable::find(const std::string& mangled) const {
  auto it = kernels.find(mangled);
  return it == kernels.end() ? nullptr : &it->second;
}

ResourceTable parse_resources(const std::string& json_text, const std::string& name) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(name + ": malformed resources JSON: " + e.what());
  }
  if (!j.is_object()) throw std::runtime_error(name + ": resources JSON must be an object");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "kernels")
      throw std::runtime_error(name + ": unknown key '" + it.key() + "' (expected 'kernels')");
  if (!j.contains("kernels") || !j["kernels"].is_object())
    throw std::runtime_error(name + ": missing object 'kernels'");
  ResourceTable t;
  t.file = name;
  for (auto& [kernel, v] : j["kernels"].items()) {
    std::string where = name + ": kernels." + kernel;
    if (!v.is_object()) throw std::runtime_error(where + ": must be an object");
    KernelResources r;
    struct Field {
      const char* key;
      uint32_t* dst;
    } fields[] = {{"registers", &r.registers},
                  {"shared_bytes", &r.shared_bytes},
                  {"local_bytes", &r.local_bytes},
                  {"const_bytes", &r.const_bytes}};
    for (auto it = v.begin(); it != v.end(); ++it) {
      bool known = false;
      for (const Field& f : fields) known |= it.key() == f.key;
      if (!known) throw std::runtime_error(where + ": unknown key '" + it.key() + "'");
    }
    for (const Field& f : fields) {
      if (!v.contains(f.key)) throw std::runtime_error(where + ": missing key '" + f.key + "'");
      const auto& x = v[f.key];
      if (!x.is_number_integer() || x.get<int64_t>() < 0 ||
          x.get<int64_t>() > std::numeric_limits<uint32_t>::max())
        throw std::runtime_error(where + "." + f.key + ": must be a non-negative integer");
      *f.dst = static_cast<uint32_t>(x.get<int64_t>());
    }
    if (r.registers == 0 || r.registers > 255)
      throw std::runtime_error(where + ".registers: must be in 1..255");
    t.kernels.emplace(kernel, r);
  }
  return t;
}

ResourceTable load_resources(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open resources file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_resources(ss.str(), path);
}

std::string resources_path_for(const std::string& ptx_path) {
  std::string base = ptx_path;
  const std::string ext = ".ptx";
  if (base.size() >= ext.size() && base.compare(base.size() - ext.size(), ext.size(), ext) == 0)
    base.resize(base.size() - ext.size());
  return base + ".resources.json";
}

}  // namespace gputlm::isa
