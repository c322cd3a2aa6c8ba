#include "sm/sm_core.h"

#include "core/log/hex.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "sm/cta_occupancy.h"
#include "sm/scoreboard/scoreboard_registry.h"

namespace gputlm::sm {

namespace {
const SmConfig& validated(const SmConfig& cfg, const std::string& key) {
  cfg.validate(key);
  return cfg;
}
}  // namespace

SmCore::SmCore(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t sm_id, const ClockDomain& core_clock,
               stats::Group& group)
    : sc_core::sc_module(name),
      issue_status("issue_status"),
      writeback_in("writeback_in"),
      forward_export("forward_export"),
      cfg_(validated(cfg, "sm")),
      sm_id_(sm_id),
      clock_(core_clock),
      table_(cfg_.max_warps, cfg_.fetch.ibuffer_entries),
      shared_(group, cfg_.scheduler, cfg_.max_warps, sm_id, cfg_.l1d.line_size, cfg_.max_ctas),
      ctas_(cfg_.max_ctas),
      cycles_(group, "cycles", "core cycles with at least one resident CTA"),
      writebacks_(group, "writebacks", "warp instructions written back"),
      ctas_launched_(group, "ctas_launched", "CTAs launched on this SM"),
      ctas_completed_(group, "ctas_completed", "CTAs completed on this SM"),
      warps_completed_(group, "warps_completed", "warps completed on this SM"),
      idle_sleep_cycles_(group, "sleep_cycles", "cycles with resident CTAs the SM slept (all warps waiting outside)"),
      ipc_(group, "ipc", "thread instructions per cycle (GPGPU-Sim's IPC)", shared_.thread_instructions, cycles_),
      warp_ipc_(group, "warp_ipc", "warp instructions per cycle", shared_.warp_instructions, cycles_) {
  shared_.sm_id = sm_id;
  table_.set_version_groups(cfg_.scheduler.count);  // scheduler i owns warps w, w mod count == i
  if (shared_.mascar) table_.watch_head_classes(shared_.mascar->memory_classes());  // the WST's is_mem
  scoreboard_ = make_scoreboard(cfg_.scoreboard, "sm.scoreboard", "scoreboard", cfg_.max_warps, &group);
  scoreboard_commits_ = scoreboard_->commits();
  // A shared table filling up changes every warp's answer.
  scoreboard_->set_shared_change_hook([this] { table_.touch_all(); });
  shared_.branch = BranchUnit::make(cfg_.branch, "sm.branch", group, cfg_.max_warps);
  for (uint32_t i = 0; i < cfg_.scheduler.count; ++i) {
    schedulers_.push_back(std::make_unique<WarpScheduler>(("scheduler" + std::to_string(i)).c_str(), i, cfg_, table_,
                                                          shared_));
    schedulers_.back()->scoreboard.bind(*scoreboard_);
    schedulers_.back()->issue_status.bind(issue_status);
  }
  if (cfg_.scheduler.warp_sharing) {
    if (!cfg_.operand_collector.per_scheduler)
      throw config::ConfigError("key 'sm.scheduler.warp_sharing': needs sm.operand_collector.per_scheduler = true "
                                "(warps are shared between schedulers' own collector units)");
    for (auto& sch : schedulers_)
      sch->set_sharing_source([this](uint32_t x, std::vector<uint32_t>& slots) { sharing_candidates(x, slots); });
  }
  fetch_ = std::make_unique<FetchUnit>("fetch", cfg_, sm_id, core_clock, table_, group);
  fetch_->issue_status.bind(issue_status);
  fetch_->set_scheduler_orders(*this);
  writeback_in.register_receiver([this](WarpInstruction& wi) { receive_writeback(wi); });
  forward_export.bind(*this);
  if (cfg_.exec.forwards_alu())  // (no statistic without forwarding: the default tree is unchanged)
    forwards_ = std::make_unique<stats::Counter>(group, "forwarded",
                                                 "warp instructions whose results were bypassed to dependents "
                                                 "before writeback (sm.exec.forwarding)");
}

SmCore::~SmCore() = default;

// KAWS' warp-sharing unit (003 §3, digest §B7): for scheduler x, the warps of other
// schedulers, oldest first, whose next instruction's unit type has x's collector free while
// their own scheduler's is busy. Scheduler x issues the first of them that is otherwise ready.
void SmCore::sharing_candidates(uint32_t x, std::vector<uint32_t>& slots) {
  if (by_age_residency_ != table_.residency_version()) {
    by_age_.clear();
    for (uint32_t w = 0; w < table_.size(); ++w)
      if (table_[w].valid) by_age_.push_back(w);
    std::sort(by_age_.begin(), by_age_.end(), [this](uint32_t a, uint32_t b) { return table_[a].age < table_[b].age; });
    by_age_residency_ = table_.residency_version();
  }
  const uint32_t n = cfg_.scheduler.count;
  uint32_t free_here = 0;  // unit types (bit = UnitType) with x's collector free
  for (uint32_t u = 0; u < kUnitTypes; ++u)
    if (issue_status->can_accept(x, static_cast<UnitType>(u))) free_here |= 1u << u;
  if (free_here == 0) return;
  for (uint32_t w : by_age_) {
    if (w % n == x || !table_.live(w) || table_.ibuf_empty(w)) continue;
    const UnitType t = table_.ibuf_head(w).unit;
    if (!((free_here >> static_cast<uint32_t>(t)) & 1u) || issue_status->can_accept(w % n, t)) continue;
    slots.push_back(w);
  }
}

void SmCore::set_waker(std::function<void()> w) {
  waker_ = w;
  fetch_->set_waker(std::move(w));
}

// ----------------------------------------------------------------------------- CTAs

std::string SmCore::occupancy_limit(const KernelInstance& k) const {
  const CtaDemand used{used_threads_, used_warps_, used_registers_, used_shared_};
  const CtaShortfall s = cta_shortfall(cfg_, resident_ctas_, used, k.demand);
  return s.fits() ? "" : s.resource;
}

bool SmCore::can_accept_cta(const KernelInstance& k) const { return occupancy_limit(k).empty(); }

void SmCore::launch_cta(KernelInstance& k, uint64_t cta_linear_id) {
  const std::string limit = occupancy_limit(k);
  if (!limit.empty())
    throw PipelineError(std::string(name()) + ": launch_cta of kernel " + k.name + " CTA " +
                        std::to_string(cta_linear_id) + " without room (" + limit + ")");
  if (k.grid == nullptr) throw PipelineError(std::string(name()) + ": kernel " + k.name + " has no grid");
  if (cfg_.scheduler.policy == "elf" && k.elf == nullptr)
    throw PipelineError(std::string(name()) + ": kernel " + k.name +
                        " has no ELF program points (sm.scheduler.policy = elf: the launcher computes them "
                        "with make_elf_program_points)");
  if (k.demand.warps != k.grid->warps_per_cta())
    throw PipelineError(std::string(name()) + ": kernel " + k.name + " demand says " + std::to_string(k.demand.warps) +
                        " warps per CTA but the grid has " + std::to_string(k.grid->warps_per_cta()));
  uint32_t c = 0;
  while (ctas_[c].valid) ++c;
  isa::CtaContext& cta = k.grid->start_cta(cta_linear_id);
  CtaSlot& slot = ctas_[c];
  slot = CtaSlot{};
  slot.valid = true;
  slot.kernel = &k;
  slot.cta = &cta;
  slot.linear_id = cta_linear_id;
  slot.start_cycle = clock_.now();
  slot.warps_left = static_cast<uint32_t>(cta.warps.size());
  slot.demand = k.demand;
  const uint64_t seq = cta_sequence_++;
  uint32_t w = 0;
  for (uint32_t i = 0; i < cta.warps.size(); ++i) {
    while (table_[w].valid) ++w;  // lowest free slots, ascending (deterministic)
    table_.place(w, c);
    WarpSlot& s = table_[w];
    s.grid = k.grid;
    s.ctx = &cta.warps[i];
    s.kernel_id = k.id;
    s.elf = k.elf;
    s.cta_global = static_cast<int32_t>(cta_linear_id);
    s.age = warp_age(seq, i);
    s.ctx->smid = sm_id_;
    s.ctx->hw_warp_id = w;
    s.ctx->nwarpid = cfg_.max_warps;
    s.ctx->nsmid = num_sms_;
    table_.sync_status(w);
  }
  if (shared_.laws) shared_.laws->cta_launched(static_cast<uint32_t>(k.id), resident_ctas_ == 0);
  if (shared_.kaws) shared_.kaws->cta_launched(c, k);
  ++resident_ctas_;
  used_threads_ += k.demand.threads;
  used_warps_ += k.demand.warps;
  used_registers_ += k.demand.registers;
  used_shared_ += k.demand.shared_bytes;
  ++ctas_launched_;
  table_.touch_all();
  table_.note_residency_change();
  if (waker_) waker_();
}

void SmCore::retire_finished_warps(uint64_t cycle) {
  // Nothing a warp's completion depends on (issue_done, in_flight, fetch_pending) changed
  // since the last scan without bumping the table version.
  if (retire_scanned_at_ == table_.version()) return;
  // Only warps past their last exit can complete (ascending, as a scan of every slot).
  for (uint64_t m = table_.finishing(); m != 0; m &= m - 1) {
    const uint32_t w = static_cast<uint32_t>(__builtin_ctzll(m));
    WarpSlot& s = table_[w];
    if (!s.valid || s.in_flight != 0 || s.fetch_pending) continue;
    if (scoreboard_commits_ && !scoreboard_->quiet(w)) continue;  // entries still to commit
    table_.mark_done(w);
    table_.touch(w);
    ++warps_completed_;
    for (auto& sch : schedulers_) sch->warp_removed(w);
    if (shared_.ccws) shared_.ccws->warp_removed(w);
    if (shared_.mascar) shared_.mascar->warp_removed(w);
    if (shared_.laws) shared_.laws->warp_exited(w);
    const uint32_t cta_slot = s.cta_slot;  // copied: clearing the table below resets `s`
    CtaSlot& c = ctas_[cta_slot];
    if (--c.warps_left != 0) continue;
    // Last warp of the CTA: free its slots and resources, tell the CTA scheduler.
    table_.for_each_warp_of_cta(cta_slot, [this](uint32_t v) { table_.clear(v); });
    CtaCompletion done;
    done.kernel_id = c.kernel->id;
    done.cta_linear_id = c.linear_id;
    done.sm = sm_id_;
    done.start_cycle = c.start_cycle;
    done.finish_cycle = cycle;
    c.kernel->grid->retire_cta(*c.cta);
    if (shared_.kaws) shared_.kaws->cta_finished(cta_slot);
    if (cta_end_observer_) cta_end_observer_(static_cast<int32_t>(c.linear_id));
    --resident_ctas_;
    used_threads_ -= c.demand.threads;
    used_warps_ -= c.demand.warps;
    used_registers_ -= c.demand.registers;
    used_shared_ -= c.demand.shared_bytes;
    c = CtaSlot{};
    ++ctas_completed_;
    if (on_complete_) on_complete_(done);
  }
  retire_scanned_at_ = table_.version();
}

// ----------------------------------------------------------------------------- ticking

void SmCore::receive_writeback(WarpInstruction& wi) {
  // The retire sink of the writeback stage: registers are released in the cycle the
  // writeback stage writes them, so an instruction issued later in the same cycle sees
  // them (GPGPU-Sim: writeback() before issue() in a core cycle).
  WarpSlot& s = table_[wi.warp];
  if (!s.valid || s.in_flight == 0)
    throw PipelineError(std::string(name()) + ": writeback of warp " + std::to_string(wi.warp) + " pc " + hex(wi.pc) +
                        " that has no instruction in flight");
  scoreboard_->release(wi);
  if (shared_.branch) shared_.branch->written_back(wi, clock_.now(), table_);
  table_.touch(wi.warp);  // its scheduler re-checks the hazards
  --s.in_flight;
  ++writebacks_;
  shared_.pool.release(&wi);
}

void SmCore::forwarded(WarpInstruction& wi) {
  if (wi.forwarded || wi.is_memory)
    throw PipelineError(std::string(name()) + ": warp " + std::to_string(wi.warp) + " pc " + hex(wi.pc) +
                        (wi.is_memory ? ": a memory instruction was forwarded" : " was forwarded twice"));
  scoreboard_->forward(wi);
  wi.forwarded = true;    // its release must find its registers forwarded
  table_.touch(wi.warp);  // its scheduler re-checks the hazards (as at writeback)
  if (forwards_) ++*forwards_;
}

bool SmCore::tick_issue(uint64_t cycle) {
  issued_this_cycle_ = 0;
  // Cycles bookkeeping: count cycles whose issue stage had resident CTAs; cycles skipped
  // while the SM slept keep the last tick's stall classes.
  if (resident_ctas_ > 0) {
    if (ticked_while_resident_ && cycle > last_tick_ + 1) {
      const uint64_t gap = cycle - last_tick_ - 1;
      cycles_.add(gap);
      idle_sleep_cycles_.add(gap);
      for (auto& s : schedulers_) s->account_skipped(gap);
      fetch_->account_skipped(gap);
      if (shared_.mascar) shared_.mascar->account_skipped(gap);
      if (shared_.laws) shared_.laws->account_skipped(gap);
      if (shared_.kaws) shared_.kaws->account_skipped(last_tick_ + 1, gap);
      if (last_issue_stall_ == 1) issue_stalls_.idle += gap;
      else if (last_issue_stall_ == 2) issue_stalls_.mem += gap;
    }
    ++cycles_;
    ticked_while_resident_ = true;
    last_tick_ = cycle;
  } else {
    ticked_while_resident_ = false;
  }

  bool commit_busy = false;
  if (scoreboard_commits_) {  // in-order commit first: what it frees counts this cycle
    const ScoreboardIF::CommitResult r = scoreboard_->commit(cycle);
    if (r.all) table_.touch_all();
    // A warp past its last exit retires once quiet (retire_finished_warps, on a new version).
    for (uint64_t m = r.warps | (r.emptied & table_.finishing()); m != 0; m &= m - 1)
      table_.touch(static_cast<uint32_t>(__builtin_ctzll(m)));
    commit_busy = r.busy;
  }
  if (resident_ctas_ == 0) return commit_busy;
  if (shared_.ccws) {
    // CCWS: decay the lost-locality scores to this cycle and redo the cutoff test over the
    // warps still issuing.
    uint64_t active = 0;
    for (uint32_t w = 0; w < table_.size(); ++w)
      if (table_.live(w)) active |= uint64_t{1} << w;
    shared_.ccws->advance(cycle, active);
  }
  // LAWS-TH: the warps the throttling unit's limit allows (the L1D's accesses, earlier in
  // this cycle's tick, may have changed the mode or the limit).
  if (shared_.laws) shared_.laws->begin_cycle(cycle, table_);
  // Mascar: mode from the saturation flag, owner release and hand-over.
  if (shared_.mascar) shared_.mascar->begin_cycle(cycle, table_, *scoreboard_);
  // KAWS: CTAs whose kernel's last CTA was issued (before this cycle) enter progress mode.
  if (shared_.kaws) shared_.kaws->begin_cycle(cycle);
  // Warps whose branch's redirect penalty is over may issue again this cycle.
  const bool redirecting = shared_.branch && shared_.branch->redirects_pending() &&
                           shared_.branch->release_due(cycle, table_);
  // A warp held by a busy unit is released by that unit, which reports itself busy while
  // its availability can change without an outside event (PipelineStage::tick).
  for (auto& s : schedulers_) issued_this_cycle_ += s->tick(cycle);
  if (shared_.mascar) shared_.mascar->end_cycle(cycle, issued_this_cycle_ > 0, table_);
  if (issue_stalls_on_) {
    last_issue_stall_ = 0;
    if (issued_this_cycle_ == 0) {
      StallObservation sm_obs;
      for (const auto& s : schedulers_) sm_obs.merge(s->last_observation());
      const ElfStall e = classify_elf(sm_obs);
      if (e == ElfStall::MemConflict || e == ElfStall::MemDependency) {
        last_issue_stall_ = 2;
        ++issue_stalls_.mem;
      } else if (classify_kaws(sm_obs) == KawsStall::Idle) {
        last_issue_stall_ = 1;
        ++issue_stalls_.idle;
      }
    }
  }
  // A throttled warp may become eligible by score decay (CCWS) or a limit's expiry
  // (LAWS-TH, release = hold_expiry) alone: keep ticking meanwhile.
  return issued_this_cycle_ > 0 || commit_busy || redirecting || (shared_.ccws && shared_.ccws->limited()) ||
         (shared_.laws && shared_.laws->release_pending());
}

SmIssueStalls SmCore::issue_stalls(uint64_t cycle) const {
  SmIssueStalls s = issue_stalls_;
  // As tick_issue() will account them: cycles after the last tick keep its class.
  if (resident_ctas_ == 0 || !ticked_while_resident_ || cycle <= last_tick_ + 1) return s;
  const uint64_t pending = cycle - 1 - last_tick_;
  if (last_issue_stall_ == 1) s.idle += pending;
  else if (last_issue_stall_ == 2) s.mem += pending;
  return s;
}

bool SmCore::tick_fetch(uint64_t cycle) {
  const bool decode_busy = fetch_->tick_decode(cycle);
  const bool fetch_busy = resident_ctas_ > 0 && fetch_->tick_fetch(cycle);
  // Last call of the cycle: warps whose last instruction was written back (or whose last
  // fetch returned) this cycle finish now, and so may their CTA.
  retire_finished_warps(cycle);
  fetch_->end_of_cycle();
  return decode_busy || fetch_busy;
}

void SmCore::set_issue_tracer(IssueTracerIF* t) {
  for (auto& s : schedulers_) s->set_issue_tracer(t);
}

void SmCore::stall_cycles(uint64_t cycle, uint64_t* elf, uint64_t* kaws) const {
  for (int i = 0; i < kElfStalls; ++i) elf[i] = shared_.stall_elf.value(static_cast<std::size_t>(i), stats::View::Total);
  for (int i = 0; i < kKawsStalls; ++i)
    kaws[i] = shared_.stall_kaws.value(static_cast<std::size_t>(i), stats::View::Total);
  // As tick_issue() will account them: cycles after the last tick keep its classes.
  if (resident_ctas_ == 0 || !ticked_while_resident_ || cycle <= last_tick_ + 1) return;
  const uint64_t pending = cycle - 1 - last_tick_;
  for (const auto& s : schedulers_) {
    elf[static_cast<int>(s->last_elf_stall())] += pending;
    kaws[static_cast<int>(s->last_kaws_stall())] += pending;
  }
}

uint64_t SmCore::instructions_in_flight() const {
  uint64_t n = 0;
  for (uint32_t w = 0; w < table_.size(); ++w)
    if (table_[w].valid) n += table_[w].in_flight;
  return n;
}

bool SmCore::idle() const {
  return resident_ctas_ == 0 && fetch_->idle() && shared_.pool.in_use() == 0;
}

// ----------------------------------------------------------------------------- dumps

std::string SmCore::describe_warp(uint32_t w) const {
  const WarpSlot& s = table_[w];
  std::ostringstream o;
  o << "  warp " << w << " (cta " << s.cta_global << " warp " << s.ctx->warp_in_cta << ", kernel " << s.kernel_id
    << "): ";
  if (s.issue_done) {
    o << "exited, " << s.in_flight << " instruction(s) in flight";
    return o.str();
  }
  const uint64_t pc = s.grid->peek_pc(*s.ctx);
  o << "pc " << hex(pc);
  const isa::Module& m = s.grid->loaded().module();
  const uint32_t f = m.function_at(pc);
  if (f != isa::kNone) {
    const uint32_t idx = m.functions[f].index_of(pc);
    if (idx != isa::kNone && idx < m.functions[f].text.size()) o << " `" << m.functions[f].text[idx] << "`";
  }
  o << "; ";
  if (s.ctx->status == isa::WarpStatus::AtBarrier) o << "waits at barrier " << s.ctx->barrier_id;
  else if (table_.control_pending(w)) o << "waits for a branch to resolve";
  else o << "last cycle: " << to_string(schedulers_[w % schedulers_.size()]->last_block(w));
  o << "; " << fetch_->describe(w) << "; in flight " << s.in_flight;
  const std::string pending = scoreboard_->describe(w);
  if (!pending.empty()) o << "; pending writes " << pending;
  return o.str();
}

std::string SmCore::state_dump() const {
  std::ostringstream o;
  o << name() << ": " << resident_ctas_ << " CTA(s), " << used_warps_ << " warp(s), " << shared_.pool.in_use()
    << " instruction(s) in the pipeline\n";
  for (uint32_t w = 0; w < table_.size(); ++w)
    if (table_[w].valid) o << describe_warp(w) << "\n";
  return o.str();
}

}  // namespace gputlm::sm
