// One memory partition (issue 3 item 4, sub-partitions issue 10 item 1): a memory channel
// with `sub_partitions` L2 slices (each a ROP stage and an L2 bank with its own crossbar
// port: L2SubPartition), the queues between the L2 and DRAM, and the channel's DRAM
// controller:
//
//   in(k) -> [ROP delay] -> L2 bank k (input queue, MSHRs, miss queue) --.
//                                                                        +-> L2->DRAM / DRAM->L2 queues -> DRAM
//   ... one per sub-partition (GPGPU-Sim -gpgpu_n_sub_partition_per_mchannel) --'
//
// The queues are GPGPU-Sim's -gpgpu_dram_partition_queues (icnt->L2 : L2->DRAM :
// DRAM->L2 : L2->icnt): the first and last are each bank's input and response queues;
// the middle two are a (sub_partitions x 1) interconnect in fixed-latency mode: each
// slice has its own `dram_queue`-entry L2->DRAM queue (its input buffer), and the
// channel takes one request per cycle from them, round-robin (GPGPU-Sim's dram_cycle
// arbitration among sub-partitions); responses return to the slice that asked.
// Back-pressured both ways, `queue_latency` cycles. Three clock domains: the L2 banks
// and queues run in the L2 domain, the DRAM in its own.
//
// Back-pressure (002 §II-A): when a bank cannot reserve an MSHR (or its miss queue
// is full), the head of its input queue waits; the queue fills; END_REQ is withheld on
// its `in`; the crossbar output to this slice stalls, its buffers fill, and the SMs'
// requests are refused in turn.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>

#include "core/clock/clock_domain.h"
#include "core/config/params.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "core/tlm/socket_tap.h"
#include "mem/cache/cache.h"
#include "mem/dram/dram_controller.h"
#include "mem/interconnect/interconnect.h"
#include "mem/l2/l2_sub_partition.h"
#include "mem/l2/sub_partition_map.h"

namespace gputlm {

struct L2PartitionConfig {
  mem::CacheConfig bank = default_bank();  // each sub-partition's bank
  uint32_t sub_partitions = 1;  // GPGPU-Sim -gpgpu_n_sub_partition_per_mchannel
  uint32_t rop_latency = 0;  // GPGPU-Sim -rop_latency (default 85); 0 = no ROP stage
  uint32_t rop_queue = 64;
  uint32_t split_requests = 512;
  uint32_t dram_queue = 8;  // -gpgpu_dram_partition_queues 8:8:8:8 (L2->DRAM and DRAM->L2)
  uint32_t queue_latency = 1;
  bool protocol_checkers = false;
  DramConfig dram;

  // GTX480 L2 bank as the thesis ch.5 uses it: 128 KB, 8-way, 128 B lines, LRU,
  // 32 x 8 MSHRs, write-back write-allocate, stall on a full MSHR array.
  static mem::CacheConfig default_bank() {
    mem::CacheConfig c;
    c.sets = 128;
    c.ways = 8;
    c.line_size = 128;
    c.write_policy = "write_back";
    c.fail_mode = "stall";
    c.level = 1;
    c.input_queue = 8;
    c.response_queue = 8;
    return c;
  }

  template <class V>
  void visit(V& v) {
    v.group("bank", bank, "each sub-partition's L2 bank (cache block; write_back and stall mode expected)");
    v.param("sub_partitions", sub_partitions,
            "L2 slices per memory channel, each with its own ROP stage, bank and crossbar port, sharing the "
            "channel's DRAM; chosen by the lowest DRAM bank bits (GPGPU-Sim -gpgpu_n_sub_partition_per_mchannel; "
            "a power of two)",
            config::power_of_two(1));
    v.param("rop_latency", rop_latency,
            "cycles every request waits before the L2 bank (GPGPU-Sim's ROP stage, -rop_latency; 85 there); "
            "0: no ROP stage",
            config::at_least(0));
    v.param("rop_queue", rop_queue, "requests the ROP stage holds (full: END_REQ withheld)", config::at_least(1));
    v.param("split_requests", split_requests,
            "sectored bank (bank.sectors > 1): requests split into sector requests that may await their sector "
            "replies at once (full: END_REQ withheld; GPGPU-Sim's split requests are unbounded)",
            config::at_least(1));
    v.param("dram_queue", dram_queue,
            "entries per sub-partition in each direction between the L2 bank and DRAM (requests L2->DRAM, "
            "responses DRAM->L2)",
            config::at_least(3));
    v.param("queue_latency", queue_latency, "cycles (L2 clock) through the L2<->DRAM queues", config::at_least(1));
    v.param("protocol_checkers", protocol_checkers,
            "insert a TLM protocol checker on every internal socket (bank<->queues<->DRAM)", config::any());
    v.group("dram", dram, "the DRAM channel of this partition");
  }
  void validate(const std::string& key = "l2") const;
};

class L2Partition : public sc_core::sc_module {
 public:
  // channel_map: removes the channel-select bits before the DRAM's bank/row/column
  // mapping and the banks' set index (the interconnect's channel interleaving); null =
  // addresses are channel-local. `taps` may observe the requests entering each L2 bank
  // ("l2", after the ROP stage) and the DRAM channel ("dram").
  L2Partition(sc_core::sc_module_name name, const L2PartitionConfig& cfg, const ClockDomain& l2_domain,
              const ClockDomain& dram_domain, stats::Group& parent, const PartitionMapIF* channel_map = nullptr,
              SocketTapIF* taps = nullptr);

  // The slice-select bits of a channel-local address (GPGPU-Sim's sub_partition_id_mask).
  static uint64_t sub_partition_select(const L2PartitionConfig& cfg, const std::string& key = "l2");

  uint32_t sub_partitions() const { return static_cast<uint32_t>(subs_.size()); }
  // From the interconnect: sub-partition k's request socket.
  tlm::tlm_target_socket<>& in(uint32_t k = 0) { return subs_.at(k)->in; }
  L2SubPartition& sub_partition(uint32_t k) { return *subs_.at(k); }
  mem::Cache& bank(uint32_t k = 0) { return subs_.at(k)->bank(); }
  DramController& dram() { return *dram_; }
  Interconnect& dram_queues() { return *queues_; }
  // Internal protocol checkers (empty unless protocol_checkers is set).
  std::vector<ProtocolChecker*> checkers();
  // Nothing queued, pending or in flight anywhere in the partition.
  bool idle() const;
  // MSHRs in use and their capacity, over all banks.
  uint32_t mshr_occupied() const;
  uint32_t mshr_capacity() const;
  stats::Group& stats_group() { return stats_; }

 private:
  static InterconnectConfig queue_config(const L2PartitionConfig& cfg);
  L2PartitionConfig cfg_;
  stats::Group stats_;
  SinglePartitionMap local_;                     // channel_map when none is given
  std::unique_ptr<SubPartitionMap> slice_map_;   // the banks' set index
  std::vector<std::unique_ptr<L2SubPartition>> subs_;
  std::unique_ptr<Interconnect> queues_;
  std::unique_ptr<DramController> dram_;
  std::unique_ptr<ProtocolChecker> dram_checker_;
  std::vector<std::unique_ptr<TlmPassThrough>> taps_;
};

}  // namespace gputlm
