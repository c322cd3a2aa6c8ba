// An observer of every warp instruction a scheduler issues (the GPU timeline). Set only
// while someone traces: an untraced scheduler pays one null-pointer check per issue.
#pragma once

namespace gputlm::sm {

struct WarpInstruction;

class IssueTracerIF {
 public:
  virtual ~IssueTracerIF() = default;
  // Called as `wi` leaves the scheduler (wi.issue_cycle, wi.issue_scheduler, wi.pc, ...).
  virtual void issued(const WarpInstruction& wi) = 0;
};

}  // namespace gputlm::sm
