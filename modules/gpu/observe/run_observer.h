// Something that looks at a timing run at chosen core cycles: the time series (every
// sample_period cycles), the timeline (its window's edges and counter samples). Gpu::run()
// stops the simulation at each observer's next_stop() and calls at(); between stops an
// observer costs nothing, and a run without observers never stops for them.
#pragma once

#include <cstdint>
#include <limits>

namespace gputlm::gpu {

class RunObserverIF {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
  virtual ~RunObserverIF() = default;
  // The core cycle at which the observer wants to look next (kNever: no more).
  virtual uint64_t next_stop() const = 0;
  // Every core cycle before `cycle` has been simulated and none from `cycle` on;
  // cycle >= next_stop(). Must move next_stop() past `cycle`. Reading the model only:
  // an observer never changes what the run computes.
  virtual void at(uint64_t cycle) = 0;
};

}  // namespace gputlm::gpu
