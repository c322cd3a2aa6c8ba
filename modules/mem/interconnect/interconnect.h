// The interconnect between SM-side ports and memory-partition ports (issue 3 item 3):
// separate request and reply networks, each with per-input-port buffers, per-output
// queues and output links of `channel_bytes` per cycle (a packet of B bytes occupies
// ceil(B / channel_bytes) cycles of its output link).
//
// Two topologies share this block and its sockets:
//  * crossbar: each cycle every output grants one input whose head packet targets it,
//    round-robin (fair, deterministic); the packet reaches the output queue `latency`
//    cycles later. Inputs are FIFO (head-of-line blocking, like GPGPU-Sim's iSLIP
//    crossbar with one VC). A packet of n flits streams over its output link one flit
//    per cycle and is delivered with its last flit, n - 1 cycles after its head (as
//    GPGPU-Sim's booksim network, which hands a packet to its node once the tail flit
//    is in the boundary buffer).
//  * fixed_latency: the thesis' interconnect (001 Table 4.3: 50/100/200/400 cycles):
//    the same arbitration into a pipe of `latency` cycles whose capacity
//    (`output_buffer`) bounds the packets in flight per output. A packet is delivered
//    whole after `latency` cycles, whatever its size (GPGPU-Sim's fixed_lat_per_hop
//    mode); its flits then occupy the output link (bandwidth).
//
// Back-pressure: a request that finds its input buffer full has END_REQ withheld until
// there is room; a full output queue stops the switch; an output waits for the
// target's END_REQ (END_RESP on the reply side) before sending the next packet. So a
// memory partition that stops accepting fills the crossbar and then stalls the SMs.
// Requests go to partition map.partition_of(address); replies go back to the port the
// request came in on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/clock/cycle_queue.h"
#include "core/clock/input_buffer.h"
#include "core/config/params.h"
#include "core/stats/stats.h"
#include "mem/interconnect/partition_map.h"
#include "mem/interconnect/route_table.h"

namespace gputlm {

struct InterconnectConfig {
  std::string topology = "crossbar";
  uint32_t sm_ports = 15;   // GTX480: 15 SMs
  uint32_t mem_ports = 6;   // GTX480: 6 memory partitions (-gpgpu_n_mem 6)
  uint32_t channel_bytes = 32;  // 001 Table 2.1: 32 B channel; GPGPU-Sim flit_size = 32
  uint32_t header_bytes = 8;    // GPGPU-Sim's control size of a mem_fetch
  uint32_t input_buffer = 8;    // GPGPU-Sim Fermi icnt vc_buf_size = 8
  uint32_t output_buffer = 8;
  uint32_t latency = 2;
  PartitionMapConfig interleave;

  template <class V>
  void visit(V& v) {
    v.param("topology", topology,
            "crossbar (round-robin switch, `latency` cycles per traversal) or fixed_latency "
            "(001 Table 4.3: every packet takes `latency` cycles; `output_buffer` bounds packets in flight per output)",
            config::one_of({"crossbar", "fixed_latency"}));
    v.param("sm_ports", sm_ports, "SM-side (initiator) ports; requests enter and replies leave here", config::at_least(1));
    v.param("mem_ports", mem_ports, "memory-partition ports; requests are interleaved over them", config::at_least(1));
    v.param("channel_bytes", channel_bytes, "bytes an output link carries per cycle (flit size)", config::at_least(1));
    v.param("header_bytes", header_bytes,
            "bytes of a packet without data: read requests and write replies are this size; write requests, "
            "read replies and atomics (both ways) carry header + data length",
            config::at_least(0));
    v.param("input_buffer", input_buffer, "packets buffered per input port per network (full: END_REQ withheld)",
            config::at_least(1));
    v.param("output_buffer", output_buffer,
            "packets queued per output port per network (crossbar) / in flight per output (fixed_latency)",
            config::at_least(1));
    v.param("latency", latency,
            "cycles from leaving an input buffer to the head of the output queue (crossbar traversal; "
            "fixed_latency: the fixed latency, 50/100/200/400 in 001 Table 4.3)",
            config::at_least(1));
    v.group("interleave", interleave, "address-to-partition interleaving of requests");
  }
  void validate(const std::string& key = "interconnect") const;
  void validate_links(const std::string& key) const;  // everything but the interleaving
};

class Interconnect : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Interconnect> sm_side;      // bind sm_ports initiators
  tlm_utils::multi_passthrough_initiator_socket<Interconnect> mem_side;  // bind mem_ports targets

  // `map` routes requests to memory ports (default: made from cfg.interleave over
  // cfg.mem_ports; a memory system with L2 sub-partitions passes its slice map).
  Interconnect(sc_core::sc_module_name name, const InterconnectConfig& cfg, const ClockDomain& domain,
               stats::Group& parent, std::unique_ptr<PartitionMapIF> map = nullptr);

  const InterconnectConfig& config() const { return cfg_; }
  const PartitionMapIF& partition_map() const { return *map_; }
  const ClockedProcess& process() const { return process_; }
  // Cycles a packet of `bytes` occupies an output link.
  uint32_t flits(uint32_t bytes) const { return (bytes + cfg_.channel_bytes - 1) / cfg_.channel_bytes; }
  // Cycles from a packet's head flit entering its output link to its delivery: the
  // serialization of the other flits on the crossbar, none on the fixed-latency pipe.
  uint32_t serialization_cycles(uint32_t packet_flits) const {
    return serialize_ && packet_flits > 0 ? packet_flits - 1 : 0;
  }
  uint32_t request_bytes(const tlm::tlm_generic_payload& gp) const;
  uint32_t reply_bytes(const tlm::tlm_generic_payload& gp) const;
  uint32_t reply_flits(const tlm::tlm_generic_payload& gp) const;
  std::size_t in_flight() const { return route_.size(); }

 private:
  struct Packet {
    tlm::tlm_generic_payload* gp = nullptr;
    uint32_t dst = 0;
    uint32_t flits = 1;
    uint64_t accepted = 0;
  };
  struct Pending {
    tlm::tlm_generic_payload* gp = nullptr;
    uint32_t dst = 0;
    uint64_t ready = 0;  // first cycle it may be admitted (the edge after its arrival)
  };
  static constexpr uint64_t kBlocked = ~uint64_t{0};
  // One direction (request or reply) of the network.
  struct Network {
    std::vector<InputBuffer<Packet>> inputs;
    std::vector<Pending> pending;            // per input: arrived while its buffer was full
    std::vector<uint64_t> moved_cycle;       // per input: last cycle its head left (one per cycle)
    std::vector<CycleQueue<Packet>> outputs;
    std::vector<uint32_t> rr;                // per output: round-robin grant pointer
    std::vector<uint64_t> link_free;         // per output: first cycle the link is free
    std::vector<uint64_t> head_sent;         // per output: cycle the queue head's first flit left (kBlocked: not yet)
    std::vector<uint64_t> unblocked;         // per output: cycle from which the target takes a new packet
    std::vector<const tlm::tlm_generic_payload*> awaiting;  // per output: packet whose END_* is awaited
    std::vector<uint32_t> wanted;            // per output: ready input heads this cycle (scratch)
  };

  void end_of_elaboration() override;
  void init_network(Network& n, uint32_t inputs, uint32_t outputs);
  tlm::tlm_sync_enum sm_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& t);
  tlm::tlm_sync_enum mem_bw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& t);
  void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& t);
  unsigned int transport_dbg(int port, tlm::tlm_generic_payload& gp);

  bool tick(uint64_t cycle);
  bool drive_outputs(Network& n, bool request, uint64_t cycle);
  bool switch_packets(Network& n, uint64_t cycle);
  bool admit_pending(Network& n, bool request, uint64_t cycle);
  uint64_t next_work_cycle(Network& n, uint64_t cycle);
  void send_request(uint32_t port, const Packet& p, uint64_t cycle);
  void send_reply(uint32_t port, const Packet& p, uint64_t cycle);
  [[noreturn]] void fail(const std::string& what) const;

  InterconnectConfig cfg_;
  bool serialize_ = true;  // crossbar: delivered with the last flit; fixed_latency: whole after `latency`
  const ClockDomain& domain_;
  std::unique_ptr<PartitionMapIF> map_;
  RouteTable route_;
  Network req_, rsp_;

  stats::Group stats_;
  stats::Counter requests_, replies_, request_flits_, reply_flits_, request_input_full_, reply_input_full_;
  stats::Average request_latency_, reply_latency_;
  ClockedProcess process_;
};

}  // namespace gputlm
