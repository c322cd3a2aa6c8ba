#include "sm/sm.h"

#include <algorithm>
#include <sstream>

namespace gputlm::sm {

namespace {
const SmConfig& validated(const SmConfig& cfg) {
  cfg.validate("sm");
  return cfg;
}
LsuPlacement placement(const SmConfig& cfg, uint32_t sm_id, uint32_t num_sms) {
  LsuPlacement p;
  p.sm = sm_id;
  p.num_sms = num_sms;
  p.threads_per_sm = cfg.max_threads;
  p.warp_size = cfg.warp_size;
  p.agen_slices = cfg.exec.slices();
  return p;
}
}  // namespace

// Mascar's view of the memory side (002 §III-A/D): the saturation flag the LSU forwards
// from the L1s, the re-execution queue's head and per-warp state, the L1D's owner input,
// the LSU's saturation stall and the L1D's presence probe.
struct Sm::MascarPort final : MascarMemoryIF {
  explicit MascarPort(Sm& sm) : sm(sm) {}
  bool memory_saturated() const override { return sm.lsu_.memory_saturated(); }
  int32_t reexec_head_warp() const override { return sm.lsu_.reexec_queue().head_warp(); }
  bool reexec_has_queued(uint32_t warp) const override {
    return sm.lsu_.reexec_queue().has_queued(static_cast<int32_t>(warp));
  }
  uint64_t reexec_queued_version() const override { return sm.lsu_.reexec_queue().queued_version(); }
  void set_owner_warp(int32_t warp) override { sm.l1d_.set_owner_warp(warp); }
  bool lsu_saturation_stalled(uint64_t cycle) const override { return sm.lsu_.saturation_stalled(cycle); }
  bool l1d_holds_any(const uint64_t* lines, uint32_t n, mem::CacheStatusIF::ProbeStamp* since) const override {
    return sm.l1d_.probe_any(lines, n, since);
  }
  uint64_t l1d_contents_version() const override { return sm.l1d_.contents_version(); }
  Sm& sm;
};

Sm::Sm(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t sm_id, uint32_t num_sms,
       const ClockDomain& core_clock, stats::Group& parent, SocketTapIF* taps)
    : sc_core::sc_module(name),
      sm_id_(sm_id),
      cfg_(validated(cfg)),
      group_(parent, "sm" + std::to_string(sm_id)),
      core_("core", cfg_, sm_id, core_clock, group_),
      l1i_("l1i", cfg_.l1i, core_clock, group_),
      l1d_("l1d", cfg_.l1d, core_clock, group_),
      l1c_("l1c", cfg_.l1c, core_clock, group_),
      l1t_("l1t", cfg_.l1t, core_clock, group_),
      arbiter_("mem_port", cfg_.mem_port_queue, core_clock, group_),
      oc_("operand_collector", cfg_.operand_collector, cfg_.exec, core_clock, group_),
      lsu_("lsu", cfg_.lsu, placement(cfg_, sm_id, num_sms), core_clock, group_),
      writeback_("writeback", cfg_.exec.writeback_ports, cfg_.exec.writeback_buffer, core_clock, group_) {
  core_.set_num_sms(num_sms);
  // Front half <-> caches.
  bind_tapped(core_.fetch().l1i, l1i_.upstream, taps, "l1i", core_.fetch().name(), l1i_.name(), core_clock, taps_);
  core_.fetch().l1i_status.bind(l1i_.status_export);
  core_.fetch().l1d_status.bind(l1d_.status_export);
  l1i_.set_access_hook([this](const mem::AccessRecord& r) { core_.fetch().observe_l1i(r); });
  if (CcwsState* ccws = core_.ccws()) {
    // CCWS (digest §A9): replaced L1D lines enter the allocating warp's victim tags; a
    // demand-load miss probes the missing warp's. No hooks under other policies.
    l1d_.set_eviction_hook([ccws](uint64_t, uint64_t block, int32_t wid) { ccws->evicted(wid, block); });
    l1d_.set_access_hook([ccws](const mem::AccessRecord& r) {
      if (r.kind == AccessKind::Load &&
          (r.outcome == mem::AccessOutcome::PrimaryMiss || r.outcome == mem::AccessOutcome::SecondaryMiss))
        ccws->probe(r.warp, r.block);
    });
  }

  if (LawsState* laws = core_.laws()) {
    // LAWS (digest §B3-B4): every L1D access feeds the locality score (its (Hit, LT) class
    // from the WID tags and MSHR field 0); an access after which every MSHR entry is
    // occupied is the throttling unit's MSHR-full event (Load_CNT from the entries' owners).
    // No hook under other policies.
    laws_owners_ = [this] { return l1d_.mshr_owner_mask(); };
    l1d_.set_access_hook([this, laws](const mem::AccessRecord& r) { laws->access(r, laws_owners_); });
  }

  // Issue -> operand collector -> units / LSU -> writeback -> retire sink.
  core_.issue_status.bind(oc_.issue_status_export);
  for (uint32_t i = 0; i < cfg_.scheduler.count; ++i) core_.scheduler(i).issue.bind(oc_.issue_in);
  const std::vector<UnitType>& ports = oc_.ports();
  std::vector<uint32_t> per_type(kUnitTypes, 0);
  for (std::size_t p = 0; p < ports.size(); ++p) {
    if (ports[p] == UnitType::Mem) {
      oc_.dispatch[p].bind(lsu_.in);
      oc_.unit_status[p].bind(lsu_.status_export);
      continue;
    }
    const std::string unit_name =
        std::string(to_string(ports[p])) + std::to_string(per_type[static_cast<uint32_t>(ports[p])]++);
    units_.push_back(std::make_unique<ExecUnit>(unit_name.c_str(), ports[p], cfg_.exec, core_clock, group_));
    ExecUnit& u = *units_.back();
    oc_.dispatch[p].bind(u.in);
    oc_.unit_status[p].bind(u.status_export);
    u.out.bind(writeback_.in);
    u.writeback_status.bind(writeback_.status_export);
    if (cfg_.exec.forwards_alu()) u.forward_sink.bind(core_.forward_export);  // never the LSU
  }
  lsu_.out.bind(writeback_.in);
  lsu_.writeback_status.bind(writeback_.status_export);
  const std::size_t taps_before_l1d = taps_.size();
  bind_tapped(lsu_.l1d, l1d_.upstream, taps, "l1d", lsu_.name(), l1d_.name(), core_clock, taps_);
  // Retries past the socket only where no tap would miss them (lsu.retry_shortcut).
  if (taps_.size() == taps_before_l1d) lsu_.l1d_retry.bind(l1d_.retry_export);
  bind_tapped(lsu_.l1c, l1c_.upstream, taps, "l1c", lsu_.name(), l1c_.name(), core_clock, taps_);
  bind_tapped(lsu_.l1t, l1t_.upstream, taps, "l1t", lsu_.name(), l1t_.name(), core_clock, taps_);
  lsu_.bypass.bind(arbiter_.upstream);  // atomics past the L1D (lsu.atomics_bypass_l1d)
  lsu_.l1d_status.bind(l1d_.status_export);
  lsu_.l1c_status.bind(l1c_.status_export);
  lsu_.l1t_status.bind(l1t_.status_export);
  if (MascarState* mascar = core_.mascar()) {
    mascar_port_ = std::make_unique<MascarPort>(*this);
    mascar->set_memory(mascar_port_.get());
    lsu_.set_sent_observer([mascar](const WarpInstruction& wi) { mascar->sent(wi.warp, *wi.instr); });
  }
  if (cfg_.lsu.reexec_queue.policy == "car" && cfg_.lsu.reexec_queue.warp_hold == "issue") {
    // CAR's one memory instruction per warp in the queue (002 §III-C): a warp with a queued
    // request waits at issue of its next instruction that goes to an L1 (digest §Z34; with
    // warp_hold = lsu the LSU holds that instruction instead).
    for (uint32_t i = 0; i < cfg_.scheduler.count; ++i)
      core_.scheduler(i).set_issue_filter(
          [this](uint32_t slot, const isa::Instruction&) {
            return !lsu_.reexec_queue().has_queued(static_cast<int32_t>(slot));
          },
          [this] { return lsu_.reexec_queue().queued_version(); }, kL1MemoryClasses);
  }
  writeback_.out.bind(core_.writeback_in);

  if (cfg_.l1d_prefetch.enabled()) {
    // The L1D data prefetcher (digest §D1-D5): the LSU shows it global loads and sends its
    // predictions down the L1D's prefetch path; the L1D reports useful / useless prefetches;
    // CTA ends drive ITPC and STPE. Nothing of it exists under policy none.
    stats::Group& g = l1d_.enable_prefetch(cfg_.l1d_prefetch.mshr_keep_free);
    prefetcher_ = mem::make_data_prefetcher(cfg_.l1d_prefetch, "sm.l1d_prefetch", g);
    l1d_.set_prefetch_feedback(prefetcher_.get());
    lsu_.set_data_prefetcher(
        prefetcher_.get(), &l1d_,
        [this](uint32_t w) {
          const isa::WarpContext* ctx = core_.warps()[w].ctx;
          return ctx && ctx->warp_in_cta == 0;
        },
        cfg_.l1d_prefetch.target == "first_lane");
    mem::DataPrefetcherIF* p = prefetcher_.get();
    core_.set_cta_end_observer([p](int32_t cta) { p->on_cta_complete(cta); });
  }

  // L1 misses -> memory port (port order: LSU bypass, L1I, L1D, L1C, L1T).
  l1i_.downstream.bind(arbiter_.upstream);
  l1d_.downstream.bind(arbiter_.upstream);
  l1c_.downstream.bind(arbiter_.upstream);
  l1t_.downstream.bind(arbiter_.upstream);

  process_ = std::make_unique<ClockedProcess>("tick", core_clock, [this](uint64_t c) { return tick(c); });
  // In a parallel edge (core/clock/parallel_edge.h) the issues' global-memory accesses are
  // logged; they reach memory at the edge's end, in SM (group) order.
  if (process_->group() >= 0)
    core_clock.ticker()->add_edge_end_hook(process_->group(), [this] { core_.memory_log().replay(); });
  auto wake = [this] { process_->wake(); };
  core_.set_waker(wake);
  oc_.set_waker(wake);
  lsu_.set_waker(wake);
  writeback_.set_waker(wake);
  for (auto& u : units_) u->set_waker(wake);
  for (std::size_t i = 0; i < units_.size(); ++i) units_[i]->set_activity_mask(&busy_units_, uint64_t{1} << i);
}

Sm::~Sm() = default;

bool Sm::tick(uint64_t cycle) {
  bool busy = writeback_.tick(cycle);
  // Busy units only, in order: an idle unit's tick only repeats "not blocked" (NextCycleFlag
  // answers that by default), and one that receives an instruction sets its bit again.
  for (uint64_t m = busy_units_; m != 0; m &= m - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(m));
    if (units_[i]->tick(cycle)) busy = true;
    else busy_units_ &= ~(uint64_t{1} << i);
  }
  busy = lsu_.tick(cycle) || busy;
  busy = oc_.tick(cycle) || busy;
  busy = core_.tick_issue(cycle) || busy;
  busy = core_.tick_fetch(cycle) || busy;
  return busy;
}

void Sm::invalidate_l1s(uint8_t which) {
  if (which & kL1I) l1i_.invalidate_all();
  if (which & kL1D) l1d_.invalidate_all();
  if (which & kL1C) l1c_.invalidate_all();
  if (which & kL1T) l1t_.invalidate_all();
}

// The limits SmCore::occupancy_limit applies, on an empty SM.
uint32_t Sm::max_resident_ctas(const KernelInstance& k) const {
  const CtaDemand& d = k.demand;
  uint64_t n = cfg_.max_ctas;
  auto limit = [&n](uint64_t capacity, uint64_t per_cta) {
    if (per_cta > 0) n = std::min(n, capacity / per_cta);
  };
  limit(cfg_.max_threads, d.threads);
  limit(cfg_.max_warps, d.warps);
  limit(cfg_.registers, d.registers);
  limit(cfg_.shared_bytes, d.shared_bytes);
  return static_cast<uint32_t>(n);
}

bool Sm::idle() const {
  if (!core_.idle() || !oc_.idle() || !lsu_.idle() || !writeback_.idle() || !arbiter_.idle()) return false;
  for (const auto& u : units_)
    if (!u->idle()) return false;
  return l1i_.idle() && l1d_.idle() && l1c_.idle() && l1t_.idle();
}

std::string Sm::state_dump() const {
  std::ostringstream o;
  o << core_.state_dump();
  for (const PipelineStage* s : std::initializer_list<const PipelineStage*>{&oc_, &lsu_, &writeback_}) {
    const std::string d = s->state_dump();
    if (!d.empty()) o << "  " << d << "\n";
  }
  for (const auto& u : units_) {
    const std::string d = u->state_dump();
    if (!d.empty()) o << "  " << d << "\n";
  }
  o << "  " << arbiter_.state_dump() << "\n";
  o << "  L1 MSHRs occupied: l1i " << l1i_.mshr_occupied() << ", l1d " << l1d_.mshr_occupied() << ", l1c "
    << l1c_.mshr_occupied() << ", l1t " << l1t_.mshr_occupied() << "\n";
  return o.str();
}

}  // namespace gputlm::sm
