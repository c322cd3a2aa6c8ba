// Shared set-up of the SoC tests: the platform's config, register access from a host
// program, and running a whole platform in a child process (SystemC elaborates once per
// process, and the DMI comparison needs two platforms).
#pragma once

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "gpu/command_processor/gputlm_regs.h"
#include "platforms/soc/soc_platform.h"

namespace soc_test {

using namespace gputlm;
using namespace gputlm::platforms::soc;

inline SocConfig test_config() {
  SocConfig cfg;  // GTX480 GPU, 64 MiB host DRAM at 0x80000000, registers at 0x40000000
  cfg.example.elements = 4096;
  return cfg;
}

inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Register access of a host program; values it observed are kept for checks after the run
// (Catch2 assertions stay outside the SystemC thread).
struct Regs {
  HostCpu& cpu;
  uint64_t base;
  std::map<std::string, uint64_t>& seen;

  uint32_t rd(uint64_t off) { return cpu.read32(base + off); }
  void wr(uint64_t off, uint32_t v) { cpu.write32(base + off, v); }
  // ERROR's value, then acknowledges it (W1C INT_ERROR).
  uint32_t take_error() {
    const uint32_t e = rd(regs::ERROR);
    wr(regs::INT_STATUS, regs::INT_ERROR);
    return e;
  }
  // Rings the doorbell and sleeps until the interrupt (both interrupts enabled).
  uint32_t command(uint32_t cmd) {
    wr(regs::COMMAND, cmd);
    cpu.wait_irq(sc_core::sc_time(100, sc_core::SC_MS));
    return rd(regs::INT_STATUS);
  }
  uint64_t put(const std::string& bytes) {
    const uint64_t a = cpu.alloc(bytes.size());
    cpu.write(a, bytes.data(), static_cast<uint32_t>(bytes.size()));
    return a;
  }
};

// A bus response as a value of Regs::seen.
inline uint64_t bus(tlm::tlm_response_status s) { return static_cast<uint64_t>(static_cast<int64_t>(s)); }

// Runs `f` in a child process and returns what it printed to the pipe; the child's exit
// must be 0.
inline std::string in_child(const std::function<std::string()>& f) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    int code = 0;
    std::string out;
    try {
      out = f();
    } catch (const std::exception& e) {
      out = std::string("exception: ") + e.what();
      code = 1;
    }
    const char* p = out.data();
    std::size_t left = out.size();
    while (left > 0) {
      const ssize_t n = ::write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
    ::_exit(code);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  INFO(out);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return out;
}

}  // namespace soc_test
