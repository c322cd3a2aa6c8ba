// The memory half of a GPU, ready to attach SMs to: the interconnect and one memory
// partition (its L2 sub-partitions + L2<->DRAM queues + DRAM channel) per channel. The
// crossbar has a port per L2 sub-partition (channels x l2.sub_partitions) and routes by
// the slice map (channel interleaving, then the slice-select bank bits); the DRAM sees
// the channel-local address. Bind each
// SM's L1 (or other initiator) to sm_side(), in SM order. The GPU top (modules/gpu)
// builds its memory side from it; testbenches and mem_bench use it standalone.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config/params.h"
#include "mem/interconnect/interconnect.h"
#include "mem/l2/l2_partition.h"
#include "mem/l2/sub_partition_map.h"

namespace gputlm {

struct MemorySystemConfig {
  InterconnectConfig icnt;  // icnt.mem_ports = number of memory channels (partitions)
  L2PartitionConfig l2;     // every partition alike

  template <class V>
  void visit(V& v) {
    v.group("icnt", icnt, "interconnect between the SMs and the memory partitions");
    v.group("l2", l2, "each memory partition: L2 bank, L2<->DRAM queues, DRAM channel");
  }
  void validate(const std::string& key = "memory") const {
    icnt.validate(key + ".icnt");
    l2.validate(key + ".l2");
  }
};

// Where the memory system's statistics go.
enum class MemoryStatsPlacement {
  own_group,  // a group named after the module under the parent: "memory.l2p0.dram.reads"
  parent,     // directly in the parent, beside the SMs: "gpu.l2p0.dram.reads", "gpu.icnt.requests"
};

class MemorySystem : public sc_core::sc_module {
 public:
  // Validates cfg (config::ConfigError naming "<module name>.<key>"). `taps`: observers on
  // each partition's sockets (L2Partition).
  MemorySystem(sc_core::sc_module_name name, const MemorySystemConfig& cfg, const ClockDomain& icnt_domain,
               const ClockDomain& l2_domain, const ClockDomain& dram_domain, stats::Group& parent,
               MemoryStatsPlacement placement = MemoryStatsPlacement::own_group, SocketTapIF* taps = nullptr);

  tlm_utils::multi_passthrough_target_socket<Interconnect>& sm_side() { return icnt_->sm_side; }
  Interconnect& interconnect() { return *icnt_; }
  uint32_t partitions() const { return static_cast<uint32_t>(parts_.size()); }  // memory channels
  L2Partition& partition(uint32_t i) { return *parts_.at(i); }
  // Nothing queued, pending or in flight anywhere.
  bool idle() const;
  // Brings the DRAM channels' cycle-weighted statistics up to now.
  void update_stats();
  // Interconnect packets moved plus DRAM requests answered so far: grows while the memory
  // side makes progress (a deadlock watchdog's measure).
  uint64_t progress() const;
  // Requests in flight in the interconnect; per partition: busy or idle, requests the
  // DRAM holds, L2 MSHRs in use.
  std::string state_dump() const;

 private:
  MemorySystemConfig cfg_;
  std::unique_ptr<stats::Group> own_stats_;  // with MemoryStatsPlacement::own_group
  stats::Group& stats_;
  std::unique_ptr<PartitionMapIF> channel_map_;  // address -> channel (before icnt_: the slice map refers to it)
  std::unique_ptr<Interconnect> icnt_;
  std::vector<std::unique_ptr<L2Partition>> parts_;
  std::vector<const stats::Stat*> progress_stats_;  // interconnect packets, DRAM requests answered
};

}  // namespace gputlm
