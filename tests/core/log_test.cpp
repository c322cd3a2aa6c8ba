#include <catch2/catch.hpp>
#include <sstream>

#include "core/log/hex.h"
#include "core/log/log.h"

using namespace gputlm::log;

TEST_CASE("log verbosity per module, longest pattern wins", "[log]") {
  reset_levels();
  std::ostringstream sink;
  set_sink(&sink);
  Logger l1("gpu.sm3.l1d"), l2("gpu.sm4.l1d"), dram("gpu.dram0");
  CHECK_FALSE(l1.enabled(Level::Info));  // default warn
  CHECK(l1.enabled(Level::Warn));
  set_level_from_string("gpu.sm3*=debug");
  set_level("gpu.dram0", Level::Off);
  CHECK(l1.enabled(Level::Debug));
  CHECK_FALSE(l1.enabled(Level::Trace));
  CHECK_FALSE(l2.enabled(Level::Info));
  CHECK_FALSE(dram.enabled(Level::Error));
  set_level("gpu.sm3.l1d", Level::Error);  // exact name beats the prefix
  CHECK_FALSE(l1.enabled(Level::Warn));
  GPUTLM_LOG(l2, Warn, "value " << 42);
  GPUTLM_LOG(l2, Debug, "hidden");
  CHECK_THAT(sink.str(), Catch::Contains("warn gpu.sm4.l1d: value 42"));
  CHECK_THAT(sink.str(), !Catch::Contains("hidden"));
  CHECK_THROWS_WITH(set_level_from_string("x=loud"), Catch::Contains("unknown log level 'loud'"));
  set_sink(nullptr);
  reset_levels();
}

TEST_CASE("hex writes addresses as lower-case 0x text", "[core][log]") {
  CHECK(gputlm::hex(0) == "0x0");
  CHECK(gputlm::hex(0x1f) == "0x1f");
  CHECK(gputlm::hex(0xffffffffffffffffull) == "0xffffffffffffffff");
}
