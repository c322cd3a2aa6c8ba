#include "mem/l2/l2_partition.h"

#include "core/config/config_source.h"

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
}

InterconnectConfig L2Partition::queue_config(const L2PartitionConfig& cfg) {
  InterconnectConfig q;
  q.topology = "fixed_latency";
  q.sm_ports = 1;
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

L2Partition::L2Partition(sc_core::sc_module_name name, const L2PartitionConfig& cfg, const ClockDomain& l2_domain,
                         const ClockDomain& dram_domain, stats::Group& parent, const PartitionMapIF* channel_map,
                         SocketTapIF* taps)
    : sc_core::sc_module(name), in("in"), cfg_(cfg), stats_(parent, basename()) {
  cfg_.validate(this->name());
  bank_ = std::make_unique<mem::Cache>("bank", cfg_.bank, l2_domain, stats_);
  queues_ = std::make_unique<Interconnect>("dram_queues", queue_config(cfg_), l2_domain, stats_);
  dram_ = std::make_unique<DramController>("dram", cfg_.dram, dram_domain, stats_);
  if (channel_map) dram_->set_channel_map(*channel_map);
  // The "l2" observer sits right in front of the bank (after the ROP stage and its
  // checker): it sees what the bank sees.
  const std::string from = cfg_.rop_latency > 0 ? std::string(this->name()) + ".rop" : std::string(this->name());
  if (cfg_.rop_latency > 0) {
    rop_ = std::make_unique<RopDelay>("rop", cfg_.rop_latency, cfg_.rop_queue, l2_domain);
    in.bind(rop_->in);
    if (cfg_.protocol_checkers) {
      rop_checker_ = std::make_unique<ProtocolChecker>("rop_checker");
      rop_->out.bind(rop_checker_->in);
      bind_tapped(rop_checker_->out, bank_->upstream, taps, "l2", from, bank_->name(), l2_domain, taps_);
    } else {
      bind_tapped(rop_->out, bank_->upstream, taps, "l2", from, bank_->name(), l2_domain, taps_);
    }
  } else {
    bind_tapped(in, bank_->upstream, taps, "l2", from, bank_->name(), l2_domain, taps_);
  }
  if (cfg_.protocol_checkers) {
    bank_checker_ = std::make_unique<ProtocolChecker>("bank_checker");
    dram_checker_ = std::make_unique<ProtocolChecker>("dram_checker");
    bank_->downstream.bind(bank_checker_->in);
    bank_checker_->out.bind(queues_->sm_side);
    queues_->mem_side.bind(dram_checker_->in);
    bind_tapped(dram_checker_->out, dram_->in, taps, "dram", queues_->name(), dram_->name(), dram_domain, taps_);
  } else {
    bank_->downstream.bind(queues_->sm_side);
    bind_tapped(queues_->mem_side, dram_->in, taps, "dram", queues_->name(), dram_->name(), dram_domain, taps_);
  }
}

std::vector<ProtocolChecker*> L2Partition::checkers() {
  std::vector<ProtocolChecker*> v;
  if (rop_checker_) v.push_back(rop_checker_.get());
  if (bank_checker_) v.push_back(bank_checker_.get());
  if (dram_checker_) v.push_back(dram_checker_.get());
  return v;
}

bool L2Partition::idle() const {
  return (!rop_ || rop_->held() == 0) && bank_->idle() && queues_->in_flight() == 0 &&
         dram_->requests_held() == 0;
}

}  // namespace gputlm
