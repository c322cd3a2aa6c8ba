// The project's test driver: SystemC owns main(), so sc_main runs the Catch2 session.
// Each TEST_CASE that elaborates a model runs in its own process (catch_discover_tests),
// because SystemC allows one elaboration per process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>
#include <systemc>

// Our own main() takes precedence over libsystemc's: it silences the copyright banner
// (which would otherwise start every output) and hands over to SystemC as usual.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  // SystemC's default report handler prints and throws; tests assert on the throws,
  // so keep the banner and info chatter out of test output.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  return Catch::Session().run(argc, argv);
}
