// The demo platform end to end: exact latencies derived from the configuration,
// back-pressure, sleeping blocks, zero protocol violations, deterministic statistics.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "platforms/demo/demo_platform.h"

using namespace gputlm;
using namespace gputlm::platforms::demo;

TEST_CASE("demo_platform single outstanding request has latency memory latency + 2 handshakes", "[demo]") {
  DemoConfig cfg;
  cfg.generator.requests = 10;
  cfg.generator.max_outstanding = 1;
  cfg.memory.latency = 100;
  DemoPlatform top("top", cfg);
  top.run();
  // BEGIN_REQ at cycle c reaches the memory at c+1 (next edge), which answers at
  // c+1+latency; the generator sees the response at the edge after: c+latency+2.
  const uint64_t per_request = cfg.memory.latency + 2;
  const auto& s = top.stats();
  CHECK(s.find("generator.latency")->scalar(stats::View::Total) == Approx(per_request));
  CHECK(top.cycles() == 10 * per_request);
  CHECK(top.checker()->violations().empty());
  CHECK(top.checker()->checked_calls() == 10 * 4);  // BEGIN_REQ, END_REQ, BEGIN_RESP, END_RESP
  // Idle cycles cost nothing: a handful of activations per request, not one per cycle.
  CHECK(top.memory().process().activations() <= 10 * 4);
  CHECK(top.generator().process().activations() <= 10 * 3);
}

TEST_CASE("demo_platform back-pressure bounds throughput by queue size over latency", "[demo]") {
  DemoConfig cfg;
  cfg.generator.requests = 400;
  cfg.generator.max_outstanding = 64;
  cfg.memory.latency = 50;
  cfg.memory.queue_size = 4;
  DemoPlatform top("top", cfg);
  top.run();
  const auto& s = top.stats();
  CHECK(s.find("generator.completed")->scalar(stats::View::Total) == 400);
  CHECK(s.find("memory.backpressure_cycles")->scalar(stats::View::Total) > 0);
  // At most queue_size requests are in the memory per `latency` cycles.
  CHECK(top.cycles() >= 400 / 4 * 50);
  CHECK(top.checker()->violations().empty());
}

TEST_CASE("demo_platform writes statistics JSON with per-kernel-style totals and time series", "[demo]") {
  DemoConfig cfg;
  cfg.generator.requests = 300;
  cfg.generator.pattern = "random";
  cfg.generator.write_fraction = 0.5;
  cfg.sample_period = 500;
  DemoPlatform top("top", cfg);
  top.run();
  auto j = top.stats().to_json(stats::View::Total);
  CHECK(j["generator"]["completed"] == 300);
  CHECK(j["generator"]["reads"].get<uint64_t>() + j["generator"]["writes"].get<uint64_t>() == 300);
  CHECK(j["generator"]["writes"].get<uint64_t>() > 100);
  CHECK(j["memory"]["reads"] == j["generator"]["reads"]);
  auto ts = top.sampler()->to_json();
  CHECK(ts["period_cycles"] == 500);
  CHECK(ts["series"]["generator.completed"].back() == 300.0);
}

TEST_CASE("demo_platform transaction recorder traces every call when asked", "[demo]") {
  DemoConfig cfg;
  cfg.generator.requests = 5;
  cfg.generator.max_outstanding = 1;
  cfg.trace_file = "build_demo_trace_test.txt";
  {
    DemoPlatform top("top", cfg);
    top.run();
    CHECK(top.recorder()->recorded() == 5 * 4);
  }
  std::ifstream in(cfg.trace_file);
  std::string first;
  std::getline(in, first);
  // BEGIN_REQ at time 0, accepted (END_REQ comes later on the backward path).
  CHECK_THAT(first, Catch::StartsWith("0 top.recorder fw BEGIN_REQ->ACCEPTED read 0x0 len 128 id 1"));
  std::remove(cfg.trace_file.c_str());
}

TEST_CASE("demo_platform traffic generators with neighbouring seeds give unrelated address streams", "[demo]") {
  gputlm::stats::Group root("root");
  gputlm::ClockDomain clk = gputlm::ClockDomain::from_mhz("clk", 1000.0);
  TrafficGeneratorConfig cfg;
  cfg.pattern = "random";
  cfg.range_bytes = 1u << 30;
  cfg.requests = 64;
  std::ostringstream trace_a, trace_b;
  cfg.seed = 1;
  TrafficGenerator a("a", cfg, clk, root);
  cfg.seed = 2;
  TrafficGenerator b("b", cfg, clk, root);
  TransactionRecorder ra("ra", trace_a), rb("rb", trace_b);
  SimpleMemory ma("ma", SimpleMemoryConfig{}, clk, root), mb("mb", SimpleMemoryConfig{}, clk, root);
  a.out.bind(ra.in);
  ra.out.bind(ma.in);
  b.out.bind(rb.in);
  rb.out.bind(mb.in);
  sc_core::sc_start();
  auto addresses = [](const std::string& trace) {
    std::vector<std::string> out;
    std::istringstream in(trace);
    std::string line;
    while (std::getline(in, line))
      if (line.find("BEGIN_REQ") != std::string::npos) out.push_back(line.substr(line.find(" 0x") + 1, 12));
    return out;
  };
  const auto sa = addresses(trace_a.str()), sb = addresses(trace_b.str());
  REQUIRE(sa.size() == 64);
  REQUIRE(sb.size() == 64);
  int shifted_equal = 0, equal = 0;
  for (std::size_t i = 0; i + 1 < sa.size(); ++i) {
    shifted_equal += sb[i] == sa[i + 1];
    equal += sb[i] == sa[i];
  }
  CHECK(shifted_equal < 2);
  CHECK(equal < 2);
}
