// The transaction recorder: a pass-through on one socket that follows every transaction
// through the phases of the base protocol and hands it to back ends behind a small
// interface (TransactionSink): a text trace of every call (TextTransactionSink), an
// SQLite trace database (SqliteTransactionSink, DRAMSys's idea), the GPU timeline.
// A run inserts recorders only on the sockets it asks for (SocketTapIF), so a run that
// records nothing has no pass-through and pays nothing.
//
// A transaction begins with BEGIN_REQ and ends with END_RESP, or with TLM_COMPLETED
// (a refusal under the rejection convention, or a target that completes at once). A
// payload sent again after a refusal is a new transaction.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/tlm/mem_extension.h"
#include "core/tlm/pass_through.h"

namespace gputlm {

class TransactionRecorder;

// One nb_transport_* / b_transport call as it returned.
struct TlmCall {
  const char* dir = "";  // "fw", "bw", "b"
  const tlm::tlm_generic_payload* gp = nullptr;
  tlm::tlm_phase sent, returned;  // phase passed and phase after the call
  tlm::tlm_sync_enum ret = tlm::TLM_ACCEPTED;
  uint64_t time_ps = 0;
  uint64_t b_delay_ps = 0;  // b_transport: annotated delay after the call
};

// A finished transaction. Times in picoseconds of simulated time: the request phase is
// [begin_req, end_req], the response phase [begin_resp, end_resp]; a transaction
// completed on its BEGIN_REQ (refused, or completed at once) has all four equal.
struct TransactionRecord {
  uint64_t address = 0;
  uint32_t size = 0;
  bool write = false;
  bool has_extension = false;  // the MemExtension fields below are valid
  MemExtension ext;            // as at the end of the transaction (status, fail cause)
  uint64_t begin_req = 0, end_req = 0, begin_resp = 0, end_resp = 0;
  bool request_ended = false;         // END_REQ (or a response) seen
  bool response_begun = false;        // BEGIN_RESP seen
  bool completed_at_request = false;  // TLM_COMPLETED on BEGIN_REQ
  bool blocking = false;              // b_transport
  uint64_t begin() const { return begin_req; }
  uint64_t end() const { return end_resp; }
};

class TransactionSink {
 public:
  virtual ~TransactionSink() = default;
  // `r` will report to this sink; the returned number comes back with each report
  // (the sink's own index of the socket).
  virtual uint32_t attach(const TransactionRecorder& r) = 0;
  virtual void call(uint32_t /*socket*/, const TlmCall& /*c*/) {}
  virtual void finished(uint32_t /*socket*/, const TransactionRecord& /*t*/) {}
  // A transaction still in flight when the run ended (a deadlock): its phases so far.
  virtual void unfinished(uint32_t /*socket*/, const TransactionRecord& /*t*/) {}
};

// What a recorder sits on, for the back ends.
struct RecordedSocket {
  std::string kind;       // "l1d", "l2", "dram", ... (empty for an ad-hoc recorder)
  std::string initiator;  // block names
  std::string target;
  std::string clock;      // clock domain name, and its period, to express times in cycles
  uint64_t period_ps = 0;
};

class TransactionRecorder : public TlmPassThrough {
 public:
  using SocketInfo = RecordedSocket;

  explicit TransactionRecorder(sc_core::sc_module_name name, SocketInfo info = {});
  // A text trace of every call to `out` (not owned).
  TransactionRecorder(sc_core::sc_module_name name, std::ostream& out);
  // A text trace of every call to the file `path` (an error names it when it cannot be created).
  TransactionRecorder(sc_core::sc_module_name name, const std::string& path);
  ~TransactionRecorder() override;

  // Reports to `sink` (not owned; it must outlive the simulation).
  void add_sink(TransactionSink& sink);
  const SocketInfo& info() const { return info_; }
  uint64_t recorded() const { return recorded_; }     // TLM calls seen
  uint64_t transactions() const { return finished_; }  // transactions finished
  std::size_t open() const { return open_.size(); }    // begun and not finished
  // Hands every transaction still open to the sinks' unfinished(), oldest first.
  void report_unfinished();

 protected:
  void before_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent) override;
  void after_fw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent, const tlm::tlm_phase& phase,
                tlm::tlm_sync_enum ret) override;
  void before_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent) override;
  void after_bw(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent, const tlm::tlm_phase& phase,
                tlm::tlm_sync_enum ret) override;
  void before_b(tlm::tlm_generic_payload& gp) override;
  void after_b(tlm::tlm_generic_payload& gp, const sc_core::sc_time& t) override;

 private:
  // Open transactions by payload: open addressing with linear probing, so that steady
  // state allocates nothing (the table grows only when more are in flight than ever).
  class OpenTable {
   public:
    OpenTable();
    TransactionRecord* find(const void* key);
    TransactionRecord& insert(const void* key);
    void erase(const void* key);
    std::size_t size() const { return count_; }
    template <class F>
    void for_each(F f) const {
      for (const Slot& s : slots_)
        if (s.key) f(s.key, s.rec);
    }

   private:
    struct Slot {
      const void* key = nullptr;
      TransactionRecord rec;
    };
    std::size_t home(const void* key) const;
    void grow();
    std::vector<Slot> slots_;
    std::size_t count_ = 0;
  };

  uint64_t now_ps() const;
  void report_call(const char* dir, tlm::tlm_generic_payload& gp, const tlm::tlm_phase& sent,
                   const tlm::tlm_phase& phase, tlm::tlm_sync_enum ret, uint64_t b_delay_ps = 0);
  void begin(tlm::tlm_generic_payload& gp);
  void finish(tlm::tlm_generic_payload& gp, TransactionRecord& r);

  SocketInfo info_;
  uint64_t ps_per_unit_ = 1;  // SystemC time resolution in ps
  std::vector<std::pair<TransactionSink*, uint32_t>> sinks_;
  std::unique_ptr<TransactionSink> own_sink_;  // the text trace of the stream/path constructors
  OpenTable open_;
  uint64_t recorded_ = 0, finished_ = 0;
};

}  // namespace gputlm
