// The cache block: construction, sockets and the per-cycle work. The decision for one
// access is in cache_access.cpp, fills in cache_fill.cpp.
#include "mem/cache/cache.h"
#include "mem/cache/cache_prefetch_state.h"
#include "mem/mshr/mshr_storage.h"

#include <limits>

#include "mem/cache/cache_link.h"

namespace gputlm::mem {

namespace {
std::vector<std::string> outcome_labels() {
  std::vector<std::string> l;
  for (int i = 0; i < kAccessOutcomes; ++i) l.push_back(to_string(static_cast<AccessOutcome>(i)));
  return l;
}
CacheConfig validated(const CacheConfig& cfg, const std::string& name) {
  cfg.validate(name);
  return cfg;
}
}  // namespace

const char* to_string(AccessOutcome o) {
  switch (o) {
    case AccessOutcome::Hit: return "hit";
    case AccessOutcome::HitReserved: return "hit_reserved";
    case AccessOutcome::PrimaryMiss: return "primary_miss";
    case AccessOutcome::SecondaryMiss: return "secondary_miss";
    case AccessOutcome::MissNoAllocate: return "miss_no_allocate";
    case AccessOutcome::ReservationFail: return "reservation_fail";
    case AccessOutcome::Nack: return "nack";
    case AccessOutcome::LazyWrite: return "lazy_write";
  }
  return "?";
}

const char* to_string(LocalityClass c) {
  switch (c) {
    case LocalityClass::None: return "none";
    case LocalityClass::Miss: return "MISS";
    case LocalityClass::Intra: return "INTRA";
    case LocalityClass::Inter: return "INTER";
    case LocalityClass::IntraMerge: return "INTRA_M";
    case LocalityClass::InterMerge: return "INTER_M";
  }
  return "?";
}

void CacheConfig::validate(const std::string& key_prefix) const {
  const std::string p = key_prefix.empty() ? "" : key_prefix + ".";
  // Building the policies checks their own constraints.
  make_set_index(set_index, sets, line_size, p + "set_index");
  make_replacement(replacement, sets, ways, p + "replacement");
  mshr.validate(p + "mshr");
  if (sectors > 32 || line_size / sectors < 4)
    throw config::ConfigError("key '" + p + "sectors': " + std::to_string(sectors) + " sectors of a " +
                              std::to_string(line_size) + "-byte line (at most 32 sectors of at least 4 bytes)");
  if (sectors > 1 && (mshr.organisation == "tsma" || mshr.organisation == "htsma"))
    throw config::ConfigError("key '" + p + "sectors': TSMA/HTSMA share whole-line tags; use sectors = 1");
  if (write_allocate == "lazy_fetch_on_read" && write_policy != "write_back")
    throw config::ConfigError("key '" + p + "write_allocate': lazy_fetch_on_read needs write_policy write_back, "
                              "not " + write_policy);
  if (write_allocate == "lazy_fetch_on_read" && line_size > 128)
    throw config::ConfigError("key '" + p + "write_allocate': lazy_fetch_on_read tracks written bytes of lines "
                              "up to 128 bytes, not " + std::to_string(line_size));
  if (write_policy == "write_back" && fail_mode == "reject" && miss_queue < 2)
    throw config::ConfigError("key '" + p + "miss_queue': a write-back cache needs at least 2 slots "
                              "(a fetch and a write-back)");
  if (saturation_margin >= miss_queue)
    throw config::ConfigError("key '" + p + "saturation_margin': margin " + std::to_string(saturation_margin) +
                              " >= miss_queue " + std::to_string(miss_queue) +
                              " would keep the saturation flag raised");
  if (mshr.fields > response_queue)
    throw config::ConfigError("key '" + p + "response_queue': must hold at least the " +
                              std::to_string(mshr.fields) + " responses of one fill (mshr.fields)");
  if (!allocate_demand && (mshr.organisation == "tsma" || mshr.organisation == "htsma"))
    throw config::ConfigError("key '" + p + "allocate_demand': false needs a conventional or set_assoc MSHR (" +
                              mshr.organisation + " keeps a pending block's tag in the line it allocates)");
  if (!allocate_demand && write_policy == "write_back")
    throw config::ConfigError("key '" + p + "allocate_demand': false needs write_policy write_evict or read_only "
                              "(a write-back cache allocates the lines it writes)");
}

Cache::Cache(sc_core::sc_module_name name, const CacheConfig& cfg, const ClockDomain& domain,
             stats::Group& parent)
    : sc_core::sc_module(name),
      upstream("upstream"),
      downstream("downstream"),
      status_export("status_export"),
      control_export("control_export"),
      retry_export("retry_export"),
      cfg_(validated(cfg, basename())),
      domain_(domain),
      stall_mode_(cfg_.fail_mode == "stall"),
      write_evict_(cfg_.write_policy == "write_evict"),
      write_back_(cfg_.write_policy == "write_back"),
      read_only_(cfg_.write_policy == "read_only"),
      on_miss_(cfg_.allocation == "on_miss"),
      lazy_(write_back_ && cfg_.write_allocate == "lazy_fetch_on_read"),
      allocate_demand_(cfg_.allocate_demand),
      group_(parent, basename()),
      tags_(cfg_.sets, cfg_.ways, cfg_.line_size, cfg_.sectors,
            make_set_index(cfg_.set_index, cfg_.sets, cfg_.line_size, "set_index"),
            make_replacement(cfg_.replacement, cfg_.sets, cfg_.ways, "replacement")),
      mshr_([this] {
        MshrStorageGeometry g;  // for <cache>.mshr.storage_bits
        g.cache_sets = cfg_.sets;
        g.cache_ways = cfg_.ways;
        g.line_size = cfg_.line_size;
        return make_mshr(cfg_.mshr, group_, &g);
      }()),
      pool_(cfg_.line_size, std::string(name) + ".pool"),
      // A hit or miss waits out its latency in a pipeline in front of the queue (at most
      // port_width accesses enter per cycle); its first cycle is the queue slot itself,
      // so a latency of 1 adds no storage.
      miss_queue_(cfg_.miss_queue + (cfg_.miss_latency - 1) * cfg_.port_width),
      response_queue_(cfg_.response_queue + (cfg_.hit_latency - 1) * cfg_.port_width),
      input_queue_(cfg_.input_queue),
      fill_queue_(cfg_.fill_queue),
      completed_(cfg_.miss_queue),
      accesses_(group_, "accesses", "accesses evaluated (including refused attempts)"),
      loads_(group_, "loads", "evaluated demand loads, instruction fetches and prefetches"),
      load_hits_(group_, "load_hits", "loads that hit a valid line"),
      load_primary_misses_(group_, "load_primary_misses", "loads that allocated an MSHR entry"),
      read_outcomes_(group_, "read_outcomes", "outcome of each evaluated read access", outcome_labels()),
      write_outcomes_(group_, "write_outcomes", "outcome of each evaluated store / atomic", outcome_labels()),
      fail_causes_(group_, "fail_causes", "reservation failures by cause",
                   {"mshr_entries_full", "mshr_fields_full", "miss_queue_full", "set_locked"}),
      locality_(group_, "locality", "LAWS load classes (001 Figs 2.11, 3.5): l1_MISS/INTRA/INTER/INTRA_M/INTER_M",
                {"MISS", "INTRA", "INTER", "INTRA_M", "INTER_M"}),
      load_stall_cycles_(group_, "load_stall_cycles",
                         "cycles in which a load could not be reserved (001 Fig. 5.6 l1d_load_stall_cycles)"),
      write_evictions_(group_, "write_evictions", "lines evicted by write-evict stores"),
      writebacks_(group_, "writebacks", "dirty lines written back"),
      fills_(group_, "fills", "blocks filled from the next level"),
      fill_bypasses_(group_, "fill_bypasses", "on-fill blocks not installed (every way reserved, or a demand fill under allocate_demand false)"),
      downstream_retries_(group_, "downstream_retries", "requests the next level refused and were resent"),
      invalidations_(group_, "invalidations", "lines dropped by invalidate_all"),
      response_queue_stalls_(group_, "response_queue_stalls",
                             "cycles in which a waiting access was not evaluated because the response queue "
                             "(with its hit-latency stages) was full"),
      hit_rate_(group_, "load_hit_rate", "load_hits / loads", load_hits_, loads_),
      primary_miss_rate_(group_, "load_primary_miss_rate", "load_primary_misses / loads (thesis miss rate)",
                         load_primary_misses_, loads_) {
  upstream.register_nb_transport_fw(this, &Cache::upstream_fw);
  upstream.register_b_transport(this, &Cache::upstream_b_transport);
  downstream.register_nb_transport_bw(this, &Cache::downstream_bw);
  status_export.bind(*this);
  control_export.bind(*this);
  retry_export.bind(*this);
  writeback_blocks_.reserve(static_cast<std::size_t>(cfg_.sets) * cfg_.ways);
  cycle_ps_ = domain_.time_of(1).value();
  process_ = std::make_unique<ClockedProcess>("tick", domain_, [this](uint64_t c) { return tick(c); });
}

Cache::~Cache() = default;

// Status reads first complete this cycle's internal work (as an access would), so what
// another block reads does not depend on which process SystemC runs first.
uint32_t Cache::mshr_occupied() const {
  const_cast<Cache*>(this)->catch_up_for_read();
  return mshr_->occupied();
}

uint64_t Cache::mshr_owner_mask() const {
  const_cast<Cache*>(this)->catch_up_for_read();
  uint64_t m = 0;
  for (uint32_t e = 0; e < mshr_->capacity(); ++e) {
    if (!mshr_->in_use(static_cast<int32_t>(e)) || mshr_->field_count(static_cast<int32_t>(e)) == 0) continue;
    const int32_t w = mshr_->field(static_cast<int32_t>(e), 0).warp;
    if (w >= 0 && w < 64) m |= uint64_t{1} << w;
  }
  return m;
}

bool Cache::saturated() const {
  const uint64_t t = sim_now().value();
  const bool quiet = t < quiet_until_ps_;
  if (!quiet) const_cast<Cache*>(this)->catch_up();
  const bool memo = quiet && t >= quiet_from_ps_;
  if (memo && saturation_memo_.gen == quiet_gen_) return saturation_memo_.value;
  const bool v = mshr_->almost_full() || miss_queue_free() <= cfg_.saturation_margin;
  if (memo) saturation_memo_ = {quiet_gen_, v};
  return v;
}

uint64_t Cache::contents_version() const {
  const_cast<Cache*>(this)->catch_up_for_read();
  return tags_.contents_version();
}

bool Cache::probe(uint64_t address) const {
  const_cast<Cache*>(this)->catch_up_for_read();
  return holds(address);
}

bool Cache::holds(uint64_t address) const {
  const uint64_t block = tags_.block_of(address);
  const uint32_t set = tags_.set_of(block);
  const int32_t way = tags_.find(set, block);
  return way >= 0 && (tags_.line(set, static_cast<uint32_t>(way)).valid_sectors & tags_.sector_bit(address)) != 0;
}

bool Cache::probe_any(const uint64_t* addresses, uint32_t n, ProbeStamp* since) const {
  const_cast<Cache*>(this)->catch_up_for_read();
  const uint64_t gains = tags_.gains(), unlogged = tags_.unlogged_changes();
  bool any = false;
  if (since && since->unlogged == unlogged && since->gains <= gains && gains - since->gains <= TagArray::kGainLog) {
    // None was present at the stamp: only an address whose line gained sectors since may
    // be. A gained block outside the stamp's hashed set is none of the addresses'.
    for (uint64_t g = since->gains; g < gains && !any; ++g) {
      const uint64_t block = tags_.gained_block(g);
      if (!since->may_hold(block)) continue;
      for (uint32_t i = 0; i < n && !any; ++i) any = tags_.block_of(addresses[i]) == block && holds(addresses[i]);
    }
    if (any) *since = ProbeStamp{};
    else since->gains = gains;  // same addresses: the set stays
    return any;
  }
  for (uint32_t i = 0; i < n && !any; ++i) any = holds(addresses[i]);
  if (since) {
    *since = ProbeStamp{};
    if (!any) {
      since->gains = gains;
      since->unlogged = unlogged;
      for (uint32_t i = 0; i < n; ++i) since->add(tags_.block_of(addresses[i]));
    }
  }
  return any;
}

void Cache::set_owner_warp(int32_t warp) {
  owner_warp_ = owner_warp();  // the value in effect this cycle
  owner_next_ = warp;
  owner_set_cycle_ = domain_.now();
  quiet_until_ps_ = 0;  // plain: the owner decides accesses, so end any quiet window
}

int32_t Cache::owner_warp() const {
  return domain_.now() > owner_set_cycle_ ? owner_next_ : owner_warp_;
}

void Cache::invalidate_all() {
  invalidate_requested_ = true;
  invalidate_after_ = domain_.now();  // takes effect at the next edge, whoever runs first
  wake_self();
}

bool Cache::idle() const {
  return miss_queue_.empty() && response_queue_.empty() && input_queue_.empty() && fill_queue_.empty() &&
         completed_.empty() && !end_req_to_send_ && !end_resp_to_send_ &&
         writeback_blocks_.empty() && !deferred_ && !input_waiting_ && !resp_in_progress_ && !req_in_progress_ &&
         !fill_end_resp_ && !invalidate_requested_ && mshr_->occupied() == 0 && pool_.in_use() == 0;
}

void Cache::upstream_b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  throw CacheError(std::string(name()) + ": b_transport is not supported (use nb_transport; address " +
                   hex_address(gp.get_address()) + ")");
}

// ---------------------------------------------------------------------------- upstream

bool Cache::port_free(uint64_t cycle) const { return port_cycle_ != cycle || port_used_ < cfg_.port_width; }

void Cache::use_port(uint64_t cycle) {
  if (port_cycle_ != cycle) {
    port_cycle_ = cycle;
    port_used_ = 0;
  }
  ++port_used_;
}

void Cache::hold(tlm::tlm_generic_payload& gp) {
  if (gp.has_mm()) gp.acquire();
}
void Cache::drop(tlm::tlm_generic_payload& gp) {
  if (gp.has_mm()) gp.release();
}

tlm::tlm_sync_enum Cache::upstream_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
  // Every call from another process first completes this cycle's own work, so what the
  // call changes is seen from the next edge whatever the process evaluation order.
  catch_up();
  if (ph == tlm::END_RESP) {
    if (&gp != resp_in_progress_) throw CacheError(std::string(name()) + ": END_RESP for a response not in progress");
    resp_in_progress_ = nullptr;
    resp_free_at_ = domain_.now() + 1;
    drop(gp);
    wake_self();
    return tlm::TLM_COMPLETED;
  }
  if (ph != tlm::BEGIN_REQ) throw CacheError(std::string(name()) + ": unexpected phase " + ph.get_name() + " on upstream");
  if (!gp.get_extension<MemExtension>())
    throw CacheError(std::string(name()) + ": request at " + hex_address(gp.get_address()) + " has no MemExtension");
  if (deferred_ || input_waiting_)
    throw CacheError(std::string(name()) + ": BEGIN_REQ at " + hex_address(gp.get_address()) +
                     " before END_REQ of the previous request");
  {  // a retried payload may still carry the status of its refused attempt
    MemExtension& e = mem_ext(gp);
    e.status = MemStatus::Ok;
    e.fail_cause = ReservationFail::None;
  }
  if (stall_mode_) {
    hold(gp);
    if (input_queue_.full()) {
      input_waiting_ = &gp;
      return tlm::TLM_ACCEPTED;
    }
    input_queue_.push(&gp, domain_.now() + 1);
    wake_self();
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  const uint64_t cycle = domain_.now();
  if (!port_free(cycle) || response_queue_full()) {
    hold(gp);
    deferred_ = &gp;
    wake_self();
    return tlm::TLM_ACCEPTED;
  }
  use_port(cycle);
  const Result r = access(gp, cycle);
  wake_self();
  MemExtension& ext = mem_ext(gp);
  if (r.refused()) {
    ext.status = r.refusal_status();
    ext.fail_cause = r.cause;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  ph = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

// What upstream_fw does with a BEGIN_REQ that is decided at once, without reading the
// payload until the access proceeds (L1RetryIF).
RetryResult Cache::retry(tlm::tlm_generic_payload& gp, const AccessKey& key) {
  catch_up();
  RetryResult res;
  const uint64_t cycle = domain_.now();
  // upstream_fw's other paths (a protocol error, stall mode, a deferral) are left to it.
  if (stall_mode_ || deferred_ || input_waiting_ || !port_free(cycle) || response_queue_full()) return res;
  use_port(cycle);
  const Result r = access(key, gp, cycle);
  wake_self();
  if (r.refused()) {
    res.outcome = RetryResult::Outcome::Refused;
    res.status = r.refusal_status();
    res.cause = r.cause;
    return res;
  }
  {  // as upstream_fw: the payload may carry the status of its refused attempt
    MemExtension& e = mem_ext(gp);
    e.status = MemStatus::Ok;
    e.fail_cause = ReservationFail::None;
  }
  res.outcome = RetryResult::Outcome::Accepted;
  return res;
}

void Cache::evaluate_deferred(uint64_t cycle) {
  if (!deferred_ || !port_free(cycle)) return;
  if (response_queue_full()) {
    ++response_queue_stalls_;
    return;
  }
  tlm::tlm_generic_payload& gp = *deferred_;
  deferred_ = nullptr;
  use_port(cycle);
  const Result r = access(gp, cycle);
  if (r.refused()) {
    MemExtension& ext = mem_ext(gp);
    ext.status = r.refusal_status();
    ext.fail_cause = r.cause;
    respond(gp, cycle);  // keeps the reference taken when it was deferred
    return;
  }
  drop(gp);  // access() took its own reference
  end_req_to_send_ = &gp;
}

void Cache::evaluate_input(uint64_t cycle) {
  if (input_queue_.ready(cycle) && response_queue_full()) ++response_queue_stalls_;
  for (uint32_t n = 0; n < cfg_.port_width && input_queue_.ready(cycle) && !response_queue_full(); ++n) {
    tlm::tlm_generic_payload& gp = *input_queue_.front();
    const Result r = access(gp, cycle);
    if (r.refused()) break;  // retried
    input_queue_.pop();
    drop(gp);  // access() took its own reference
    if (input_waiting_) {
      tlm::tlm_generic_payload& w = *input_waiting_;
      input_waiting_ = nullptr;
      input_queue_.push(&w, cycle + 1);
      end_req_to_send_ = &w;
    }
  }
}

void Cache::respond(tlm::tlm_generic_payload& gp, uint64_t ready) {
  response_queue_.push(&gp, ready);
}

void Cache::send_responses(uint64_t cycle) {
  for (uint32_t n = 0; n < cfg_.port_width && !resp_in_progress_ && cycle >= resp_free_at_ &&
                       response_queue_.ready(cycle);
       ++n) {
    tlm::tlm_generic_payload& gp = *response_queue_.front();
    response_queue_.pop();
    note_pop(false, cycle);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    resp_in_progress_ = &gp;  // before the call: the initiator may answer END_RESP inside it
    const tlm::tlm_sync_enum r = upstream->nb_transport_bw(gp, ph, t);
    if (r == tlm::TLM_ACCEPTED) continue;  // (resp_in_progress_ cleared if END_RESP came already)
    if (r == tlm::TLM_UPDATED && ph != tlm::END_RESP)
      throw CacheError(std::string(name()) + ": initiator answered BEGIN_RESP with phase " + ph.get_name());
    if (resp_in_progress_ == &gp) {
      resp_in_progress_ = nullptr;
      drop(gp);
    }
  }
}

// ---------------------------------------------------------------------------- downstream

void Cache::send_downstream(uint64_t cycle) {
  // One request per cycle; room for the case the next level completes it at once.
  if (req_in_progress_ || cycle < req_free_at_ || !miss_queue_.ready(cycle) || completed_.full()) return;
  tlm::tlm_generic_payload& gp = *miss_queue_.front();
  MemExtension& ext = mem_ext(gp);
  ext.status = MemStatus::Ok;
  ext.fail_cause = ReservationFail::None;
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  req_in_progress_ = &gp;
  miss_queue_.pop();
  const tlm::tlm_sync_enum r = downstream->nb_transport_fw(gp, ph, t);
  if (r != tlm::TLM_COMPLETED || ext.status == MemStatus::Ok) note_pop(true, cycle);
  if (r == tlm::TLM_ACCEPTED) return;
  if (r == tlm::TLM_UPDATED) {
    if (ph == tlm::END_REQ) {
      if (req_in_progress_ == &gp) req_in_progress_ = nullptr;
      return;
    }
    if (ph == tlm::BEGIN_RESP) {  // answered on the return path: processed like a fill
      req_in_progress_ = nullptr;
      completed_.push(&gp, cycle + 1);
      tlm::tlm_phase end = tlm::END_RESP;
      downstream->nb_transport_fw(gp, end, t);
      return;
    }
    throw CacheError(std::string(name()) + ": next level answered BEGIN_REQ with phase " + ph.get_name());
  }
  // TLM_COMPLETED: refused (retry next cycle, keeping order) or done at once.
  req_in_progress_ = nullptr;
  if (ext.status != MemStatus::Ok) {
    ++downstream_retries_;
    // Re-insert at the head: rotate the queue so the order stays the same.
    const std::size_t n = miss_queue_.size();
    miss_queue_.push(&gp, cycle + 1);
    for (std::size_t i = 0; i < n; ++i) {
      tlm::tlm_generic_payload* p = miss_queue_.front();
      const uint64_t ready = miss_queue_.ready_cycle_at(0);
      miss_queue_.pop();
      miss_queue_.push(p, ready);
    }
    return;
  }
  completed_.push(&gp, cycle + 1);
}

void Cache::note_pop(bool miss_queue, uint64_t cycle) {
  if (pops_cycle_ != cycle) {
    pops_cycle_ = cycle;
    miss_queue_pops_ = response_queue_pops_ = 0;
  }
  ++(miss_queue ? miss_queue_pops_ : response_queue_pops_);
}

// An access evaluated in a cycle sees the queues as they were before this cycle's sends,
// whether or not our process has already run them: the slots freed by sends count from
// the next cycle.
uint32_t Cache::miss_queue_free() const {
  const uint32_t popped = pops_cycle_ == domain_.now() ? miss_queue_pops_ : 0;
  return static_cast<uint32_t>(miss_queue_.free_slots()) - popped;
}

bool Cache::response_queue_full() const {
  const uint32_t popped = pops_cycle_ == domain_.now() ? response_queue_pops_ : 0;
  return response_queue_.free_slots() <= popped;
}

tlm::tlm_sync_enum Cache::downstream_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
  catch_up();
  if (ph == tlm::END_REQ) {
    if (&gp != req_in_progress_) throw CacheError(std::string(name()) + ": END_REQ for a request not in progress");
    req_in_progress_ = nullptr;
    req_free_at_ = domain_.now() + 1;
    wake_self();
    return tlm::TLM_ACCEPTED;
  }
  if (ph != tlm::BEGIN_RESP)
    throw CacheError(std::string(name()) + ": unexpected phase " + ph.get_name() + " from the next level");
  if (!gp.get_extension<Link>() || gp.get_extension<Link>()->owner != this)
    throw CacheError(std::string(name()) + ": response for a transaction this cache did not send (" +
                     hex_address(gp.get_address()) + ")");
  if (&gp == req_in_progress_) {  // BEGIN_RESP implies END_REQ
    req_in_progress_ = nullptr;
    req_free_at_ = domain_.now() + 1;
  }
  if (fill_queue_.full()) throw CacheError(std::string(name()) + ": next level sent a response before END_RESP");
  fill_queue_.push(&gp, domain_.now() + 1);
  wake_self();
  if (fill_queue_.full()) {
    fill_end_resp_ = &gp;
    return tlm::TLM_ACCEPTED;
  }
  return tlm::TLM_COMPLETED;
}

// ---------------------------------------------------------------------------- the cycle

void Cache::catch_up() {
  // Do this cycle's internal work before handling a call that arrives in it, so the
  // outcome does not depend on whether our process or the caller ran first. Our own
  // sends stay in our process (never inside another block's tick).
  if (in_tick_) return;
  quiet_until_ps_ = 0;  // the caller may change our state
  const uint64_t c = domain_.now();
  if (last_internal_ == c) return;
  run_internal(c);
  if (busy_after(c)) process_->wake();
}

void Cache::catch_up_for_read() {
  // In a quiet window run_internal(now) would find nothing to do, now or at a later call of
  // this cycle (catch_up() runs before the caller's change), so skipping it changes nothing.
  if (sim_now().value() < quiet_until_ps_) return;
  catch_up();
}

void Cache::wake_self() {
  quiet_until_ps_ = 0;
  process_->wake();
}

void Cache::run_internal(uint64_t cycle) {
  if (last_internal_ == cycle) return;
  last_internal_ = cycle;
  const bool outer = in_tick_;
  in_tick_ = true;
  if (invalidate_requested_ && cycle > invalidate_after_) do_invalidate();
  while (!writeback_blocks_.empty() && !miss_queue_.full()) {
    push_writeback(writeback_blocks_.back().first, writeback_blocks_.back().second);
    writeback_blocks_.pop_back();
  }
  process_fill(cycle);
  if (stall_mode_) evaluate_input(cycle);
  else evaluate_deferred(cycle);
  in_tick_ = outer;
}

void Cache::send_pending_ends() {
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  if (end_req_to_send_) {
    tlm::tlm_generic_payload& gp = *end_req_to_send_;
    end_req_to_send_ = nullptr;
    tlm::tlm_phase ph = tlm::END_REQ;
    upstream->nb_transport_bw(gp, ph, t);
  }
  if (end_resp_to_send_) {
    tlm::tlm_generic_payload& gp = *end_resp_to_send_;
    end_resp_to_send_ = nullptr;
    tlm::tlm_phase ph = tlm::END_RESP;
    downstream->nb_transport_fw(gp, ph, t);
  }
}

bool Cache::tick(uint64_t cycle) {
  if (cycle == last_tick_) return last_busy_;
  last_tick_ = cycle;
  in_tick_ = true;
  run_internal(cycle);
  send_pending_ends();
  send_responses(cycle);
  send_downstream(cycle);
  last_busy_ = busy_after(cycle);
  if (last_busy_) {
    quiet_until_ps_ = 0;
  } else {
    quiet_from_ps_ = (cycle + 1) * cycle_ps_;
    quiet_until_ps_ = next_head_ == std::numeric_limits<uint64_t>::max() ? next_head_ : next_head_ * cycle_ps_;
    ++quiet_gen_;
  }
  in_tick_ = false;
  return last_busy_;
}

bool Cache::busy_after(uint64_t cycle) {
  uint64_t next = std::numeric_limits<uint64_t>::max();
  bool busy = deferred_ || invalidate_requested_ || !writeback_blocks_.empty() || end_req_to_send_ ||
              end_resp_to_send_;
  auto consider = [&](const CycleQueue<tlm::tlm_generic_payload*>& q, bool blocked) {
    if (q.empty() || blocked) return;
    if (q.head_ready_cycle() <= cycle + 1) busy = true;
    else if (q.head_ready_cycle() < next) next = q.head_ready_cycle();
  };
  consider(fill_queue_, false);
  consider(completed_, false);
  consider(input_queue_, false);
  consider(response_queue_, resp_in_progress_ != nullptr);  // END_RESP wakes us
  consider(miss_queue_, req_in_progress_ != nullptr);       // END_REQ wakes us
  next_head_ = next;
  if (!busy && next != std::numeric_limits<uint64_t>::max()) process_->wake_at(next);
  return busy;
}

void Cache::do_invalidate() {
  invalidate_requested_ = false;
  for (uint32_t s = 0; s < tags_.sets(); ++s)
    for (uint32_t w = 0; w < tags_.ways(); ++w) {
      CacheLine& l = tags_.line(s, w);
      if (l.state == LineState::Invalid || (l.valid_sectors | l.partial_sectors) == 0) continue;
      if (l.dirty) writeback_blocks_.push_back({l.block, tags_.writeback_bytes(l)});
      ++invalidations_;
      if (l.prefetched) prefetch_unused(l);
      if (l.state == LineState::Valid) {
        tags_.invalidate(s, w);
      } else {  // sectors still pending: keep the reservation, drop the valid data
        l.valid_sectors = l.partial_sectors = l.dirty_sectors = 0;
        tags_.note_contents_change();
        l.written.reset();
        l.dirty = false;
      }
    }
}

}  // namespace gputlm::mem
