#include <catch2/catch.hpp>

#include <array>
#include <memory>

#include "core/stats/stats.h"

using namespace gputlm::stats;

TEST_CASE("stats tree names, JSON and per-kernel epochs", "[stats]") {
  Group gpu("gpu");
  Group sm3(gpu, "sm3");
  Group l1d(sm3, "l1d");
  Counter hits(l1d, "hits", "hits");
  Counter accesses(l1d, "accesses", "accesses");
  Ratio hit_rate(l1d, "hit_rate", "hits / accesses", hits, accesses);
  Average lat(sm3, "latency", "latency");
  Distribution hist(sm3, "hist", "histogram", 0, 10, 5);
  CounterVector stalls(sm3, "stalls", "stall classes", {"mem", "fetch"});

  CHECK(hits.path() == "gpu.sm3.l1d.hits");
  hits.add(3);
  accesses.add(4);
  lat.sample(10);
  lat.sample(20);
  hist.sample(-1);
  hist.sample(0);
  hist.sample(3.9);
  hist.sample(9.99);
  hist.sample(10);
  stalls.add(1, 2);
  auto j = gpu.to_json(View::Epoch);
  CHECK(j["sm3"]["l1d"]["hits"] == 3);
  CHECK(j["sm3"]["l1d"]["hit_rate"] == 0.75);
  CHECK(j["sm3"]["latency"]["mean"] == 15.0);
  CHECK(j["sm3"]["latency"]["min"] == 10.0);
  CHECK(j["sm3"]["hist"]["buckets"] == nlohmann::json({1, 1, 0, 0, 1}));
  CHECK(j["sm3"]["hist"]["underflow"] == 1);
  CHECK(j["sm3"]["hist"]["overflow"] == 1);
  CHECK(j["sm3"]["stalls"]["fetch"] == 2);

  gpu.end_epoch();  // kernel boundary
  hits.add(1);
  accesses.add(4);
  lat.sample(30);
  CHECK(hits.value(View::Epoch) == 1);
  CHECK(hits.value(View::Total) == 4);
  CHECK(hit_rate.value(View::Epoch) == 0.25);
  CHECK(hit_rate.value(View::Total) == 0.5);
  CHECK(lat.mean(View::Epoch) == 30.0);
  CHECK(lat.mean(View::Total) == 20.0);
  CHECK(hist.count(View::Epoch) == 0);
  CHECK(hist.count(View::Total) == 5);
  CHECK(gpu.to_json(View::Total)["sm3"]["stalls"]["fetch"] == 2);
  CHECK(gpu.find("sm3.l1d.hits") == &hits);
  CHECK(gpu.find("sm3.nothing") == nullptr);
  gpu.reset();
  CHECK(hits.value(View::Total) == 0);
}

TEST_CASE("stats counter kept by its owner reads like a Counter across epochs and reset", "[stats]") {
  Group gpu("gpu");
  uint64_t owned = 5;  // counted before the statistic existed: not part of it
  CounterRef ref(gpu, "cycles", "cycles", owned);
  Counter plain(gpu, "plain", "the same counts in a Counter");
  Ratio half(gpu, "ratio", "ref / plain", ref, plain);
  owned += 3;
  plain.add(3);
  CHECK(ref.value() == 3);
  CHECK(gpu.to_json(View::Epoch)["cycles"] == 3);
  CHECK(half.value() == 1.0);
  gpu.end_epoch();
  owned += 2;
  plain.add(2);
  CHECK(ref.value(View::Epoch) == plain.value(View::Epoch));
  CHECK(ref.value(View::Total) == plain.value(View::Total));
  CHECK(ref.value(View::Total) == 5);
  CHECK(gpu.to_json(View::Total)["cycles"] == gpu.to_json(View::Total)["plain"]);
  gpu.reset();
  CHECK(ref.value(View::Total) == 0);
  ++owned;
  CHECK(ref.value() == 1);
}

TEST_CASE("stats sampler records time series at period boundaries", "[stats]") {
  Group root("top");
  Counter c(root, "c", "counter");
  Sampler s(root, 100, {"c"});
  c.add(5);
  s.sample(0);
  c.add(5);
  s.sample(50);  // not yet a boundary
  s.sample(100);
  c.add(1);
  s.sample(250);
  auto j = s.to_json();
  CHECK(j["cycles"] == nlohmann::json({0, 100, 250}));
  CHECK(j["series"]["c"] == nlohmann::json({5.0, 10.0, 11.0}));
  CHECK_THROWS_WITH(Sampler(root, 10, {"nope"}), Catch::Contains("no statistic 'nope'"));
}

TEST_CASE("stats sampler probes and a forced last sample", "[stats]") {
  Group root("top");
  Counter c(root, "c", "counter");
  double outside = 0;
  Sampler s(root, 100, {"c"});
  s.add_probe("twice", [&] { return 2.0 * static_cast<double>(c.value(View::Total)) + outside; });
  s.sample(0);
  CHECK(s.next_sample() == 100);
  c.add(3);
  outside = 1;
  s.sample(99);  // not a boundary
  s.sample(100);
  c.add(1);
  s.sample_now(130);  // the end of a run
  s.sample_now(130);  // once only
  CHECK(s.cycles() == std::vector<uint64_t>{0, 100, 130});
  CHECK(s.names() == std::vector<std::string>{"c", "twice"});
  CHECK(s.values(0) == std::vector<double>{0, 3, 4});
  CHECK(s.values(1) == std::vector<double>{0, 7, 9});
  CHECK(s.next_sample() == 200);
  CHECK_THROWS_WITH(s.add_probe("late", [] { return 0.0; }), Catch::Contains("after the first sample"));
}

TEST_CASE("stats epoch report gives per-kernel and total JSON", "[stats]") {
  Group gpu("gpu");
  Counter insts(gpu, "warp_instructions", "issued");
  EpochReport report(gpu);
  insts.add(10);
  report.end_kernel("saxpy", {{"cycles", 100}});
  insts.add(5);
  report.end_kernel("bfs", {{"cycles", 40}});
  auto j = report.to_json();
  CHECK(j["kernels"].size() == 2);
  CHECK(j["kernels"][0]["name"] == "saxpy");
  CHECK(j["kernels"][0]["cycles"] == 100);
  CHECK(j["kernels"][0]["stats"]["warp_instructions"] == 10);
  CHECK(j["kernels"][1]["stats"]["warp_instructions"] == 5);
  CHECK(j["total"]["warp_instructions"] == 15);
}

TEST_CASE("stats constant is the same value in every epoch and in the total after a reset", "[stats]") {
  Group root("root");
  Group g(root, "mshr");
  Constant c(g, "storage_bits", "bits of storage", 15168);
  CHECK(root.to_json(View::Epoch)["mshr"]["storage_bits"] == 15168);
  root.end_epoch();
  CHECK(root.to_json(View::Epoch)["mshr"]["storage_bits"] == 15168);
  CHECK(root.to_json(View::Total)["mshr"]["storage_bits"] == 15168);
  root.reset();
  CHECK(c.value() == 15168);
  CHECK(root.find("mshr.storage_bits")->scalar(View::Total) == 15168.0);
}

TEST_CASE("stats members may be destroyed after the group they registered in", "[stats]") {
  // A module's counters and sub-groups can outlive their parent group (a module owned
  // by something destroyed after the platform's stats root). Before the fix, the member's
  // destructor erased itself from the freed group (ASan: heap-use-after-free).
  auto root = std::make_unique<Group>("gpu");
  auto child = std::make_unique<Group>(*root, "sm0");
  auto counter = std::make_unique<Counter>(*child, "hits", "hits");
  auto direct = std::make_unique<Counter>(*root, "cycles", "cycles");
  counter->add(2);
  CHECK(root->to_json(View::Total)["sm0"]["hits"] == 2);
  root.reset();
  child.reset();  // its parent is gone: nothing to unregister from
  counter.reset();
  direct.reset();
  // The other order still unregisters: a group outlives a member that is destroyed first.
  Group g("g");
  { Counter c(g, "c", "c"); }
  CHECK(g.stats().empty());
  { Group sub(g, "sub"); }
  CHECK(g.groups().empty());
}

TEST_CASE("stats row log keeps the newest rows in memory and reads spilled ones back", "[stats]") {
  RowLog log(3, 4);  // blocks of 4 rows
  std::vector<std::array<double, 3>> want;
  for (uint64_t i = 0; i < 23; ++i) {
    const std::array<double, 3> row = {static_cast<double>(i), 0.5 * static_cast<double>(i), -1.0 / (1.0 + static_cast<double>(i))};
    log.append(1000 + 7 * i, row.data());
    want.push_back(row);
  }
  CHECK(log.size() == 23);
  CHECK(log.spilled_rows() == 20);  // five full blocks went to the file, 3 rows in memory
  // In order, backwards and at random: every row as appended.
  std::array<double, 3> got{};
  uint64_t cycle = 0;
  for (std::size_t i = 0; i < 23; ++i) {
    log.read(i, cycle, got.data());
    CHECK(cycle == 1000 + 7 * i);
    CHECK(got == want[i]);
  }
  for (std::size_t i = 23; i-- > 0;) CHECK(log.value(i, 2) == want[i][2]);
  CHECK(log.cycle(3) == 1021);
  CHECK(log.value(17, 1) == 8.5);
  CHECK_THROWS_AS(log.read(23, cycle, got.data()), std::out_of_range);
  CHECK_THROWS_AS(log.value(0, 3), std::out_of_range);
  CHECK_THROWS_AS(RowLog(1, 0), std::invalid_argument);
}
