// The transaction recorder and its back ends: every transaction through the base
// protocol's phases into an SQLite database (refusals under the rejection convention
// included), the text trace of the same calls, the open-transaction table growing past
// its first size, errors naming an unwritable database.
#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

#include "core/clock/clock_domain.h"
#include "core/stats/stats.h"
#include "core/tlm/sqlite_transaction_sink.h"
#include "core/tlm/text_transaction_sink.h"
#include "core/tlm/transaction_recorder.h"
#include "core/traffic/simple_memory.h"
#include "core/traffic/traffic_generator.h"

using namespace gputlm;

namespace {

// A target that refuses every third request (reservation fail, the rejection
// convention) and completes the others at once.
struct RefusingTarget : sc_core::sc_module, tlm::tlm_fw_transport_if<> {
  tlm::tlm_target_socket<> in{"in"};
  uint64_t seen = 0, refused = 0;
  explicit RefusingTarget(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.bind(*this); }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase&, sc_core::sc_time&) override {
    MemExtension& e = mem_ext(gp);
    if (++seen % 3 == 0) {
      ++refused;
      e.status = MemStatus::ReservationFail;
      e.fail_cause = ReservationFail::MshrEntriesFull;
    }
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  void b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) override {}
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
};

class Db {
 public:
  explicit Db(const std::string& path) { REQUIRE(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK); }
  ~Db() { sqlite3_close(db_); }
  int64_t number(const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    INFO(sql);
    REQUIRE(sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    const int64_t v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
  }

 private:
  sqlite3* db_ = nullptr;
};

// Outside the source tree, one per test process: a failing test leaves nothing behind there.
std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("gputlm_" + std::to_string(::getpid()) + "_" + name)).string();
}

TransactionRecorder::SocketInfo socket_info(const ClockDomain& clk) {
  TransactionRecorder::SocketInfo i;
  i.kind = "mem";
  i.initiator = "gen";
  i.target = "mem";
  i.clock = clk.name();
  i.period_ps = 1000;
  return i;
}

}  // namespace

TEST_CASE("transaction_recorder sqlite back end records every transaction with its phases", "[tlm][observe]") {
  const std::string path = temp_path("recorder_test.db");
  stats::Group root("top");
  ClockDomain clk = ClockDomain::from_mhz("clk", 1000.0);
  TrafficGeneratorConfig g;
  g.requests = 500;
  g.max_outstanding = 200;  // more in flight than the open table's first 64 slots hold
  g.write_fraction = 0.3;
  g.pattern = "random";
  SimpleMemoryConfig m;
  m.latency = 300;
  m.queue_size = 256;
  std::ostringstream text;
  int64_t writes = 0;
  {
    SqliteTransactionSink db(path);
    TextTransactionSink trace(text);
    TrafficGenerator gen("gen", g, clk, root);
    TransactionRecorder rec("rec", socket_info(clk));
    rec.add_sink(db);
    rec.add_sink(trace);
    SimpleMemory mem("mem", m, clk, root);
    gen.out.bind(rec.in);
    rec.out.bind(mem.in);
    sc_core::sc_start();
    REQUIRE(gen.done());
    CHECK(rec.open() == 0);
    CHECK(rec.transactions() == 500);
    CHECK(rec.recorded() == 500 * 4);  // BEGIN_REQ, END_REQ, BEGIN_RESP, END_RESP
    writes = static_cast<int64_t>(root.find("gen.writes")->scalar(stats::View::Total));
    CHECK(writes > 50);
    db.close();
  }
  Db db(path);
  CHECK(db.number("SELECT COUNT(*) FROM transactions") == 500);
  CHECK(db.number("SELECT COUNT(*) FROM transactions WHERE command = 'write'") == writes);
  CHECK(db.number("SELECT COUNT(DISTINCT ext_id) FROM transactions") == 500);
  // Every request has a response; phases in order; latency = end - begin.
  CHECK(db.number("SELECT COUNT(*) FROM phases WHERE phase = 'REQ'") == 500);
  CHECK(db.number("SELECT COUNT(*) FROM phases WHERE phase = 'RESP'") == 500);
  CHECK(db.number("SELECT COUNT(*) FROM transactions WHERE end_ps < begin_ps OR latency_ps != end_ps - begin_ps") == 0);
  CHECK(db.number("SELECT COUNT(*) FROM transactions t JOIN phases q ON q.transaction_id = t.id AND q.phase = 'REQ' "
                  "JOIN phases r ON r.transaction_id = t.id AND r.phase = 'RESP' "
                  "WHERE q.begin_ps != t.begin_ps OR r.end_ps != t.end_ps OR q.end_ps > r.begin_ps "
                  "OR r.begin_ps > r.end_ps") == 0);
  // Each request reaches the memory at the next edge and is answered `latency` cycles
  // later (demo platform: latency + 2 cycles in all); never faster.
  CHECK(db.number("SELECT MIN(latency_cycles) FROM transactions") == 300 + 2);
  CHECK(db.number("SELECT MIN(latency_ps) FROM transactions") == (300 + 2) * 1000);
  CHECK(db.number("SELECT COUNT(*) FROM transactions WHERE latency_cycles != end_cycle - begin_cycle") == 0);
  CHECK(db.number("SELECT COUNT(*) FROM transactions_view WHERE socket_name = 'rec' AND initiator = 'gen' AND "
                  "target = 'mem' AND socket_kind = 'mem'") == 500);
  CHECK(db.number("SELECT COUNT(*) FROM info WHERE key = 'time_unit' AND value = 'ps'") == 1);
  // The text back end saw the same calls: one BEGIN_REQ line per transaction.
  std::istringstream lines(text.str());
  std::string line;
  int begin_req = 0, all = 0;
  while (std::getline(lines, line)) {
    ++all;
    begin_req += line.find(" fw BEGIN_REQ->") != std::string::npos;
  }
  CHECK(begin_req == 500);
  CHECK(all == 500 * 4);
  std::remove(path.c_str());
}

TEST_CASE("transaction_recorder records refusals as transactions without a response", "[tlm][observe]") {
  const std::string path = temp_path("recorder_refusal.db");
  stats::Group root("top");
  ClockDomain clk = ClockDomain::from_mhz("clk", 1000.0);
  TrafficGeneratorConfig g;
  g.requests = 60;
  {
    SqliteTransactionSink db(path);
    TrafficGenerator gen("gen", g, clk, root);
    TransactionRecorder rec("rec", socket_info(clk));
    rec.add_sink(db);
    RefusingTarget target("target");
    gen.out.bind(rec.in);
    rec.out.bind(target.in);
    sc_core::sc_start();
    REQUIRE(gen.done());
    CHECK(rec.open() == 0);
    CHECK(rec.transactions() == target.seen);
    CHECK(target.refused > 0);
    db.close();
    Db q(path);
    CHECK(q.number("SELECT COUNT(*) FROM transactions") == static_cast<int64_t>(target.seen));
    CHECK(q.number("SELECT COUNT(*) FROM transactions WHERE status = 'reservation_fail' AND "
                   "fail_cause = 'mshr_entries_full'") == static_cast<int64_t>(target.refused));
    CHECK(q.number("SELECT COUNT(*) FROM transactions WHERE status = 'ok'") == 60);
    // A refusal has no response phase; a completion at once has one of length 0.
    CHECK(q.number("SELECT COUNT(*) FROM phases WHERE phase = 'RESP'") == 60);
    CHECK(q.number("SELECT COUNT(*) FROM transactions WHERE latency_ps != 0") == 0);
  }
  std::remove(path.c_str());
}

TEST_CASE("transaction_recorder sqlite back end names a database it cannot create", "[tlm][observe]") {
  CHECK_THROWS_WITH(SqliteTransactionSink("/nonexistent-dir/trace.db"),
                    Catch::Contains("transaction database '/nonexistent-dir/trace.db'") &&
                        Catch::Contains("cannot create"));
}

TEST_CASE("transaction_recorder text back end keeps its one-line-per-call format", "[tlm][observe]") {
  stats::Group root("top");
  ClockDomain clk = ClockDomain::from_mhz("clk", 1000.0);
  TrafficGeneratorConfig g;
  g.requests = 3;
  g.max_outstanding = 1;
  SimpleMemoryConfig m;
  m.latency = 10;
  std::ostringstream text;
  TrafficGenerator gen("gen", g, clk, root);
  TransactionRecorder rec("rec", text);
  SimpleMemory mem("mem", m, clk, root);
  gen.out.bind(rec.in);
  rec.out.bind(mem.in);
  sc_core::sc_start();
  std::istringstream lines(text.str());
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  CHECK(first == "0 rec fw BEGIN_REQ->ACCEPTED read 0x0 len 128 id 1 sm -1 warp -1 global load");
  CHECK(second == "1000 rec bw END_REQ->ACCEPTED read 0x0 len 128 id 1 sm -1 warp -1 global load");
  CHECK(rec.recorded() == 3 * 4);
  CHECK(rec.transactions() == 3);
}
