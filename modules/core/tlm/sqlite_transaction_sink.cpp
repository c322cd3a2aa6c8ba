#include "core/tlm/sqlite_transaction_sink.h"

#include <sqlite3.h>

#include <cstdio>
#include <stdexcept>

namespace gputlm {

namespace {

constexpr uint64_t kRowsPerCommit = 50000;

const char* const kSchema = R"sql(
CREATE TABLE info(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE sockets(id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT, initiator TEXT, target TEXT,
                     clock TEXT, period_ps INTEGER);
CREATE TABLE transactions(id INTEGER PRIMARY KEY, socket INTEGER NOT NULL REFERENCES sockets(id), ext_id INTEGER,
                          command TEXT, kind TEXT, space TEXT, address INTEGER, size INTEGER, sm INTEGER,
                          warp INTEGER, cta INTEGER, pc INTEGER, status TEXT, fail_cause TEXT,
                          begin_ps INTEGER, end_ps INTEGER, latency_ps INTEGER,
                          begin_cycle INTEGER, end_cycle INTEGER, latency_cycles INTEGER,
                          req_end_ps INTEGER, resp_begin_ps INTEGER);
CREATE VIEW phases AS
  SELECT id AS transaction_id, 'REQ' AS phase, begin_ps, req_end_ps AS end_ps FROM transactions
  UNION ALL
  SELECT id AS transaction_id, 'RESP' AS phase, resp_begin_ps AS begin_ps, end_ps FROM transactions
    WHERE resp_begin_ps IS NOT NULL;
CREATE VIEW transactions_view AS
  SELECT t.*, s.name AS socket_name, s.kind AS socket_kind, s.initiator AS initiator, s.target AS target
  FROM transactions t JOIN sockets s ON s.id = t.socket;
)sql";

const char* status_name(MemStatus s) {
  switch (s) {
    case MemStatus::Ok: return "ok";
    case MemStatus::ReservationFail: return "reservation_fail";
    case MemStatus::Nack: return "nack";
  }
  return "?";
}

}  // namespace

SqliteTransactionSink::SqliteTransactionSink(const std::string& path) : path_(path) {
  std::remove(path.c_str());  // a new database, not rows appended to an old one
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("transaction database '" + path + "': cannot create it (" + why + ")");
  }
  // The file is written once and read afterwards: no journal, no syncs.
  exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
  exec(kSchema);
  insert_info_ = prepare("INSERT OR REPLACE INTO info(key, value) VALUES(?, ?)");
  insert_socket_ =
      prepare("INSERT INTO sockets(id, name, kind, initiator, target, clock, period_ps) VALUES(?, ?, ?, ?, ?, ?, ?)");
  insert_transaction_ = prepare(
      "INSERT INTO transactions(id, socket, ext_id, command, kind, space, address, size, sm, warp, cta, pc, status, "
      "fail_cause, begin_ps, end_ps, latency_ps, begin_cycle, end_cycle, latency_cycles, req_end_ps, resp_begin_ps) "
      "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  set_info("time_unit", "ps");
  exec("BEGIN");
}

SqliteTransactionSink::~SqliteTransactionSink() {
  try {
    close();
  } catch (const std::exception&) {
    // close() reports failures to callers that ask; a destructor must not throw.
  }
}

[[noreturn]] void SqliteTransactionSink::fail(const std::string& what) const {
  throw std::runtime_error("transaction database '" + path_ + "': " + what + " (" +
                           (db_ ? sqlite3_errmsg(db_) : "closed") + ")");
}

void SqliteTransactionSink::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string why = err ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error("transaction database '" + path_ + "': cannot write (" + why + ")");
  }
}

sqlite3_stmt* SqliteTransactionSink::prepare(const char* sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK) fail("cannot prepare a statement");
  return s;
}

void SqliteTransactionSink::step(sqlite3_stmt* s) {
  if (sqlite3_step(s) != SQLITE_DONE) fail("cannot write");
  sqlite3_reset(s);
}

void SqliteTransactionSink::set_info(const std::string& key, const std::string& value) {
  sqlite3_bind_text(insert_info_, 1, key.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(insert_info_, 2, value.c_str(), -1, SQLITE_TRANSIENT);
  step(insert_info_);
}

uint32_t SqliteTransactionSink::attach(const TransactionRecorder& r) {
  const TransactionRecorder::SocketInfo& i = r.info();
  period_ps_.push_back(i.period_ps);
  const auto id = static_cast<uint32_t>(period_ps_.size());
  sqlite3_stmt* s = insert_socket_;
  sqlite3_bind_int64(s, 1, id);
  sqlite3_bind_text(s, 2, r.name(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 3, i.kind.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 4, i.initiator.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 5, i.target.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 6, i.clock.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, 7, static_cast<sqlite3_int64>(i.period_ps));
  step(s);
  return id;
}

void SqliteTransactionSink::finished(uint32_t socket, const TransactionRecord& t) { insert(socket, t, true); }

void SqliteTransactionSink::unfinished(uint32_t socket, const TransactionRecord& t) { insert(socket, t, false); }

void SqliteTransactionSink::insert(uint32_t socket, const TransactionRecord& t, bool done) {
  if (db_ == nullptr) return;
  const auto id = static_cast<sqlite3_int64>(++rows_);
  const auto i64 = [](uint64_t v) { return static_cast<sqlite3_int64>(v); };
  sqlite3_stmt* s = insert_transaction_;
  sqlite3_bind_int64(s, 1, id);
  sqlite3_bind_int64(s, 2, socket);
  sqlite3_bind_text(s, 4, t.write ? "write" : "read", -1, SQLITE_STATIC);
  sqlite3_bind_int64(s, 7, i64(t.address));
  sqlite3_bind_int64(s, 8, t.size);
  const MemStatus status = t.has_extension ? t.ext.status : MemStatus::Ok;
  const bool refused = t.completed_at_request && status != MemStatus::Ok;
  if (t.has_extension) {
    const MemExtension& e = t.ext;
    sqlite3_bind_int64(s, 3, i64(e.id));
    sqlite3_bind_text(s, 5, to_string(e.kind), -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 6, to_string(e.space), -1, SQLITE_STATIC);
    sqlite3_bind_int64(s, 9, e.sm);
    sqlite3_bind_int64(s, 10, e.warp);
    sqlite3_bind_int64(s, 11, e.cta);
    sqlite3_bind_int64(s, 12, i64(e.pc));
    if (e.fail_cause != ReservationFail::None) sqlite3_bind_text(s, 14, to_string(e.fail_cause), -1, SQLITE_STATIC);
    else sqlite3_bind_null(s, 14);
  } else {
    for (int c : {3, 5, 6, 9, 10, 11, 12, 14}) sqlite3_bind_null(s, c);
  }
  sqlite3_bind_text(s, 13, done ? status_name(status) : "in_flight", -1, SQLITE_STATIC);
  // Times and cycles: an unfinished transaction has a begin only.
  const uint64_t period = period_ps_.at(socket - 1);
  auto bind_or_null = [&](int column, bool valid, uint64_t v) {
    if (valid) sqlite3_bind_int64(s, column, i64(v));
    else sqlite3_bind_null(s, column);
  };
  bind_or_null(15, true, t.begin());
  bind_or_null(16, done, t.end());
  bind_or_null(17, done, t.end() - t.begin());
  bind_or_null(18, period > 0, period ? t.begin() / period : 0);
  bind_or_null(19, done && period > 0, period ? t.end() / period : 0);
  bind_or_null(20, done && period > 0, period ? t.end() / period - t.begin() / period : 0);
  // The phases: REQ [begin_ps, req_end_ps], RESP [resp_begin_ps, end_ps]; a refusal has
  // no RESP, an unfinished transaction the phases it began (ends unknown).
  bind_or_null(21, done || t.request_ended, t.end_req);
  bind_or_null(22, done ? !refused : t.response_begun, t.begin_resp);
  step(s);
  if (++rows_in_batch_ >= kRowsPerCommit) {
    exec("COMMIT; BEGIN");
    rows_in_batch_ = 0;
  }
}

void SqliteTransactionSink::close() {
  if (db_ == nullptr) return;
  for (sqlite3_stmt* s : {insert_info_, insert_socket_, insert_transaction_}) sqlite3_finalize(s);
  insert_info_ = insert_socket_ = insert_transaction_ = nullptr;
  sqlite3* db = db_;
  std::string error;
  char* err = nullptr;
  // An index after the bulk inserts (cheaper than maintaining it row by row): the
  // transactions of a socket in time order.
  const char* finish =
      "CREATE INDEX transactions_socket ON transactions(socket, begin_ps);"
      "COMMIT";
  if (sqlite3_exec(db, finish, nullptr, nullptr, &err) != SQLITE_OK) {
    error = err ? err : "unknown error";
    sqlite3_free(err);
  }
  db_ = nullptr;
  if (sqlite3_close(db) != SQLITE_OK && error.empty()) error = "cannot close";
  if (!error.empty()) throw std::runtime_error("transaction database '" + path_ + "': cannot write (" + error + ")");
}

}  // namespace gputlm
