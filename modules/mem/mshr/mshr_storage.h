// Storage cost of an MSHR organisation in bits, from its config and its cache's geometry
// (issue 17 point 3: the storage of each organisation beside its performance). Pure
// functions, one per organisation (the registry, mshr_registry.cpp, pairs each with its
// factory); the cache exposes the result as the constant statistic `<cache>.mshr.storage_bits`.
//
// Widths (001 §1.2, Fig. 1.2; §5.1, Fig. 5.2; §5.2; digest §E1, §E4, §E5):
//  * a field is valid 1 + warp ID 5 + register ID 5 + per-thread valid mask 32 + load
//    format 6 + offset in the block log2(line) (7 for the thesis' 128 B blocks) = 56 bits at
//    128 B; the thesis text says 55 (digest §Z15), its CACTI model (§5.5: an 8-field entry is a
//    56-byte block) agrees with 56, which is the default here;
//  * a conventional entry is valid 1 + block tag + fields; the tag is the address above the
//    block offset: address_bits - log2(line) (001 §5.5 assumes 32-bit addresses and tags);
//  * storage only: comparators and the priority encoder are logic and are not counted.
#pragma once

#include <cstdint>

#include "mem/mshr/mshr_config.h"

namespace gputlm::mem {

// What an MSHR's storage depends on beyond its own config: the cache it serves.
struct MshrStorageGeometry {
  uint32_t cache_sets = 1;
  uint32_t cache_ways = 1;
  uint32_t line_size = 128;
  uint32_t address_bits = 32;  // 001 §5.5: "32-bit tag and tag comparator"
};

// The field of 001 §1.2 (digest §E1). The offset's width is log2(line size).
struct MshrFieldWidths {
  uint32_t valid = 1;
  uint32_t warp_id = 5;      // 32 warps per SM (001 §1.2; Fermi's 48 would need 6, §Z18)
  uint32_t register_id = 5;  // 10-bit RF address with warp_id for a 32K-register file
  uint32_t thread_mask = 32; // one valid bit per thread of the warp
  uint32_t load_format = 6;
  uint32_t bits(uint32_t line_size) const;
};

// ceil(log2(n)) for n >= 1 (0 for n = 1): the bits of an index into n things.
uint32_t index_bits(uint64_t n);

// Per organisation (entries = cfg.entries; fields = cfg.fields):
// conventional: entries x (valid + tag + fields x field).
uint64_t conventional_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g,
                                   const MshrFieldWidths& w = {});
// set_assoc: as conventional, the tag without the log2(sets) index bits (block mod sets,
// a power of two; otherwise the whole tag is kept).
uint64_t set_assoc_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g,
                                const MshrFieldWidths& w = {});
// tsma: entries x (valid + fields x field), no tags; the index generator's availability
// vector (entries bits) and IDX register (log2 entries); per cache line a share bit and
// an IDX (log2 entries) (001 §5.1, Fig. 5.2).
uint64_t tsma_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g, const MshrFieldWidths& w = {});
// htsma: tsma + per cache line a hit bit + per set a share counter of log2(ways + 1) bits +
// the s-MSHR (a conventional MSHR of small_entries) + its empty flag (001 §5.2).
uint64_t htsma_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g, const MshrFieldWidths& w = {});

// The function of cfg.organisation (the registry's); config::ConfigError for an unknown name.
uint64_t mshr_storage_bits(const MshrConfig& cfg, const MshrStorageGeometry& g);

}  // namespace gputlm::mem
