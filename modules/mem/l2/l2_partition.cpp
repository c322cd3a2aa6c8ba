#include "mem/l2/l2_partition.h"

#include "core/config/config_source.h"
#include "mem/dram/dram_address_mapping.h"

namespace gputlm {

void L2PartitionConfig::validate(const std::string& key) const {
  bank.validate(key + ".bank");
  if (bank.write_policy == "read_only")
    throw config::ConfigError("key '" + key + ".bank.write_policy': an L2 bank must accept stores");
  if (bank.fail_mode != "stall")
    throw config::ConfigError("key '" + key + ".bank.fail_mode': an L2 bank must stall (back-pressure), not "
                              "reject: the interconnect does not retry refused requests");
  if (dram_queue < 3)
    throw config::ConfigError("key '" + key + ".dram_queue': must be at least 3 (a 2-entry input buffer and a pipe)");
  if (queue_latency == 0) throw config::ConfigError("key '" + key + ".queue_latency': must be positive");
  dram.validate(key + ".dram");
  L2Partition::sub_partition_select(*this, key);  // enough bank bits to select the slices
}

InterconnectConfig L2Partition::queue_config(const L2PartitionConfig& cfg) {
  InterconnectConfig q;
  q.topology = "fixed_latency";
  q.sm_ports = cfg.sub_partitions;  // one L2->DRAM queue input per slice, round-robin into the channel
  q.mem_ports = 1;
  q.latency = cfg.queue_latency;
  // One packet per cycle whatever its size: a queue, not a narrow link.
  q.channel_bytes = cfg.bank.line_size + q.header_bytes;
  // Two input entries: a slot freed in cycle c is offered from c + 1, so one entry would
  // take a packet only every second cycle.
  q.input_buffer = 2;
  q.output_buffer = cfg.dram_queue - 2;
  return q;
}

uint64_t L2Partition::sub_partition_select(const L2PartitionConfig& cfg, const std::string& key) {
  const DramAddressMapping mapping(cfg.dram.address_mapping, key + ".dram.address_mapping");
  return SubPartitionMap::select_mask(mapping.bank_mask(), cfg.sub_partitions, key + ".sub_partitions");
}

L2Partition::L2Partition(sc_core::sc_module_name name, const L2PartitionConfig& cfg, const ClockDomain& l2_domain,
                         const ClockDomain& dram_domain, stats::Group& parent, const PartitionMapIF* channel_map,
                         SocketTapIF* taps)
    : sc_core::sc_module(name), cfg_(cfg), stats_(parent, basename()) {
  cfg_.validate(this->name());
  const PartitionMapIF& channels = channel_map ? *channel_map : local_;
  slice_map_ = std::make_unique<SubPartitionMap>(channels, cfg_.sub_partitions,
                                                 sub_partition_select(cfg_, this->name()));
  for (uint32_t k = 0; k < cfg_.sub_partitions; ++k)
    subs_.push_back(std::make_unique<L2SubPartition>(("sub" + std::to_string(k)).c_str(), cfg_, l2_domain, stats_,
                                                     slice_map_.get(), taps));
  queues_ = std::make_unique<Interconnect>("dram_queues", queue_config(cfg_), l2_domain, stats_);
  dram_ = std::make_unique<DramController>("dram", cfg_.dram, dram_domain, stats_);
  if (channel_map) dram_->set_channel_map(*channel_map);
  for (auto& sub : subs_) sub->downstream().bind(queues_->sm_side);
  if (cfg_.protocol_checkers) {
    dram_checker_ = std::make_unique<ProtocolChecker>("dram_checker");
    queues_->mem_side.bind(dram_checker_->in);
    bind_tapped(dram_checker_->out, dram_->in, taps, "dram", queues_->name(), dram_->name(), dram_domain, taps_);
  } else {
    bind_tapped(queues_->mem_side, dram_->in, taps, "dram", queues_->name(), dram_->name(), dram_domain, taps_);
  }
}

std::vector<ProtocolChecker*> L2Partition::checkers() {
  std::vector<ProtocolChecker*> v;
  for (auto& sub : subs_) sub->add_checkers(v);
  if (dram_checker_) v.push_back(dram_checker_.get());
  return v;
}

bool L2Partition::idle() const {
  for (const auto& sub : subs_)
    if (!sub->idle()) return false;
  return queues_->in_flight() == 0 && dram_->requests_held() == 0;
}

uint32_t L2Partition::mshr_occupied() const {
  uint32_t n = 0;
  for (const auto& sub : subs_) n += sub->bank().mshr_occupied();
  return n;
}

uint32_t L2Partition::mshr_capacity() const {
  uint32_t n = 0;
  for (const auto& sub : subs_) n += sub->bank().mshr_capacity();
  return n;
}

}  // namespace gputlm
