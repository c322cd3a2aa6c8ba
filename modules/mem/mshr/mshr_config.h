// Configuration of an MSHR array (miss status holding registers) of one cache.
// The organisation is a name looked up in the MSHR registry (mshr_if.h).
// Seed values (seed-mechanisms §P1, §E): GPGPU-Sim GTX480 32 entries x 8 fields in L1D
// and each L2 bank; thesis ch.5 optimum (L1, L2 bank) = (48, 64) / (48, 96) / (64, 128)
// for 100 / 200 / 400-cycle DRAM; HTSMA s-MSHR (L1, L2) = (4, 8) for a 32K L1D.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/params.h"

namespace gputlm::mem {

// Names accepted by MshrConfig::organisation (the registry's keys, in order).
const std::vector<std::string>& mshr_organisations();

struct MshrConfig {
  std::string organisation = "conventional";
  uint32_t entries = 32;
  uint32_t fields = 8;
  uint32_t ways = 8;
  uint32_t small_entries = 4;
  uint32_t almost_full_margin = 2;

  template <class V>
  void visit(V& v) {
    v.param("organisation", organisation,
            "MSHR organisation: conventional (fully associative, 001 §1.2), set_assoc (001 §5.4.4), "
            "tsma (tag-shared MSHR array, 001 §5.1), htsma (hybrid TSMA with a small conventional "
            "s-MSHR, 001 §5.2 Listing 5.1)",
            config::one_of(mshr_organisations()));
    v.param("entries", entries,
            "MSHR entries (outstanding blocks); for tsma/htsma the size of the tagless array",
            config::in_range(1, 32767));
    v.param("fields", fields, "fields per entry (requests merged into one outstanding block)",
            config::at_least(1));
    v.param("ways", ways, "set_assoc only: entries per MSHR set (sets = entries / ways)",
            config::at_least(1));
    v.param("small_entries", small_entries,
            "htsma only: entries of the small fully associative s-MSHR (thesis Table 5.3: 4..12)",
            config::in_range(1, 32767));
    v.param("almost_full_margin", almost_full_margin,
            "Mascar saturation: the 'almost full' flag is raised when free entries <= this margin",
            config::at_least(0));
  }
  // Cross-field checks; key_prefix names the group in errors ("sm.l1d.mshr").
  void validate(const std::string& key_prefix) const;
};

}  // namespace gputlm::mem
