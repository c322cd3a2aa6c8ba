// One L2 sub-partition (GPGPU-Sim's memory_sub_partition): the ROP stage and the L2 bank
// of one slice of a memory channel, with its own crossbar port. Its misses and write-backs
// leave through downstream() to the channel's L2->DRAM queue, which it shares with the
// channel's other slices (L2Partition). See docs/blocks/l2.md.
//
//   in -> [ROP delay] -> [sector splitter] -> L2 bank (input queue, MSHRs, miss queue) -> downstream()
//
// The splitter is there when the bank is sectored (GPGPU-Sim splits every request to a
// sectored L2 into sector requests).
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "core/tlm/socket_tap.h"
#include "mem/cache/cache.h"
#include "mem/l2/rop_delay.h"
#include "mem/l2/sector_splitter.h"

namespace gputlm {

struct L2PartitionConfig;

class L2SubPartition : public sc_core::sc_module {
 public:
  tlm::tlm_target_socket<> in;  // from the interconnect

  // `index_map`: the bank indexes its sets by index_map->local_address() (null: by the
  // address as it arrives). `taps` may observe the requests entering the bank ("l2").
  L2SubPartition(sc_core::sc_module_name name, const L2PartitionConfig& cfg, const ClockDomain& l2_domain,
                 stats::Group& parent, const PartitionMapIF* index_map, SocketTapIF* taps);

  mem::Cache& bank() { return *bank_; }
  SectorSplitter* splitter() { return splitter_.get(); }
  const mem::Cache& bank() const { return *bank_; }
  // The socket towards DRAM: the bank's downstream, or its protocol checker's.
  tlm::tlm_initiator_socket<>& downstream();
  void add_checkers(std::vector<ProtocolChecker*>& v);
  bool idle() const;

 private:
  stats::Group stats_;
  std::unique_ptr<mem::Cache> bank_;
  std::unique_ptr<RopDelay> rop_;
  std::unique_ptr<SectorSplitter> splitter_;
  std::unique_ptr<ProtocolChecker> rop_checker_, split_checker_, bank_checker_;
  std::vector<std::unique_ptr<TlmPassThrough>> taps_;
};

}  // namespace gputlm
