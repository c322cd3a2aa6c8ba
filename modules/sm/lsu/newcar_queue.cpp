#include "sm/lsu/newcar_queue.h"

#include <stdexcept>
#include <string>

namespace gputlm::sm {

NewCarQueue::NewCarQueue(uint32_t entries, bool rotate) : capacity_(entries), rotate_(rotate) {
  entries_.reserve(entries);
  per_warp_.resize(64);
}

NewCarQueue::WarpCount& NewCarQueue::count(int32_t warp) {
  if (warp < 0) throw std::logic_error("NewCAR: request without a warp");
  if (static_cast<std::size_t>(warp) >= per_warp_.size()) per_warp_.resize(static_cast<std::size_t>(warp) + 1);
  return per_warp_[static_cast<std::size_t>(warp)];
}

const NewCarQueue::WarpCount* NewCarQueue::find_count(int32_t warp) const {
  if (warp < 0 || static_cast<std::size_t>(warp) >= per_warp_.size()) return nullptr;
  return &per_warp_[static_cast<std::size_t>(warp)];
}

bool NewCarQueue::has_queued(int32_t warp) const {
  const WarpCount* c = find_count(warp);
  return c && (c->loads + c->writes) > 0;
}

bool NewCarQueue::must_queue(const LsuRequest& r) const {
  const WarpCount* c = find_count(r.warp);
  if (!c) return false;
  return writes(r) ? (c->loads + c->writes) > 0 : c->writes > 0;
}

bool NewCarQueue::eligible(std::size_t i) const {
  const Entry& e = entries_[i];
  for (std::size_t k = 0; k < i; ++k) {
    const Entry& o = entries_[k];
    if (o.req.warp != e.req.warp) continue;
    if (writes(e.req) || writes(o.req)) return false;  // a store passes nothing; nothing passes a store
  }
  return true;
}

void NewCarQueue::insert(const LsuRequest& r, uint64_t stamp) {
  std::size_t pos = entries_.size();
  while (pos > 0 && entries_[pos - 1].stamp > stamp) --pos;
  entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(pos), Entry{r, stamp});
  WarpCount& c = count(r.warp);
  if (c.loads + c.writes == 0) ++queued_version_;
  if (writes(r))
    ++c.writes;
  else
    ++c.loads;
}

bool NewCarQueue::pick(bool lsu_has_new, uint64_t, LsuRequest& out) {
  if (picked_.gp) {  // the last entry handed out was not given back: the L1 took it
    picked_.gp = nullptr;
    resume_after_ = false;
  }
  if (entries_.empty() || (lsu_has_new && entries_.size() < capacity_)) return false;
  std::size_t chosen = entries_.size();
  if (rotate_ && resume_after_) {
    for (std::size_t i = 0; i < entries_.size() && chosen == entries_.size(); ++i)
      if (entries_[i].stamp > resume_stamp_ && eligible(i)) chosen = i;
  }
  for (std::size_t i = 0; i < entries_.size() && chosen == entries_.size(); ++i)
    if (eligible(i)) chosen = i;
  // The oldest entry is always eligible, so something was chosen.
  const Entry e = entries_[chosen];
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(chosen));
  WarpCount& c = count(e.req.warp);
  if (writes(e.req))
    --c.writes;
  else
    --c.loads;
  if (c.loads + c.writes == 0) ++queued_version_;
  picked_ = e.req;
  picked_stamp_ = e.stamp;
  out = e.req;
  return true;
}

bool NewCarQueue::take(const LsuRequest& r, uint64_t) {
  if (picked_.gp && r.gp == picked_.gp) {  // refused again: back in its place
    insert(r, picked_stamp_);
    picked_.gp = nullptr;
    resume_after_ = true;
    resume_stamp_ = picked_stamp_;
    return true;
  }
  if (entries_.size() >= capacity_) return false;
  insert(r, next_stamp_++);
  return true;
}

}  // namespace gputlm::sm
