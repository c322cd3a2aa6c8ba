// Warp-collective handlers: shfl.sync, vote.sync, match.sync, activemask.
#include "isa/exec/exec_context.h"
#include "isa/exec/warp_collectives.h"

namespace gputlm::isa::exec_detail {

using namespace sem;

namespace {

// membermask operand (immediate or register; taken from the first executing lane).
uint32_t member_mask(ExecCtx& c, uint32_t k) {
  if (k >= c.in.nops) return 0xFFFFFFFFu;
  const uint64_t* m = src(c, k);
  return static_cast<uint32_t>(m[__builtin_ctz(c.mask)]);
}

void h_shfl(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  const uint64_t* b = src(c, 2);
  const uint64_t* e = src(c, 3);
  uint64_t vals[32];
  for (uint32_t l = 0; l < 32; ++l) vals[l] = a[l];  // the destination may alias `a`
  uint64_t* d = dst(c, 0);
  uint32_t valid = 0;
  ShflMode mode = c.in.shfl;
  for_each_lane(c.mask, [&](uint32_t l) {
    ShflSource s = shfl_source(mode, l, uint32_t(b[l]), uint32_t(e[l]));
    d[l] = vals[s.lane] & 0xFFFFFFFFull;
    valid |= uint32_t(s.valid) << l;
  });
  if (c.in.dst2.kind == OperandKind::Pred) write_pred(c, c.in.dst2, valid);
}

void h_vote(ExecCtx& c) {
  bool sync = (c.in.flags & kSync) != 0;
  uint32_t part = c.mask & (sync ? member_mask(c, 2) : 0xFFFFFFFFu);
  uint32_t p = pred_mask(c, c.in.ops[1]);
  switch (c.in.vote) {
    case VoteMode::Ballot: {
      uint64_t* d = dst(c, 0);
      uint32_t v = vote_ballot(p, part);
      for_each_lane(c.mask, [&](uint32_t l) { d[l] = v; });
      return;
    }
    case VoteMode::All: write_pred(c, c.in.ops[0], vote_all(p, part) ? ~0u : 0u); return;
    case VoteMode::Any: write_pred(c, c.in.ops[0], vote_any(p, part) ? ~0u : 0u); return;
    case VoteMode::Uni: write_pred(c, c.in.ops[0], vote_uni(p, part) ? ~0u : 0u); return;
    case VoteMode::None: return;
  }
}

template <bool Wide>
void h_match(ExecCtx& c) {
  const uint64_t* a = src(c, 1);
  uint32_t part = c.mask & member_mask(c, 2);
  uint64_t vals[32];
  for (uint32_t l = 0; l < 32; ++l) vals[l] = Wide ? a[l] : (a[l] & 0xFFFFFFFFull);
  uint64_t* d = dst(c, 0);
  if (c.in.match == MatchMode::Any) {
    uint32_t out[32] = {};
    match_any(vals, part, out);
    for_each_lane(c.mask, [&](uint32_t l) { d[l] = out[l]; });
  } else {
    bool eq = false;
    uint32_t m = match_all(vals, part, &eq);
    for_each_lane(c.mask, [&](uint32_t l) { d[l] = m; });
    if (c.in.dst2.kind == OperandKind::Pred) write_pred(c, c.in.dst2, eq ? ~0u : 0u);
  }
}

void h_activemask(ExecCtx& c) {
  uint64_t* d = dst(c, 0);
  uint32_t m = c.mask;
  for_each_lane(c.mask, [&](uint32_t l) { d[l] = m; });
}

}  // namespace

ExecFn select_warp_handler(const Instruction& in) {
  switch (in.op) {
    case Opcode::Shfl: return type_bytes(in.type) == 4 && in.shfl != ShflMode::None ? &h_shfl : nullptr;
    case Opcode::Vote: return in.vote != VoteMode::None ? &h_vote : nullptr;
    case Opcode::Match:
      if (in.match == MatchMode::None) return nullptr;
      return type_bytes(in.type) == 8 ? &h_match<true> : type_bytes(in.type) == 4 ? &h_match<false> : nullptr;
    case Opcode::Activemask: return &h_activemask;
    default: return nullptr;
  }
}

}  // namespace gputlm::isa::exec_detail
