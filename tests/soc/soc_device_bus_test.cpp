// The device's own bus answers, without a router in front: the register window ends at
// kWindowBytes, byte enables and short streaming widths are refused on the bus,
// nb_transport is refused at once, and debug reads see registers without side effects.
#include "soc_test_util.h"

using namespace soc_test;

namespace {
// An initiator thread that sends hand-made payloads straight to the device's registers.
struct RawInitiator : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
  tlm::tlm_initiator_socket<> out{"out"};
  std::function<void(RawInitiator&)> body;
  SC_HAS_PROCESS(RawInitiator);
  explicit RawInitiator(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    out.bind(*this);
    SC_THREAD(run);
  }
  void run() { body(*this); }
  tlm::tlm_response_status send(uint64_t addr, uint32_t* v, unsigned len, unsigned char* be = nullptr,
                                unsigned be_len = 0, unsigned width = 0) {
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(addr);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(v));
    gp.set_data_length(len);
    gp.set_streaming_width(width ? width : len);
    gp.set_byte_enable_ptr(be);
    gp.set_byte_enable_length(be_len);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    out->b_transport(gp, t);
    return gp.get_response_status();
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};
}  // namespace

TEST_CASE("soc device answers bus errors outside its window and for byte enables", "[soc][regs]") {
  gpu::CommandProcessorConfig dev_cfg;
  dev_cfg.host_memory_base = 0x80000000ull;
  dev_cfg.host_memory_bytes = 1 << 20;
  gpu::CommandProcessor device("device", gpu::GpuConfig{}, dev_cfg);
  HostDram dram("dram", 1 << 20, HostDramConfig{});  // the device's mem socket must be bound
  device.mem.bind(dram.in);
  sc_core::sc_signal<bool> irq("irq");
  device.irq.bind(irq);
  RawInitiator cpu("cpu");
  cpu.out.bind(device.regs);
  std::map<std::string, uint64_t> seen;
  cpu.body = [&](RawInitiator& c) {
    uint32_t v = 0;
    seen["in_window"] = bus(c.send(regs::ID, &v, 4));
    seen["id"] = v;
    seen["past_window"] = bus(c.send(regs::kWindowBytes, &v, 4));
    unsigned char be[4] = {0xff, 0xff, 0, 0};
    seen["byte_enable"] = bus(c.send(regs::ID, &v, 4, be, 4));
    uint32_t two[2] = {0, 0};
    seen["streaming"] = bus(c.send(regs::ID, two, 8, nullptr, 0, 4));
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_address(regs::ID);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
    gp.set_data_length(4);
    gp.set_streaming_width(4);
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    seen["nb_return"] = c.out->nb_transport_fw(gp, ph, t);
    seen["nb_status"] = bus(gp.get_response_status());
    // Debug read of INT_STATUS after a bad access: visible, and reading changes nothing.
    c.send(regs::ID + 1, &v, 4);
    gp.set_address(regs::INT_STATUS);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    v = 0;
    seen["dbg_bytes"] = c.out->transport_dbg(gp);
    seen["dbg_int_status"] = v;
    seen["error"] = device.peek(regs::ERROR);
  };
  sc_core::sc_start();
  CHECK(seen.at("in_window") == bus(tlm::TLM_OK_RESPONSE));
  CHECK(seen.at("id") == regs::kIdValue);
  CHECK(seen.at("past_window") == bus(tlm::TLM_ADDRESS_ERROR_RESPONSE));
  CHECK(seen.at("byte_enable") == bus(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE));
  CHECK(seen.at("streaming") == bus(tlm::TLM_BURST_ERROR_RESPONSE));
  CHECK(seen.at("nb_return") == tlm::TLM_COMPLETED);
  CHECK(seen.at("nb_status") == bus(tlm::TLM_COMMAND_ERROR_RESPONSE));
  CHECK(seen.at("dbg_bytes") == 4);
  CHECK(seen.at("dbg_int_status") == regs::INT_ERROR);
  CHECK(seen.at("error") == regs::ERR_MISALIGNED);
  // Bus errors are the bus's business: only the misaligned access recorded an error.
  CHECK(device.peek(regs::INT_STATUS) == regs::INT_ERROR);
}
