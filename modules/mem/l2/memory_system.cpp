#include "mem/l2/memory_system.h"

namespace gputlm {

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemConfig& cfg,
                           const ClockDomain& icnt_domain, const ClockDomain& l2_domain,
                           const ClockDomain& dram_domain, stats::Group& parent)
    : sc_core::sc_module(name), cfg_(cfg), stats_(parent, basename()) {
  cfg_.validate(this->name());
  icnt_ = std::make_unique<Interconnect>("icnt", cfg_.icnt, icnt_domain, stats_);
  for (uint32_t p = 0; p < cfg_.icnt.mem_ports; ++p) {
    parts_.push_back(std::make_unique<L2Partition>(("l2p" + std::to_string(p)).c_str(), cfg_.l2, l2_domain,
                                                   dram_domain, stats_, &icnt_->partition_map()));
    icnt_->mem_side.bind(parts_.back()->in);
  }
}

bool MemorySystem::idle() const {
  if (icnt_->in_flight() != 0) return false;
  for (const auto& p : parts_)
    if (!p->idle()) return false;
  return true;
}

void MemorySystem::update_stats() {
  for (auto& p : parts_) p->dram().update_stats();
}

}  // namespace gputlm
