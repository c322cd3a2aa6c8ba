// Subcommands of the `gputlm` executable. Each command lives in its own cmd_*.cpp and
// registers itself with GPUTLM_CLI_COMMAND; main.cpp dispatches on argv[1].
#pragma once

#include <map>
#include <string>

namespace gputlm::cli {

// argv[0] is the command name; returns the process exit code.
using CommandFn = int (*)(int argc, char** argv);

struct Command {
  std::string summary;
  CommandFn fn;
};

std::map<std::string, Command>& commands();

struct CommandRegistrar {
  CommandRegistrar(const char* name, const char* summary, CommandFn fn) {
    commands()[name] = Command{summary, fn};
  }
};

}  // namespace gputlm::cli

#define GPUTLM_CLI_COMMAND(name, summary, fn) \
  static ::gputlm::cli::CommandRegistrar gputlm_cli_registrar_##fn(name, summary, fn)
