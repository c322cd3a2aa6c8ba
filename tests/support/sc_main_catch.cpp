// The project's test driver: SystemC owns main(), so sc_main runs the Catch2 session.
// Each TEST_CASE that elaborates a model runs in its own process (catch_discover_tests),
// because SystemC allows one elaboration per process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char* argv[]) {
  // SystemC's default report handler prints and throws; tests assert on the throws,
  // so keep the banner and info chatter out of test output.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  return Catch::Session().run(argc, argv);
}
