// The SQLite back end of the transaction recorder: a trace database, after DRAMSys's
// (transactions and their phases, queried with SQL instead of parsed).
//
//   info(key, value)                       run facts: time unit, platform, ...
//   sockets(id, name, kind, initiator, target, clock, period_ps)
//   transactions(id, socket, ext_id, command, kind, space, address, size, sm, warp, cta,
//                pc, status, fail_cause, begin_ps, end_ps, latency_ps,
//                begin_cycle, end_cycle, latency_cycles, req_end_ps, resp_begin_ps)
//   phases (view): (transaction_id, phase, begin_ps, end_ps), phase 'REQ' =
//                  [begin_ps, req_end_ps], 'RESP' = [resp_begin_ps, end_ps]
//   transactions_view: transactions joined with their socket (socket_name, socket_kind,
//                      initiator, target)
// An index (made when the database is closed): transactions(socket, begin_ps).
//
// Times are picoseconds of simulated time; cycles are of the socket's clock domain
// (floor(ps / period_ps)). A refused request (rejection convention) has status
// 'reservation_fail' or 'nack' and no RESP phase. A transaction still in flight when the
// run ended (unfinished(): a deadlock) has status 'in_flight', no end, and its phases so far
// (a phase not yet ended has no end_ps). One row per transaction (the phases are columns,
// a view gives them as rows), inserted through a prepared statement in large SQL
// transactions; a failed write is an error naming the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tlm/transaction_recorder.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gputlm {

class SqliteTransactionSink : public TransactionSink {
 public:
  // Creates `path`, replacing an existing file; throws std::runtime_error naming the path
  // and SQLite's reason when it cannot.
  explicit SqliteTransactionSink(const std::string& path);
  ~SqliteTransactionSink() override;
  SqliteTransactionSink(const SqliteTransactionSink&) = delete;
  SqliteTransactionSink& operator=(const SqliteTransactionSink&) = delete;

  void set_info(const std::string& key, const std::string& value);
  uint32_t attach(const TransactionRecorder& r) override;
  void finished(uint32_t socket, const TransactionRecord& t) override;
  void unfinished(uint32_t socket, const TransactionRecord& t) override;
  // Commits everything and closes the database (throws on a write error). Also done,
  // without throwing, by the destructor.
  void close();
  uint64_t transactions() const { return rows_; }
  const std::string& path() const { return path_; }

 private:
  void exec(const char* sql);
  [[noreturn]] void fail(const std::string& what) const;
  sqlite3_stmt* prepare(const char* sql);
  void step(sqlite3_stmt* s);
  void insert(uint32_t socket, const TransactionRecord& t, bool done);

  std::string path_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt *insert_socket_ = nullptr, *insert_transaction_ = nullptr, *insert_info_ = nullptr;
  std::vector<uint64_t> period_ps_;  // by socket
  uint64_t rows_ = 0;
  uint64_t rows_in_batch_ = 0;
};

}  // namespace gputlm
