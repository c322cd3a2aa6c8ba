// Configuration of the cache block (L1D, L1I, L1 constant, L1 texture, L2 bank).
// Seed values (seed-mechanisms §P1): L1D 32 KB = 32 sets x 8 ways x 128 B, LRU, 32 x 8
// MSHRs (thesis Tables 2.1/5.1; Mascar: 64 sets x 4 ways, 64 MSHRs; ELF: 16 KB 4-way);
// L1I 2 KB 4-way 128 B, 8 MSHRs (ELF); constant 8 KB 2-way 64 B; texture 16 KB 8-way
// 128 B; L2 bank 128 KB 8-way (ch.5) or 16-way (ch.2/3) 128 B LRU, 32 x 8 MSHRs. The
// thesis ch.5 uses the hashed set index and on-fill allocation in L1 and L2; GPGPU-Sim
// defaults to on-miss allocation.
#pragma once

#include <cstdint>
#include <string>

#include "core/config/params.h"
#include "mem/mshr/mshr_config.h"

namespace gputlm::mem {

struct CacheConfig {
  uint32_t sets = 32;
  uint32_t ways = 8;
  uint32_t line_size = 128;
  uint32_t sectors = 1;
  std::string replacement = "lru";
  std::string set_index = "linear";
  std::string write_policy = "write_evict";
  std::string allocation = "on_miss";
  std::string write_allocate = "fetch_on_write";
  std::string fail_mode = "reject";
  uint32_t level = 0;
  uint32_t hit_latency = 1;
  uint32_t miss_latency = 1;
  uint32_t fill_latency = 0;
  uint32_t port_width = 1;
  uint32_t miss_queue = 8;
  uint32_t input_queue = 8;
  uint32_t response_queue = 16;
  uint32_t fill_queue = 4;
  uint32_t saturation_margin = 1;
  bool allocate_demand = true;
  MshrConfig mshr;

  uint64_t size_bytes() const { return static_cast<uint64_t>(sets) * ways * line_size; }

  template <class V>
  void visit(V& v) {
    v.param("sets", sets, "number of sets", config::at_least(1));
    v.param("ways", ways, "associativity (lines per set)", config::at_least(1));
    v.param("line_size", line_size, "line (block) size in bytes", config::power_of_two(4));
    v.param("sectors", sectors,
            "sectors per line (1 = unsectored, Fermi; 4 x 32 B in GPGPU-Sim's Pascal/Volta sector "
            "caches): a sector is fetched and tracked by the MSHR on its own; requests must not "
            "cross a sector; conventional and set_assoc MSHRs only",
            config::power_of_two(1));
    v.param("replacement", replacement, "replacement policy: lru or fifo", config::one_of({"lru", "fifo"}));
    v.param("set_index", set_index,
            "set-index function: linear (block mod sets), xor (index XOR higher address bits, "
            "power-of-two sets), fermi_hash (GPGPU-Sim/Nugteren hash used by thesis ch.5; 32 or 64 sets)",
            config::one_of({"linear", "xor", "fermi_hash"}));
    v.param("write_policy", write_policy,
            "write_evict: write-through, no-write-allocate, a write hit evicts the line (L1D global "
            "stores); write_back: write-allocate (fetch on write), dirty lines written back on "
            "eviction (L2); read_only: a store is an error (L1I, constant, texture)",
            config::one_of({"write_evict", "write_back", "read_only"}));
    v.param("allocation", allocation,
            "when a missing block gets its line: on_miss (victim reserved at miss time; a set whose "
            "ways are all reserved locks; GPGPU-Sim default) or on_fill (victim chosen at fill; thesis "
            "§5.3.1). TSMA always shares (reserves) the line at miss time; HTSMA's s-MSHR uses on_fill",
            config::one_of({"on_miss", "on_fill"}));
    v.param("write_allocate", write_allocate,
            "write_back only, how a store miss allocates: fetch_on_write (the line / sector is fetched and the "
            "store answered at the fill) or lazy_fetch_on_read (GPGPU-Sim's 'L': the line is allocated without "
            "a fetch, the written bytes are dirty and the store is answered as a hit; a sector written in part "
            "is fetched only when read; a write-back carries the dirty sectors). Atomics always fetch",
            config::one_of({"fetch_on_write", "lazy_fetch_on_read"}));
    v.param("fail_mode", fail_mode,
            "a miss the cache cannot reserve: reject = nb_transport_fw returns TLM_COMPLETED with "
            "MemExtension::status ReservationFail and its cause (L1, the requester retries); stall = "
            "the request waits at the head of the input queue and is retried each cycle, END_REQ "
            "withheld when the queue is full (L2 bank)",
            config::one_of({"reject", "stall"}));
    v.param("level", level, "cache level, selects MemExtension::mshr_index[level] (0 = L1, 1 = L2)",
            config::in_range(0, 1));
    v.param("hit_latency", hit_latency, "cycles from evaluating a hit to its BEGIN_RESP", config::at_least(1));
    v.param("miss_latency", miss_latency,
            "cycles from evaluating a miss to its request being eligible to leave the miss queue",
            config::at_least(1));
    v.param("fill_latency", fill_latency,
            "cycles from processing a fill (first edge after the lower level's response) to the "
            "responses of the merged requests",
            config::at_least(0));
    v.param("port_width", port_width, "accesses evaluated per cycle (and responses sent per cycle)",
            config::at_least(1));
    v.param("miss_queue", miss_queue, "entries of the queue towards the next level (misses, write-throughs, "
            "write-backs), besides the (miss_latency - 1) x port_width stages of the miss-latency pipeline",
            config::at_least(1));
    v.param("input_queue", input_queue, "stall mode: requests buffered before evaluation", config::at_least(1));
    v.param("response_queue", response_queue,
            "responses waiting to be sent upstream, besides the (hit_latency - 1) x port_width stages of the "
            "hit-latency pipeline",
            config::at_least(1));
    v.param("fill_queue", fill_queue, "responses from the next level waiting to be processed (one per cycle)",
            config::at_least(1));
    v.param("saturation_margin", saturation_margin,
            "Mascar: the cache is saturated when its MSHR array is almost full or the miss queue has "
            "at most this many free slots",
            config::at_least(0));
    v.param("allocate_demand", allocate_demand,
            "demand load misses keep their line at the fill (true); false: the data goes to the requesters only and "
            "only prefetches allocate lines, the thesis's L1D as a prefetch cache (001 §4.3: 'demand fetches are "
            "not allocated into it'); conventional or set_assoc MSHRs, write_evict or read_only",
            config::any());
    v.group("mshr", mshr, "miss status holding registers");
  }

  // Cross-field checks (throws config::ConfigError naming key_prefix.key).
  void validate(const std::string& key_prefix) const;
};

}  // namespace gputlm::mem
