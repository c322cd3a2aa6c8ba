// gputlm command-line entry: `gputlm COMMAND [ARGS...]`. Errors that reach here are
// reported with their cause and a non-zero exit, never as a crash.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <cstdlib>
#include <systemc>

#include "cli.h"

namespace gputlm::cli {
std::map<std::string, Command>& commands() {
  static std::map<std::string, Command> registry;
  return registry;
}
}  // namespace gputlm::cli

static int usage(FILE* out) {
  std::fprintf(out, "usage: gputlm COMMAND [ARGS...]\n\ncommands:\n");
  for (const auto& [name, cmd] : gputlm::cli::commands())
    std::fprintf(out, "  %-10s %s\n", name.c_str(), cmd.summary.c_str());
  std::fprintf(out, "\n`gputlm COMMAND --help` describes a command's arguments.\n");
  return out == stdout ? 0 : 2;
}

// Our own main() takes precedence over libsystemc's: it silences the copyright banner
// (which would otherwise start every output) and hands over to SystemC as usual.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  if (argc < 2) return usage(stderr);
  std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") return usage(stdout);
  auto it = gputlm::cli::commands().find(name);
  if (it == gputlm::cli::commands().end()) {
    std::fprintf(stderr, "gputlm: unknown command '%s'\n", name.c_str());
    return usage(stderr);
  }
  try {
    return it->second.fn(argc - 1, argv + 1);
  } catch (const std::bad_alloc&) {  // a study's memory_limit_mb, or a host too small for the run
    std::fprintf(stderr, "gputlm %s: error: out of host memory (an allocation failed)\n", name.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gputlm %s: error: %s\n", name.c_str(), e.what());
    return 1;
  }
}
