// One memory partition (issue 3 item 4): an L2 bank (the cache block, write-back
// write-allocate, stall mode, with its MSHRs), the queues between the L2 and DRAM, and
// the DRAM controller of its channel:
//
//   in -> [ROP delay] -> L2 bank (input queue, MSHRs, miss queue) -> L2->DRAM / DRAM->L2 queues -> DRAM
//
// The queues are GPGPU-Sim's -gpgpu_dram_partition_queues (icnt->L2 : L2->DRAM :
// DRAM->L2 : L2->icnt = 8:8:8:8): the first and last are the bank's input and response
// queues, the middle two a 1x1 interconnect in fixed-latency mode holding `dram_queue`
// packets in each direction (a 2-entry input buffer plus a dram_queue-2 pipe: a packet per cycle),
// back-pressured both ways, `queue_latency` cycles. Three clock domains: the L2 bank and queues
// run in the L2 domain, the DRAM in its own.
//
// Back-pressure (002 §II-A): when the bank cannot reserve an MSHR (or its miss queue
// is full), the head of its input queue waits; the queue fills; END_REQ is withheld on
// `in`; the crossbar output to this partition stalls, its buffers fill, and the SMs'
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
#include "mem/l2/rop_delay.h"

namespace gputlm {

struct L2PartitionConfig {
  mem::CacheConfig bank = default_bank();
  uint32_t rop_latency = 0;  // GPGPU-Sim -rop_latency (default 85); 0 = no ROP stage
  uint32_t rop_queue = 64;
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
    v.group("bank", bank, "the L2 bank (cache block; write_back and stall mode expected)");
    v.param("rop_latency", rop_latency,
            "cycles every request waits before the L2 bank (GPGPU-Sim's ROP stage, -rop_latency; 85 there); "
            "0: no ROP stage",
            config::at_least(0));
    v.param("rop_queue", rop_queue, "requests the ROP stage holds (full: END_REQ withheld)", config::at_least(1));
    v.param("dram_queue", dram_queue,
            "entries in each direction between the L2 bank and DRAM (requests L2->DRAM, responses DRAM->L2)",
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
  tlm::tlm_target_socket<> in;  // from the interconnect

  // channel_map: removes the channel-select bits before the DRAM's bank/row/column
  // mapping (the interconnect's partition map); null = addresses are channel-local.
  // `taps` may observe the requests entering the L2 bank ("l2", after the ROP stage) and
  // the DRAM channel ("dram").
  L2Partition(sc_core::sc_module_name name, const L2PartitionConfig& cfg, const ClockDomain& l2_domain,
              const ClockDomain& dram_domain, stats::Group& parent, const PartitionMapIF* channel_map = nullptr,
              SocketTapIF* taps = nullptr);

  mem::Cache& bank() { return *bank_; }
  DramController& dram() { return *dram_; }
  Interconnect& dram_queues() { return *queues_; }
  // Internal protocol checkers (empty unless protocol_checkers is set).
  std::vector<ProtocolChecker*> checkers();
  // Nothing queued, pending or in flight anywhere in the partition.
  bool idle() const;
  stats::Group& stats_group() { return stats_; }

 private:
  static InterconnectConfig queue_config(const L2PartitionConfig& cfg);
  L2PartitionConfig cfg_;
  stats::Group stats_;
  std::unique_ptr<mem::Cache> bank_;
  std::unique_ptr<Interconnect> queues_;
  std::unique_ptr<DramController> dram_;
  std::unique_ptr<RopDelay> rop_;
  std::unique_ptr<ProtocolChecker> rop_checker_, bank_checker_, dram_checker_;
  std::vector<std::unique_ptr<TlmPassThrough>> taps_;
};

}  // namespace gputlm
