#include "core/tlm/transaction_recorder.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "core/tlm/text_transaction_sink.h"

namespace gputlm {

// ------------------------------------------------------------------ open transactions

TransactionRecorder::OpenTable::OpenTable() : slots_(64) {}

std::size_t TransactionRecorder::OpenTable::home(const void* key) const {
  // Fibonacci hashing of the pointer; payloads are at least 8-byte aligned.
  const uint64_t h = (reinterpret_cast<uintptr_t>(key) >> 3) * 0x9e3779b97f4a7c15ull;
  return static_cast<std::size_t>(h >> 32) & (slots_.size() - 1);
}

TransactionRecord* TransactionRecorder::OpenTable::find(const void* key) {
  for (std::size_t i = home(key);; i = (i + 1) & (slots_.size() - 1)) {
    if (slots_[i].key == key) return &slots_[i].rec;
    if (slots_[i].key == nullptr) return nullptr;
  }
}

TransactionRecord& TransactionRecorder::OpenTable::insert(const void* key) {
  if (TransactionRecord* r = find(key)) return *r = TransactionRecord{};  // never finished: forget it
  if (2 * (count_ + 1) > slots_.size()) grow();
  std::size_t i = home(key);
  while (slots_[i].key != nullptr) i = (i + 1) & (slots_.size() - 1);
  slots_[i].key = key;
  slots_[i].rec = TransactionRecord{};
  ++count_;
  return slots_[i].rec;
}

void TransactionRecorder::OpenTable::erase(const void* key) {
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = home(key);
  while (slots_[i].key != key) {
    if (slots_[i].key == nullptr) return;
    i = (i + 1) & mask;
  }
  // Backward-shift deletion: move later entries of the probe run into the hole, so that
  // lookups never need tombstones.
  for (std::size_t j = (i + 1) & mask; slots_[j].key != nullptr; j = (j + 1) & mask) {
    const std::size_t h = home(slots_[j].key);
    const bool movable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
    if (movable) {
      slots_[i] = slots_[j];
      i = j;
    }
  }
  slots_[i].key = nullptr;
  --count_;
}

void TransactionRecorder::OpenTable::grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  count_ = 0;
  for (const Slot& s : old)
    if (s.key) {
      std::size_t i = home(s.key);
      while (slots_[i].key != nullptr) i = (i + 1) & (slots_.size() - 1);
      slots_[i] = s;
      ++count_;
    }
}

// ------------------------------------------------------------------ recorder

TransactionRecorder::TransactionRecorder(sc_core::sc_module_name name, SocketInfo info)
    : TlmPassThrough(name), info_(std::move(info)) {
  const double ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
  ps_per_unit_ = ps >= 1 ? static_cast<uint64_t>(ps + 0.5) : 1;
}

TransactionRecorder::TransactionRecorder(sc_core::sc_module_name name, std::ostream& out)
    : TransactionRecorder(name, SocketInfo{}) {
  own_sink_ = std::make_unique<TextTransactionSink>(out);
  add_sink(*own_sink_);
}

TransactionRecorder::TransactionRecorder(sc_core::sc_module_name name, const std::string& path)
    : TransactionRecorder(name, SocketInfo{}) {
  own_sink_ = std::make_unique<TextTransactionSink>(path);
  add_sink(*own_sink_);
}

TransactionRecorder::~TransactionRecorder() = default;

void TransactionRecorder::add_sink(TransactionSink& sink) { sinks_.emplace_back(&sink, sink.attach(*this)); }

uint64_t TransactionRecorder::now_ps() const { return sc_core::sc_time_stamp().value() * ps_per_unit_; }

void TransactionRecorder::report_call(const char* dir, tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent,
                                      const tlm::tlm_phase& phase, tlm::tlm_sync_enum ret, uint64_t b_delay_ps) {
  ++recorded_;
  TlmCall c;
  c.dir = dir;
  c.gp = &gp;
  c.sent = sent;
  c.returned = phase;
  c.ret = ret;
  c.time_ps = now_ps();
  c.b_delay_ps = b_delay_ps;
  for (auto& [sink, id] : sinks_) sink->call(id, c);
}

void TransactionRecorder::begin(tlm::tlm_generic_payload& gp) {
  TransactionRecord& r = open_.insert(&gp);
  r.address = gp.get_address();
  r.size = gp.get_data_length();
  r.write = gp.is_write();
  r.begin_req = now_ps();
}

void TransactionRecorder::finish(tlm::tlm_generic_payload& gp, TransactionRecord& r) {
  if (const auto* e = gp.get_extension<MemExtension>()) {
    r.has_extension = true;
    r.ext = *e;
  }
  ++finished_;
  for (auto& [sink, id] : sinks_) sink->finished(id, r);
  open_.erase(&gp);
}

void TransactionRecorder::report_unfinished() {
  std::vector<TransactionRecord> open;
  open_.for_each([&](const void* key, const TransactionRecord& r) {
    open.push_back(r);
    const auto* gp = static_cast<const tlm::tlm_generic_payload*>(key);
    if (const auto* e = gp->get_extension<MemExtension>()) {
      open.back().has_extension = true;
      open.back().ext = *e;
    }
  });
  // The table's order follows payload addresses: sort for a deterministic report.
  std::sort(open.begin(), open.end(), [](const TransactionRecord& a, const TransactionRecord& b) {
    return a.begin_req != b.begin_req ? a.begin_req < b.begin_req : a.ext.id < b.ext.id;
  });
  for (const TransactionRecord& r : open)
    for (auto& [sink, id] : sinks_) sink->unfinished(id, r);
}

// A response may be answered inside the call that carried it (END_RESP inside
// BEGIN_RESP): the inner call finishes the transaction and the outer one finds nothing.
void TransactionRecorder::before_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent) {
  if (sent == tlm::BEGIN_REQ) {
    begin(gp);
  } else if (sent == tlm::END_RESP) {
    if (TransactionRecord* r = open_.find(&gp)) {
      r->end_resp = now_ps();
      finish(gp, *r);
    }
  }
}

void TransactionRecorder::after_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent,
                                   const tlm::tlm_phase& phase, tlm::tlm_sync_enum ret) {
  report_call("fw", gp, sent, phase, ret);
  if (sent != tlm::BEGIN_REQ || ret == tlm::TLM_ACCEPTED) return;
  TransactionRecord* r = open_.find(&gp);
  if (r == nullptr) return;
  const uint64_t t = now_ps();
  if (ret == tlm::TLM_COMPLETED) {
    r->end_req = r->begin_resp = r->end_resp = t;
    r->request_ended = r->response_begun = r->completed_at_request = true;
    finish(gp, *r);
  } else if (phase == tlm::END_REQ) {
    r->end_req = t;
    r->request_ended = true;
  } else if (phase == tlm::BEGIN_RESP) {
    r->end_req = r->begin_resp = t;
    r->request_ended = r->response_begun = true;
  }
}

void TransactionRecorder::before_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent) {
  TransactionRecord* r = open_.find(&gp);
  if (r == nullptr) return;
  if (sent == tlm::END_REQ) {
    r->end_req = now_ps();
    r->request_ended = true;
  } else if (sent == tlm::BEGIN_RESP) {
    // BEGIN_RESP without END_REQ ends the request phase too.
    if (!r->request_ended) r->end_req = now_ps();
    r->request_ended = r->response_begun = true;
    r->begin_resp = now_ps();
  }
}

void TransactionRecorder::after_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent,
                                   const tlm::tlm_phase& phase, tlm::tlm_sync_enum ret) {
  report_call("bw", gp, sent, phase, ret);
  if (sent != tlm::BEGIN_RESP) return;
  if (ret == tlm::TLM_COMPLETED || (ret == tlm::TLM_UPDATED && phase == tlm::END_RESP))
    if (TransactionRecord* r = open_.find(&gp)) {
      r->end_resp = now_ps();
      finish(gp, *r);
    }
}

void TransactionRecorder::before_b(tlm::tlm_generic_payload& gp) { begin(gp); }

void TransactionRecorder::after_b(tlm::tlm_generic_payload& gp, const sc_core::sc_time& t) {
  const uint64_t delay = t.value() * ps_per_unit_;
  report_call("b", gp, tlm::UNINITIALIZED_PHASE, tlm::UNINITIALIZED_PHASE, tlm::TLM_COMPLETED, delay);
  if (TransactionRecord* r = open_.find(&gp)) {
    r->blocking = r->request_ended = r->response_begun = true;
    r->end_req = r->begin_resp = r->end_resp = r->begin_req + delay;
    finish(gp, *r);
  }
}

}  // namespace gputlm
