#include "mem/cache/replacement.h"

#include "core/config/config_source.h"

namespace gputlm::mem {

namespace {

// Stamp-ordered policies: the candidate with the smallest stamp is the victim.
class StampReplacement : public ReplacementIF {
 public:
  StampReplacement(uint32_t sets, uint32_t ways, bool touch_on_hit)
      : ways_(ways), touch_on_hit_(touch_on_hit), stamp_(static_cast<std::size_t>(sets) * ways, 0) {}
  const char* name() const override { return touch_on_hit_ ? "lru" : "fifo"; }
  void on_insert(uint32_t set, uint32_t way) override { stamp_[set * ways_ + way] = ++clock_; }
  void on_hit(uint32_t set, uint32_t way) override {
    if (touch_on_hit_) stamp_[set * ways_ + way] = ++clock_;
  }
  int32_t victim(uint32_t set, const std::vector<uint8_t>& candidate,
                 const std::vector<uint8_t>& valid) const override {
    int32_t best = -1;
    for (uint32_t w = 0; w < ways_; ++w) {
      if (!candidate[w]) continue;
      if (!valid[w]) return static_cast<int32_t>(w);
      if (best < 0 || stamp_[set * ways_ + w] < stamp_[set * ways_ + static_cast<uint32_t>(best)])
        best = static_cast<int32_t>(w);
    }
    return best;
  }

 private:
  uint32_t ways_;
  bool touch_on_hit_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;
};

}  // namespace

const std::vector<std::string>& replacement_policies() {
  static const std::vector<std::string> n = {"lru", "fifo"};
  return n;
}

std::unique_ptr<ReplacementIF> make_replacement(const std::string& name, uint32_t sets, uint32_t ways,
                                                const std::string& key) {
  if (name == "lru") return std::make_unique<StampReplacement>(sets, ways, true);
  if (name == "fifo") return std::make_unique<StampReplacement>(sets, ways, false);
  throw config::ConfigError("key '" + key + "': unknown replacement policy \"" + name + "\"");
}

}  // namespace gputlm::mem
