// Registry of re-execution queue policies; see reexec_queue.h.
#include "sm/lsu/reexec_queue.h"

#include "core/config/config_source.h"
#include "sm/lsu/newcar_queue.h"

namespace gputlm::sm {

std::unique_ptr<ReexecQueueIF> make_reexec_queue(const ReexecQueueConfig& cfg, const std::string& key) {
  if (cfg.policy == "none") return std::make_unique<NoReexecQueue>();
  if (cfg.policy == "newcar") return std::make_unique<NewCarQueue>(cfg.entries, cfg.service == "rotate");
  throw config::ConfigError("key '" + key + ".policy': unknown re-execution queue \"" + cfg.policy +
                            "\" (known: none, newcar)");
}

}  // namespace gputlm::sm
