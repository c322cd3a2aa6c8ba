// The MSHR organisation registry: one line per organisation.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/config/config_source.h"
#include "mem/mshr/conventional/conventional_mshr.h"
#include "mem/mshr/htsma/htsma_mshr.h"
#include "mem/mshr/mshr_if.h"
#include "mem/mshr/mshr_storage.h"
#include "mem/mshr/set_assoc/set_assoc_mshr.h"
#include "mem/mshr/tsma/tsma_mshr.h"

namespace gputlm::mem {

namespace {
using Factory = std::function<std::unique_ptr<MshrIF>(const MshrConfig&, stats::Group&)>;
using StorageFn = uint64_t (*)(const MshrConfig&, const MshrStorageGeometry&, const MshrFieldWidths&);
struct Organisation {
  std::string name;
  Factory make;
  StorageFn storage_bits;  // mshr_storage.h
};

template <class T>
Factory factory() {
  return [](const MshrConfig& c, stats::Group& g) { return std::make_unique<T>(c, g); };
}

const std::vector<Organisation>& registry() {
  static const std::vector<Organisation> r = {
      {"conventional", factory<ConventionalMshr>(), conventional_storage_bits},
      {"set_assoc", factory<SetAssocMshr>(), set_assoc_storage_bits},
      {"tsma", factory<TsmaMshr>(), tsma_storage_bits},
      {"htsma", factory<HtsmaMshr>(), htsma_storage_bits},
  };
  return r;
}
}  // namespace

const std::vector<std::string>& mshr_organisations() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& e : registry()) n.push_back(e.name);
    return n;
  }();
  return names;
}

const Organisation& organisation_named(const std::string& name) {
  for (const auto& e : registry())
    if (e.name == name) return e;
  throw config::ConfigError("key 'mshr.organisation': unknown MSHR organisation \"" + name + "\"");
}

std::unique_ptr<MshrIF> make_mshr(const MshrConfig& cfg, stats::Group& parent, const MshrStorageGeometry* geometry) {
  const Organisation& o = organisation_named(cfg.organisation);
  auto mshr = o.make(cfg, parent);
  if (geometry != nullptr) mshr->expose_storage_bits(o.storage_bits(cfg, *geometry, MshrFieldWidths{}));
  return mshr;
}

uint64_t mshr_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g) {
  return organisation_named(cfg.organisation).storage_bits(cfg, g, MshrFieldWidths{});
}

void MshrConfig::validate(const std::string& key_prefix) const {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  auto fail = [&](const std::string& key, const std::string& what) {
    throw config::ConfigError("key '" + p + key + "': " + what);
  };
  bool known = false;
  for (const auto& n : mshr_organisations()) known = known || n == organisation;
  if (!known) fail("organisation", "unknown MSHR organisation \"" + organisation + "\"");
  if (organisation == "set_assoc" && (ways > entries || entries % ways != 0))
    fail("ways", "set_assoc needs entries (" + std::to_string(entries) + ") to be a multiple of ways (" +
                     std::to_string(ways) + ")");
  if (organisation == "htsma" && static_cast<uint64_t>(entries) + small_entries > 32767)
    fail("small_entries", "entries + small_entries must fit an MSHR index (<= 32767)");
  if (almost_full_margin >= entries + (organisation == "htsma" ? small_entries : 0))
    fail("almost_full_margin", "margin " + std::to_string(almost_full_margin) +
                                   " would keep the saturation flag raised even when the MSHR is empty");
}

}  // namespace gputlm::mem
