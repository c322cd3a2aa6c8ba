// Registry of re-execution queue policies; see reexec_queue.h.
#include "sm/lsu/reexec_queue.h"

#include "core/config/config_source.h"
#include "sm/lsu/car_queue.h"
#include "sm/lsu/newcar_queue.h"

namespace gputlm::sm {

std::unique_ptr<ReexecQueueIF> make_reexec_queue(const ReexecQueueConfig& cfg, const std::string& key,
                                                 stats::Group* stats_parent) {
  if (cfg.policy == "none") return std::make_unique<NoReexecQueue>();
  if (cfg.policy == "newcar") return std::make_unique<NewCarQueue>(cfg.entries, cfg.service == "rotate");
  if (cfg.policy == "car") {
    if (cfg.entries == 0) throw config::ConfigError("key '" + key + ".entries': must be at least 1 (got 0)");
    return std::make_unique<CarQueue>(cfg.entries, stats_parent);
  }
  throw config::ConfigError("key '" + key + ".policy': unknown re-execution queue \"" + cfg.policy +
                            "\" (known: none, newcar, car)");
}

}  // namespace gputlm::sm
