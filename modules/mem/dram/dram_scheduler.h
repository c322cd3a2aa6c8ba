// DRAM request scheduling policies (GPGPU-Sim's -gpgpu_dram_scheduler): when a bank
// has no request in service, the policy picks the next one for it from the
// controller's queue. Policies are small classes behind DramSchedulerIF, created by
// name; adding one is a new file plus one line in dram_scheduler.cpp's registry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gputlm {

// What a policy may see of a queued request.
struct DramQueuedRequest {
  uint32_t slot = 0;  // controller-internal handle
  uint32_t bank = 0;
  uint64_t row = 0;
  bool write = false;
  uint64_t arrival = 0;  // cycle the controller accepted it
};

// The state of the bank being scheduled.
struct DramBankView {
  uint32_t bank = 0;
  bool row_open = false;
  uint64_t open_row = 0;
};

class DramSchedulerIF {
 public:
  static constexpr std::size_t kNone = ~std::size_t{0};
  virtual ~DramSchedulerIF() = default;
  // Position in `queue` (oldest first) of the request `bank` serves next, or kNone.
  virtual std::size_t pick(const std::vector<DramQueuedRequest>& queue, const DramBankView& bank) const = 0;
  // True when pick()'s answer for a bank depends only on the queued requests to that bank
  // (in queue order) and the bank's state. The controller then asks again only for banks
  // whose requests or state changed since they were last asked (an exact shortcut: a free
  // bank's earlier "none" stands); otherwise it asks for every free bank each time.
  virtual bool per_bank() const { return false; }
};

// Throws config::ConfigError naming `key` for an unknown policy.
std::unique_ptr<DramSchedulerIF> make_dram_scheduler(const std::string& name, const std::string& key);
std::vector<std::string> dram_scheduler_names();

// Factories of the policies (one file each).
std::unique_ptr<DramSchedulerIF> make_fifo_dram_scheduler();
std::unique_ptr<DramSchedulerIF> make_frfcfs_dram_scheduler();

}  // namespace gputlm
