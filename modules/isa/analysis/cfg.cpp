// CFG construction and immediate post-dominators (Cooper-Harvey-Kennedy iterative
// algorithm on the reverse CFG rooted at a virtual exit node). Deterministic: blocks
// and successors are visited in instruction order.
#include "isa/analysis/cfg.h"

#include <algorithm>

namespace gputlm::isa::analysis {
namespace {

bool ends_block(const Instruction& ins) {
  return ins.op == Opcode::Bra || ins.op == Opcode::Exit || ins.op == Opcode::Ret ||
         ins.op == Opcode::Trap;
}

void add_edge(Cfg& g, uint32_t from, uint32_t to) {
  auto& s = g.blocks[from].succs;
  if (std::find(s.begin(), s.end(), to) != s.end()) return;
  s.push_back(to);
  if (to != Cfg::kExitBlock) g.blocks[to].preds.push_back(from);
}

}  // namespace

Cfg build_cfg(const Function& f) {
  Cfg g;
  const auto n = static_cast<uint32_t>(f.code.size());
  if (n == 0) return g;
  std::vector<bool> leader(n, false);
  leader[0] = true;
  for (uint32_t i = 0; i < n; ++i) {
    const Instruction& ins = f.code[i];
    if (ins.op == Opcode::Bra && ins.target < n) leader[ins.target] = true;
    if (ends_block(ins) && i + 1 < n) leader[i + 1] = true;
  }
  g.block_of.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) {
      BasicBlock b;
      b.first = i;
      g.blocks.push_back(b);
    }
    g.blocks.back().last = i;
    g.block_of[i] = static_cast<uint32_t>(g.blocks.size() - 1);
  }
  for (uint32_t b = 0; b < g.blocks.size(); ++b) {
    const Instruction& last = f.code[g.blocks[b].last];
    bool conditional = last.guard != kNone;
    bool falls_through = true;
    if (last.op == Opcode::Bra) {
      add_edge(g, b, g.block_of[last.target]);
      falls_through = conditional;
    } else if (last.op == Opcode::Exit || last.op == Opcode::Ret || last.op == Opcode::Trap) {
      add_edge(g, b, Cfg::kExitBlock);
      falls_through = conditional;
    }
    if (falls_through) {
      if (g.blocks[b].last + 1 < n) add_edge(g, b, b + 1);
      else add_edge(g, b, Cfg::kExitBlock);
    }
  }

  // Post-dominators: node ids 0..B-1 are blocks, B is the virtual exit (the root).
  const auto B = static_cast<uint32_t>(g.blocks.size());
  const uint32_t root = B;
  auto rsuccs = [&](uint32_t v, std::vector<uint32_t>& out) {  // edges of the reverse CFG
    out.clear();
    if (v == root) {
      for (uint32_t b = 0; b < B; ++b)
        for (uint32_t s : g.blocks[b].succs)
          if (s == Cfg::kExitBlock) out.push_back(b);
    } else {
      out = g.blocks[v].preds;
    }
  };
  // Post-order numbering of the reverse CFG by iterative DFS from the root.
  std::vector<uint32_t> order;  // post-order
  std::vector<uint32_t> po_num(B + 1, kNone);
  std::vector<uint8_t> state(B + 1, 0);
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> stack;
  std::vector<uint32_t> tmp;
  rsuccs(root, tmp);
  stack.emplace_back(root, tmp);
  std::reverse(stack.back().second.begin(), stack.back().second.end());
  state[root] = 1;
  while (!stack.empty()) {
    auto& [v, pending] = stack.back();
    if (pending.empty()) {
      po_num[v] = static_cast<uint32_t>(order.size());
      order.push_back(v);
      stack.pop_back();
      continue;
    }
    uint32_t w = pending.back();
    pending.pop_back();
    if (state[w]) continue;
    state[w] = 1;
    rsuccs(w, tmp);
    std::reverse(tmp.begin(), tmp.end());
    stack.emplace_back(w, tmp);
  }
  std::vector<uint32_t> idom(B + 1, kNone);
  idom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (po_num[a] < po_num[b]) a = idom[a];
      while (po_num[b] < po_num[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    // Reverse post-order, skipping the root.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      uint32_t v = *it;
      if (v == root) continue;
      // Predecessors in the reverse CFG = successors in the CFG.
      uint32_t new_idom = kNone;
      for (uint32_t s : g.blocks[v].succs) {
        uint32_t p = s == Cfg::kExitBlock ? root : s;
        if (idom[p] == kNone) continue;
        new_idom = new_idom == kNone ? p : intersect(p, new_idom);
      }
      if (new_idom != idom[v]) {
        idom[v] = new_idom;
        changed = true;
      }
    }
  }
  g.ipdom.assign(B, kNone);
  for (uint32_t b = 0; b < B; ++b) {
    if (po_num[b] == kNone) continue;  // cannot reach an exit
    g.ipdom[b] = idom[b] == root ? Cfg::kExitBlock : idom[b];
  }
  return g;
}

void compute_reconvergence(Function& f) {
  Cfg g = build_cfg(f);
  for (uint32_t i = 0; i < f.code.size(); ++i) {
    Instruction& ins = f.code[i];
    if (ins.op != Opcode::Bra) continue;
    uint32_t p = g.ipdom[g.block_of[i]];
    ins.reconv = (p == kNone || p == Cfg::kExitBlock) ? kNone : g.blocks[p].first;
    if (ins.target <= i) ins.flags |= kBackwardBranch;
    else ins.flags &= ~uint32_t{kBackwardBranch};
  }
}

}  // namespace gputlm::isa::analysis
