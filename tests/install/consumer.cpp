// A user's own SystemC platform built against the installed gputlm: a traffic
// generator through the protocol checker into a memory.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <systemc>

#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "core/traffic/simple_memory.h"
#include "core/traffic/traffic_generator.h"

int sc_main(int argc, char* argv[]) {
  const std::string how = argc > 1 ? argv[1] : "?";
  gputlm::ClockDomain clk = gputlm::ClockDomain::from_mhz("clk", 1000.0);
  gputlm::stats::Group root("top");
  gputlm::TrafficGeneratorConfig gen_cfg;
  gen_cfg.requests = 50;
  gputlm::TrafficGenerator gen("gen", gen_cfg, clk, root);
  gputlm::ProtocolChecker checker("checker", false);
  gputlm::SimpleMemory mem("mem", gputlm::SimpleMemoryConfig{}, clk, root);
  gen.out.bind(checker.in);
  checker.out.bind(mem.in);
  sc_core::sc_start();
  std::printf("consumer(%s): %llu requests completed, %zu protocol violations\n", how.c_str(),
              static_cast<unsigned long long>(gen.completed()), checker.violations().size());
  return gen.done() ? 0 : 1;
}
