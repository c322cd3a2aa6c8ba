// Configuration of a whole GPU (the GPU top, modules/gpu/gpu.h): clock domains, SM count
// and SM configuration, CTA scheduler, interconnect, memory partitions (L2 bank + DRAM
// channel each), deadlock watchdog. The defaults are the Fermi GTX480 of
// docs/platforms/fermi.md (GPGPU-Sim's SM2_GTX480 gpgpusim.config and seed-mechanisms §P1);
// configs/fermi_gtx480.json states them explicitly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config/params.h"
#include "gpu/cta_scheduler/cta_scheduler.h"
#include "mem/interconnect/interconnect.h"
#include "mem/l2/l2_partition.h"
#include "sm/sm_config.h"

namespace gputlm::gpu {

struct ClockConfig {
  // GPGPU-Sim -gpgpu_clock_domains 700.0:700.0:700.0:924.0 (core:icnt:L2:DRAM). The core
  // runs at half the 1400 MHz shader clock the papers quote because GPGPU-Sim executes a
  // 32-thread warp instruction per cycle on 16-wide Fermi pipelines.
  double core_mhz = 700.0;
  double icnt_mhz = 700.0;
  double l2_mhz = 700.0;
  double dram_mhz = 924.0;

  template <class V>
  void visit(V& v) {
    v.param("core_mhz", core_mhz, "SM (shader core) clock in MHz", config::in_range(1, 100000));
    v.param("icnt_mhz", icnt_mhz, "interconnect clock in MHz", config::in_range(1, 100000));
    v.param("l2_mhz", l2_mhz, "L2 (memory partition) clock in MHz", config::in_range(1, 100000));
    v.param("dram_mhz", dram_mhz, "DRAM command clock in MHz", config::in_range(1, 100000));
  }
};

struct WatchdogConfig {
  uint64_t cycles = 200000;
  uint64_t check_interval = 1024;

  template <class V>
  void visit(V& v) {
    v.param("cycles", cycles,
            "core cycles without any warp instruction issued and without any memory progress "
            "(interconnect packets, DRAM requests answered) after which a run is declared "
            "deadlocked and ends with a state dump; 0 disables the watchdog",
            config::at_least(0));
    v.param("check_interval", check_interval, "core cycles between two watchdog checks", config::at_least(1));
  }
};

// A group of identical SMs of one kind (seed 004's heterogeneous GPU-H: 20 "tlp" SMs
// and 18 "ilp" SMs). Its `sm` is read on top of the GPU's top-level `sm`, so a key set
// there (or by -p sm.KEY=...) reaches every kind unless the group sets it itself.
struct SmGroupConfig {
  std::string kind;
  uint32_t count = 0;
  sm::SmConfig sm;

  template <class V>
  void visit(V& v) {
    v.param("kind", kind,
            "the SMs' kind: what steering policies see (cta_scheduler.by_kind, ilp_tlp.ilp_kind / tlp_kind) and "
            "what statistics and summaries label them with; unique among the groups",
            config::any());
    v.param("count", count, "SMs of this kind (ids follow the groups' order)", config::in_range(1, 1024));
    v.group("sm", sm, "this kind's SM: keys read on top of the top-level sm");
  }
};

struct GpuConfig {
  // The platform names a GPU config may give: one GPU top, three configs.
  static const std::vector<std::string>& platforms() {
    static const std::vector<std::string> names = {"fermi", "pascal", "ilp"};
    return names;
  }
  std::string platform = "fermi";
  std::string name = "GTX480";
  uint32_t sms = 15;
  uint32_t partitions = 6;
  uint64_t max_cycles = 0;
  uint64_t sample_period = 0;
  uint32_t threads = 1;
  ClockConfig clocks;
  sm::SmConfig sm;
  std::vector<SmGroupConfig> sm_groups;
  CtaSchedulerConfig cta_scheduler;
  InterconnectConfig interconnect;
  L2PartitionConfig l2;
  WatchdogConfig watchdog;

  template <class V>
  void visit(V& v) {
    v.param("platform", platform, "platform to build (a GPU platform: fermi, pascal or ilp; they differ only in "
            "their configs)", config::one_of(platforms()));
    v.param("name", name, "a label for reports (e.g. GTX480)", config::any());
    v.param("sms", sms,
            "number of SMs (GPGPU-Sim -gpgpu_n_clusters x -gpgpu_n_cores_per_cluster); with sm_groups the sum of "
            "their counts: 0 (or that sum)",
            config::in_range(0, 1024));
    v.param("partitions", partitions,
            "memory partitions: one L2 bank and one DRAM channel each (-gpgpu_n_mem)", config::in_range(1, 64));
    v.param("max_cycles", max_cycles, "end a run with an error after this many core cycles (0: no limit)",
            config::at_least(0));
    v.param("sample_period", sample_period,
            "core cycles between time-series samples (IPC, hit rates, DRAM bandwidth, stall classes) in the "
            "statistics JSON's \"time_series\"; 0: no time series (gputlm run --sample-every N sets it)",
            config::at_least(0));
    v.param("threads", threads,
            "host threads that tick the SMs of one core clock edge (gputlm run --threads N): the statistics are "
            "identical for every value; observing a run (timeline, transactions) ticks serially",
            config::in_range(1, 256));
    v.group("clocks", clocks, "clock domains");
    v.group("sm", sm, "every SM (with sm_groups: the base every group's sm is read on top of)");
    v.group_list("sm_groups", sm_groups,
                 "SMs of different kinds (a heterogeneous GPU), each {kind, count, sm}: `count` SMs of `kind` "
                 "whose config is the top-level sm with the group's sm keys on top; SM ids follow the list's "
                 "order. Empty: `sms` SMs of kind \"sm\", all as the top-level sm. Override one group's key "
                 "with -p sm_groups.KIND.KEY=... or -p sm_groups[i].KEY=...",
                 SmGroupConfig{"", 0, sm});
    v.group("cta_scheduler", cta_scheduler, "CTA scheduler and kernel dispatch");
    v.group("interconnect", interconnect,
            "crossbar between SMs and memory partitions (sm_ports and mem_ports follow sms and partitions)");
    v.group("l2", l2, "one memory partition: L2 bank, L2<->DRAM queues and DRAM channel");
    v.group("watchdog", watchdog, "deadlock watchdog");
  }

  // Cross-field checks and derived values (interconnect ports, `sms` from sm_groups);
  // throws config::ConfigError naming the key.
  void validate();

  // SM i's config and kind (after validate): its group's, or `sm` and "sm" without groups.
  const sm::SmConfig& sm_config(uint32_t i) const;
  const std::string& sm_kind(uint32_t i) const;
  // Every SM's kind, by SM id.
  std::vector<std::string> sm_kinds() const;
  // The config of the first SM whose scheduler uses `policy`, or null (validate makes
  // every kind with policy elf agree on scheduler.elf, so any one serves the launcher).
  const sm::SmConfig* sm_with_scheduler(const std::string& policy) const;

  // Peak DRAM bandwidth in GB/s: partitions x command clock x beats per command cycle x
  // channel width (GTX480: 6 x 924 MHz x 4 x 8 B = 177.4 GB/s).
  double dram_bandwidth_gbs() const;
  // Total L2 capacity in bytes.
  uint64_t l2_bytes() const { return uint64_t{partitions} * l2.sub_partitions * l2.bank.size_bytes(); }
  // A few lines describing the composition (reports, `gputlm demo --config`).
  std::string summary() const;
};

}  // namespace gputlm::gpu
