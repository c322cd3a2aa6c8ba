// FR-FCFS (Rixner et al.; GPGPU-Sim's DRAM_FRFCFS): for a free bank, the oldest
// request that hits its open row; if none, the oldest request to that bank.
#include "mem/dram/dram_scheduler.h"

namespace gputlm {

namespace {
class FrFcfsDramScheduler final : public DramSchedulerIF {
 public:
  std::size_t pick(const std::vector<DramQueuedRequest>& queue, const DramBankView& bank) const override {
    std::size_t oldest = kNone;
    for (std::size_t i = 0; i < queue.size(); ++i) {
      if (queue[i].bank != bank.bank) continue;
      if (bank.row_open && queue[i].row == bank.open_row) return i;  // queue is oldest first
      if (oldest == kNone) oldest = i;
    }
    return oldest;
  }
  bool per_bank() const override { return true; }
};
}  // namespace

std::unique_ptr<DramSchedulerIF> make_frfcfs_dram_scheduler() { return std::make_unique<FrFcfsDramScheduler>(); }

}  // namespace gputlm
