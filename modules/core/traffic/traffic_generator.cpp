#include "core/traffic/traffic_generator.h"

#include "core/config/config_source.h"

namespace gputlm {

void TrafficGeneratorConfig::validate() const {
  if (range_bytes < line_bytes)
    throw config::ConfigError("traffic generator: range_bytes (" + std::to_string(range_bytes) +
                              ") is smaller than one request of line_bytes (" +
                              std::to_string(line_bytes) + ")");
  if (base_address % line_bytes)
    throw config::ConfigError("traffic generator: base_address is not aligned to line_bytes");
}

TrafficGenerator::TrafficGenerator(sc_core::sc_module_name name, const TrafficGeneratorConfig& cfg,
                                   const ClockDomain& domain, stats::Group& parent)
    : sc_core::sc_module(name),
      out("out"),
      cfg_(cfg),
      domain_(domain),
      pool_(cfg.line_bytes, std::string(basename()) + ".pool"),
      events_(2 * cfg.max_outstanding + 2),
      // The seed goes through the SplitMix64 output function so that nearby seeds (one
      // per SM) give unrelated streams; the raw seed as state would make seed s+1 the
      // stream of seed s shifted by one draw.
      rng_(SplitMix64::mix(cfg.seed + 0x632BE59BD9B4E019ull)),
      stats_(parent, basename()),
      issued_(stats_, "issued", "requests sent"),
      completed_(stats_, "completed", "responses received"),
      reads_(stats_, "reads", "read requests sent"),
      writes_(stats_, "writes", "write requests sent"),
      retries_(stats_, "retries", "requests refused with a reservation fail or NACK and sent again"),
      latency_(stats_, "latency", "cycles from BEGIN_REQ to BEGIN_RESP"),
      latency_hist_(stats_, "latency_hist", "distribution of request latency in cycles", 0, 1024, 32),
      process_("tick", domain, [this](uint64_t c) { return tick(c); }, /*start_awake=*/cfg.requests > 0) {
  cfg_.validate();
  out.bind(*this);
}

uint64_t TrafficGenerator::next_address() {
  const uint64_t lines = cfg_.range_bytes / cfg_.line_bytes;
  uint64_t offset;
  if (cfg_.pattern == "random")
    offset = (rng_.next() % lines) * cfg_.line_bytes;
  else if (cfg_.pattern == "strided")
    offset = (seq_ * cfg_.stride_bytes) % (lines * cfg_.line_bytes) / cfg_.line_bytes * cfg_.line_bytes;
  else
    offset = (seq_ % lines) * cfg_.line_bytes;
  ++seq_;
  return cfg_.base_address + offset;
}

tlm::tlm_sync_enum TrafficGenerator::nb_transport_bw(tlm::tlm_generic_payload& gp,
                                                     tlm::tlm_phase& phase, sc_core::sc_time&) {
  const uint64_t now = domain_.now();
  if (phase != tlm::END_REQ && phase != tlm::BEGIN_RESP)
    SC_REPORT_ERROR(name(), ("unexpected phase " + std::string(phase.get_name())).c_str());
  // Capacity covers every outstanding request twice (END_REQ + response), so this
  // buffer never refuses; it exists to defer handling to our next edge.
  events_.push(Event{&gp, phase == tlm::BEGIN_RESP}, now);
  process_.wake();
  return tlm::TLM_ACCEPTED;
}

void TrafficGenerator::complete(tlm::tlm_generic_payload& gp, uint64_t cycle) {
  const uint64_t lat = cycle - mem_ext(gp).issue_cycle;
  latency_.sample(static_cast<double>(lat));
  latency_hist_.sample(static_cast<double>(lat));
  ++completed_;
  --outstanding_;
  last_completion_cycle_ = cycle;
  gp.release();
  if (done()) done_event_.notify(sc_core::SC_ZERO_TIME);
}

bool TrafficGenerator::tick(uint64_t cycle) {
  while (events_.ready(cycle)) {
    Event e = events_.front();
    events_.pop(cycle);
    // END_REQ, or a response that ends the request phase implicitly.
    if (e.gp == pending_request_) {
      waiting_end_req_ = false;
      pending_request_ = nullptr;
    }
    if (!e.is_response) continue;
    tlm::tlm_phase ph = tlm::END_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(*e.gp, ph, t);
    complete(*e.gp, cycle);
  }

  if (!waiting_end_req_ && outstanding_ < cfg_.max_outstanding && cycle >= next_issue_cycle_ &&
      (retry_ || sent_ < cfg_.requests)) {
    tlm::tlm_generic_payload* gp = retry_;
    if (!gp) {
      gp = pool_.allocate();
      gp->acquire();
      const bool write = rng_.next() % 1000000 < static_cast<uint64_t>(cfg_.write_fraction * 1000000);
      gp->set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      gp->set_address(next_address());
      MemExtension& ext = mem_ext(*gp);
      ext.kind = write ? AccessKind::Store : AccessKind::Load;
      ext.byte_mask.set();
      ext.sector_mask = ~0u;
      ++sent_;
      ++(write ? writes_ : reads_);
      ++outstanding_;
    } else {
      retry_ = nullptr;
      ++retries_;
      gp->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      mem_ext(*gp).status = MemStatus::Ok;
    }
    mem_ext(*gp).issue_cycle = cycle;
    ++issued_;
    next_issue_cycle_ = cycle + cfg_.issue_interval;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    waiting_end_req_ = true;
    pending_request_ = gp;
    switch (out->nb_transport_fw(*gp, ph, t)) {
      case tlm::TLM_ACCEPTED:
        break;
      case tlm::TLM_UPDATED:
        waiting_end_req_ = false;
        pending_request_ = nullptr;
        if (ph == tlm::BEGIN_RESP) {
          ph = tlm::END_RESP;
          out->nb_transport_fw(*gp, ph, t);
          complete(*gp, cycle);
        }
        break;
      case tlm::TLM_COMPLETED:
        waiting_end_req_ = false;
        pending_request_ = nullptr;
        if (mem_ext(*gp).status != MemStatus::Ok)
          retry_ = gp;  // the target could not reserve resources: send it again later
        else
          complete(*gp, cycle);
        break;
    }
  }
  const bool more_to_send = retry_ || sent_ < cfg_.requests;
  // Sleep when blocked on the target (END_REQ or responses wake us) or finished.
  if (!events_.empty()) return true;
  if (more_to_send && !waiting_end_req_ && outstanding_ < cfg_.max_outstanding) {
    if (cycle + 1 < next_issue_cycle_) {
      process_.wake_at(next_issue_cycle_);
      return false;
    }
    return true;
  }
  return false;
}

}  // namespace gputlm
