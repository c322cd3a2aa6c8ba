// Fuzz target: the register interface of the GPU device (modules/gpu/command_processor,
// gputlm_regs.h) inside the SoC platform, with a TLM protocol checker on every socket.
// The input is a host program: a sequence of operations (below) the host CPU model runs
// against the register window, host memory and the device's debug and non-blocking
// interfaces. Before it runs, host memory holds vecadd's PTX, its entry name, a parameter
// buffer and its vectors, so a few operations reach a launch; the input may also write
// its own bytes (PTX, names, parameters) to a scratch area and point the registers there.
//
// Every input must end with the device answering: bad accesses and commands are recorded
// errors (the bus answers), a kernel that faults or outlives gpu.max_cycles is a
// gpu::SimulationError, a stuck one a gpu::DeadlockError, a host program past
// max_time_ms a std::runtime_error. A crash, a sanitizer report, another exception, a
// protocol violation or a hang (libFuzzer's -timeout) is a finding.
//
// SystemC elaborates once per simulation context, so each input gets a fresh context
// (the platform is built, run and destroyed inside it; the context is deleted at the next
// input).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "fuzz_support.h"
#include "gpu/command_processor/gputlm_regs.h"
#include "gpu/gpu.h"
#include "platforms/soc/soc_platform.h"

namespace {

using namespace gputlm;
using namespace gputlm::platforms::soc;

// Reads the input's bytes in order; past its end every read gives 0.
struct Reader {
  const uint8_t* p;
  std::size_t n, at = 0;
  bool done() const { return at >= n; }
  uint8_t u8() { return at < n ? p[at++] : 0; }
  uint16_t u16() { return static_cast<uint16_t>(u8() | (u8() << 8)); }
  uint32_t u32() { return u16() | (static_cast<uint32_t>(u16()) << 16); }
};

// The host memory the program starts with (addresses from the CPU's heap).
struct Layout {
  uint64_t ptx = 0, ptx_size = 0, name = 0, name_size = 0, params = 0, params_size = 0;
  uint64_t scratch = 0;
  static constexpr uint32_t kScratchBytes = 4096;
  static constexpr uint32_t kElements = 256;
};

const std::string& vecadd_ptx() {
  static const std::string text = [] {
    std::string t = gputlm::fuzz::read_source("workloads/vecadd/vecadd.ptx");
    if (t.empty()) gputlm::fuzz::unexpected("fuzz_device", "cannot read workloads/vecadd/vecadd.ptx");
    return t;
  }();
  return text;
}

Layout prepare(HostCpu& cpu) {
  Layout l;
  const std::string& ptx = vecadd_ptx();
  l.ptx = cpu.alloc(ptx.size());
  l.ptx_size = ptx.size();
  cpu.write(l.ptx, ptx.data(), static_cast<uint32_t>(ptx.size()));
  const char name[] = "vecadd";
  l.name = cpu.alloc(sizeof name - 1);
  l.name_size = sizeof name - 1;
  cpu.write(l.name, name, static_cast<uint32_t>(l.name_size));
  const uint32_t bytes = Layout::kElements * 4;
  const uint64_t a = cpu.alloc(bytes), b = cpu.alloc(bytes), c = cpu.alloc(bytes);
  std::vector<float> v(Layout::kElements, 1.5f);
  cpu.write(a, v.data(), bytes);
  cpu.write(b, v.data(), bytes);
  ParamBuffer pb;
  pb.add(static_cast<int32_t>(Layout::kElements)).add(a).add(b).add(c);
  l.params = cpu.alloc(pb.bytes().size());
  l.params_size = pb.bytes().size();
  cpu.write(l.params, pb.bytes().data(), static_cast<uint32_t>(l.params_size));
  l.scratch = cpu.alloc(Layout::kScratchBytes);
  return l;
}

void set_addr(HostCpu& cpu, uint64_t base, uint64_t lo, uint64_t addr) {
  cpu.access(tlm::TLM_WRITE_COMMAND, base + lo, &addr, 4);
  const uint32_t hi = static_cast<uint32_t>(addr >> 32);
  cpu.access(tlm::TLM_WRITE_COMMAND, base + lo + 4, const_cast<uint32_t*>(&hi), 4);
}

// Operations (first byte % kOps; operands follow):
//   0 write32  offset:u8 value:u32        register write (misaligned offsets included)
//   1 read32   offset:u8                  register read
//   2 access   rw:u8 offset:u16 len:u8    any bus access around the window (len 1..16)
//   3 wait     us:u8                      sleep on the interrupt line, at most us+1 µs
//   4 poke     at:u16 len:u8 bytes        write bytes into the scratch area
//   5 setup    which:u8                   point MODULE/NAME/PARAM registers at the
//                                         prepared buffers or the scratch area, with
//                                         sizes from the next u16
//   6 command  cmd:u8                     doorbell (1 load, 2 launch, others bad)
//   7 debug    rw:u8 offset:u8 len:u8     transport_dbg to the device's registers
//   8 nb       offset:u8                  nb_transport_fw to the registers (refused)
//   9 launch   gx:u8 bx:u16               load vecadd, then launch it with this grid/block
constexpr uint8_t kOps = 10;

void run_program(HostCpu& cpu, SocPlatform& top, Reader in) {
  const uint64_t base = top.config().regs_base;
  const Layout l = prepare(cpu);
  uint8_t buf[16];
  while (!in.done()) {
    switch (in.u8() % kOps) {
      case 0: {
        const uint8_t off = in.u8();
        uint32_t v = in.u32();
        cpu.access(tlm::TLM_WRITE_COMMAND, base + off, &v, 4);
        break;
      }
      case 1: {
        uint32_t v = 0;
        cpu.access(tlm::TLM_READ_COMMAND, base + in.u8(), &v, 4);
        break;
      }
      case 2: {
        const bool write = in.u8() & 1;
        const uint64_t addr = base - 0x100 + in.u16() % 0x300;  // the window and both sides of it
        const uint32_t len = 1 + in.u8() % 16;
        for (uint32_t i = 0; i < len; ++i) buf[i] = in.u8();
        cpu.access(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, buf, len);
        break;
      }
      case 3: {
        const sc_core::sc_time timeout(1 + in.u8(), sc_core::SC_US);
        try {
          cpu.wait_irq(timeout);
        } catch (const std::runtime_error&) {  // timed out: the line stayed low
        }
        break;
      }
      case 4: {
        const uint32_t at = in.u16() % Layout::kScratchBytes;
        uint32_t len = in.u8();
        len = std::min<uint32_t>(len, Layout::kScratchBytes - at);
        std::vector<uint8_t> bytes(len);
        for (auto& b : bytes) b = in.u8();
        if (len) cpu.access(tlm::TLM_WRITE_COMMAND, l.scratch + at, bytes.data(), len);
        break;
      }
      case 5: {
        const uint8_t which = in.u8();
        const uint32_t size = in.u16();
        const bool scratch = which & 8;
        switch (which % 4) {
          case 0:
            set_addr(cpu, base, regs::MODULE_ADDR_LO, scratch ? l.scratch : l.ptx);
            cpu.write32(base + regs::MODULE_SIZE, scratch ? size : static_cast<uint32_t>(l.ptx_size));
            break;
          case 1:
            set_addr(cpu, base, regs::KERNEL_NAME_ADDR_LO, scratch ? l.scratch : l.name);
            cpu.write32(base + regs::KERNEL_NAME_SIZE, scratch ? size : static_cast<uint32_t>(l.name_size));
            break;
          case 2:
            set_addr(cpu, base, regs::PARAM_ADDR_LO, scratch ? l.scratch : l.params);
            cpu.write32(base + regs::PARAM_SIZE, scratch ? size : static_cast<uint32_t>(l.params_size));
            break;
          default:
            cpu.write32(base + regs::INT_ENABLE, regs::INT_MASK);
            cpu.write32(base + regs::KERNEL_MODULE, size % 4);
            break;
        }
        break;
      }
      case 6: {
        uint32_t cmd = in.u8() % 4;
        cpu.access(tlm::TLM_WRITE_COMMAND, base + regs::COMMAND, &cmd, 4);
        break;
      }
      case 7: {
        const bool write = in.u8() & 1;
        tlm::tlm_generic_payload gp;
        gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        gp.set_address(in.u8());
        const uint32_t len = 1 + in.u8() % 16;
        for (uint32_t i = 0; i < len; ++i) buf[i] = in.u8();
        gp.set_data_ptr(buf);
        gp.set_data_length(len);
        gp.set_streaming_width(len);
        top.device().transport_dbg(gp);
        break;
      }
      case 8: {
        uint32_t v = 0;
        tlm::tlm_generic_payload gp;
        gp.set_command(tlm::TLM_READ_COMMAND);
        gp.set_address(in.u8());
        gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
        gp.set_data_length(4);
        gp.set_streaming_width(4);
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        top.device().nb_transport_fw(gp, phase, t);
        break;
      }
      default: {
        const uint32_t gx = in.u8(), bx = in.u16();
        try {
          GpuDriver drv(cpu, base, sc_core::sc_time(200, sc_core::SC_US));
          drv.init();
          KernelLaunch k;
          k.module = drv.load_module(vecadd_ptx());
          k.kernel = "vecadd";
          k.grid[0] = gx;
          k.block[0] = bx;
          k.params = ParamBuffer().add(static_cast<int32_t>(Layout::kElements)).add(l.scratch).add(l.scratch)
                         .add(l.scratch).bytes();
          drv.launch(k);
        } catch (const DriverError&) {  // the device refused (bad grid, no room for a module, ...)
        } catch (const std::runtime_error&) {  // the interrupt did not come in time
        }
        break;
      }
    }
  }
}

void run_input(const uint8_t* data, std::size_t size) {
  SocConfig cfg;
  cfg.dram_bytes = 1u << 20;
  cfg.device.max_modules = 4;
  cfg.device.max_module_bytes = 1u << 16;
  cfg.max_time_ms = 2;
  cfg.gpu.sms = 1;
  cfg.gpu.partitions = 1;
  // Bounds an input's GPU work well inside libFuzzer's 10 s timeout under ASan and the
  // fuzzer's coverage counters (a launch of a huge grid at 200,000 cycles took 11 s of CPU);
  // vecadd over the 256 elements needs a few thousand.
  cfg.gpu.max_cycles = 50000;
  SocPlatform top("soc", cfg);
  try {
    top.run([&](HostCpu& cpu) { run_program(cpu, top, Reader{data, size}); });
  } catch (const gpu::SimulationError&) {  // a kernel's fault, or past max_cycles
    return;
  } catch (const gpu::DeadlockError&) {
    return;
  } catch (const std::runtime_error& e) {  // the host program past max_time_ms
    if (std::strstr(e.what(), "max_time_ms") == nullptr) throw;
    return;
  }
  if (std::getenv("GPUTLM_FUZZ_VERBOSE"))  // what the input did, when building seeds by hand
    std::fprintf(stderr, "fuzz_device: %s, kernels done %u, modules %u, ERROR %u, %s%s\n",
                 sc_core::sc_time_stamp().to_string().c_str(), top.device().peek(regs::KERNELS_DONE),
                 top.device().peek(regs::MODULE_HANDLE), top.device().peek(regs::ERROR),
                 top.host().finished() ? "host finished" : "host not finished",
                 top.host().failure().empty() ? "" : (": " + top.host().failure()).c_str());
  if (top.protocol_violations() != 0)
    gputlm::fuzz::unexpected("fuzz_device", "a TLM protocol checker reported a violation");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  // A fresh simulation context per input: SystemC elaborates once per context. The
  // context of static initialisation stays (libsystemc's own static events belong to it);
  // the previous input's context is deleted once the platform it held is destroyed.
  static sc_core::sc_simcontext* const original = sc_core::sc_get_curr_simcontext();
  sc_core::sc_simcontext* previous = sc_core::sc_curr_simcontext;
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext;
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
  if (previous != original) delete previous;
  try {
    run_input(data, size);
  } catch (const std::exception& e) {
    gputlm::fuzz::unexpected("fuzz_device", e.what());
  }
  return 0;
}
