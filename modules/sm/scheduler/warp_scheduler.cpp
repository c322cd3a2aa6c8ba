#include "sm/scheduler/warp_scheduler.h"

#include "core/clock/parallel_edge.h"
#include "core/log/hex.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "sm/scheduler/policies/base_policies.h"

namespace gputlm::sm {

namespace {
std::vector<std::string> scheduler_labels(uint32_t n) {
  std::vector<std::string> l;
  for (uint32_t i = 0; i < n; ++i) l.push_back("s" + std::to_string(i));
  return l;
}
}  // namespace

namespace {
std::unique_ptr<LawsState> make_laws_state(const SchedulerConfig& cfg, uint32_t warp_slots, stats::Group& g) {
  using T = LawsState::Throttling;
  if (cfg.policy != "laws" && cfg.policy != "laws_th" && cfg.policy != "laws_nmd") return nullptr;
  const T t = cfg.policy == "laws_th" ? T::Full : cfg.policy == "laws_nmd" ? T::NoDivergence : T::None;
  return std::make_unique<LawsState>(cfg.laws, t, warp_slots, cfg.count, "sm.scheduler", &g);
}
}  // namespace

IssueShared::IssueShared(stats::Group& g, const SchedulerConfig& cfg, uint32_t warp_slots, uint32_t sm,
                         uint32_t l1d_line_size, uint32_t cta_slots)
    : sm_id(sm),
      warp_instructions(g, "warp_instructions", "warp instructions issued"),
      thread_instructions(g, "thread_instructions", "thread instructions issued (sum of exec-mask popcounts)"),
      issued_per_scheduler(g, "issued_per_scheduler", "warp instructions issued by each scheduler",
                           scheduler_labels(cfg.count)),
      stall_elf(g, "stall_elf",
                "scheduler-cycles without issue by ELF class (000 §2.4; docs/blocks/scheduler.md)",
                {std::begin(kElfStallNames), std::end(kElfStallNames)}),
      stall_kaws(g, "stall_kaws", "scheduler-cycles without issue by KAWS class (003 §4.2)",
                 {std::begin(kKawsStallNames), std::end(kKawsStallNames)}),
      warp_blocks(g, "warp_blocks",
                  "scheduler-cycles without issue in which some resident warp was blocked this way (a "
                  "cycle counts once per kind seen)",
                  {std::begin(kWarpBlockNames), std::end(kWarpBlockNames)}),
      elf(cfg.policy == "elf" ? std::make_unique<ElfStats>(g) : nullptr),
      ccws(cfg.policy == "ccws" ? std::make_unique<CcwsState>(cfg.ccws, warp_slots, "sm.scheduler", &g) : nullptr),
      mascar(cfg.policy == "mascar"
                 ? std::make_unique<MascarState>(cfg.mascar, warp_slots, l1d_line_size, "sm.scheduler", &g)
                 : nullptr),
      owl(cfg.policy == "owl" ? std::make_unique<OwlState>(cfg.owl, warp_slots, sm, "sm.scheduler", &g) : nullptr),
      laws(make_laws_state(cfg, warp_slots, g)),
      kaws(cfg.policy == "kaws" ? std::make_unique<KawsState>(cta_slots, &g) : nullptr),
      shared_issues(cfg.warp_sharing
                        ? std::make_unique<stats::CounterVector>(
                              g, "shared_issues",
                              "warp instructions each scheduler issued for another scheduler's warp (KAWS warp "
                              "sharing, 003 §3)",
                              scheduler_labels(cfg.count))
                        : nullptr) {}

IssueShared::~IssueShared() = default;

WarpScheduler::WarpScheduler(sc_core::sc_module_name name, uint32_t id, const SmConfig& cfg, WarpTable& table,
                             IssueShared& shared)
    : sc_core::sc_module(name),
      issue("issue"),
      scoreboard("scoreboard"),
      issue_status("issue_status"),
      table_(table),
      shared_(shared),
      cfg_(cfg),
      policy_(make_scheduler_policy(cfg.scheduler, "sm.scheduler",
                                    PolicyContext{&table, shared.elf.get(), shared.ccws.get(), shared.mascar.get(),
                                                  shared.owl.get(), shared.laws.get(), shared.kaws.get()})),
      id_(id),
      order_on_issue_only_(policy_->order_changes_only_on_issue()),
      watch_versions_(policy_->has_state_version()),
      check_index_(table.size()),
      wants_outcome_(policy_->wants_issue_outcome()),
      vetoes_(policy_->vetoes_instructions()),
      versioned_(policy_->has_state_version()),
      last_block_(table.size(), WarpBlock::NotEligible) {
  update_may_repeat();
  const uint32_t n = cfg.scheduler.count, own = (table.size() + n - 1) / n;
  for (uint32_t w = 0; w < table.size(); ++w) check_index_[w] = static_cast<uint8_t>(w % n == id ? w / n : own + w);
  checks_.resize(own + table.size());
  views_.reserve(table.size());
  order_.reserve(table.size());
  by_age_.reserve(table.size());
  borrowed_.reserve(table.size());
}

WarpScheduler::Readiness WarpScheduler::evaluate(uint32_t slot) const {
  // The checks of the warp's own state (residency, status, issue mask, I-buffer,
  // scoreboard) hold while the warp is untouched (WarpTable::warp_version) and this
  // scheduler's mask is unchanged (check_epoch_); the filter's answer while its version
  // is unchanged too. Both are kept per warp.
  WarpCheck& c = checks_[check_index_[slot]];
  const uint64_t version = table_.warp_version(slot);
  if (!cache_checks_ || c.version != version) c = WarpCheck{version, check_warp(slot)};
  Readiness r;
  r.block = c.result.block;
  if (!c.result.has_head) return r;
  if (filter_ && ((filter_classes_ >> c.result.head_class) & 1u)) {
    // Asked before the scoreboard's verdict counts: a refused warp is not eligible.
    if (!cache_checks_ || c.filter_generation != filter_generation_) {
      c.filter_ok = filter_(slot, *table_.ibuf_head(slot).instr);
      c.filter_generation = filter_generation_;
    }
    if (!c.filter_ok) {
      r.block = WarpBlock::NotEligible;
      return r;
    }
  }
  if (!c.result.passed) return r;
  const uint8_t unit_bit = static_cast<uint8_t>(1u << static_cast<uint32_t>(c.result.unit));
  if ((units_known_ & unit_bit) == 0) {
    units_known_ |= unit_bit;
    if (status_if_->can_accept(id_, c.result.unit)) units_open_ |= unit_bit;
    else units_open_ &= static_cast<uint8_t>(~unit_bit);
  }
  if ((units_open_ & unit_bit) == 0) {
    r.block = c.result.unit == UnitType::Mem ? WarpBlock::UnitMemory : WarpBlock::UnitOther;
    return r;
  }
  // The policy's veto comes last: it sees only instructions that could issue otherwise.
  if (vetoes_ && !policy_->may_issue(slot, *table_.ibuf_head(slot).instr)) {
    r.block = WarpBlock::NotEligible;
    return r;
  }
  r.ready = true;
  return r;
}

WarpScheduler::CheckResult WarpScheduler::check_warp(uint32_t slot) const {
  CheckResult r;
  const WarpSlot& s = table_[slot];
  if (((mask_ >> slot) & 1u) == 0 || !table_.live(slot) || !s.ready) return r;
  if (table_.ibuf_empty(slot)) {
    r.block = WarpBlock::IBufferEmpty;
    return r;
  }
  const IBufferEntry& head = table_.ibuf_head(slot);
  r.has_head = true;
  r.head_class = static_cast<uint8_t>(head.instr->cls);
  if (table_.control_pending(slot)) {  // waits for a branch to resolve (sm.branch)
    r.block = WarpBlock::ScoreboardOther;
    return r;
  }
  const Hazard hazard = scoreboard_wants_mask_
                            ? scoreboard_if_->check_masked(slot, *head.instr, s.active_mask)
                            : scoreboard_if_->check(slot, *head.instr);
  switch (hazard) {
    case Hazard::Memory: r.block = WarpBlock::ScoreboardMemory; return r;
    case Hazard::Other: r.block = WarpBlock::ScoreboardOther; return r;
    case Hazard::None: break;
  }
  r.passed = true;
  r.unit = head.unit;
  return r;
}

UnitType WarpScheduler::issue_one(uint32_t slot, uint64_t cycle, bool own) {
  WarpSlot& s = table_[slot];
  const IBufferEntry head = table_.ibuf_head(slot);
  // In a parallel edge this SM's global-memory accesses wait for the edge's end (in SM
  // order, as the serial ticks would have made them).
  isa::GlobalMemoryLog* log = parallel_edge::current() ? &shared_.memory_log : nullptr;
  const isa::StepResult& r = s.grid->step(*s.ctx, log);
  table_.sync_status(slot);
  if (r.barrier_released) table_.barrier_released(s.cta_slot);  // its CTA's warps, on every scheduler, may be Ready again
  if (r.at_barrier || r.barrier_released) table_.note_barrier_change();
  if (r.pc != head.pc)
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(slot) + " I-buffer head at " + hex(head.pc) +
                        " but the warp executed " + hex(r.pc) + " (I-buffer not flushed after a PC change)");
  WarpInstruction& wi = *shared_.pool.acquire_for_issue();  // result: assigned below
  wi.seq = shared_.next_seq++;
  wi.sm = shared_.sm_id;
  wi.warp = slot;
  wi.scheduler = slot % cfg_.scheduler.count;
  wi.issue_scheduler = id_;
  wi.cta_slot = s.cta_slot;
  wi.kernel_id = s.kernel_id;
  wi.cta_global = s.cta_global;
  wi.instr = head.instr;
  wi.pc = head.pc;
  wi.unit = head.unit;
  wi.active_mask = r.active_mask;
  wi.exec_mask = r.exec_mask;
  wi.result = r;
  fill_register_keys(wi);
  wi.fetch_cycle = head.fetch_cycle;
  wi.decode_cycle = head.decode_cycle;
  wi.issue_cycle = cycle;
  wi.is_memory = head.unit == UnitType::Mem;
  wi.long_latency_load = is_long_latency_load(*head.instr);
  wi.is_global_load = head.instr->is_load && head.instr->cls == isa::OpClass::MemGlobal;
  wi.is_branch = r.is_branch;
  wi.elf_recalc = (head.instr->flags & isa::kElfRecalc) != 0;
  scoreboard_if_->reserve(wi);
  if (shared_.branch && r.is_branch) shared_.branch->issued(wi, table_);

  table_.ibuf_pop(slot);
  if (r.warp_finished) {
    table_.mark_issue_done(slot);
    table_.note_residency_change();
    table_.ibuf_flush(slot);
  } else if (!table_.ibuf_empty(slot) ? table_.ibuf_head(slot).pc != s.grid->peek_pc(*s.ctx)
                                      : s.fetch_pending && !s.fetch_stale && s.fetch_pc != s.grid->peek_pc(*s.ctx)) {
    // A taken branch, divergence, reconvergence, call or return: the sequentially
    // fetched instructions (buffered, or still being fetched when the buffer had room
    // beside its last entry) are not the warp's next ones.
    table_.ibuf_flush(slot);
  }
  ++s.in_flight;
  ++s.issued;
  if (shared_.kaws) shared_.kaws->issued(s.cta_slot);
  ++shared_.warp_instructions;
  shared_.thread_instructions.add(static_cast<uint64_t>(__builtin_popcount(r.exec_mask)));
  shared_.issued_per_scheduler.add(id_);
  if (own) {
    policy_->issued(slot, *head.instr);  // a borrowed warp is not this policy's
    if (wants_outcome_) policy_->issued_at(slot, wi.result, r.warp_finished ? 0 : s.grid->peek_pc(*s.ctx));
    order_stale_ = true;
  }
  if (observer_) observer_(wi);
  if (tracer_) tracer_->issued(wi);
  const UnitType unit = wi.unit;
  issue.send(wi);  // ownership passes to the operand collector
  return unit;
}

bool WarpScheduler::decision_unchanged(uint64_t cycle) const {
  return last_issued_ == 0 && !inputs_changed_ && may_repeat_ && decided_at_version_ == table_.group_version(id_) &&
         (!waited_on_unit_ || decided_at_availability_ == status_if_->availability_version(cycle));
}

void WarpScheduler::verify_repeat(uint64_t cycle) {
  // What deciding now would find: no warp ready, and the same set of reasons.
  units_known_ = 0;
  StallObservation obs;
  bool ready = false;
  for (uint32_t slot : order_) {
    const Readiness r = evaluate(slot);
    ready = ready || r.ready;
    obs.add(r.block);
  }
  if (order_.size() < views_.size()) obs.add(WarpBlock::NotEligible);
  bool same = !ready;
  for (uint32_t b = 0; b < static_cast<uint32_t>(kWarpBlocks); ++b)
    same = same && obs.has(static_cast<WarpBlock>(b)) == last_obs_.has(static_cast<WarpBlock>(b));
  if (same) return;
  std::string warps;
  for (uint32_t slot : order_) {
    const Readiness r = evaluate(slot);
    warps += " w" + std::to_string(slot) + " " + std::to_string(static_cast<int>(r.block)) + (r.ready ? " ready" : "") +
             " (was " + std::to_string(static_cast<int>(last_block_[slot])) + ")";
  }
  throw PipelineError(std::string(name()) + ": cycle " + std::to_string(cycle) +
                      ": repeating the last decision differs from evaluating the warps (blocks: 0 not eligible, "
                      "1 I-buffer empty, 2 scoreboard other, 3 scoreboard memory, 4 unit other, 5 unit memory):" +
                      warps);
}

void WarpScheduler::add_stall(uint64_t cycles) {
  for (uint32_t b = 0; b < static_cast<uint32_t>(kWarpBlocks); ++b)
    if (last_obs_.has(static_cast<WarpBlock>(b))) shared_.warp_blocks.add(b, cycles);
  shared_.stall_elf.add(static_cast<std::size_t>(last_elf_), cycles);
  shared_.stall_kaws.add(static_cast<std::size_t>(last_kaws_), cycles);
}

void WarpScheduler::account_skipped(uint64_t cycles) {
  if (cycles == 0) return;
  if (last_issued_ != 0)
    throw PipelineError(std::string(name()) + ": the SM slept after a cycle in which this scheduler issued");
  add_stall(cycles);
}

void WarpScheduler::order_warps() {
  const uint32_t n = cfg_.scheduler.count;
  if (views_residency_ != table_.residency_version()) {  // the live warps and their ages
    views_.clear();
    for (uint32_t w = id_; w < table_.size(); w += n)
      if (table_.live(w)) views_.push_back(WarpView{w, w / n, table_[w].age});
    views_residency_ = table_.residency_version();
  }
  order_.clear();
  policy_->order(views_, order_);
  if (warp_limit_ > 0 && views_.size() > warp_limit_) {
    // Keep only the warp_limit_ oldest warps, in the policy's order.
    by_age_.clear();
    policies::oldest_first(views_, 0xffffffffu, by_age_);
    by_age_.resize(warp_limit_);
    order_.erase(std::remove_if(order_.begin(), order_.end(),
                                [&](uint32_t w) { return std::find(by_age_.begin(), by_age_.end(), w) == by_age_.end(); }),
                 order_.end());
  }
  order_residency_ = table_.residency_version();
  order_stale_ = false;
}

uint32_t WarpScheduler::tick(uint64_t cycle) {
  if (status_if_ == nullptr) {  // bound by now: SystemC checks the ports before the first tick
    scoreboard_if_ = scoreboard.operator->();
    status_if_ = issue_status.operator->();
    scoreboard_wants_mask_ = scoreboard_if_->wants_active_mask();
  }
  if (watch_versions_) {  // changed versioned inputs: re-order and re-decide
    if (filter_version_ && filter_version_() != filter_version_seen_) {
      filter_version_seen_ = filter_version_();
      if (++filter_generation_ == 0) {  // wrapped: no entry may match an old generation
        for (WarpCheck& c : checks_) c.filter_generation = 0;
        filter_generation_ = 1;
      }
      inputs_changed_ = true;
    }
    if (versioned_) {
      const uint64_t v = policy_->state_version();
      if (v != policy_version_) {
        policy_version_ = v;
        inputs_changed_ = true;
        order_stale_ = true;  // the filter's answers do not change the order; the policy's state may
      }
    }
  }
  if (decision_unchanged(cycle)) {
    if (cfg_.scheduler.verify_repeats) verify_repeat(cycle);
    add_stall(1);
    return 0;
  }
  const uint32_t n = cfg_.scheduler.count;
  // The policy's order is a function of the resident warps and of what this scheduler
  // issued, and of a versioned policy's state (order_stale_ set above): recompute it only
  // when one of them (or the warp limit) changed.
  if (order_residency_ != table_.residency_version() || !order_on_issue_only_)
    order_stale_ = true;
  inputs_changed_ = false;
  if (order_stale_) order_warps();

  StallObservation obs;
  last_issued_ = 0;
  units_known_ = 0;
  for (uint32_t slot : order_) {
    const Readiness r = evaluate(slot);
    last_block_[slot] = r.block;
    if (!r.ready) {
      obs.add(r.block);
      continue;
    }
    const UnitType first = issue_one(slot, cycle, true);
    last_issued_ = 1;
    units_known_ = 0;  // the issue took a collector
    if (cfg_.scheduler.dual_issue && table_.live(slot) && !table_.ibuf_empty(slot) &&
        table_.ibuf_head(slot).unit != first && evaluate(slot).ready) {
      issue_one(slot, cycle, true);
      last_issued_ = 2;
    }
    break;
  }
  if (last_issued_ == 0 && sharing_) {
    borrowed_.clear();
    sharing_(id_, borrowed_);
    for (uint32_t slot : borrowed_) {
      if (slot >= table_.size() || slot % n == id_) continue;  // only other schedulers' warps
      if (!evaluate(slot).ready) continue;
      issue_one(slot, cycle, false);
      ++shared_issues_;
      if (shared_.shared_issues) shared_.shared_issues->add(id_);
      last_issued_ = 1;
      break;
    }
  }
  if (last_issued_ > 0) return last_issued_;
  // Resident warps the policy left out of the order (warp limit) are not eligible.
  if (order_.size() < views_.size()) obs.add(WarpBlock::NotEligible);
  last_obs_ = obs;
  last_elf_ = classify_elf(obs);
  last_kaws_ = classify_kaws(obs);
  decided_at_version_ = table_.group_version(id_);
  // The decision depends on the units' availability when any warp got as far as asking
  // (units_known_): a warp refused by the unit, and also one the policy vetoed after its
  // unit accepted (it is UnitMemory, not NotEligible, once the unit is busy).
  waited_on_unit_ = units_known_ != 0;
  decided_at_availability_ = status_if_->availability_version(cycle);
  add_stall(1);
  return 0;
}

}  // namespace gputlm::sm
