#include "mem/dram/dram_scheduler.h"

#include "core/config/config_source.h"

namespace gputlm {

namespace {
struct Entry {
  const char* name;
  std::unique_ptr<DramSchedulerIF> (*make)();
};
const Entry kRegistry[] = {
    {"frfcfs", &make_frfcfs_dram_scheduler},
    {"fifo", &make_fifo_dram_scheduler},
};
}  // namespace

std::unique_ptr<DramSchedulerIF> make_dram_scheduler(const std::string& name, const std::string& key) {
  for (const Entry& e : kRegistry)
    if (name == e.name) return e.make();
  std::string known;
  for (const Entry& e : kRegistry) known += std::string(known.empty() ? "" : ", ") + e.name;
  throw config::ConfigError("key '" + key + "': unknown DRAM scheduler \"" + name + "\" (known: " + known + ")");
}

std::vector<std::string> dram_scheduler_names() {
  std::vector<std::string> names;
  for (const Entry& e : kRegistry) names.emplace_back(e.name);
  return names;
}

}  // namespace gputlm
