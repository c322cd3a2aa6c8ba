// FIFO (GPGPU-Sim's DRAM_FIFO): only the oldest request may be scheduled; it goes to
// its bank when that bank is free, and everything behind it waits (head-of-line).
#include "mem/dram/dram_scheduler.h"

namespace gputlm {

namespace {
class FifoDramScheduler final : public DramSchedulerIF {
 public:
  std::size_t pick(const std::vector<DramQueuedRequest>& queue, const DramBankView& bank) const override {
    return !queue.empty() && queue.front().bank == bank.bank ? 0 : kNone;
  }
};
}  // namespace

std::unique_ptr<DramSchedulerIF> make_fifo_dram_scheduler() { return std::make_unique<FifoDramScheduler>(); }

}  // namespace gputlm
