#include "mem/l2/l2_sub_partition.h"

#include "mem/l2/l2_partition.h"

namespace gputlm {

L2SubPartition::L2SubPartition(sc_core::sc_module_name name, const L2PartitionConfig& cfg,
                               const ClockDomain& l2_domain, stats::Group& parent, const PartitionMapIF* index_map,
                               SocketTapIF* taps)
    : sc_core::sc_module(name), in("in"), stats_(parent, basename()) {
  bank_ = std::make_unique<mem::Cache>("bank", cfg.bank, l2_domain, stats_);
  if (index_map) bank_->set_index_map(*index_map);
  // The "l2" observer sits right in front of the bank (after the ROP stage, the sector
  // splitter and their checkers): it sees what the bank sees.
  //   in -> [rop -> (checker)] -> [splitter -> (checker)] -> bank
  std::string from = this->name();
  tlm::tlm_initiator_socket<>* feed = nullptr;  // the socket feeding the next stage
  auto stage = [&](tlm::tlm_target_socket<>& next) {
    if (feed) feed->bind(next);
    else in.bind(next);
  };
  if (cfg.rop_latency > 0) {
    rop_ = std::make_unique<RopDelay>("rop", cfg.rop_latency, cfg.rop_queue, l2_domain);
    stage(rop_->in);
    feed = &rop_->out;
    from = std::string(this->name()) + ".rop";
    if (cfg.protocol_checkers) {
      rop_checker_ = std::make_unique<ProtocolChecker>("rop_checker");
      stage(rop_checker_->in);
      feed = &rop_checker_->out;
    }
  }
  if (cfg.bank.sectors > 1) {
    splitter_ = std::make_unique<SectorSplitter>("split", cfg.bank.line_size, cfg.bank.sectors, cfg.split_requests,
                                                 l2_domain, stats_);
    stage(splitter_->in);
    feed = &splitter_->out;
    from = std::string(this->name()) + ".split";
    if (cfg.protocol_checkers) {
      split_checker_ = std::make_unique<ProtocolChecker>("split_checker");
      stage(split_checker_->in);
      feed = &split_checker_->out;
    }
  }
  if (feed) bind_tapped(*feed, bank_->upstream, taps, "l2", from, bank_->name(), l2_domain, taps_);
  else bind_tapped(in, bank_->upstream, taps, "l2", from, bank_->name(), l2_domain, taps_);
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
  if (split_checker_) v.push_back(split_checker_.get());
  if (bank_checker_) v.push_back(bank_checker_.get());
}

bool L2SubPartition::idle() const {
  return (!rop_ || rop_->held() == 0) && (!splitter_ || splitter_->held() == 0) && bank_->idle();
}

}  // namespace gputlm
