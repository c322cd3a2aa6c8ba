#include "gpu/gpu.h"

#include <sstream>

#include "sm/cta_occupancy.h"
#include "sm/scheduler/policies/elf_policy.h"

namespace gputlm::gpu {

namespace {
// GPGPU-Sim's occupancy arithmetic (shader_core_config::max_cta): threads are allocated
// in whole warps, registers per thread in multiples of 4.
sm::CtaDemand cta_demand(const isa::GridExecution& grid, uint32_t warp_size, uint32_t regs_per_thread,
                         uint32_t shared_bytes) {
  sm::CtaDemand d;
  d.warps = grid.warps_per_cta();
  d.threads = d.warps * warp_size;
  d.registers = ((regs_per_thread + 3) & ~3u) * d.threads;
  d.shared_bytes = shared_bytes;
  return d;
}
}  // namespace

Gpu::Gpu(sc_core::sc_module_name name, GpuConfig cfg, SocketTapIF* taps)
    : sc_core::sc_module(name),
      cfg_([&] {
        cfg.validate();
        return cfg;
      }()),
      core_(ClockDomain::from_mhz("core", cfg_.clocks.core_mhz)),
      icnt_clock_(ClockDomain::from_mhz("icnt", cfg_.clocks.icnt_mhz)),
      l2_clock_(ClockDomain::from_mhz("l2", cfg_.clocks.l2_mhz)),
      dram_clock_(ClockDomain::from_mhz("dram", cfg_.clocks.dram_mhz)),
      stats_(basename()) {
  // cfg_.validate() made the crossbar's ports follow `sms` and `partitions`.
  memory_ = std::make_unique<MemorySystem>("memory", MemorySystemConfig{cfg_.interconnect, cfg_.l2}, icnt_clock_,
                                           l2_clock_, dram_clock_, stats_, MemoryStatsPlacement::parent, taps);
  for (uint32_t i = 0; i < cfg_.sms; ++i) {
    {
      // An SM's processes (caches, memory port, core) form group i of the core clock: the
      // groups of an edge may tick on several host threads (ClockTicker::set_threads).
      ClockTicker::GroupScope group(static_cast<int32_t>(i));
      sms_.push_back(std::make_unique<sm::Sm>(("sm" + std::to_string(i)).c_str(), cfg_.sm_config(i), i, cfg_.sms,
                                              core_, stats_, taps));
    }
    sm::Sm& s = *sms_.back();
    bind_tapped(s.memory_socket(), memory_->sm_side(), taps, "icnt", std::string(s.name()) + ".mem_port",
                memory_->interconnect().name(), core_, taps_);
  }
  cta_scheduler_ = std::make_unique<CtaScheduler>("cta_scheduler", cfg_.cta_scheduler, core_, stats_);
  for (uint32_t i = 0; i < cfg_.sms; ++i) cta_scheduler_->add_sm(*sms_[i], cfg_.sm_kind(i));
  cta_scheduler_->add_listener(*this);
  watchdog_ = std::make_unique<Watchdog>(
      "watchdog", cfg_.watchdog, core_, [this] { return progress(); },
      [this](uint64_t c, uint64_t since) { watchdog_fired(c, since); });
  // Socket taps record the SMs' transactions in one sequence, and Verilated RTL blocks are
  // driven from one thread: both need serial edges.
  bool rtl = false;
  for (uint32_t i = 0; i < cfg_.sms; ++i) {
    const sm::SmConfig& c = cfg_.sm_config(i);
    rtl = rtl || c.lsu.coalescer.impl != "tlm" || c.scheduler.impl != "tlm";
  }
  if (taps == nullptr && !rtl) core_.ticker()->set_threads(cfg_.threads);
}

void Gpu::serialize_edges() { core_.ticker()->set_threads(1); }

unsigned Gpu::host_threads() const { return core_.ticker()->threads(); }
uint64_t Gpu::parallel_edges() const { return core_.ticker()->parallel_edges(); }
uint64_t Gpu::serial_edges() const { return core_.ticker()->serial_edges(); }

Gpu::~Gpu() = default;

uint32_t Gpu::launch(const isa::LoadedModule& module, const isa::LaunchParams& params, const LaunchOptions& options) {
  // Everything that can throw comes before the kernel is recorded: a refused launch
  // leaves the GPU as it was (a device driven by register writes keeps running).
  const uint32_t id = static_cast<uint32_t>(kernels_.size());
  Kernel k;
  k.grid = std::make_unique<isa::GridExecution>(module, params, options.exec);
  k.grid->set_cycle_source([this] { return core_.now(); });  // %clock reads the core cycle
  // malloc, free and printf change device-wide state at issue: no parallel edges from now on.
  if (k.grid->uses_shared_state_builtins()) serialize_edges();
  const uint32_t regs = options.registers_per_thread.value_or(0);
  uint32_t shared = k.grid->shared_bytes_per_cta();
  if (options.static_shared_bytes) shared = std::max(shared, *options.static_shared_bytes + params.dynamic_shared_bytes);
  k.instance.id = id;
  k.instance.name = k.grid->kernel().name;
  k.instance.registers_per_thread = regs;
  k.instance.demand = cta_demand(*k.grid, cfg_.sm.warp_size, regs, shared);
  // ELF's compiler pass runs "in the runtime before launch" (000 §4): once per launch.
  if (const sm::SmConfig* elf_sm = cfg_.sm_with_scheduler("elf"))
    k.elf = sm::make_elf_program_points(elf_sm->scheduler, k.grid->kernel());
  k.instance.elf = k.elf.get();

  // A CTA that can never fit would wait forever: say which resource is too small (on a
  // GPU of several kinds, a CTA must fit one kind; steering keeps it off the others).
  const std::string who = "kernel " + k.instance.name + (options.label.empty() ? "" : " (" + options.label + ")");
  auto shortfall = [&](const sm::SmConfig& c) { return sm::cta_shortfall(c, 0, sm::CtaDemand{}, k.instance.demand); };
  auto text = [](const sm::CtaShortfall& w) {
    return std::string(w.resource) + " " + std::to_string(w.needed) + " > " + std::to_string(w.capacity);
  };
  if (cfg_.sm_groups.empty()) {
    const sm::CtaShortfall why = shortfall(cfg_.sm);
    if (!why.fits()) throw SimulationError(who + ": one CTA does not fit an SM (" + text(why) + ")");
  } else {
    std::string whys;
    bool fits = false;
    for (const SmGroupConfig& g : cfg_.sm_groups) {
      const sm::CtaShortfall why = shortfall(g.sm);
      fits = fits || why.fits();
      if (!why.fits()) whys += (whys.empty() ? "" : "; ") + g.kind + ": " + text(why);
    }
    if (!fits) throw SimulationError(who + ": one CTA fits no kind of SM (" + whys + ")");
  }
  for (uint32_t s : options.dispatch.sm_set)
    if (s < cfg_.sms && !shortfall(cfg_.sm_config(s)).fits())
      throw SimulationError(who + ": its SM set names sm" + std::to_string(s) + " (kind " + cfg_.sm_kind(s) +
                            "), where one CTA does not fit (" + text(shortfall(cfg_.sm_config(s))) + ")");

  kernels_.push_back(std::move(k));
  Kernel& kernel = kernels_.back();
  kernel.instance.grid = kernel.grid.get();
  runs_.emplace_back();
  KernelRun& r = runs_.back();
  r.id = id;
  r.kernel = kernel.instance.name;
  r.label = options.label;
  r.stream = options.dispatch.stream;
  r.grid = params.grid;
  r.block = params.block;
  r.registers_per_thread = regs;
  r.demand = kernel.instance.demand;
  r.ctas = kernel.grid->cta_count();
  if (kernel.elf) {
    r.elf_points_before_merge = kernel.elf->points_before_merge();
    r.elf_points = static_cast<uint32_t>(kernel.elf->table().size());
  }

  cta_scheduler_->submit(kernel.instance, r.ctas, options.dispatch);
  return id;
}

const KernelRun& Gpu::kernel_run(uint32_t id) const {
  if (id >= runs_.size()) throw std::out_of_range("gpu: no kernel with id " + std::to_string(id));
  return runs_[id];
}

void Gpu::set_progress_callback(std::function<void(uint64_t)> cb, uint64_t period) {
  progress_cb_ = std::move(cb);
  progress_period_ = std::max<uint64_t>(1, period);
}

uint64_t Gpu::kernel_thread_instructions(uint32_t id) const {
  if (id >= kernels_.size()) throw std::out_of_range("gpu: no kernel with id " + std::to_string(id));
  return kernels_[id].grid ? kernels_[id].grid->counters().thread_instructions : runs_[id].thread_instructions;
}

uint64_t Gpu::progress() const {
  uint64_t p = memory_->progress() + completed_warp_instructions_;
  for (const Kernel& k : kernels_)
    if (k.grid) p += k.grid->counters().warp_instructions;
  return p;
}

void Gpu::update_stats() {
  memory_->update_stats();
}

void Gpu::kernel_admitted(const KernelRecord& r) {
  kernels_[r.kernel->id].admitted = std::chrono::steady_clock::now();
  watchdog_->arm();
}

void Gpu::kernel_completed(const KernelRecord& r) {
  Kernel& k = kernels_[r.kernel->id];
  KernelRun& run = runs_[r.kernel->id];
  run.start_cycle = r.first_cta_cycle;
  run.end_cycle = r.end_cycle;
  run.cycles = r.cycles();
  run.last_cta_time = r.last_cta_time();
  run.warp_instructions = k.grid->counters().warp_instructions;
  run.thread_instructions = k.grid->counters().thread_instructions;
  run.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - k.admitted).count();
  // The epoch closed here holds everything since the previous kernel completion: exactly
  // this kernel when kernels run one after the other.
  update_stats();
  if (stats_sink_) stats_sink_(run, stats_.to_json(stats::View::Epoch));
  else run.stats = stats_.to_json(stats::View::Epoch);
  stats_.end_epoch();
  run.done = true;
  // Its functional state (CTA contexts, warp frames) is not needed any more: a run of many
  // launches holds only each launch's record (issue 18 point 3).
  completed_warp_instructions_ += run.warp_instructions;
  k.instance.grid = nullptr;
  k.instance.elf = nullptr;
  k.grid.reset();
  k.elf.reset();
  if (cta_scheduler_->running().empty()) watchdog_->disarm();
  if (stop_ && !stopped_ && stop_()) {
    stopped_ = true;
    sc_core::sc_pause();
  }
}

void Gpu::watchdog_fired(uint64_t cycle, uint64_t stalled_since) {
  deadlock_ = "deadlock: no warp instruction issued and no memory progress from core cycle " +
              std::to_string(stalled_since) + " to " + std::to_string(cycle) + " (watchdog.cycles = " +
              std::to_string(cfg_.watchdog.cycles) + ")\n" + state_dump();
}

std::string Gpu::state_dump() const {
  std::ostringstream os;
  os << "GPU state at core cycle " << core_.now() << "\n";
  for (const KernelRecord* r : cta_scheduler_->running())
    os << "kernel " << r->kernel->id << " " << r->kernel->name << ": " << r->ctas_issued << "/" << r->cta_count
       << " CTAs issued, " << r->ctas_completed << " completed\n";
  for (const auto& s : sms_)
    if (s->resident_ctas() > 0) os << s->state_dump();
  os << memory_->state_dump();
  return os.str();
}

void Gpu::notify_observers() {
  for (RunObserverIF* o : observers_)
    if (o->next_stop() <= simulated_to_) o->at(simulated_to_);
}

// Runs the simulation up to core cycle `until` as one sc_start would, in pieces that
// end at the observers' stops: the run is the same with or without observers, down to
// the time it ends (which cycle-weighted statistics such as DRAM cycles count up to).
// sc_start(t, SC_EXIT_ON_STARVATION) processes the events before its end time and leaves
// the time at the last one processed (or at the end time when an event waits there), so
// a piece without any event is skipped rather than started: started, it would move
// nothing (and SystemC would warn), and the pieces together process the same events and
// end at the same time as the whole.
void Gpu::simulate_until(uint64_t until) {
  while (true) {
    uint64_t piece = until;
    const uint64_t now = core_.now();
    for (const RunObserverIF* o : observers_) piece = std::min(piece, std::max(o->next_stop(), now + 1));
    const sc_core::sc_time end = core_.time_of(piece);
    const bool started = sc_core::sc_get_status() == sc_core::SC_PAUSED;
    if (!started || (sc_core::sc_pending_activity() &&
                     sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity() <= end)) {
      try {
        sc_core::sc_start(end - sc_core::sc_time_stamp(), sc_core::SC_EXIT_ON_STARVATION);
      } catch (const sc_core::sc_report& e) {
        // A process threw (an execution error of the functional model, a protocol error):
        // SystemC reports it as an sc_report carrying the original message.
        throw SimulationError(std::string(e.get_msg()) + " (at core cycle " + std::to_string(core_.now()) + ")");
      }
    }
    if (stopped_) {  // paused by run()'s stop condition, within cycle now: the cycles before
      // it are done; observers look at the next piece's end, once this cycle is whole.
      simulated_to_ = std::max(simulated_to_, core_.now());
      return;
    }
    // Every event before `end` has been processed; starved, nothing will ever happen again.
    const bool starved = !sc_core::sc_pending_activity();
    simulated_to_ = starved ? std::max(simulated_to_, core_.now() + 1) : piece;
    if (!observers_.empty()) notify_observers();
    if (starved || piece == until) return;
  }
}

void Gpu::run(std::function<bool()> stop) {
  stop_ = std::move(stop);
  stopped_ = false;
  struct Reset {  // run()'s stop condition lives for this run only, even when it throws
    Gpu& g;
    ~Reset() { g.stop_ = nullptr; g.stopped_ = false; }
  } reset{*this};
  uint64_t next_report = core_.now() + progress_period_;
  notify_observers();
  while (!cta_scheduler_->idle()) {
    const uint64_t now = core_.now();
    if (cfg_.max_cycles && now >= cfg_.max_cycles)
      throw SimulationError("run exceeded max_cycles = " + std::to_string(cfg_.max_cycles) + " core cycles\n" +
                            state_dump());
    uint64_t until = progress_cb_ ? std::min(next_report, now + 65536) : now + 65536;
    if (cfg_.max_cycles) until = std::min(until, cfg_.max_cycles);
    simulate_until(until);
    if (deadlock_) throw DeadlockError(*deadlock_);
    if (stopped_ || cta_scheduler_->idle()) break;
    if (!sc_core::sc_pending_activity())
      throw DeadlockError("deadlock: the simulation has no pending activity but kernels are unfinished\n" +
                          state_dump());
    if (progress_cb_ && core_.now() >= next_report) {
      progress_cb_(core_.now());
      next_report = core_.now() + progress_period_;
    }
  }
}

}  // namespace gputlm::gpu
