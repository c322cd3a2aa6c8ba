// Configuration of the LSU (docs/blocks/lsu.md).
#pragma once

#include <cstdint>
#include <string>

#include "core/config/params.h"
#include "isa/exec/device_memory.h"
#include "sm/lsu/coalescer.h"
#include "sm/lsu/reexec_queue.h"
#include "sm/lsu/shared_memory_banks.h"

namespace gputlm::sm {

struct LsuConfig {
  CoalescerConfig coalescer;
  SharedMemoryConfig shared_memory;
  ReexecQueueConfig reexec_queue;
  uint32_t const_line_size = 64;
  uint32_t texture_line_size = 128;
  uint32_t requests_per_cycle = 1;
  bool atomics_bypass_l1d = false;
  std::string global_l1d_bypass = "cg";
  uint32_t max_inflight = 32;
  uint32_t max_outstanding = 256;
  uint64_t local_base = isa::kLocalWindowBase;
  uint64_t const_base = isa::kConstWindowBase;
  uint64_t param_base = isa::kConstWindowBase + isa::kWindowBytes / 2;
  bool retry_shortcut = true;

  template <class V>
  void visit(V& v) {
    v.group("coalescer", coalescer, "global/local coalescing (line = the L1D line)");
    v.group("shared_memory", shared_memory, "shared-memory banks and latency");
    v.group("reexec_queue", reexec_queue, "re-execution queue between LSU and L1 (Mascar CAR / ELF NewCAR)");
    v.param("const_line_size", const_line_size,
            "line size of the L1 constant cache (requests per distinct line; -gpgpu_const_cache:l1 64 B)",
            config::power_of_two(4));
    v.param("texture_line_size", texture_line_size, "line size of the L1 texture cache (128 B)",
            config::power_of_two(4));
    v.param("requests_per_cycle", requests_per_cycle, "line requests the LSU sends to the L1s per cycle",
            config::at_least(1));
    v.param("atomics_bypass_l1d", atomics_bypass_l1d,
            "global atomics go past the L1D straight to the memory port (GPGPU-Sim: atom's cache operator is .cg, "
            "CACHE_GLOBAL, which skips the L1D and its latency); false: through the L1D, which writes them through",
            config::any());
    v.param("global_l1d_bypass", global_l1d_bypass,
            "which global loads and stores go past the L1D straight to the memory port (atomics: "
            "atomics_bypass_l1d). cg: those with the .cg cache operator (GPGPU-Sim's CACHE_GLOBAL, in every "
            "config); all_but_nc: every one except ld.global.nc, which stays cached (GPGPU-Sim "
            "-gpgpu_gmem_skip_L1D 1, as in its SM6_TITANX config); all: every one, ld.global.nc too (001 ch. 4's "
            "\"no data cache\" baseline, configs/variants/thesis_table4_3_nocache.json); none: all through the L1D. "
            "Local memory always goes through the L1D",
            config::one_of({"none", "cg", "all_but_nc", "all"}));
    v.param("max_inflight", max_inflight,
            "memory warp instructions the LSU tracks at once (loads waiting for data, stores being sent)",
            config::at_least(1));
    v.param("max_outstanding", max_outstanding, "line requests sent and not yet answered", config::at_least(1));
    v.param("local_base", local_base, "start of the timing address window of local memory (GPGPU-Sim mapping)");
    v.param("const_base", const_base, "timing address of constant bank 0 offset 0");
    v.param("param_base", param_base, "timing address of parameter space (read through the constant cache)");
    v.param("retry_shortcut", retry_shortcut,
            "a simulation shortcut, results identical either way: a request the L1D refused is retried through the "
            "L1D's retry interface, without reading its payload again (much host time under Mascar's CAR); false: "
            "every retry is a BEGIN_REQ on the socket. Off by itself where a tap observes the L1D socket",
            config::any());
  }
  void validate(const std::string& key_prefix) const;
};

}  // namespace gputlm::sm
