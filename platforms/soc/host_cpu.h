// The host CPU of the SoC platform: a loosely-timed initiator (one SC_THREAD running a
// program, a tlm_quantumkeeper for its local time) with an interrupt input. Programs are
// functions of the HostCpu: the GPU driver (gpu_driver.h) and the example
// (soc_example.h) are written against the accessors below. A program that throws ends
// with its message in failure(); the simulation goes on.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/tlm_quantumkeeper.h>

namespace gputlm::platforms::soc {

// A host bus access that did not return TLM_OK_RESPONSE.
class HostBusError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class HostCpu : public sc_core::sc_module, public tlm::tlm_bw_transport_if<> {
 public:
  using Program = std::function<void(HostCpu&)>;

  tlm::tlm_initiator_socket<> bus;
  sc_core::sc_in<bool> irq;

  SC_HAS_PROCESS(HostCpu);
  HostCpu(sc_core::sc_module_name name, sc_core::sc_time quantum);

  // The program the thread runs (set before the simulation starts).
  void set_program(Program program) { program_ = std::move(program); }
  bool finished() const { return finished_; }
  const std::string& failure() const { return failure_; }  // empty: the program returned

  // b_transport with the local time of the quantum keeper; returns the response.
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, void* data, uint32_t len);
  // As access(), throwing HostBusError naming address and response when it is not OK.
  void write(uint64_t addr, const void* data, uint32_t len);
  void read(uint64_t addr, void* data, uint32_t len);
  void write32(uint64_t addr, uint32_t v) { write(addr, &v, 4); }
  uint32_t read32(uint64_t addr) {
    uint32_t v = 0;
    read(addr, &v, 4);
    return v;
  }
  // Synchronises, then sleeps until the interrupt line is high; throws std::runtime_error
  // after `timeout` of simulated time.
  void wait_irq(const sc_core::sc_time& timeout);
  // Synchronises and returns the interrupt line.
  bool irq_level();
  // Host-side time: the simulation time plus the quantum keeper's local offset.
  sc_core::sc_time now() const { return qk_.get_current_time(); }

  // Bump allocator over a host memory region (set by the platform), 256-byte aligned.
  void set_heap(uint64_t base, uint64_t bytes);
  uint64_t alloc(uint64_t bytes);

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}  // the host uses no DMI

 private:
  void thread();

  tlm_utils::tlm_quantumkeeper qk_;
  Program program_;
  bool finished_ = false;
  std::string failure_;
  uint64_t heap_next_ = 0, heap_end_ = 0;
};

}  // namespace gputlm::platforms::soc
