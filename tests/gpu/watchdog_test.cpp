// The deadlock watchdog alone: it fires `cycles` cycles after the last progress (at the
// first check at or after that), never while progress continues, and schedules nothing
// when disarmed.
#include <catch2/catch.hpp>

#include <systemc>

#include "gpu/watchdog/watchdog.h"

using namespace gputlm;

TEST_CASE("watchdog fires after the configured cycles without progress", "[gpu][watchdog]") {
  ClockDomain core = ClockDomain::from_mhz("core", 700);
  gpu::WatchdogConfig cfg;
  cfg.cycles = 1000;
  cfg.check_interval = 100;
  uint64_t progress = 0;
  uint64_t fired_at = 0, stalled_since = 0;
  int fires = 0;
  gpu::Watchdog wd("watchdog", cfg, core, [&] { return progress; }, [&](uint64_t c, uint64_t s) {
    ++fires;
    fired_at = c;
    stalled_since = s;
  });
  // Progress every cycle until cycle 2050, then nothing.
  struct Worker : sc_core::sc_module {
    Worker(sc_core::sc_module_name n, const ClockDomain& d, uint64_t& p)
        : sc_core::sc_module(n), proc("p", d, [&p](uint64_t c) {
            if (c <= 2050) ++p;
            return c < 2050;
          }, true) {}
    ClockedProcess proc;
  } worker("worker", core, progress);
  wd.arm();
  sc_core::sc_start(core.time_of(10000));
  REQUIRE(fires == 1);
  CHECK(stalled_since == 2100);  // the first check that saw the last progress
  CHECK(fired_at == 3100);
  CHECK(wd.fired());
  CHECK_FALSE(wd.armed());
}

TEST_CASE("watchdog stays quiet while disarmed", "[gpu][watchdog]") {
  ClockDomain core = ClockDomain::from_mhz("core", 700);
  gpu::WatchdogConfig cfg;
  cfg.cycles = 10;
  cfg.check_interval = 1;
  int fires = 0;
  gpu::Watchdog wd("watchdog", cfg, core, [] { return uint64_t{0}; }, [&](uint64_t, uint64_t) { ++fires; });
  wd.arm();
  wd.disarm();
  sc_core::sc_start(core.time_of(1000));
  CHECK(fires == 0);
  CHECK_FALSE(sc_core::sc_pending_activity());
}
