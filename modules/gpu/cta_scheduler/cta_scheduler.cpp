#include "gpu/cta_scheduler/cta_scheduler.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "core/clock/parallel_edge.h"
#include "core/config/config_source.h"

namespace gputlm::gpu {

namespace {
constexpr uint64_t kNoTimer = std::numeric_limits<uint64_t>::max();
}

uint8_t CtaSchedulerConfig::l1_invalidation_cache_bits(const std::string& prefix) const {
  const std::string key = prefix + ".l1_invalidation_caches";
  uint8_t bits = 0;
  for (std::size_t i = 0; i < l1_invalidation_caches.size(); ++i) {
    const std::string& c = l1_invalidation_caches[i];
    if (c == "l1i") bits |= sm::kL1I;
    else if (c == "l1d") bits |= sm::kL1D;
    else if (c == "l1c") bits |= sm::kL1C;
    else if (c == "l1t") bits |= sm::kL1T;
    else
      throw config::ConfigError("key '" + key + "[" + std::to_string(i) + "]': \"" + c +
                                "\" is not one of l1i, l1d, l1c, l1t");
  }
  if (bits == 0 && l1_invalidation != "none")
    throw config::ConfigError("key '" + key + "': empty, but " + prefix + ".l1_invalidation is '" + l1_invalidation +
                              "' (set it to none to never invalidate)");
  return bits;
}

void CtaSchedulerConfig::validate(const std::string& prefix, const std::vector<std::string>& sm_kinds) const {
  if (l1_invalidation != "none" && l1_invalidation != "on_idle" && l1_invalidation != "on_new_kernel")
    throw config::ConfigError("key '" + prefix + ".l1_invalidation': \"" + l1_invalidation +
                              "\" is not one of none, on_idle, on_new_kernel");
  l1_invalidation_cache_bits(prefix);
  if (limit != "none" && limit != "dyncta")
    throw config::ConfigError("key '" + prefix + ".limit': \"" + limit + "\" is not one of none, dyncta");
  dyncta.validate(prefix + ".dyncta");
  auto policy = make_steering_policy(steering, steering_config(), prefix);
  if (sm_kinds.empty()) return;
  SteeringContext ctx;
  ctx.sm_count = static_cast<uint32_t>(sm_kinds.size());
  ctx.sm_kinds = sm_kinds;
  policy->check(ctx);
}

CtaScheduler::CtaScheduler(sc_core::sc_module_name name, const CtaSchedulerConfig& cfg, const ClockDomain& core,
                           stats::Group& parent)
    : sc_core::sc_module(name),
      cfg_(cfg),
      core_(core),
      steering_(make_steering_policy(cfg.steering, cfg.steering_config(), "cta_scheduler")),
      wake_event_((std::string(basename()) + "_wake").c_str()),
      last_cta_issued_event_((std::string(basename()) + "_last_cta_issued").c_str()),
      stats_(parent, basename()),
      ctas_issued_(stats_, "ctas_issued", "CTAs launched on SMs"),
      ctas_completed_(stats_, "ctas_completed", "CTAs that finished"),
      kernels_admitted_(stats_, "kernels_admitted", "kernel launches admitted to run"),
      kernels_completed_(stats_, "kernels_completed", "kernel launches completed"),
      issue_cycles_(stats_, "issue_cycles", "core cycles in which at least one CTA was launched"),
      l1_invalidations_(stats_, "l1_invalidations",
                        "kernel-boundary invalidations of an SM's L1 caches (cta_scheduler.l1_invalidation)"),
      steering_waits_(stats_, "steering_waits",
                      "kernels whose admission waited because the steering policy had no SMs for them"),
      cta_time_(stats_, "cta_time", "core cycles from a CTA's launch to its completion"),
      last_cta_time_(stats_, "last_cta_time",
                     "issue-to-completion cycles of each kernel's last issued CTA (KAWS Table 2)"),
      kernel_cycles_(stats_, "kernel_cycles", "core cycles from a kernel's first CTA launch to its completion") {
  cfg_.validate();  // the SM-dependent steering checks run at the first submit
  if (cfg_.l1_invalidation == "none") l1_invalidation_ = L1Invalidation::None;
  else if (cfg_.l1_invalidation == "on_idle") l1_invalidation_ = L1Invalidation::OnIdle;
  else l1_invalidation_ = L1Invalidation::OnNewKernel;
  l1_invalidation_caches_ = cfg_.l1_invalidation_cache_bits();
  dyncta_on_ = cfg_.limit == "dyncta";
  if (dyncta_on_) {
    dyncta_stats_ = std::make_unique<stats::Group>(stats_, "dyncta");
    dyncta_limited_ = std::make_unique<stats::Counter>(
        *dyncta_stats_, "limited", "times an SM with room for a CTA was skipped because its resident CTAs were >= n");
    dyncta_next_ = cfg_.dyncta.period;
  }
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&wake_event_);
  sc_core::sc_spawn([this] { run(); }, "process", &opts);
}

CtaScheduler::~CtaScheduler() {
  // Statistics before their groups (children before parents).
  for (SmSlot& s : sms_) {
    DynctaSm& d = s.dyn;
    d.ups.reset();
    d.downs.reset();
    d.c_idle.reset();
    d.c_mem.reset();
    d.periods.reset();
    d.n_avg.reset();
    d.n_final.reset();
    d.group.reset();
  }
  dyncta_limited_.reset();
  dyncta_stats_.reset();
}

void CtaScheduler::add_sm(sm::SmCtaIF& sm, const std::string& kind) {
  if (sm.sm_id() != sms_.size())
    throw std::invalid_argument(std::string(name()) + ": SM added as number " + std::to_string(sms_.size()) +
                                " reports sm_id " + std::to_string(sm.sm_id()) + " (add SMs in id order)");
  sms_.push_back({&sm, kind, 0, {}, false, {}, {}});
  used_.assign(sms_.size(), 0);
  if (dyncta_on_) {
    DynctaSm& d = sms_.back().dyn;
    d.group = std::make_unique<stats::Group>(*dyncta_stats_, "sm" + std::to_string(sm.sm_id()));
    d.n_final = std::make_unique<GaugeStat>(*d.group, "n", "the SM's CTA limit n at the end");
    d.n_avg = std::make_unique<stats::Average>(*d.group, "n_avg",
                                               "n per sampling period, weighted by the period's cycles (mean, min, max)");
    d.ups = std::make_unique<stats::Counter>(*d.group, "increments", "sampling periods that raised n");
    d.downs = std::make_unique<stats::Counter>(*d.group, "decrements", "sampling periods that lowered n");
    d.periods = std::make_unique<stats::Counter>(*d.group, "periods", "sampling periods evaluated while a kernel ran");
    d.c_idle = std::make_unique<stats::Counter>(
        *d.group, "c_idle", "C_idle summed over the periods: cycles the SM issued nothing with too few warps");
    d.c_mem = std::make_unique<stats::Counter>(*d.group, "c_mem",
                                               "C_mem summed over the periods: cycles the SM issued nothing for memory");
    sm.enable_issue_stalls();
  }
  sm.set_completion_callback([this](const sm::CtaCompletion& c) { on_completion(c); });
}

void CtaScheduler::set_steering(std::unique_ptr<SteeringPolicyIF> policy) {
  if (!policy) throw std::invalid_argument(std::string(name()) + ": null steering policy");
  if (!records_.empty())
    throw std::logic_error(std::string(name()) + ": set_steering after the first launch");
  steering_ = std::move(policy);
  steering_checked_ = false;
}

SteeringContext CtaScheduler::steering_context(const sm::KernelInstance* kernel) const {
  SteeringContext ctx;
  ctx.sm_count = sm_count();
  for (const SmSlot& s : sms_) ctx.sm_kinds.push_back(s.kind);
  if (kernel)
    for (const SmSlot& s : sms_) ctx.max_resident_ctas.push_back(s.sm->max_resident_ctas(*kernel));
  for (const KernelRecord* other : running_) ctx.running_sets.push_back(other->sm_set);
  if (kernel) {
    const uint32_t stream = record(kernel->id).stream;  // its own stream's later launches do not count
    for (const KernelRecord* queued : queue_)
      if (queued->stream != stream) ++ctx.waiting_kernels;
  }
  return ctx;
}

void CtaScheduler::submit(sm::KernelInstance& kernel, uint64_t cta_count, const KernelLaunchOptions& options) {
  const std::string who = std::string(name()) + ": kernel " + std::to_string(kernel.id) + " (" + kernel.name + ")";
  if (sms_.empty()) throw std::invalid_argument(who + ": the GPU has no SMs");
  if (by_id_.count(kernel.id)) throw std::invalid_argument(who + ": kernel id already used");
  if (cta_count == 0) throw std::invalid_argument(who + ": a launch needs at least one CTA");
  if (!steering_checked_) {
    SteeringContext ctx = steering_context();
    ctx.running_sets.clear();
    steering_->check(ctx);
    steering_checked_ = true;
  }
  for (uint32_t s : options.sm_set)
    if (s >= sms_.size())
      throw std::invalid_argument(who + ": SM set names SM " + std::to_string(s) + " but the GPU has " +
                                  std::to_string(sms_.size()) + " SMs");
  records_.emplace_back();
  KernelRecord& r = records_.back();
  r.kernel = &kernel;
  r.stream = options.stream;
  r.cta_count = cta_count;
  r.sm_set = options.sm_set;
  std::sort(r.sm_set.begin(), r.sm_set.end());
  r.sm_set.erase(std::unique(r.sm_set.begin(), r.sm_set.end()), r.sm_set.end());
  r.submit_cycle = core_.now();
  by_id_[kernel.id] = &r;
  queue_.push_back(&r);
  wake();
}

const KernelRecord& CtaScheduler::record(uint32_t kernel_id) const {
  auto it = by_id_.find(kernel_id);
  if (it == by_id_.end())
    throw std::out_of_range(std::string(name()) + ": no kernel with id " + std::to_string(kernel_id));
  return *it->second;
}

KernelRecord& CtaScheduler::record_of(uint32_t kernel_id) {
  return const_cast<KernelRecord&>(static_cast<const CtaScheduler&>(*this).record(kernel_id));
}

std::vector<const KernelRecord*> CtaScheduler::running() const {
  return std::vector<const KernelRecord*>(running_.begin(), running_.end());
}

bool CtaScheduler::in_set(const std::vector<uint32_t>& set, uint32_t sm) {
  return std::binary_search(set.begin(), set.end(), sm);
}

void CtaScheduler::on_completion(const sm::CtaCompletion& c) {
  if (c.sm >= sms_.size())
    throw std::logic_error(std::string(name()) + ": completion reported for unknown SM " + std::to_string(c.sm));
  // From an SM ticking in a parallel edge (parallel_edge.h): its own slot only, the rest at
  // the end of the edge in SM order.
  if (EdgeGroup* g = parallel_edge::current()) {
    std::vector<sm::CtaCompletion>& d = sms_[c.sm].deferred;
    if (d.empty())
      g->defer([](void* self, void*, uint64_t sm) {
        auto* s = static_cast<CtaScheduler*>(self);
        for (const sm::CtaCompletion& x : s->sms_[sm].deferred) s->record_completion(x);
        s->sms_[sm].deferred.clear();
      }, this, nullptr, c.sm);
    d.push_back(c);
    return;
  }
  record_completion(c);
}

void CtaScheduler::record_completion(const sm::CtaCompletion& c) {
  completions_.push_back(Reported{core_.now(), c});
  // The SM's slots are free from now, but a replacement waits for the next cycle (the
  // completion itself is retired then, retire_completions).
  SmSlot& slot = sms_[c.sm];
  slot.eligible_from = std::max(slot.eligible_from, c.finish_cycle + 1);
  wake();
}

// --- process -------------------------------------------------------------------------
// The scheduler is woken on a core clock edge like every block, then waits one delta
// cycle so that every SM's tick of that edge (and its completions) has happened before
// it decides.

void CtaScheduler::wake() {
  if (!sleeping_) return;
  wake_event_.notify(core_.delay_to_next_edge());
}

void CtaScheduler::wake_at(uint64_t cycle) {
  if (cycle < timer_cycle_) timer_cycle_ = cycle;
  if (sleeping_) wake_event_.notify(core_.delay_until(std::max(cycle, core_.now() + 1)));
}

void CtaScheduler::run() {
  if (edge_phase_) {
    edge_phase_ = false;
    sleeping_ = false;
    sc_core::next_trigger(sc_core::SC_ZERO_TIME);
    return;
  }
  edge_phase_ = true;
  const uint64_t cycle = core_.now();
  if (timer_cycle_ <= cycle) timer_cycle_ = kNoTimer;
  ++activations_;
  if (tick(cycle)) {
    sc_core::next_trigger(core_.delay_to_next_edge());
    return;
  }
  sleeping_ = true;
  if (timer_cycle_ != kNoTimer) wake_event_.notify(core_.delay_until(timer_cycle_));
}

bool CtaScheduler::tick(uint64_t cycle) {
  retire_completions(cycle);
  if (dyncta_on_ && cycle >= dyncta_next_) dyncta_period(cycle);
  admit(cycle);
  std::fill(used_.begin(), used_.end(), 0);
  uint32_t issued = 0;
  while (issued < cfg_.ctas_per_cycle && issue_one(cycle, used_)) ++issued;
  if (issued) ++issue_cycles_;

  // DYNCTA samples while kernels run (a boundary may raise n and so admit a CTA).
  if (dyncta_on_ && !running_.empty()) wake_at(dyncta_next_);
  bool pending = false;
  for (const KernelRecord* r : running_) pending = pending || !r->all_issued();
  if (!pending) return false;
  // SMs that completed a CTA this cycle take a replacement next cycle.
  uint64_t next_eligible = kNoTimer;
  for (const SmSlot& s : sms_)
    if (s.eligible_from > cycle) next_eligible = std::min(next_eligible, s.eligible_from);
  if (next_eligible != kNoTimer) wake_at(next_eligible);
  // Having issued, try again next cycle; otherwise every SM is full and only a
  // completion (which wakes us) can change that.
  return issued > 0;
}

void CtaScheduler::retire_completions(uint64_t cycle) {
  if (completions_.empty()) return;
  // A CTA reported at this edge is seen at the next one, whether or not the scheduler
  // ticks at this edge (it ticks after the SMs of its edge only when it happens to be
  // awake, which depends on the order of earlier wake-ups).
  retiring_.clear();
  std::size_t kept = 0;
  for (const Reported& r : completions_) {
    if (r.cycle < cycle) retiring_.push_back(r.c);
    else completions_[kept++] = r;
  }
  completions_.resize(kept);
  if (kept > 0) wake_at(cycle + 1);
  // SMs report in the order their ticks ran: sort for determinism.
  std::sort(retiring_.begin(), retiring_.end(), [](const sm::CtaCompletion& a, const sm::CtaCompletion& b) {
    return std::tie(a.finish_cycle, a.sm, a.kernel_id, a.cta_linear_id) <
           std::tie(b.finish_cycle, b.sm, b.kernel_id, b.cta_linear_id);
  });
  for (const sm::CtaCompletion& c : retiring_) {
    KernelRecord& r = record_of(c.kernel_id);
    if (!r.admitted() || r.completed() || c.cta_linear_id >= r.ctas_issued)
      throw std::logic_error(std::string(name()) + ": SM " + std::to_string(c.sm) + " reported completion of CTA " +
                             std::to_string(c.cta_linear_id) + " of kernel " + std::to_string(c.kernel_id) +
                             ", which is not running");
    ++r.ctas_completed;
    r.ctas.push_back(c);
    SmSlot& slot = sms_[c.sm];
    slot.eligible_from = std::max(slot.eligible_from, c.finish_cycle + 1);
    ++ctas_completed_;
    cta_time_.sample(static_cast<double>(c.finish_cycle - c.start_cycle));
    if (c.cta_linear_id == r.last_cta_id) {
      r.last_cta_start = c.start_cycle;
      r.last_cta_finish = c.finish_cycle;
    }
    for (CtaSchedulerListener* l : listeners_) l->cta_completed(r, c);
    if (r.all_issued() && r.ctas_completed == r.cta_count) {
      r.end_cycle = c.finish_cycle;
      stream_free_from_[r.stream] = r.end_cycle + 1;
      running_.erase(std::find(running_.begin(), running_.end(), &r));
      ++running_changes_;
      ++kernels_completed_;
      kernel_cycles_.sample(static_cast<double>(r.cycles()));
      last_cta_time_.sample(static_cast<double>(r.last_cta_time()));
      for (CtaSchedulerListener* l : listeners_) l->kernel_completed(r);
    }
  }
}

void CtaScheduler::admit(uint64_t cycle) {
  std::vector<uint32_t> blocked_streams;  // a launch earlier in the queue waits on these
  for (const KernelRecord* r : running_) blocked_streams.push_back(r->stream);
  for (auto it = queue_.begin(); it != queue_.end() && running_.size() < cfg_.max_concurrent_kernels;) {
    KernelRecord* r = *it;
    if (std::find(blocked_streams.begin(), blocked_streams.end(), r->stream) != blocked_streams.end()) {
      ++it;
      continue;
    }
    auto free_from = stream_free_from_.find(r->stream);
    if (free_from != stream_free_from_.end() && free_from->second > cycle) {
      wake_at(free_from->second);  // the stream's previous kernel completed this cycle
      blocked_streams.push_back(r->stream);
      ++it;
      continue;
    }
    blocked_streams.push_back(r->stream);
    if (r->sm_set.empty()) {
      auto refused = refused_at_.find(r->kernel->id);
      if (refused != refused_at_.end() && refused->second == running_changes_) {
        ++it;  // refused, and nothing has changed since
        continue;
      }
      const SteeringContext ctx = steering_context(r->kernel);
      std::vector<uint32_t> set = steering_->choose(*r->kernel, r->cta_count, ctx);
      std::sort(set.begin(), set.end());
      set.erase(std::unique(set.begin(), set.end()), set.end());
      if (!set.empty() && set.back() >= sms_.size())
        throw std::logic_error(std::string(name()) + ": steering policy '" + steering_->name() +
                               "' chose SM " + std::to_string(set.back()) + " for kernel " + r->kernel->name +
                               " but the GPU has " + std::to_string(sms_.size()) + " SMs");
      // On a GPU of several kinds a CTA may fit some kinds only: the kernel gets the chosen
      // SMs where one fits, and none of them is an error (it would wait forever).
      if (!set.empty()) {
        const uint32_t chosen = set.back();
        set.erase(std::remove_if(set.begin(), set.end(), [&](uint32_t s) { return ctx.max_resident_ctas[s] == 0; }),
                  set.end());
        if (set.empty())
          throw std::runtime_error(std::string(name()) + ": steering policy '" + steering_->name() +
                                   "' chose SMs of kind '" + sms_[chosen].kind + "' for kernel " + r->kernel->name +
                                   ", but one CTA fits none of the chosen SMs (it would wait forever)");
      }
      if (set.empty()) {
        // No SMs for it now: it stays queued (blocking its stream) and is asked again
        // once the running set has changed (a completion wakes the scheduler).
        if (running_.empty())
          throw std::logic_error(std::string(name()) + ": steering policy '" + steering_->name() +
                                 "' has no SMs for kernel " + r->kernel->name +
                                 " while no kernel runs (it would wait forever)");
        if (!r->waited_for_sms) ++steering_waits_;
        r->waited_for_sms = true;
        refused_at_[r->kernel->id] = running_changes_;
        ++it;
        continue;
      }
      r->preferred = steering_->preferred(*r->kernel, r->cta_count, ctx);
      std::sort(r->preferred.begin(), r->preferred.end());
      for (uint32_t s : r->preferred)
        if (!in_set(set, s))
          throw std::logic_error(std::string(name()) + ": steering policy '" + steering_->name() + "' prefers SM " +
                                 std::to_string(s) + " for kernel " + r->kernel->name + ", which it did not choose");
      r->sm_set = std::move(set);
      refused_at_.erase(r->kernel->id);
    }
    r->admit_cycle = cycle;
    r->issue_from = cycle + cfg_.kernel_launch_latency + uint64_t{r->cta_count} * cfg_.cta_launch_latency;
    if (r->issue_from > cycle) wake_at(r->issue_from);
    if (dyncta_on_) dyncta_admitted(*r, cycle);
    running_.push_back(r);
    ++running_changes_;
    it = queue_.erase(it);
    ++kernels_admitted_;
    for (CtaSchedulerListener* l : listeners_) l->kernel_admitted(*r);
  }
}

// A kernel with preferred SMs (a spilled kernel, SteeringPolicyIF::preferred) gets a CTA
// on its other SMs only when no SM can take a CTA in the preferred-only pass.
bool CtaScheduler::issue_one(uint64_t cycle, std::vector<uint8_t>& used) {
  const bool preferences =
      std::any_of(running_.begin(), running_.end(), [](const KernelRecord* r) { return !r->preferred.empty(); });
  if (preferences && issue_pass(cycle, used, true)) return true;
  return issue_pass(cycle, used, false);
}

bool CtaScheduler::issue_pass(uint64_t cycle, std::vector<uint8_t>& used, bool preferred_only) {
  const uint32_t n = sm_count();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t s = (rr_next_ + i) % n;
    SmSlot& slot = sms_[s];
    if (used[s] || cycle < slot.eligible_from) continue;
    if (dyncta_on_ && slot.sm->resident_ctas() >= slot.dyn.n) {
      for (const KernelRecord* r : running_)
        if (!r->all_issued() && cycle >= r->issue_from && in_set(r->sm_set, s) && slot.sm->can_accept_cta(*r->kernel)) {
          ++*dyncta_limited_;
          break;
        }
      continue;
    }
    for (KernelRecord* r : running_) {
      if (r->all_issued() || cycle < r->issue_from || !in_set(r->sm_set, s) || !slot.sm->can_accept_cta(*r->kernel))
        continue;
      if (preferred_only && !r->preferred.empty() && !in_set(r->preferred, s)) continue;
      const uint64_t cta = r->ctas_issued++;
      kernel_boundary(slot, *r);
      slot.sm->launch_cta(*r->kernel, cta);
      used[s] = 1;
      rr_next_ = (s + 1) % n;
      ++ctas_issued_;
      if (r->first_cta_cycle == KernelRecord::kNotYet) r->first_cta_cycle = cycle;
      for (CtaSchedulerListener* l : listeners_) l->cta_launched(*r, s, cta);
      if (r->all_issued()) {
        r->last_cta_issue_cycle = cycle;
        r->kernel->last_cta_issue_cycle = cycle;
        r->last_cta_id = cta;
        r->last_cta_sm = s;
        r->last_cta_start = cycle;
        last_cta_issued_event_.notify(sc_core::SC_ZERO_TIME);
        for (CtaSchedulerListener* l : listeners_) l->last_cta_issued(*r);
      }
      return true;
    }
  }
  return false;
}

// A kernel new to the SM (not among its epoch kernels) makes the SM owe an invalidation
// (the very first kernel on an SM finds its L1s cold and owes none). on_idle pays it only
// when the SM has no resident CTA, so an SM shared with a running kernel keeps its lines
// until it drains (GPGPU-Sim invalidates a core's L1s whenever it has no running thread);
// on_new_kernel pays it at once. The new epoch keeps the kernels that are still running,
// so concurrent kernels alternating on a shared SM do not invalidate each other's lines.
void CtaScheduler::kernel_boundary(SmSlot& slot, const KernelRecord& r) {
  if (l1_invalidation_ == L1Invalidation::None) return;
  const uint32_t k = r.kernel->id;
  if (std::find(slot.epoch_kernels.begin(), slot.epoch_kernels.end(), k) == slot.epoch_kernels.end()) {
    if (!slot.epoch_kernels.empty()) slot.owes_invalidation = true;
    slot.epoch_kernels.push_back(k);
  }
  if (!slot.owes_invalidation) return;
  if (l1_invalidation_ == L1Invalidation::OnIdle && slot.sm->resident_ctas() > 0) return;
  slot.sm->invalidate_l1s(l1_invalidation_caches_);
  slot.owes_invalidation = false;
  ++l1_invalidations_;
  auto finished = [this, k](uint32_t id) { return id != k && record(id).completed(); };
  slot.epoch_kernels.erase(std::remove_if(slot.epoch_kernels.begin(), slot.epoch_kernels.end(), finished),
                           slot.epoch_kernels.end());
}

}  // namespace gputlm::gpu

namespace gputlm::gpu {

// --- DYNCTA --------------------------------------------------------------------------

void CtaScheduler::dyncta_set(SmSlot& slot, uint32_t n, uint64_t cycle) {
  DynctaSm& d = slot.dyn;
  d.n = n;
  d.n_final->set(n);
  if (!d.history.empty() && d.history.back().first == cycle) d.history.back().second = n;
  else d.history.emplace_back(cycle, n);
}

// A kernel starting on an SM no running kernel uses restarts the SM's n at `initial` of
// the kernel's occupancy maximum; on an SM shared with running kernels n carries on.
void CtaScheduler::dyncta_admitted(const KernelRecord& r, uint64_t cycle) {
  for (uint32_t s : r.sm_set) {
    bool busy = false;
    for (const KernelRecord* other : running_) busy = busy || in_set(other->sm_set, s);
    if (busy) continue;
    SmSlot& slot = sms_[s];
    dyncta_set(slot, dyncta_initial(cfg_.dyncta, std::max<uint32_t>(1, slot.sm->max_resident_ctas(*r.kernel))), cycle);
  }
}

// The period [period_start, cycle) ended: each SM with a running kernel applies the rule
// to the period's counts; its maximum is the largest occupancy maximum of the running
// kernels that may use it.
void CtaScheduler::dyncta_period(uint64_t cycle) {
  const uint64_t period = cfg_.dyncta.period;
  for (uint32_t s = 0; s < sms_.size(); ++s) {
    SmSlot& slot = sms_[s];
    DynctaSm& d = slot.dyn;
    const sm::SmIssueStalls now = slot.sm->issue_stalls(cycle);
    const uint64_t c_idle = now.idle - d.base.idle, c_mem = now.mem - d.base.mem;
    d.base = now;
    const uint64_t start = d.period_start;
    d.period_start = cycle;
    uint32_t max = 0;
    for (const KernelRecord* r : running_)
      if (in_set(r->sm_set, s)) max = std::max(max, slot.sm->max_resident_ctas(*r->kernel));
    if (max == 0 || d.n == 0) continue;  // no kernel runs here
    d.n_avg->sample(d.n, cycle - start);
    d.c_idle->add(c_idle);
    d.c_mem->add(c_mem);
    ++*d.periods;
    const DynctaDecision next = dyncta_next(cfg_.dyncta, c_idle, c_mem, d.n, max);
    if (next.step == DynctaStep::Up) ++*d.ups;
    if (next.step == DynctaStep::Down) ++*d.downs;
    if (next.n != d.n) dyncta_set(slot, next.n, cycle);
  }
  dyncta_next_ = (cycle / period + 1) * period;
}

}  // namespace gputlm::gpu
