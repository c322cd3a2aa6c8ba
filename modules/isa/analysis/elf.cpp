// ELF compiler pass (Alg. 1 and 2) and priority calculator. Distances count
// instructions along the sequential (PC-order) chain, saturating at MAX_SCORE.
#include "isa/analysis/elf.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::isa::analysis {

bool is_program_point_load(const Instruction& ins, const ElfConfig& c) {
  return (ins.op == Opcode::Ld || ins.op == Opcode::Ldu) &&
         (ins.space == StateSpace::Global || (c.local_loads && ins.space == StateSpace::Local) ||
          (c.generic_loads && ins.space == StateSpace::None));
}

namespace {

struct Point {
  bool in = false;
  bool is_branch = false;
  bool is_load = false;
  uint32_t score = 0;
};

class Pass {
 public:
  Pass(const Function& f, const ElfConfig& c, uint32_t max_score)
      : f_(f), n_(static_cast<uint32_t>(f.code.size())), max_(max_score), pts_(n_) {
    for (uint32_t i = 0; i < n_; ++i) {
      const Instruction& ins = f.code[i];
      bool load = is_program_point_load(ins, c);
      bool back_branch = ins.op == Opcode::Bra && ins.target <= i;
      if (load) pts_[i] = {true, false, true, 0};
      else if (back_branch) pts_[i] = {true, true, false, max_};
    }
    rebuild_next();
  }

  // dist(i): n + score of the first PP at or after i along the sequential chain.
  uint32_t dist(uint32_t i) const {
    if (i >= n_ || next_[i] == kNone) return max_;
    uint64_t d = uint64_t{next_[i] - i} + pts_[next_[i]].score;
    return static_cast<uint32_t>(std::min<uint64_t>(d, max_));
  }
  uint32_t plus1(uint32_t d) const { return std::min(d + 1, max_); }

  // Score a branch can reach: the better of its two successors (only the target for an
  // unconditional branch, whose fall-through is never executed).
  uint32_t branch_best(uint32_t i) const {
    const Instruction& ins = f_.code[i];
    uint32_t s = plus1(dist(ins.target));
    if (ins.guard != kNone) s = std::min(s, plus1(dist(i + 1)));
    return s;
  }

  void relax() {  // Alg. 1 step 2
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t i = 0; i < n_; ++i) {
        if (!pts_[i].in || !pts_[i].is_branch) continue;
        uint32_t s = branch_best(i);
        if (s < pts_[i].score) {
          pts_[i].score = s;
          changed = true;
        }
      }
    }
  }

  void drop_useless_branches() {  // Alg. 1 step 3, all conditions evaluated on one PP set
    std::vector<uint32_t> drop;
    for (uint32_t i = 0; i < n_; ++i) {
      if (!pts_[i].in || !pts_[i].is_branch) continue;
      if (pts_[i].score == max_ || pts_[i].score == plus1(dist(i + 1))) drop.push_back(i);
    }
    for (uint32_t i : drop) pts_[i].in = false;
    rebuild_next();
  }

  uint32_t count() const {
    uint32_t c = 0;
    for (const Point& p : pts_) c += p.in ? 1 : 0;
    return c;
  }

  void merge() {  // Alg. 2, with the selection minimum kept apart from the stored score
    uint32_t best = max_;
    uint32_t lsel = kNone, psel = kNone;
    uint32_t prev = kNone;
    for (uint32_t i = 0; i < n_; ++i) {
      if (!pts_[i].in) continue;
      if (pts_[i].is_load && prev != kNone) {
        uint32_t d = plus1(dist(prev + 1));
        if (d < best) {
          best = d;
          lsel = i;
          psel = prev;
        }
      }
      prev = i;
    }
    if (lsel == kNone) {
      // No load has a mergeable predecessor: drop the last PP (documented reading).
      for (uint32_t i = n_; i-- > 0;)
        if (pts_[i].in) {
          pts_[i].in = false;
          break;
        }
    } else {
      uint32_t sub = pts_[psel].is_branch ? pts_[psel].score : 0;
      pts_[lsel].score = best > sub ? best - sub : 0;
      pts_[psel].in = false;
    }
    rebuild_next();
  }

  const std::vector<Point>& points() const { return pts_; }

 private:
  void rebuild_next() {
    next_.assign(n_, kNone);
    uint32_t nx = kNone;
    for (uint32_t i = n_; i-- > 0;) {
      if (pts_[i].in) nx = i;
      next_[i] = nx;
    }
  }

  const Function& f_;
  uint32_t n_;
  uint32_t max_;
  std::vector<Point> pts_;
  std::vector<uint32_t> next_;
};

}  // namespace

ElfProgramPoints::ElfProgramPoints(const Function& f, const ElfConfig& config)
    : config_(config), pc_base_(f.pc_base), pc_end_(f.pc_of(static_cast<uint32_t>(f.code.size()))) {
  if (config.max_pp == 0) throw std::invalid_argument("ELF: max_pp must be at least 1");
  if (config.score_bits == 0 || config.score_bits > 31)
    throw std::invalid_argument("ELF: score_bits must be in 1..31");
  max_score_ = (1u << config.score_bits) - 1;
  Pass pass(f, config, max_score_);
  pass.relax();
  pass.drop_useless_branches();
  before_merge_ = pass.count();
  while (pass.count() > config.max_pp) pass.merge();
  const auto& pts = pass.points();
  for (uint32_t i = 0; i < pts.size(); ++i)
    if (pts[i].in) table_.push_back({i, f.pc_of(i), pts[i].is_branch, pts[i].score});
  recalc_.assign(f.code.size(), false);
  for (uint32_t i = 0; i < f.code.size(); ++i) {
    const Instruction& ins = f.code[i];
    if (ins.op != Opcode::Bra) continue;
    if (ins.guard == kNone) {
      recalc_[i] = true;  // always taken: the decrement-only path assumption is wrong
      continue;
    }
    recalc_[i] = std::min(pass.dist(ins.target) + 1, max_score_) <
                 std::min(pass.dist(i + 1) + 1, max_score_);
  }
}

uint32_t ElfProgramPoints::priority(uint64_t pc) const {
  if (pc < pc_base_ || pc >= pc_end_) return max_score_;
  auto it = std::lower_bound(table_.begin(), table_.end(), pc,
                             [](const ProgramPoint& p, uint64_t v) { return p.pc < v; });
  if (it == table_.end()) return max_score_;
  uint64_t n = (it->pc - pc) / kInstrBytes;
  uint64_t prio;
  if (it->is_branch) {
    prio = n + it->score;
  } else {
    prio = n;
    if (it->score > 0 && n >= it->score) prio = n - it->score;
  }
  return static_cast<uint32_t>(std::min<uint64_t>(prio, max_score_));
}

void ElfProgramPoints::apply_recalc_bits(Function& f) const {
  for (uint32_t i = 0; i < f.code.size() && i < recalc_.size(); ++i) {
    if (recalc_[i]) f.code[i].flags |= kElfRecalc;
    else f.code[i].flags &= ~uint32_t{kElfRecalc};
  }
}

}  // namespace gputlm::isa::analysis
