// Observing a timing run from the command line (docs/observability.md): the timeline
// loads as a trace-event file and shows every issue, CTA, kernel and transaction; its
// window keeps exactly the window's events; the transaction database agrees with the
// statistics; the time series describes each interval and adds up to the totals; none
// of it changes the statistics; bad options are errors naming the cause.
#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "../support/trace_event_check.h"
#include "cli_run.h"
#include "stream_spec.h"

namespace {

namespace fs = std::filesystem;
using gputlm::test::CliResult;
using gputlm::test::read_json;
using gputlm::test::run_cli;
using gputlm::test::spec;

const std::string kFermi = " --config configs/fermi_gtx480.json --quiet";

// A file in the test directory, unique per test process.
std::string tmp(const std::string& name) {
  return std::string(GPUTLM_GPU_TEST_TMP) + "/" + std::to_string(::getpid()) + "_" + name;
}

void run_ok(const std::string& args) {
  const CliResult r = run_cli(args);
  INFO(args << "\n" << r.output);
  REQUIRE(r.exit_code == 0);
}

// Sum of a statistic over the groups whose name starts with `prefix` ("sm", "l2p").
uint64_t sum(const nlohmann::json& total, const std::string& prefix, const std::string& path) {
  uint64_t s = 0;
  for (auto it = total.begin(); it != total.end(); ++it) {
    if (it.key().rfind(prefix, 0) != 0 || !it->is_object()) continue;
    const nlohmann::json* v = &*it;
    std::size_t from = 0;
    while (from <= path.size()) {
      const std::size_t dot = path.find('.', from);
      v = &(*v)[path.substr(from, dot == std::string::npos ? std::string::npos : dot - from)];
      if (dot == std::string::npos) break;
      from = dot + 1;
    }
    if (v->is_number()) s += v->get<uint64_t>();
    else for (const auto& x : *v) s += x.get<uint64_t>();  // a counter vector: all its labels
  }
  return s;
}

// A statistic of every L2 bank: l2p<c>.sub<k>.bank.<stat>.
uint64_t l2_banks(const nlohmann::json& total, const std::string& stat) {
  uint64_t s = 0;
  for (auto p = total.begin(); p != total.end(); ++p) {
    if (p.key().rfind("l2p", 0) != 0 || !p->is_object()) continue;
    for (auto k = p->begin(); k != p->end(); ++k)
      if (k.key().rfind("sub", 0) == 0 && k->is_object()) {
        const nlohmann::json& v = (*k)["bank"][stat];
        if (v.is_number()) s += v.get<uint64_t>();
        else for (const auto& x : v) s += x.get<uint64_t>();  // a counter vector: all its labels
      }
  }
  return s;
}

class Db {
 public:
  explicit Db(const std::string& path) {
    REQUIRE(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  }
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

// The statistics of a run without the parts that may differ between runs that simulate
// the same thing (host time) or that only observation adds.
nlohmann::json simulated(nlohmann::json j) {
  j.erase("host");
  j.erase("time_series");
  return j;
}

}  // namespace

TEST_CASE("gpu_observe timeline is a valid trace-event file with every issue, CTA, kernel and transaction",
          "[gpu][cli][observe]") {
  const std::string stats = tmp("tl_stats.json"), timeline = tmp("tl.json");
  run_ok("run " + spec("histogram") + kFermi + " --stats " + stats + " --timeline " + timeline +
         " --timeline-counters 500");
  const nlohmann::json s = read_json(stats), t = read_json(timeline);
  const auto problems = gputlm::test::trace_event_problems(t);
  INFO(nlohmann::json(problems).dump(1));
  REQUIRE(problems.empty());
  CHECK(t["displayTimeUnit"] == "ns");
  CHECK(t["otherData"]["ts_unit"].get<std::string>().find("core cycle") == 0);
  const nlohmann::json& total = s["total"];
  uint64_t issues = 0, kernels = 0, ctas = 0, counters = 0;
  std::map<std::string, uint64_t> transactions;  // by category
  std::set<std::string> opcodes;
  for (const auto& e : t["traceEvents"]) {
    const std::string ph = e["ph"];
    const int pid = e["pid"];
    if (ph == "X" && pid >= 10 && pid < 10000) {
      ++issues;
      opcodes.insert(e["name"].get<std::string>());
      CHECK(e["args"].contains("warp"));
      CHECK(e["args"].contains("pc"));
    } else if (ph == "X" && pid == 1) {
      ++kernels;
      const nlohmann::json& l = s["launches"][0];
      CHECK(e["name"] == l["label"]);
      CHECK(e["ts"] == l["start_cycle"]);
      CHECK(e["dur"].get<uint64_t>() == l["cycles"].get<uint64_t>());
    } else if (ph == "b") {
      if (e["cat"] == "cta") ++ctas;
      else ++transactions[e["cat"]];
    } else if (ph == "C") {
      ++counters;
      double share = 0;
      for (const auto& v : e["args"]) share += v.get<double>();
      CHECK(share <= 1.0 + 1e-9);  // shares of the interval's scheduler-cycles
    }
  }
  CHECK(issues == sum(total, "sm", "warp_instructions"));
  CHECK(kernels == s["launches"].size());
  CHECK(ctas == s["launches"][0]["ctas"].get<uint64_t>());
  CHECK(counters >= 2 * 15 * (s["cycles"].get<uint64_t>() / 500));  // stall_elf and stall_kaws per SM
  for (const char* op : {"ld", "st", "atom"})
    CHECK(std::any_of(opcodes.begin(), opcodes.end(), [&](const std::string& o) { return o.rfind(op, 0) == 0; }));
  // Default sockets: l1d, l2, dram; each transaction once.
  CHECK(transactions.size() == 3);
  CHECK(transactions["l1d"] == sum(total, "sm", "l1d.accesses"));
  CHECK(transactions["l2"] == l2_banks(total, "accesses") - l2_banks(total, "fail_causes"));
  CHECK(transactions["dram"] == sum(total, "l2p", "dram.reads") + sum(total, "l2p", "dram.writes"));
}

TEST_CASE("gpu_observe timeline window holds exactly the window's events", "[gpu][cli][observe]") {
  const std::string full = tmp("tw_full.json"), part = tmp("tw_part.json");
  run_ok("run " + spec("histogram") + kFermi + " --timeline " + full);
  run_ok("run " + spec("histogram") + kFermi + " --timeline " + part + " --timeline-window 1000:3000");
  const nlohmann::json f = read_json(full), p = read_json(part);
  const auto problems = gputlm::test::trace_event_problems(p, 1000, 3000);
  INFO(nlohmann::json(problems).dump(1));
  REQUIRE(problems.empty());
  CHECK(p["otherData"]["window_begin"] == 1000);
  CHECK(p["otherData"]["window_end"] == 3000);
  // The issue slices of cycles 1000..2999, the same in both files.
  auto issues = [](const nlohmann::json& t, bool in_window) {
    std::multiset<std::string> out;
    for (const auto& e : t["traceEvents"])
      if (e["ph"] == "X" && e["pid"] >= 10 && e["pid"] < 10000 && (!in_window || (e["ts"] >= 1000 && e["ts"] < 3000)))
        out.insert(e.dump());
    return out;
  };
  const auto in_full = issues(f, true), in_part = issues(p, false);
  CHECK(in_part.size() > 1000);
  CHECK(in_part == in_full);
  CHECK(p["traceEvents"].size() < f["traceEvents"].size() / 2);
  bool kernel = false;
  for (const auto& e : p["traceEvents"])
    if (e["ph"] == "X" && e["pid"] == 1) {
      kernel = true;  // the kernel spans the window: cut to it
      CHECK(e["ts"] == 1000);
      CHECK(e["dur"] == 2000);
    }
  CHECK(kernel);
}

TEST_CASE("gpu_observe transaction database agrees with the statistics", "[gpu][cli][observe]") {
  const std::string stats = tmp("db_stats.json"), db_path = tmp("tx.db");
  run_ok("run " + spec("histogram") + kFermi + " --stats " + stats + " --transactions " + db_path +
         " --transactions-on all");
  const nlohmann::json total = read_json(stats)["total"];
  Db db(db_path);
  auto count = [&](const std::string& kind) {
    return static_cast<uint64_t>(db.number("SELECT COUNT(*) FROM transactions_view WHERE socket_kind = '" + kind + "'"));
  };
  for (const char* l1 : {"l1i", "l1d", "l1c", "l1t"})
    CHECK(count(l1) == sum(total, "sm", std::string(l1) + ".accesses"));  // refused attempts included
  CHECK(count("l1d") > 0);
  CHECK(count("icnt") == total["icnt"]["requests"].get<uint64_t>());
  // The L2 bank retries a request it cannot reserve: an access statistic each time, one
  // transaction in all.
  CHECK(count("l2") == l2_banks(total, "accesses") - l2_banks(total, "fail_causes"));
  CHECK(count("dram") == sum(total, "l2p", "dram.reads") + sum(total, "l2p", "dram.writes"));
  CHECK(db.number("SELECT COUNT(*) FROM sockets WHERE kind = 'l1d'") == 15);
  CHECK(db.number("SELECT COUNT(*) FROM sockets WHERE kind = 'dram'") == 6);
  // Every accepted request has a response that ends no earlier than it began.
  CHECK(db.number("SELECT COUNT(*) FROM transactions t WHERE status = 'ok' AND NOT EXISTS "
                  "(SELECT 1 FROM phases p WHERE p.transaction_id = t.id AND p.phase = 'RESP')") == 0);
  CHECK(db.number("SELECT COUNT(*) FROM transactions WHERE end_ps < begin_ps OR latency_ps != end_ps - begin_ps "
                  "OR latency_cycles != end_cycle - begin_cycle") == 0);
  CHECK(db.number("SELECT COUNT(*) FROM phases p JOIN transactions t ON t.id = p.transaction_id "
                  "WHERE p.begin_ps < t.begin_ps OR p.end_ps > t.end_ps OR p.end_ps < p.begin_ps") == 0);
  // Refusals (the L1s' rejection convention) have no response.
  CHECK(db.number("SELECT COUNT(*) FROM transactions WHERE status != 'ok'") ==
        static_cast<int64_t>(sum(total, "sm", "l1d.fail_causes") + sum(total, "sm", "l1i.fail_causes") +
                             sum(total, "sm", "l1c.fail_causes") + sum(total, "sm", "l1t.fail_causes")));
  // An L2 hit costs at least the bank's hit latency; a DRAM access more than an L2 hit.
  CHECK(db.number("SELECT MIN(latency_cycles) FROM transactions_view WHERE socket_kind = 'l2'") >= 1);
  CHECK(db.number("SELECT AVG(latency_ps) FROM transactions_view WHERE socket_kind = 'dram'") >
        db.number("SELECT MIN(latency_ps) FROM transactions_view WHERE socket_kind = 'l2'"));
  CHECK(db.number("SELECT COUNT(*) FROM info WHERE key = 'unfinished_transactions' AND value = '0'") == 1);
  CHECK(db.number("SELECT COUNT(*) FROM transactions_view WHERE socket_kind = 'l1d' AND "
                  "(sm < 0 OR warp < 0 OR initiator NOT LIKE 'gpu.sm%.lsu' OR target NOT LIKE 'gpu.sm%.l1d')") == 0);
}

TEST_CASE("gpu_observe time series describes each interval and adds up to the totals", "[gpu][cli][observe]") {
  const std::string spec_path = gputlm::test::write_two_stream_spec(fs::path(tmp("ts_streams")), 0, 1);
  const std::string stats = tmp("ts.json"), by_param = tmp("ts_param.json");
  run_ok("run " + spec_path + kFermi + " --stats " + stats + " --sample-every 100");
  run_ok("run " + spec_path + kFermi + " --stats " + by_param + " -p sample_period=100");
  const nlohmann::json s = read_json(stats);
  REQUIRE(s.contains("time_series"));
  const nlohmann::json& ts = s["time_series"];
  CHECK(ts == read_json(by_param)["time_series"]);
  CHECK(ts["period"] == 100);
  const std::vector<uint64_t> cyc = ts["cycle"];
  REQUIRE(cyc.size() >= 3);
  for (std::size_t i = 0; i + 1 < cyc.size(); ++i) {
    CHECK(cyc[i] == 100 * (i + 1));  // boundaries; the last one ends the run
  }
  CHECK(cyc.back() > cyc[cyc.size() - 2]);
  CHECK(cyc.back() >= s["cycles"].get<uint64_t>());
  const nlohmann::json& series = ts["series"];
  for (const char* k : {"ipc", "ipc.launches[0]", "ipc.launches[1]", "l1d_hit_rate", "l2_hit_rate",
                        "dram_bytes_per_cycle", "stall.mem_conflict", "stall.mem_dep", "stall.fetch", "stall.other",
                        "stall_kaws.idle", "stall_kaws.scoreboard", "stall_kaws.pipeline"})
    CHECK(series.contains(k));
  const nlohmann::json& total = s["total"];
  std::map<std::string, double> integral;  // value x interval length, summed
  for (auto it = series.begin(); it != series.end(); ++it) {
    INFO(it.key());
    REQUIRE(it->size() == cyc.size());
    for (std::size_t i = 0; i < cyc.size(); ++i) {
      const double v = (*it)[i];
      CHECK(v >= 0);
      if (it.key().find("hit_rate") != std::string::npos || it.key().rfind("stall", 0) == 0) CHECK(v <= 1.0 + 1e-12);
      integral[it.key()] += v * static_cast<double>(cyc[i] - (i ? cyc[i - 1] : 0));
    }
  }
  const double thread = static_cast<double>(sum(total, "sm", "thread_instructions"));
  CHECK(integral["ipc"] == Approx(thread).epsilon(1e-12));
  // The two launches overlap (two streams): the per-launch series add up to the GPU's.
  CHECK(integral["ipc.launches[0]"] == Approx(s["launches"][0]["thread_instructions"].get<double>()));
  CHECK(integral["ipc.launches[1]"] == Approx(s["launches"][1]["thread_instructions"].get<double>()));
  CHECK(integral["ipc.launches[0]"] + integral["ipc.launches[1]"] == Approx(thread));
  bool overlap = false;
  for (std::size_t i = 0; i < cyc.size(); ++i)
    overlap = overlap || (series["ipc.launches[0]"][i] > 0 && series["ipc.launches[1]"][i] > 0);
  CHECK(overlap);
  CHECK(integral["dram_bytes_per_cycle"] ==
        Approx(128.0 * static_cast<double>(sum(total, "l2p", "dram.reads") + sum(total, "l2p", "dram.writes"))));
  const double schedulers = 15 * 2;
  for (const char* c : {"mem_conflict", "mem_dep", "fetch", "other"})
    CHECK(integral[std::string("stall.") + c] * schedulers ==
          Approx(static_cast<double>(sum(total, "sm", std::string("stall_elf.") + c))));
  for (const char* c : {"idle", "scoreboard", "pipeline"})
    CHECK(integral[std::string("stall_kaws.") + c] * schedulers ==
          Approx(static_cast<double>(sum(total, "sm", std::string("stall_kaws.") + c))));
  CHECK(integral["stall.mem_dep"] > 0);
  // Hit rates: loads hit in L2 somewhere in the run (vecadd streams: none in L1D).
  double l2 = 0;
  for (const auto& v : series["l2_hit_rate"]) l2 = std::max(l2, v.get<double>());
  CHECK(l2 > 0);
}

TEST_CASE("gpu_observe observing a run leaves its statistics bit-identical", "[gpu][cli][observe]") {
  for (const char* w : {"histogram", "scan"}) {
    const std::string plain = tmp(std::string(w) + "_plain.json"), observed = tmp(std::string(w) + "_observed.json");
    run_ok("run " + spec(w) + kFermi + " --stats " + plain);
    run_ok("run " + spec(w) + kFermi + " --stats " + observed + " --sample-every 37 --timeline " +
           tmp("id_tl.json") + " --timeline-window 500:4000 --timeline-counters 13 --transactions " +
           tmp("id_tx.db") + " --transactions-on all");
    const nlohmann::json a = read_json(plain), b = read_json(observed);
    CHECK_FALSE(a.contains("time_series"));
    CHECK(b.contains("time_series"));
    INFO(w);
    CHECK(simulated(a) == simulated(b));
  }
}

TEST_CASE("gpu_observe a deadlocked run leaves a loadable timeline and its in-flight transactions",
          "[gpu][cli][observe][watchdog]") {
  const std::string timeline = tmp("dl.json"), db_path = tmp("dl.db");
  const CliResult r = run_cli("run " + spec("saxpy") + kFermi +
                              " -p l2.dram.min_latency=4000000000 -p watchdog.cycles=20000 --timeline " + timeline +
                              " --transactions " + db_path + " --transactions-on icnt,l2,dram");
  INFO(r.output);
  REQUIRE(r.exit_code == 1);
  CHECK_THAT(r.output, Catch::Contains("deadlock"));
  const nlohmann::json t = read_json(timeline);
  const auto problems = gputlm::test::trace_event_problems(t);
  INFO(nlohmann::json(problems).dump(1));
  CHECK(problems.empty());
  CHECK(t["traceEvents"].size() > 100);
  Db db(db_path);
  const int64_t in_flight = db.number("SELECT COUNT(*) FROM transactions WHERE status = 'in_flight'");
  CHECK(in_flight > 0);
  CHECK(db.number("SELECT value FROM info WHERE key = 'unfinished_transactions'") == in_flight);
  // Every socket kind on the way to the DRAM holds some: the misses waiting for it.
  for (const char* kind : {"icnt", "l2", "dram"})
    CHECK(db.number(std::string("SELECT COUNT(*) FROM transactions_view WHERE status = 'in_flight' AND socket_kind = '") +
                    kind + "'") > 0);
  CHECK(db.number("SELECT COUNT(*) FROM transactions WHERE status = 'in_flight' AND end_ps IS NOT NULL") == 0);
  CHECK(db.number("SELECT COUNT(*) FROM transactions WHERE status = 'in_flight' AND begin_ps IS NULL") == 0);
}

TEST_CASE("gpu_observe bad observation options are errors naming the cause", "[gpu][cli][observe]") {
  const std::string run = "run " + spec("saxpy") + kFermi;
  struct Case {
    std::string args, message;
    int exit_code;
  };
  const std::vector<Case> cases = {
      {" --timeline " + tmp("x.json") + " --timeline-window 5:3", "--timeline-window: '5:3': the window ends (3) before it starts (5)", 1},
      {" --timeline " + tmp("x.json") + " --timeline-window 5-3", "--timeline-window: '5-3' is not a cycle window", 1},
      {" --timeline-window 5:30", "--timeline-window needs --timeline FILE", 1},
      {" --transactions " + tmp("x.db") + " --transactions-on l1d,l3", "--transactions-on: unknown socket 'l3' (known: l1i, l1d, l1c, l1t, icnt, l2, dram, all)", 1},
      {" --transactions-on l2", "--transactions-on needs --transactions FILE or --timeline FILE", 1},
      {" --transactions /nonexistent-dir/x.db", "transaction database '/nonexistent-dir/x.db': cannot create it", 1},
      {" --timeline /nonexistent-dir/t.json", "timeline '/nonexistent-dir/t.json': cannot create it", 1},
      {" --sample-every often", "--sample-every: 'often' is not a number of core cycles", 1},
      {" --timeline " + tmp("x.json") + " --timeline-counters 0", "--timeline-counters: '0' is not a positive number", 1},
      {" --timeline", "--timeline needs a value", 2},
  };
  for (const Case& c : cases) {
    const CliResult r = run_cli(run + c.args);
    INFO(c.args << "\n" << r.output);
    CHECK(r.exit_code == c.exit_code);
    CHECK_THAT(r.output, Catch::Contains(c.message));
    CHECK_THAT(r.output, !Catch::Contains("PASS"));  // refused before anything ran
  }
  const CliResult functional = run_cli("run " + spec("saxpy") + " --functional --timeline " + tmp("x.json"));
  CHECK(functional.exit_code == 2);
  CHECK_THAT(functional.output, Catch::Contains("--timeline observes a timing run: use it with --config"));
  const CliResult help = run_cli("run --help");
  for (const char* o : {"--timeline FILE", "--timeline-window A:B", "--transactions FILE", "--transactions-on KINDS",
                        "--sample-every N", "ui.perfetto.dev"})
    CHECK_THAT(help.output, Catch::Contains(o));
}
