#include "cache_tb.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::mem::tb {

// ---------------------------------------------------------------------------- driver

CacheDriver::CacheDriver(sc_core::sc_module_name name, const ClockDomain& domain, uint32_t line_size, uint64_t seed,
                         uint32_t end_resp_delay_max, uint32_t end_resp_percent)
    : sc_core::sc_module(name),
      out("out"),
      domain_(domain),
      pool_(line_size, std::string(name) + ".pool"),
      rng_{seed * 0x9E3779B97F4A7C15ull + 1},
      end_resp_max_(end_resp_delay_max),
      end_resp_percent_(end_resp_percent) {
  out.bind(*this);
  SC_HAS_PROCESS(CacheDriver);
  SC_METHOD(send_end_resp);
  sensitive << end_resp_event_;
  dont_initialize();
}

std::size_t CacheDriver::index_of(const tlm::tlm_generic_payload& gp) const {
  for (const auto& [p, i] : live_)
    if (p == &gp) return i;
  throw std::logic_error("CacheDriver: response for an unknown payload");
}

void CacheDriver::finish(tlm::tlm_generic_payload& gp, std::size_t index) {
  live_.erase(std::find_if(live_.begin(), live_.end(), [&](const auto& e) { return e.first == &gp; }));
  --in_flight_;
  records_[index].finished = domain_.now();
  gp.release();
  if (on_finished) on_finished(index);
}

std::size_t CacheDriver::send(uint64_t address, AccessKind kind, int32_t warp, uint32_t bytes, bool again) {
  if (waiting_end_req_) throw std::logic_error("CacheDriver::send while waiting for END_REQ");
  tlm::tlm_generic_payload* gp = pool_.allocate();
  gp->acquire();
  const bool write = kind == AccessKind::Store || kind == AccessKind::Atomic;
  gp->set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp->set_address(address);
  gp->set_data_length(bytes);
  gp->set_streaming_width(bytes);
  MemExtension& ext = mem_ext(*gp);
  ext.kind = kind;
  ext.warp = warp;
  ext.sm = 0;
  ext.issue_cycle = domain_.now();
  DriverRecord rec;
  rec.address = address;
  rec.bytes = bytes;
  rec.kind = kind;
  rec.warp = warp;
  rec.sent = domain_.now();
  const std::size_t index = records_.size();
  records_.push_back(rec);
  live_.emplace_back(gp, index);
  ++in_flight_;
  if (again && retry_) {
    const RetryResult res = retry_->retry(*gp, AccessKey{address, bytes, kind, 0, warp});
    if (res.outcome == RetryResult::Outcome::Refused) {
      ++retries_decided_;
      records_[index].ret = tlm::TLM_COMPLETED;
      records_[index].status = res.status;
      records_[index].cause = res.cause;
      finish(*gp, index);
      return index;
    }
    if (res.outcome == RetryResult::Outcome::Accepted) {
      ++retries_decided_;
      records_[index].ret = tlm::TLM_UPDATED;
      records_[index].accepted = true;
      return index;
    }
  }
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  waiting_end_req_ = true;
  const tlm::tlm_sync_enum r = out->nb_transport_fw(*gp, ph, t);
  records_[index].ret = r;
  if (r == tlm::TLM_COMPLETED) {
    waiting_end_req_ = false;
    records_[index].status = ext.status;
    records_[index].cause = ext.fail_cause;
    finish(*gp, index);
  } else if (r == tlm::TLM_UPDATED) {
    if (ph != tlm::END_REQ) throw std::logic_error("CacheDriver: unexpected phase returned");
    waiting_end_req_ = false;
    records_[index].accepted = true;
  }
  return index;
}

tlm::tlm_sync_enum CacheDriver::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                                sc_core::sc_time&) {
  const std::size_t index = index_of(gp);
  if (ph == tlm::END_REQ) {
    waiting_end_req_ = false;
    can_send_at_ = domain_.now() + 1;
    records_[index].accepted = true;
    return tlm::TLM_ACCEPTED;
  }
  if (ph != tlm::BEGIN_RESP) throw std::logic_error("CacheDriver: unexpected phase on the backward path");
  if (!records_[index].accepted) {  // BEGIN_RESP implies END_REQ
    waiting_end_req_ = false;
    can_send_at_ = domain_.now() + 1;
  }
  DriverRecord& rec = records_[index];
  rec.responded = true;
  rec.response = domain_.now();
  rec.status = mem_ext(gp).status;
  rec.cause = mem_ext(gp).fail_cause;
  const uint32_t delay = end_resp_max_ > 0 && rng_.below(100) < end_resp_percent_ ? 1 + rng_.below(end_resp_max_) : 0;
  if (delay == 0) {
    finish(gp, index);
    return tlm::TLM_COMPLETED;
  }
  end_resp_pending_ = &gp;
  end_resp_event_.notify(domain_.delay_until(domain_.now() + delay));
  return tlm::TLM_ACCEPTED;
}

void CacheDriver::send_end_resp() {
  tlm::tlm_generic_payload& gp = *end_resp_pending_;
  end_resp_pending_ = nullptr;
  tlm::tlm_phase ph = tlm::END_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const std::size_t index = index_of(gp);
  out->nb_transport_fw(gp, ph, t);
  finish(gp, index);
}

// ---------------------------------------------------------------------------- memory

MemoryResponder::MemoryResponder(sc_core::sc_module_name name, const ClockDomain& domain, ResponderOptions opt)
    : sc_core::sc_module(name),
      in("in"),
      domain_(domain),
      opt_(opt),
      rng_{opt.seed * 0xD1B54A32D192ED03ull + 5},
      process_("tick", domain, [this](uint64_t c) { return tick(c); }) {
  in.bind(*this);
}

tlm::tlm_sync_enum MemoryResponder::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                                    sc_core::sc_time&) {
  const uint64_t now = domain_.now();
  if (ph == tlm::END_RESP) {
    if (&gp != responding_) throw std::logic_error("MemoryResponder: END_RESP for another payload");
    responding_ = nullptr;
    gp.release();
    process_.wake();
    return tlm::TLM_COMPLETED;
  }
  if (ph != tlm::BEGIN_REQ) throw std::logic_error("MemoryResponder: unexpected phase");
  MemExtension& ext = mem_ext(gp);
  if (opt_.refuse_percent > 0 && rng_.below(100) < opt_.refuse_percent) {
    ++refusals_;
    ext.status = MemStatus::ReservationFail;
    ext.fail_cause = ReservationFail::MshrEntriesFull;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  arrivals_.push_back({now, gp.get_address(), gp.is_write(), ext.kind, ext.warp,
                       {ext.mshr_index[0], ext.mshr_index[1]}, gp.get_data_length()});
  if (on_arrival) on_arrival(gp);
  gp.acquire();
  const uint32_t span = opt_.max_latency - opt_.min_latency;
  uint64_t latency = opt_.min_latency + rng_.below(span + 1);
  uint32_t hold = 0;
  if (opt_.end_req_delay_max > 0 && rng_.below(100) < opt_.end_req_percent) hold = 1 + rng_.below(opt_.end_req_delay_max);
  if (latency <= hold) latency = hold + 1;
  const Pending p{now + latency, seq_++, &gp};
  pending_.insert(std::upper_bound(pending_.begin(), pending_.end(), p,
                                   [](const Pending& a, const Pending& b) {
                                     return a.ready != b.ready ? a.ready < b.ready : a.seq < b.seq;
                                   }),
                  p);
  process_.wake();
  if (hold == 0) {
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  end_req_pending_ = &gp;
  end_req_at_ = now + hold;
  return tlm::TLM_ACCEPTED;
}

bool MemoryResponder::tick(uint64_t cycle) {
  if (end_req_pending_ && end_req_at_ <= cycle) {
    tlm::tlm_generic_payload& gp = *end_req_pending_;
    end_req_pending_ = nullptr;
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    in->nb_transport_bw(gp, ph, t);
  }
  if (!responding_ && !pending_.empty() && pending_.front().ready <= cycle) {
    tlm::tlm_generic_payload& gp = *pending_.front().gp;
    pending_.erase(pending_.begin());
    if (end_req_pending_ == &gp) end_req_pending_ = nullptr;  // BEGIN_RESP implies END_REQ
    gp.set_response_status(opt_.address_errors ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    ++responses_;
    responding_ = &gp;
    const tlm::tlm_sync_enum r = in->nb_transport_bw(gp, ph, t);
    if (r != tlm::TLM_ACCEPTED && responding_ == &gp) {
      responding_ = nullptr;
      gp.release();
    }
  }
  uint64_t next = ~uint64_t{0};
  if (end_req_pending_) next = std::min(next, end_req_at_);
  if (!responding_ && !pending_.empty()) next = std::min(next, pending_.front().ready);
  if (next == ~uint64_t{0}) return false;
  if (next <= cycle + 1) return true;
  process_.wake_at(next);
  return false;
}

// ---------------------------------------------------------------------------- bench

CacheBench::CacheBench(sc_core::sc_module_name name, const CacheConfig& cfg, ResponderOptions mem,
                       uint64_t driver_seed, uint32_t end_resp_delay_max, uint32_t end_resp_percent,
                       bool check_upstream)
    : sc_core::sc_module(name),
      domain("core", sc_core::sc_time(1, sc_core::SC_NS)),
      root("bench"),
      cache("l1", cfg, domain, root),
      down_check("down_check"),
      driver("driver", domain, cfg.line_size, driver_seed, end_resp_delay_max, end_resp_percent),
      memory("memory", domain, mem) {
  if (check_upstream) {
    up_check = std::make_unique<ProtocolChecker>("up_check");
    driver.out.bind(up_check->in);
    up_check->out.bind(cache.upstream);
  } else {
    driver.out.bind(cache.upstream);
  }
  cache.downstream.bind(down_check.in);
  down_check.out.bind(memory.in);
}

void CacheBench::wait_cycle(uint64_t cycle) const {
  const sc_core::sc_time at = domain.time_of(cycle);
  if (at > sc_core::sc_time_stamp()) sc_core::wait(at - sc_core::sc_time_stamp());
}

uint64_t CacheBench::stat(const std::string& path) const {
  const stats::Stat* s = root.find(path);
  if (!s) throw std::logic_error("no statistic " + path);
  return static_cast<uint64_t>(s->scalar(stats::View::Epoch));
}

uint64_t CacheBench::stat_at(const std::string& path, std::size_t index) const {
  const auto* s = dynamic_cast<const stats::CounterVector*>(root.find(path));
  if (!s) throw std::logic_error("no counter vector " + path);
  return s->value(index);
}

}  // namespace gputlm::mem::tb
