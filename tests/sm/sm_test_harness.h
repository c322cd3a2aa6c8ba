// A whole Sm behind a fixed-latency memory (in place of interconnect + L2 + DRAM), with a
// protocol checker on its memory socket; the test launches CTAs between cycles (the CTA
// scheduler's role) and records every issue.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "core/clock/clock_domain.h"
#include "core/stats/stats.h"
#include "core/tlm/protocol_checker.h"
#include "core/traffic/simple_memory.h"
#include "isa/exec/functional_executor.h"
#include "sm/sm.h"

namespace sm_test {

using namespace gputlm;
using namespace gputlm::sm;

struct Issue {
  uint64_t cycle;
  uint32_t warp;
  uint64_t pc;
  std::string text;
};

class Kernel {
 public:
  Kernel(const std::string& ptx_file, const std::string& kernel, isa::Dim3 grid, isa::Dim3 block);
  template <class T>
  uint64_t upload(const std::vector<T>& v) {
    const uint64_t a = mem_.allocator.allocate(v.size() * sizeof(T));
    mem_.store.write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> download(uint64_t addr, std::size_t n) const {
    std::vector<T> v(n);
    mem_.store.read(addr, v.data(), n * sizeof(T));
    return v;
  }
  template <class T>
  void set_param(uint32_t index, T value) {
    isa::set_kernel_param(lp_, *lm_, index, &value, sizeof(T));
  }
  KernelInstance& instance(uint32_t registers_per_thread = 0);

 private:
  isa::DeviceMemory mem_;
  std::unique_ptr<isa::LoadedModule> lm_;
  isa::LaunchParams lp_;
  std::unique_ptr<isa::GridExecution> grid_;
  KernelInstance k_;
};

class SmHarness : public sc_core::sc_module {
 public:
  SmHarness(sc_core::sc_module_name name, const SmConfig& cfg, uint32_t memory_latency = 50);
  // Runs every CTA of k to completion; returns the cycle the last one finished.
  uint64_t run(KernelInstance& k, uint64_t max_cycles = 500000);

  ClockDomain clock;
  stats::Group root;
  Sm sm;
  ProtocolChecker checker;
  SimpleMemory memory;
  std::vector<Issue> issued;
  std::vector<CtaCompletion> completions;
};

}  // namespace sm_test
