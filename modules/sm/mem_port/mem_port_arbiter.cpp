#include "sm/mem_port/mem_port_arbiter.h"

#include <algorithm>

#include "sm/pipeline_protocol.h"

namespace gputlm::sm {

MemPortArbiter::MemPortArbiter(sc_core::sc_module_name name, uint32_t queue_per_port, const ClockDomain& domain,
                               stats::Group& parent)
    : sc_core::sc_module(name),
      upstream("upstream"),
      downstream("downstream"),
      queue_per_port_(queue_per_port),
      domain_(domain),
      stats_(parent, "mem_port"),
      forwarded_(stats_, "requests", "requests forwarded to the interconnect"),
      busy_cycles_(stats_, "blocked_cycles", "cycles a request waited because the interconnect had not sent END_REQ") {
  upstream.register_nb_transport_fw(this, &MemPortArbiter::upstream_fw);
  downstream.register_nb_transport_bw(this, &MemPortArbiter::downstream_bw);
  process_ = std::make_unique<ClockedProcess>("tick", domain_, [this](uint64_t c) { return tick(c); });
}

MemPortArbiter::~MemPortArbiter() = default;

void MemPortArbiter::end_of_elaboration() {
  const uint32_t n = static_cast<uint32_t>(upstream.size());
  queues_.clear();
  for (uint32_t i = 0; i < n; ++i) queues_.emplace_back(queue_per_port_);
  withheld_.assign(n, nullptr);
  withheld_cycle_.assign(n, 0);
  routes_.reserve(64);
}

int MemPortArbiter::route_of(const tlm::tlm_generic_payload& gp) const {
  for (const auto& r : routes_)
    if (r.first == &gp) return static_cast<int>(r.second);
  return -1;
}

void MemPortArbiter::send_end_req(uint32_t port, tlm::tlm_generic_payload& gp) {
  tlm::tlm_phase ph = tlm::END_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  upstream[static_cast<int>(port)]->nb_transport_bw(gp, ph, t);
}

tlm::tlm_sync_enum MemPortArbiter::upstream_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                               sc_core::sc_time& t) {
  const uint32_t p = static_cast<uint32_t>(port);
  if (ph == tlm::BEGIN_REQ) {
    gp.acquire();
    routes_.emplace_back(&gp, p);
    process_->wake();
    if (!queues_[p].can_accept(domain_.now()) || withheld_[p]) {
      withheld_[p] = &gp;
      withheld_cycle_[p] = domain_.now();
      return tlm::TLM_ACCEPTED;
    }
    queues_[p].push(&gp, domain_.now());
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  if (ph == tlm::END_RESP) {
    // Pass-through of the response handshake.
    auto it = std::find_if(routes_.begin(), routes_.end(), [&](const auto& r) { return r.first == &gp; });
    if (it == routes_.end())
      throw PipelineError(std::string(name()) + ": END_RESP for a request this port did not forward");
    routes_.erase(it);
    const tlm::tlm_sync_enum r = downstream->nb_transport_fw(gp, ph, t);
    gp.release();
    return r;
  }
  throw PipelineError(std::string(name()) + ": unexpected phase " + ph.get_name() + " on upstream port " +
                      std::to_string(port));
}

tlm::tlm_sync_enum MemPortArbiter::downstream_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) {
  if (ph == tlm::END_REQ) {
    if (&gp != in_progress_) throw PipelineError(std::string(name()) + ": END_REQ for a request not in progress");
    in_progress_ = nullptr;
    downstream_free_from_ = domain_.now() + 1;
    process_->wake();
    return tlm::TLM_ACCEPTED;
  }
  if (ph != tlm::BEGIN_RESP)
    throw PipelineError(std::string(name()) + ": unexpected phase " + ph.get_name() + " from the interconnect");
  if (&gp == in_progress_) {  // BEGIN_RESP implies END_REQ
    in_progress_ = nullptr;
    downstream_free_from_ = domain_.now() + 1;
    process_->wake();
  }
  const int port = route_of(gp);
  if (port < 0) throw PipelineError(std::string(name()) + ": response for a request this port did not forward");
  const tlm::tlm_sync_enum r = upstream[port]->nb_transport_bw(gp, ph, t);
  if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP)) {
    auto it = std::find_if(routes_.begin(), routes_.end(), [&](const auto& e) { return e.first == &gp; });
    routes_.erase(it);
    gp.release();
  }
  return r;
}

bool MemPortArbiter::tick(uint64_t cycle) {
  const uint32_t n = static_cast<uint32_t>(queues_.size());
  if (blocked_from_ < cycle) busy_cycles_.add(cycle - blocked_from_);  // slept blocked until now
  blocked_from_ = ~uint64_t{0};
  // Ports whose END_REQ was withheld in an earlier cycle get it once their queue has room
  // (arrival now; this tick has not forwarded yet).
  for (uint32_t p = 0; p < n; ++p) {
    if (withheld_[p] && withheld_cycle_[p] < cycle && queues_[p].can_accept(cycle)) {
      tlm::tlm_generic_payload* gp = withheld_[p];
      withheld_[p] = nullptr;
      queues_[p].push(gp, cycle);
      send_end_req(p, *gp);
    }
  }
  bool waiting = false;
  for (uint32_t p = 0; p < n; ++p) waiting = waiting || !queues_[p].empty() || withheld_[p];
  if (!waiting) return false;
  if (in_progress_ || cycle < downstream_free_from_) {
    bool ready = false, queued = false;
    for (uint32_t p = 0; p < n; ++p) {
      ready = ready || queues_[p].ready(cycle);
      queued = queued || !queues_[p].empty();
    }
    if (ready) ++busy_cycles_;
    if (!in_progress_) return true;
    // Asleep until END_REQ (whose arrival wakes us) or another request. Every queued
    // request is ready by the next cycle, so the cycles from then up to the next tick are
    // blocked too.
    if (queued) blocked_from_ = cycle + 1;
    return false;
  }
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t p = (next_port_ + k) % n;
    if (!queues_[p].ready(cycle)) continue;
    tlm::tlm_generic_payload* gp = queues_[p].front();
    queues_[p].pop(cycle);
    next_port_ = (p + 1) % n;
    ++forwarded_;
    in_progress_ = gp;
    in_progress_port_ = p;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = downstream->nb_transport_fw(*gp, ph, t);
    if (r == tlm::TLM_UPDATED && ph == tlm::END_REQ) {
      in_progress_ = nullptr;
      downstream_free_from_ = cycle + 1;
    } else if (r == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP) {
      throw PipelineError(std::string(name()) + ": the interconnect answered BEGIN_REQ with BEGIN_RESP");
    } else if (r == tlm::TLM_COMPLETED) {
      throw PipelineError(std::string(name()) + ": the interconnect completed a request at once");
    }
    break;
  }
  for (uint32_t p = 0; p < n; ++p)
    if (!queues_[p].empty() || withheld_[p]) return true;
  return false;
}

bool MemPortArbiter::idle() const {
  for (std::size_t p = 0; p < queues_.size(); ++p)
    if (!queues_[p].empty() || withheld_[p]) return false;
  return !in_progress_ && routes_.empty();
}

std::string MemPortArbiter::state_dump() const {
  std::string s = std::string(name()) + ": " + std::to_string(routes_.size()) + " request(s) outstanding";
  if (in_progress_) s += ", waiting for END_REQ of port " + std::to_string(in_progress_port_);
  for (std::size_t p = 0; p < queues_.size(); ++p)
    if (!queues_[p].empty()) s += ", port " + std::to_string(p) + " queue " + std::to_string(queues_[p].size());
  return s;
}

}  // namespace gputlm::sm
