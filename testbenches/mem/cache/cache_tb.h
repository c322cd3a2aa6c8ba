// Cache testbench parts: a driver speaking the cache's upstream socket (random END_RESP
// withholding), a downstream memory responder (random or fixed latency, random END_REQ
// withholding, out-of-order responses), and a bench that wires them with a protocol
// checker on both sockets. Fixed seeds: every run is identical.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/clock/clocked_process.h"
#include "core/stats/stats.h"
#include "core/tlm/payload_pool.h"
#include "core/tlm/protocol_checker.h"
#include "mem/cache/cache.h"

namespace gputlm::mem::tb {

struct XorShift {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  uint32_t below(uint32_t n) { return n == 0 ? 0 : static_cast<uint32_t>(next() % n); }
};

// One request as the driver saw it.
struct DriverRecord {
  uint64_t address = 0;
  uint32_t bytes = 4;
  AccessKind kind = AccessKind::Load;
  int32_t warp = -1;
  uint64_t sent = 0;                 // cycle of BEGIN_REQ
  tlm::tlm_sync_enum ret = tlm::TLM_ACCEPTED;
  MemStatus status = MemStatus::Ok;  // immediate refusal (TLM_COMPLETED) or deferred one
  ReservationFail cause = ReservationFail::None;
  bool accepted = false;             // END_REQ seen (request will be answered)
  bool responded = false;
  uint64_t response = 0;             // cycle of BEGIN_RESP
  uint64_t finished = 0;             // cycle the request was finished (answered or refused)
};

class CacheDriver : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_initiator_socket<> out;

  // end_resp_delay_max > 0: END_RESP withheld 0..max cycles with probability p.
  CacheDriver(sc_core::sc_module_name name, const ClockDomain& domain, uint32_t line_size, uint64_t seed,
              uint32_t end_resp_delay_max = 0, uint32_t end_resp_percent = 0);

  // Sends one request now (call from a thread); returns its record index. `again`: the
  // request was refused before; with a retry interface set it is tried there first
  // (the LSU's way), and by BEGIN_REQ only if the cache does not decide it at once.
  std::size_t send(uint64_t address, AccessKind kind, int32_t warp, uint32_t bytes = 4, bool again = false);
  void set_retry(L1RetryIF* retry) { retry_ = retry; }
  uint64_t retries_decided() const { return retries_decided_; }  // retries the interface decided
  // END_REQ from another process is seen from the next cycle (order independence).
  bool can_send() const { return !waiting_end_req_ && domain_.now() >= can_send_at_; }
  const std::vector<DriverRecord>& records() const { return records_; }
  std::size_t in_flight() const { return in_flight_; }
  // Called when a request is finished: answered OK, or refused (immediately or deferred).
  std::function<void(std::size_t index)> on_finished;

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

 private:
  void send_end_resp();
  std::size_t index_of(const tlm::tlm_generic_payload& gp) const;
  void finish(tlm::tlm_generic_payload& gp, std::size_t index);

  const ClockDomain& domain_;
  PayloadPool pool_;
  XorShift rng_;
  uint32_t end_resp_max_, end_resp_percent_;
  bool waiting_end_req_ = false;
  uint64_t can_send_at_ = 0;
  tlm::tlm_generic_payload* end_resp_pending_ = nullptr;
  sc_core::sc_event end_resp_event_;
  std::vector<DriverRecord> records_;
  std::vector<std::pair<const tlm::tlm_generic_payload*, std::size_t>> live_;  // payload -> record
  std::size_t in_flight_ = 0;
  L1RetryIF* retry_ = nullptr;
  uint64_t retries_decided_ = 0;
};

struct ResponderOptions {
  uint32_t min_latency = 10, max_latency = 10;  // BEGIN_REQ cycle to BEGIN_RESP cycle
  uint32_t end_req_delay_max = 0;               // END_REQ withheld 0..max cycles
  uint32_t end_req_percent = 0;                 // ... with this probability
  uint32_t refuse_percent = 0;  // refuse (TLM_COMPLETED + ReservationFail), as an L1 would
  bool address_errors = false;  // answer with TLM_ADDRESS_ERROR_RESPONSE
  uint64_t seed = 7;
};

struct MemoryArrival {
  uint64_t cycle, address;
  bool write;
  AccessKind kind;
  int32_t warp;
  int16_t mshr_index[kMshrLevels];
  uint32_t bytes;
};

class MemoryResponder : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_target_socket<> in;

  MemoryResponder(sc_core::sc_module_name name, const ClockDomain& domain, ResponderOptions opt);

  const std::vector<MemoryArrival>& arrivals() const { return arrivals_; }
  uint64_t responses() const { return responses_; }
  uint64_t refusals() const { return refusals_; }
  std::function<void(const tlm::tlm_generic_payload&)> on_arrival;

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) override {
    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

 private:
  bool tick(uint64_t cycle);
  const ClockDomain& domain_;
  ResponderOptions opt_;
  XorShift rng_;
  tlm::tlm_generic_payload* end_req_pending_ = nullptr;
  uint64_t end_req_at_ = 0;
  struct Pending {
    uint64_t ready, seq;
    tlm::tlm_generic_payload* gp;
  };
  std::vector<Pending> pending_;  // sorted by (ready, seq)
  uint64_t seq_ = 0;
  tlm::tlm_generic_payload* responding_ = nullptr;
  std::vector<MemoryArrival> arrivals_;
  uint64_t responses_ = 0, refusals_ = 0;
  ClockedProcess process_;
};

// driver -> checker -> cache -> checker -> memory
struct CacheBench : sc_core::sc_module {
  ClockDomain domain;
  stats::Group root;
  Cache cache;
  std::unique_ptr<ProtocolChecker> up_check;  // null without check_upstream
  ProtocolChecker down_check;
  CacheDriver driver;
  MemoryResponder memory;

  // check_upstream false: the driver is bound to the cache directly (a retry through
  // L1RetryIF bypasses the socket, so a checker there would miss its BEGIN_REQ).
  CacheBench(sc_core::sc_module_name name, const CacheConfig& cfg, ResponderOptions mem = {},
             uint64_t driver_seed = 3, uint32_t end_resp_delay_max = 0, uint32_t end_resp_percent = 0,
             bool check_upstream = true);

  uint64_t now() const { return domain.now(); }
  // Waits until edge `cycle` (from a thread).
  void wait_cycle(uint64_t cycle) const;
  uint64_t stat(const std::string& path) const;
  uint64_t stat_at(const std::string& path, std::size_t index) const;
};

}  // namespace gputlm::mem::tb
