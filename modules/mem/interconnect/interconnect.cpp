#include "mem/interconnect/interconnect.h"

#include <algorithm>

#include "core/clock/parallel_edge.h"
#include "core/config/config_source.h"
#include "core/tlm/mem_extension.h"

namespace gputlm {

void InterconnectConfig::validate(const std::string& key) const {
  validate_links(key);
  make_partition_map(interleave, mem_ports, key + ".interleave");  // throws on an impossible policy
}

void InterconnectConfig::validate_links(const std::string& key) const {
  if (topology != "crossbar" && topology != "fixed_latency")
    throw config::ConfigError("key '" + key + ".topology': unknown topology \"" + topology + "\"");
  if (sm_ports == 0 || mem_ports == 0)
    throw config::ConfigError("key '" + key + "': sm_ports and mem_ports must be positive");
  if (channel_bytes == 0) throw config::ConfigError("key '" + key + ".channel_bytes': must be positive");
  if (input_buffer == 0 || output_buffer == 0)
    throw config::ConfigError("key '" + key + "': input_buffer and output_buffer must be positive");
  if (latency == 0) throw config::ConfigError("key '" + key + ".latency': must be at least 1 cycle");
}

Interconnect::Interconnect(sc_core::sc_module_name name, const InterconnectConfig& cfg, const ClockDomain& domain,
                           stats::Group& parent, std::unique_ptr<PartitionMapIF> map)
    : sc_core::sc_module(name),
      sm_side("sm_side"),
      mem_side("mem_side"),
      cfg_(cfg),
      serialize_(cfg.topology == "crossbar"),
      domain_(domain),
      stats_(parent, basename()),
      requests_(stats_, "requests", "request packets delivered to memory ports"),
      replies_(stats_, "replies", "reply packets delivered to SM ports"),
      request_flits_(stats_, "request_flits", "output-link cycles used by request packets"),
      reply_flits_(stats_, "reply_flits", "output-link cycles used by reply packets"),
      request_input_full_(stats_, "request_input_full",
                          "requests that found their input buffer full (END_REQ withheld: back-pressure)"),
      reply_input_full_(stats_, "reply_input_full",
                        "replies that found their input buffer full (END_RESP withheld)"),
      request_latency_(stats_, "request_latency", "cycles from accepting a request to sending it to its partition"),
      reply_latency_(stats_, "reply_latency", "cycles from accepting a reply to sending it to its SM port"),
      process_("tick", domain, [this](uint64_t c) { return tick(c); }) {
  if (map) {
    cfg_.validate_links(this->name());
    if (map->partitions() != cfg_.mem_ports)
      throw config::ConfigError(std::string("interconnect '") + this->name() + "': the address map has " +
                                std::to_string(map->partitions()) + " partitions for " +
                                std::to_string(cfg_.mem_ports) + " memory ports");
    map_ = std::move(map);
  } else {
    cfg_.validate(this->name());
    map_ = make_partition_map(cfg_.interleave, cfg_.mem_ports, std::string(this->name()) + ".interleave");
  }
  init_network(req_, cfg_.sm_ports, cfg_.mem_ports);
  init_network(rsp_, cfg_.mem_ports, cfg_.sm_ports);
  sm_side.register_nb_transport_fw(this, &Interconnect::sm_fw);
  sm_side.register_b_transport(this, &Interconnect::b_transport);
  sm_side.register_transport_dbg(this, &Interconnect::transport_dbg);
  mem_side.register_nb_transport_bw(this, &Interconnect::mem_bw);
}

void Interconnect::init_network(Network& n, uint32_t inputs, uint32_t outputs) {
  n.inputs.assign(inputs, InputBuffer<Packet>(cfg_.input_buffer));
  n.pending.assign(inputs, Pending{});
  n.moved_cycle.assign(inputs, kBlocked);
  n.outputs.assign(outputs, CycleQueue<Packet>(cfg_.output_buffer));
  n.rr.assign(outputs, 0);
  n.link_free.assign(outputs, 0);
  n.head_sent.assign(outputs, kBlocked);
  n.unblocked.assign(outputs, 0);
  n.awaiting.assign(outputs, nullptr);
  n.wanted.assign(outputs, 0);
}

void Interconnect::end_of_elaboration() {
  if (sm_side.size() != cfg_.sm_ports)
    fail("sm_side has " + std::to_string(sm_side.size()) + " bindings but sm_ports = " +
         std::to_string(cfg_.sm_ports));
  if (mem_side.size() != cfg_.mem_ports)
    fail("mem_side has " + std::to_string(mem_side.size()) + " bindings but mem_ports = " +
         std::to_string(cfg_.mem_ports));
}

void Interconnect::fail(const std::string& what) const {
  throw std::runtime_error(std::string(name()) + ": " + what);
}

namespace {
bool is_atomic(const tlm::tlm_generic_payload& gp) {
  const MemExtension* ext = gp.get_extension<MemExtension>();
  return ext && ext->kind == AccessKind::Atomic;
}
}  // namespace

// Writes and atomics carry their data to memory; reads and atomics bring data back.
uint32_t Interconnect::request_bytes(const tlm::tlm_generic_payload& gp) const {
  return cfg_.header_bytes + (gp.is_write() || is_atomic(gp) ? gp.get_data_length() : 0);
}
uint32_t Interconnect::reply_bytes(const tlm::tlm_generic_payload& gp) const {
  return cfg_.header_bytes + (gp.is_read() || is_atomic(gp) ? gp.get_data_length() : 0);
}
// A reply in parts (MemExtension::reply_parts: an L2 that answered each sector on its own)
// is that many packets, each with its header and its share of the data.
uint32_t Interconnect::reply_flits(const tlm::tlm_generic_payload& gp) const {
  const MemExtension* ext = gp.get_extension<MemExtension>();
  const uint32_t parts = ext && ext->reply_parts > 1 ? ext->reply_parts : 1;
  if (parts == 1) return flits(reply_bytes(gp));
  const uint32_t data = gp.is_read() || is_atomic(gp) ? gp.get_data_length() : 0;
  return parts * flits(cfg_.header_bytes + (data + parts - 1) / parts);
}

tlm::tlm_sync_enum Interconnect::sm_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                       sc_core::sc_time&) {
  const uint64_t now = domain_.now();
  const auto p = static_cast<uint32_t>(port);
  if (phase == tlm::BEGIN_REQ) {
    Pending& pend = req_.pending[p];
    if (pend.gp) fail("SM port " + std::to_string(p) + ": BEGIN_REQ before END_REQ of its previous request");
    // Port p's state is its SM's; the routing table and the counter are shared, so an SM
    // ticking in a parallel edge (parallel_edge.h) leaves them to the end of the edge.
    parallel_edge::run_or_defer(
        [](void* self, void* t, uint64_t in_port) {
          static_cast<Interconnect*>(self)->route_.insert(static_cast<tlm::tlm_generic_payload*>(t),
                                                          static_cast<uint32_t>(in_port));
        },
        this, &gp, p);
    const uint32_t dst = map_->partition_of(gp.get_address());
    process_.wake();
    if (req_.inputs[p].can_accept(now)) {
      req_.inputs[p].push(Packet{&gp, dst, flits(request_bytes(gp)), now}, now);
      phase = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    parallel_edge::run_or_defer([](void* self, void*, uint64_t) { ++static_cast<Interconnect*>(self)->request_input_full_; },
                                this);
    pend = Pending{&gp, dst, now + 1};
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::END_RESP) {
    if (rsp_.awaiting[p] != &gp) fail("SM port " + std::to_string(p) + ": END_RESP for a reply not in progress");
    rsp_.awaiting[p] = nullptr;
    rsp_.unblocked[p] = now + 1;  // seen at our next edge, whatever the evaluation order
    process_.wake();
    return tlm::TLM_COMPLETED;
  }
  fail("SM port " + std::to_string(p) + ": unexpected phase " + phase.get_name() + " on the forward path");
}

tlm::tlm_sync_enum Interconnect::mem_bw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                        sc_core::sc_time&) {
  const uint64_t now = domain_.now();
  const auto p = static_cast<uint32_t>(port);
  if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) {
    // BEGIN_RESP implies END_REQ of the same transaction.
    if (req_.awaiting[p] == &gp) {
      req_.awaiting[p] = nullptr;
      req_.unblocked[p] = now + 1;
      process_.wake();
    } else if (phase == tlm::END_REQ) {
      fail("memory port " + std::to_string(p) + ": END_REQ for a request not in its request phase");
    }
  }
  if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  if (phase == tlm::BEGIN_RESP) {
    Pending& pend = rsp_.pending[p];
    if (pend.gp) fail("memory port " + std::to_string(p) + ": BEGIN_RESP before END_RESP of its previous reply");
    const uint32_t dst = route_.take(&gp, name());
    process_.wake();
    if (rsp_.inputs[p].can_accept(now)) {
      rsp_.inputs[p].push(Packet{&gp, dst, reply_flits(gp), now}, now);
      return tlm::TLM_COMPLETED;
    }
    ++reply_input_full_;
    pend = Pending{&gp, dst, now + 1};
    return tlm::TLM_ACCEPTED;
  }
  fail("memory port " + std::to_string(p) + ": unexpected phase " + phase.get_name() + " on the backward path");
}

bool Interconnect::tick(uint64_t cycle) {
  bool work = false;
  // Back to front: links first, then the switch, then admission into input buffers,
  // so a packet advances at most one stage per cycle.
  work |= drive_outputs(req_, true, cycle);
  work |= drive_outputs(rsp_, false, cycle);
  work |= switch_packets(req_, cycle);
  work |= switch_packets(rsp_, cycle);
  work |= admit_pending(req_, true, cycle);
  work |= admit_pending(rsp_, false, cycle);
  if (work) return true;
  const uint64_t next = std::min(next_work_cycle(req_, cycle), next_work_cycle(rsp_, cycle));
  if (next != kBlocked) process_.wake_at(next);
  return false;
}

// Per output: the head packet's first flit enters the link when the packet is ready and
// the link is free; the packet is delivered serialization_cycles() later (its last flit),
// or when the target has taken the previous packet, whichever is later. The head stays in
// the output queue until delivered, so a stalled target still fills the queue exactly as
// many packets deep. On the crossbar the flits of the head cross while the target has not
// yet taken the previous packet (GPGPU-Sim's ejection buffer); the fixed-latency pipe
// delivers a packet whole and only then occupies the link, so it waits for the target first.
bool Interconnect::drive_outputs(Network& n, bool request, uint64_t cycle) {
  bool work = false;
  for (uint32_t o = 0; o < n.outputs.size(); ++o) {
    CycleQueue<Packet>& q = n.outputs[o];
    for (;;) {
      if (n.head_sent[o] == kBlocked) {
        if (!q.ready(cycle) || n.link_free[o] > cycle || (!serialize_ && n.unblocked[o] > cycle)) break;
        n.head_sent[o] = cycle;
        n.link_free[o] = cycle + q.front().flits;
      }
      if (n.head_sent[o] + serialization_cycles(q.front().flits) > cycle || n.unblocked[o] > cycle) break;
      const Packet p = q.front();
      q.pop();
      n.head_sent[o] = kBlocked;
      if (request) send_request(o, p, cycle);
      else send_reply(o, p, cycle);
      work = true;
      // The target has just been sent a packet (unblocked > cycle): the loop only lets the
      // next head start on an idle link in this cycle, and ends.
    }
  }
  return work;
}

void Interconnect::send_request(uint32_t port, const Packet& p, uint64_t cycle) {
  ++requests_;
  request_flits_.add(p.flits);
  request_latency_.sample(static_cast<double>(cycle - p.accepted));
  req_.awaiting[port] = p.gp;
  req_.unblocked[port] = kBlocked;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = mem_side[static_cast<int>(port)]->nb_transport_fw(*p.gp, phase, t);
  if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
    req_.awaiting[port] = nullptr;
    req_.unblocked[port] = cycle + 1;
  } else if (r != tlm::TLM_ACCEPTED) {
    fail("memory port " + std::to_string(port) +
         ": target answered BEGIN_REQ with something other than TLM_ACCEPTED or END_REQ (responses must "
         "come as BEGIN_RESP on the backward path)");
  }
}

void Interconnect::send_reply(uint32_t port, const Packet& p, uint64_t cycle) {
  ++replies_;
  reply_flits_.add(p.flits);
  reply_latency_.sample(static_cast<double>(cycle - p.accepted));
  rsp_.awaiting[port] = p.gp;
  rsp_.unblocked[port] = kBlocked;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = sm_side[static_cast<int>(port)]->nb_transport_bw(*p.gp, phase, t);
  if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && phase == tlm::END_RESP)) {
    rsp_.awaiting[port] = nullptr;
    rsp_.unblocked[port] = cycle + 1;
  } else if (r != tlm::TLM_ACCEPTED) {
    fail("SM port " + std::to_string(port) + ": initiator answered BEGIN_RESP with an illegal phase");
  }
}

bool Interconnect::switch_packets(Network& n, uint64_t cycle) {
  // Count the ready heads per output first, so outputs nobody wants cost nothing.
  bool any = false;
  std::fill(n.wanted.begin(), n.wanted.end(), 0u);
  for (uint32_t i = 0; i < n.inputs.size(); ++i) {
    if (!n.inputs[i].ready(cycle)) continue;
    ++n.wanted[n.inputs[i].front().dst];
    any = true;
  }
  if (!any) return false;
  bool work = false;
  const auto inputs = static_cast<uint32_t>(n.inputs.size());
  for (uint32_t o = 0; o < n.outputs.size(); ++o) {
    if (n.wanted[o] == 0 || n.outputs[o].full()) continue;
    for (uint32_t k = 0, i = n.rr[o]; k < inputs; ++k, i = i + 1 == inputs ? 0 : i + 1) {  // round robin from rr
      if (n.moved_cycle[i] == cycle || !n.inputs[i].ready(cycle) || n.inputs[i].front().dst != o) continue;
      n.outputs[o].push(n.inputs[i].front(), cycle + cfg_.latency);
      n.inputs[i].pop(cycle);
      n.moved_cycle[i] = cycle;
      n.rr[o] = (i + 1) % inputs;
      work = true;
      break;
    }
  }
  return work;
}

bool Interconnect::admit_pending(Network& n, bool request, uint64_t cycle) {
  bool work = false;
  for (uint32_t i = 0; i < n.pending.size(); ++i) {
    Pending& pend = n.pending[i];
    if (!pend.gp || pend.ready > cycle || !n.inputs[i].can_accept(cycle)) continue;
    tlm::tlm_generic_payload& gp = *pend.gp;
    n.inputs[i].push(Packet{&gp, pend.dst, request ? flits(request_bytes(gp)) : reply_flits(gp), cycle}, cycle);
    pend = Pending{};
    tlm::tlm_phase phase = request ? tlm::END_REQ : tlm::END_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    if (request) sm_side[static_cast<int>(i)]->nb_transport_bw(gp, phase, t);
    else mem_side[static_cast<int>(i)]->nb_transport_fw(gp, phase, t);
    work = true;
  }
  return work;
}

uint64_t Interconnect::next_work_cycle(Network& n, uint64_t cycle) {
  uint64_t next = kBlocked;
  for (uint32_t o = 0; o < n.outputs.size(); ++o) {
    if (n.outputs[o].empty()) continue;
    if (n.head_sent[o] == kBlocked) {
      // The head's first flit leaves when it is ready and the link is free (fixed_latency:
      // and the target is free, which an END_REQ/END_RESP call announces by waking us).
      if (!serialize_ && n.unblocked[o] == kBlocked) continue;
      next = std::min(next, std::max({n.outputs[o].head_ready_cycle(), n.link_free[o],
                                      serialize_ ? 0 : n.unblocked[o], cycle + 1}));
    } else if (n.unblocked[o] != kBlocked) {
      // Its last flit, and the target free (else that END_* call wakes us).
      const uint64_t tail = n.head_sent[o] + serialization_cycles(n.outputs[o].front().flits);
      next = std::min(next, std::max({tail, n.unblocked[o], cycle + 1}));
    }
  }
  for (uint32_t i = 0; i < n.inputs.size(); ++i) {
    // A head whose output queue is full moves when that queue pops (which is work);
    // a pending arrival whose buffer is full is admitted when the buffer pops.
    if (!n.inputs[i].empty() && !n.outputs[n.inputs[i].front().dst].full()) next = std::min(next, cycle + 1);
    if (n.pending[i].gp && n.inputs[i].size() < n.inputs[i].capacity())
      next = std::min(next, std::max(n.pending[i].ready, cycle + 1));
  }
  return next;
}

void Interconnect::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  mem_side[static_cast<int>(map_->partition_of(gp.get_address()))]->b_transport(gp, t);
}

unsigned int Interconnect::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  return mem_side[static_cast<int>(map_->partition_of(gp.get_address()))]->transport_dbg(gp);
}

}  // namespace gputlm
