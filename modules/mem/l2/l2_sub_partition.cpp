#include "mem/l2/l2_sub_partition.h"

#include "mem/l2/l2_partition.h"

namespace gputlm {

L2SubPartition::L2SubPartition(sc_core::sc_module_name name, const L2PartitionConfig& cfg,
                               const ClockDomain& l2_domain, stats::Group& parent, const PartitionMapIF* index_map,
                               SocketTapIF* taps)
    : sc_core::sc_module(name), in("in"), stats_(parent, basename()) {
  bank_ = std::make_unique<mem::Cache>("bank", cfg.bank, l2_domain, stats_);
  if (index_map) bank_->set_index_map(*index_map);
  // The "l2" observer sits right in front of the bank (after the ROP stage and its
  // checker): it sees what the bank sees.
  const std::string from = cfg.rop_latency > 0 ? std::string(this->name()) + ".rop" : std::string(this->name());
  if (cfg.rop_latency > 0) {
    rop_ = std::make_unique<RopDelay>("rop", cfg.rop_latency, cfg.rop_queue, l2_domain);
    in.bind(rop_->in);
    if (cfg.protocol_checkers) {
      rop_checker_ = std::make_unique<ProtocolChecker>("rop_checker");
      rop_->out.bind(rop_checker_->in);
      bind_tapped(rop_checker_->out, bank_->upstream, taps, "l2", from, bank_->name(), l2_domain, taps_);
    } else {
      bind_tapped(rop_->out, bank_->upstream, taps, "l2", from, bank_->name(), l2_domain, taps_);
    }
  } else {
    bind_tapped(in, bank_->upstream, taps, "l2", from, bank_->name(), l2_domain, taps_);
  }
  if (cfg.protocol_checkers) {
    bank_checker_ = std::make_unique<ProtocolChecker>("bank_checker");
    bank_->downstream.bind(bank_checker_->in);
  }
}

tlm::tlm_initiator_socket<>& L2SubPartition::downstream() {
  if (bank_checker_) return bank_checker_->out;
  return bank_->downstream;
}

void L2SubPartition::add_checkers(std::vector<ProtocolChecker*>& v) {
  if (rop_checker_) v.push_back(rop_checker_.get());
  if (bank_checker_) v.push_back(bank_checker_.get());
}

bool L2SubPartition::idle() const { return (!rop_ || rop_->held() == 0) && bank_->idle(); }

}  // namespace gputlm
