#include "mem/l2/memory_system.h"

#include <sstream>
#include <stdexcept>

namespace gputlm {

MemorySystem::MemorySystem(sc_core::sc_module_name name, const MemorySystemConfig& cfg,
                           const ClockDomain& icnt_domain, const ClockDomain& l2_domain,
                           const ClockDomain& dram_domain, stats::Group& parent, MemoryStatsPlacement placement,
                           SocketTapIF* taps)
    : sc_core::sc_module(name),
      cfg_(cfg),
      own_stats_(placement == MemoryStatsPlacement::own_group ? std::make_unique<stats::Group>(parent, basename())
                                                              : nullptr),
      stats_(own_stats_ ? *own_stats_ : parent) {
  cfg_.validate(this->name());
  const uint32_t channels = cfg_.icnt.mem_ports, subs = cfg_.l2.sub_partitions;
  channel_map_ = make_partition_map(cfg_.icnt.interleave, channels, std::string(this->name()) + ".icnt.interleave");
  InterconnectConfig icnt = cfg_.icnt;
  icnt.mem_ports = channels * subs;  // a crossbar port per L2 sub-partition
  icnt_ = std::make_unique<Interconnect>(
      "icnt", icnt, icnt_domain, stats_,
      std::make_unique<SubPartitionMap>(*channel_map_, subs,
                                        L2Partition::sub_partition_select(cfg_.l2, std::string(this->name()) + ".l2")));
  for (uint32_t p = 0; p < channels; ++p) {
    parts_.push_back(std::make_unique<L2Partition>(("l2p" + std::to_string(p)).c_str(), cfg_.l2, l2_domain,
                                                   dram_domain, stats_, channel_map_.get(), taps));
    for (uint32_t k = 0; k < subs; ++k) icnt_->mem_side.bind(parts_.back()->in(k));  // port p * subs + k
  }
  for (const char* s : {"icnt.requests", "icnt.replies"}) progress_stats_.push_back(stats_.find(s));
  for (uint32_t p = 0; p < partitions(); ++p)
    for (const char* s : {".dram.reads", ".dram.writes"})
      progress_stats_.push_back(stats_.find("l2p" + std::to_string(p) + s));
  for (const stats::Stat* s : progress_stats_)
    if (s == nullptr) throw std::logic_error("memory system: a progress statistic is missing (renamed?)");
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

uint64_t MemorySystem::progress() const {
  uint64_t n = 0;
  for (const stats::Stat* s : progress_stats_) n += static_cast<uint64_t>(s->scalar(stats::View::Total));
  return n;
}

std::string MemorySystem::state_dump() const {
  std::ostringstream os;
  os << "interconnect: " << icnt_->in_flight() << " requests in flight\n";
  for (uint32_t p = 0; p < parts_.size(); ++p)
    os << "partition " << p << ": " << (parts_[p]->idle() ? "idle" : "busy") << ", DRAM holds "
       << parts_[p]->dram().requests_held() << " requests, L2 MSHRs " << parts_[p]->mshr_occupied() << "/"
       << parts_[p]->mshr_capacity() << "\n";
  return os.str();
}

}  // namespace gputlm
