// Register semantics of the GPU device: identity, read-only registers and bits,
// write-1-to-clear interrupt status, the interrupt line following INT_STATUS & INT_ENABLE,
// and the errors of bad register accesses (which answer the bus with OK and record an
// error) against bus errors (outside the window, byte enables).
#include "soc_test_util.h"

using namespace soc_test;

TEST_CASE("soc registers identity read-only bits write-1-to-clear and the irq line", "[soc][regs]") {
  SocPlatform top("soc", test_config());
  std::map<std::string, uint64_t> seen;
  top.run([&](HostCpu& cpu) {
    Regs r{cpu, top.config().regs_base, seen};
    seen["id"] = r.rd(regs::ID);
    seen["version"] = r.rd(regs::VERSION);
    seen["status0"] = r.rd(regs::STATUS);
    seen["irq0"] = cpu.irq_level();
    // Undefined bits of INT_ENABLE read as 0; RW descriptor registers read back.
    r.wr(regs::INT_ENABLE, 0xFFFFFFFFu);
    seen["int_enable_all"] = r.rd(regs::INT_ENABLE);
    r.wr(regs::INT_ENABLE, 0);
    r.wr(regs::GRID_Y, 77);
    seen["grid_y"] = r.rd(regs::GRID_Y);
    r.wr(regs::PARAM_ADDR_HI, 0x12345678u);
    seen["param_hi"] = r.rd(regs::PARAM_ADDR_HI);
    // A write to a read-only register changes nothing but records ERR_READ_ONLY.
    r.wr(regs::KERNELS_DONE, 5);
    seen["kernels_done"] = r.rd(regs::KERNELS_DONE);
    r.wr(regs::ID, 0);
    seen["id_after_write"] = r.rd(regs::ID);
    seen["error_ro"] = r.rd(regs::ERROR);
    seen["status_error"] = r.rd(regs::STATUS);
    seen["int_status_error"] = r.rd(regs::INT_STATUS);
    // Pending but not enabled: the line stays low; enabling raises it.
    seen["irq_masked"] = cpu.irq_level();
    r.wr(regs::INT_ENABLE, regs::INT_DONE);
    seen["irq_other_enabled"] = cpu.irq_level();
    r.wr(regs::INT_ENABLE, regs::INT_ERROR);
    seen["irq_enabled"] = cpu.irq_level();
    // W1C: writing 0, or only another bit, clears nothing; writing the bit clears it (and ERROR).
    r.wr(regs::INT_STATUS, 0);
    seen["int_status_w0"] = r.rd(regs::INT_STATUS);
    r.wr(regs::INT_STATUS, regs::INT_DONE);
    seen["int_status_wdone"] = r.rd(regs::INT_STATUS);
    seen["irq_still"] = cpu.irq_level();
    r.wr(regs::INT_STATUS, regs::INT_ERROR);
    seen["int_status_cleared"] = r.rd(regs::INT_STATUS);
    seen["error_cleared"] = r.rd(regs::ERROR);
    seen["status_cleared"] = r.rd(regs::STATUS);
    seen["irq_cleared"] = cpu.irq_level();
    // COMMAND is write-only: reads 0.
    seen["command_read"] = r.rd(regs::COMMAND);
  });
  INFO(top.host().failure());
  REQUIRE(top.host().failure().empty());
  CHECK(seen.at("id") == regs::kIdValue);
  CHECK(seen.at("version") == regs::kVersionValue);
  CHECK(seen.at("status0") == 0);
  CHECK(seen.at("irq0") == 0);
  CHECK(seen.at("int_enable_all") == regs::INT_MASK);
  CHECK(seen.at("grid_y") == 77);
  CHECK(seen.at("param_hi") == 0x12345678u);
  CHECK(seen.at("kernels_done") == 0);
  CHECK(seen.at("id_after_write") == regs::kIdValue);
  CHECK(seen.at("error_ro") == regs::ERR_READ_ONLY);
  CHECK(seen.at("status_error") == regs::STATUS_ERROR);
  CHECK(seen.at("int_status_error") == regs::INT_ERROR);
  CHECK(seen.at("irq_masked") == 0);
  CHECK(seen.at("irq_other_enabled") == 0);
  CHECK(seen.at("irq_enabled") == 1);
  CHECK(seen.at("int_status_w0") == regs::INT_ERROR);
  CHECK(seen.at("int_status_wdone") == regs::INT_ERROR);
  CHECK(seen.at("irq_still") == 1);
  CHECK(seen.at("int_status_cleared") == 0);
  CHECK(seen.at("error_cleared") == regs::ERR_NONE);
  CHECK(seen.at("status_cleared") == 0);
  CHECK(seen.at("irq_cleared") == 0);
  CHECK(seen.at("command_read") == 0);
  CHECK(top.protocol_violations() == 0);
}

TEST_CASE("soc bad register accesses record errors and bus errors answer outside the window", "[soc][regs]") {
  SocPlatform top("soc", test_config());
  std::map<std::string, uint64_t> seen;
  top.run([&](HostCpu& cpu) {
    Regs r{cpu, top.config().regs_base, seen};
    const uint64_t base = top.config().regs_base;
    r.wr(regs::INT_ENABLE, regs::INT_MASK);
    // Misaligned: the bus says OK, a read gives zeros, ERROR says why, the irq rises.
    uint32_t v = 0xdeadbeef;
    seen["misaligned_resp"] = bus(cpu.access(tlm::TLM_READ_COMMAND, base + regs::GRID_X + 2, &v, 4));
    seen["misaligned_data"] = v;
    seen["misaligned_irq"] = cpu.irq_level();
    seen["misaligned"] = r.take_error();
    seen["irq_after_ack"] = cpu.irq_level();
    v = 9;
    seen["misaligned_write_resp"] = bus(cpu.access(tlm::TLM_WRITE_COMMAND, base + regs::GRID_X + 1, &v, 4));
    seen["misaligned_write"] = r.take_error();
    seen["grid_x_unchanged"] = r.rd(regs::GRID_X);
    // Not 4 bytes wide.
    uint16_t half = 3;
    seen["size_resp"] = bus(cpu.access(tlm::TLM_WRITE_COMMAND, base + regs::GRID_X, &half, 2));
    seen["size"] = r.take_error();
    uint64_t wide = 0;
    seen["wide_resp"] = bus(cpu.access(tlm::TLM_READ_COMMAND, base + regs::GRID_X, &wide, 8));
    seen["wide"] = r.take_error();
    // Read-only and unassigned offsets.
    r.wr(regs::STATUS, 0xFFFFFFFFu);
    seen["read_only"] = r.take_error();
    r.wr(0xF0, 1);
    seen["no_register"] = r.take_error();
    seen["reserved_read"] = r.rd(0xF0);
    seen["reserved_read_error"] = r.rd(regs::ERROR);
    // Past the window: the router answers with a bus error; the device records nothing.
    seen["outside_resp"] = bus(cpu.access(tlm::TLM_READ_COMMAND, base + regs::kWindowBytes, &v, 4));
    seen["outside_error"] = r.rd(regs::ERROR);
    // The last error wins when two come before the acknowledgement.
    r.wr(regs::ID, 1);
    r.wr(0xF4, 1);
    seen["last_wins"] = r.take_error();
  });
  INFO(top.host().failure());
  REQUIRE(top.host().failure().empty());
  CHECK(seen.at("misaligned_resp") == bus(tlm::TLM_OK_RESPONSE));
  CHECK(seen.at("misaligned_data") == 0);
  CHECK(seen.at("misaligned_irq") == 1);
  CHECK(seen.at("misaligned") == regs::ERR_MISALIGNED);
  CHECK(seen.at("irq_after_ack") == 0);
  CHECK(seen.at("misaligned_write_resp") == bus(tlm::TLM_OK_RESPONSE));
  CHECK(seen.at("misaligned_write") == regs::ERR_MISALIGNED);
  CHECK(seen.at("grid_x_unchanged") == 1);
  CHECK(seen.at("size_resp") == bus(tlm::TLM_OK_RESPONSE));
  CHECK(seen.at("size") == regs::ERR_ACCESS_SIZE);
  CHECK(seen.at("wide_resp") == bus(tlm::TLM_OK_RESPONSE));
  CHECK(seen.at("wide") == regs::ERR_ACCESS_SIZE);
  CHECK(seen.at("read_only") == regs::ERR_READ_ONLY);
  CHECK(seen.at("no_register") == regs::ERR_NO_REGISTER);
  CHECK(seen.at("reserved_read") == 0);
  CHECK(seen.at("reserved_read_error") == regs::ERR_NONE);
  CHECK(seen.at("outside_resp") == bus(tlm::TLM_ADDRESS_ERROR_RESPONSE));
  CHECK(seen.at("outside_error") == regs::ERR_NONE);
  CHECK(seen.at("last_wins") == regs::ERR_NO_REGISTER);
  CHECK(top.protocol_violations() == 0);
}

// SocPlatform::run steps the simulation in slices with SC_EXIT_ON_STARVATION, which keeps
// time at the last event: a host sleeping past a slice while the GPU idles once made it
// run the same empty slice forever (found by the device fuzz target).
TEST_CASE("soc a host sleeping longer than a slice with the GPU idle ends", "[soc][run]") {
  SocPlatform top("soc", test_config());
  std::map<std::string, uint64_t> seen;
  top.run([&](HostCpu& cpu) {
    Regs r{cpu, top.config().regs_base, seen};
    r.wr(regs::INT_ENABLE, regs::INT_MASK);
    try {
      cpu.wait_irq(sc_core::sc_time(500, sc_core::SC_US));  // no command: times out
    } catch (const std::runtime_error&) {
      seen["timed_out"] = 1;
    }
    seen["woke_ps"] = cpu.now().value();
    seen["id"] = r.rd(regs::ID);
  });
  INFO(top.host().failure());
  REQUIRE(top.host().failure().empty());
  CHECK(seen.at("timed_out") == 1);
  CHECK(seen.at("woke_ps") >= sc_core::sc_time(500, sc_core::SC_US).value());
  CHECK(seen.at("id") == regs::kIdValue);
}

TEST_CASE("soc a host sleeping past max_time_ms is reported, not waited for", "[soc][run]") {
  SocConfig cfg = test_config();
  cfg.max_time_ms = 0.2;
  SocPlatform top("soc", cfg);
  try {
    top.run([&](HostCpu& cpu) { cpu.wait_irq(sc_core::sc_time(1, sc_core::SC_SEC)); });
    FAIL("run returned");
  } catch (const std::runtime_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("has not finished after max_time_ms"));
  }
  CHECK(sc_core::sc_time_stamp() <= sc_core::sc_time(0.2, sc_core::SC_MS));
}
