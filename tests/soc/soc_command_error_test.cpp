// Errors of commands (docs/platforms/soc.md): each bad LOAD_MODULE or LAUNCH records its
// error code and raises INT_ERROR; the device stays usable, and a command while busy is
// refused without disturbing the running kernel.
#include "soc_test_util.h"

using namespace soc_test;

TEST_CASE("soc bad commands record their error codes and the device stays usable", "[soc][errors]") {
  SocConfig cfg = test_config();
  cfg.device.max_modules = 2;
  SocPlatform top("soc", cfg);
  std::map<std::string, uint64_t> seen;
  const std::string vecadd = read_text("workloads/vecadd/vecadd.ptx");
  const std::string saxpy = read_text("workloads/saxpy/saxpy.ptx");
  top.run([&](HostCpu& cpu) {
    Regs r{cpu, top.config().regs_base, seen};
    r.wr(regs::INT_ENABLE, regs::INT_MASK);
    auto addr = [&](uint64_t lo, uint64_t a) {
      r.wr(lo, static_cast<uint32_t>(a));
      r.wr(lo + 4, static_cast<uint32_t>(a >> 32));
    };
    auto load = [&](uint64_t a, uint32_t size) {
      addr(regs::MODULE_ADDR_LO, a);
      r.wr(regs::MODULE_SIZE, size);
      const uint32_t st = r.command(regs::CMD_LOAD_MODULE);
      if (st & regs::INT_ERROR) return r.take_error();
      r.wr(regs::INT_STATUS, st);
      return regs::ERR_NONE;
    };
    r.wr(regs::COMMAND, 7);
    seen["bad_command"] = r.take_error();
    // LOAD_MODULE errors.
    seen["size_zero"] = load(cpu.alloc(16), 0);
    seen["size_big"] = load(cpu.alloc(16), (1u << 20) + 1);
    seen["parse"] = load(r.put("this is not PTX"), 15);
    seen["host_memory"] = load(0x10, 64);  // below host DRAM: the router's address error
    seen["load_vecadd"] = load(r.put(vecadd), static_cast<uint32_t>(vecadd.size()));
    seen["handle1"] = r.rd(regs::MODULE_HANDLE);
    seen["load_saxpy"] = load(r.put(saxpy), static_cast<uint32_t>(saxpy.size()));
    seen["handle2"] = r.rd(regs::MODULE_HANDLE);
    seen["limit"] = load(r.put(saxpy), static_cast<uint32_t>(saxpy.size()));
    // LAUNCH errors, each from an otherwise good vecadd launch.
    const int n = 1024;
    const uint64_t da = cpu.alloc(n * 4), db = cpu.alloc(n * 4), dc = cpu.alloc(n * 4);
    const auto params = ParamBuffer().add(n).add(da).add(db).add(dc).bytes();
    const uint64_t dparams = r.put(std::string(params.begin(), params.end()));
    auto good = [&] {
      r.wr(regs::KERNEL_MODULE, 1);
      addr(regs::KERNEL_NAME_ADDR_LO, r.put("vecadd"));
      r.wr(regs::KERNEL_NAME_SIZE, 6);
      r.wr(regs::GRID_X, n / 128);
      r.wr(regs::BLOCK_X, 128);
      r.wr(regs::SHARED_BYTES, 0);
      addr(regs::PARAM_ADDR_LO, dparams);
      r.wr(regs::PARAM_SIZE, static_cast<uint32_t>(params.size()));
    };
    auto launch = [&] {
      const uint32_t st = r.command(regs::CMD_LAUNCH);
      if (st & regs::INT_ERROR) return r.take_error();
      r.wr(regs::INT_STATUS, st);
      return regs::ERR_NONE;
    };
    good();
    r.wr(regs::KERNEL_MODULE, 0);
    seen["module_zero"] = launch();
    good();
    r.wr(regs::KERNEL_MODULE, 3);
    seen["module_unknown"] = launch();
    good();
    r.wr(regs::KERNEL_NAME_SIZE, 0);
    seen["name_empty"] = launch();
    good();
    addr(regs::KERNEL_NAME_ADDR_LO, r.put("saxpy"));
    r.wr(regs::KERNEL_NAME_SIZE, 5);
    seen["entry"] = launch();  // saxpy is in module 2, not 1
    good();
    r.wr(regs::PARAM_SIZE, 16);
    seen["param_size"] = launch();
    good();
    addr(regs::PARAM_ADDR_LO, 0x20);
    seen["param_host_memory"] = launch();
    good();
    r.wr(regs::GRID_X, 0);
    seen["grid_zero"] = launch();
    good();
    r.wr(regs::GRID_X, 0x80000000u);
    seen["grid_x_big"] = launch();
    good();
    r.wr(regs::BLOCK_X, 2048);
    seen["block_big"] = launch();
    good();
    r.wr(regs::SHARED_BYTES, 1u << 20);  // no SM has 1 MiB of shared memory
    seen["shared_big"] = launch();
    // After all that, a good launch runs.
    good();
    seen["good"] = launch();
    seen["kernels_done"] = r.rd(regs::KERNELS_DONE);
    seen["status"] = r.rd(regs::STATUS);
  });
  INFO(top.host().failure());
  REQUIRE(top.host().failure().empty());
  CHECK(seen.at("bad_command") == regs::ERR_BAD_COMMAND);
  CHECK(seen.at("size_zero") == regs::ERR_MODULE_SIZE);
  CHECK(seen.at("size_big") == regs::ERR_MODULE_SIZE);
  CHECK(seen.at("parse") == regs::ERR_MODULE_PARSE);
  CHECK(seen.at("host_memory") == regs::ERR_HOST_MEMORY);
  CHECK(seen.at("load_vecadd") == regs::ERR_NONE);
  CHECK(seen.at("handle1") == 1);
  CHECK(seen.at("load_saxpy") == regs::ERR_NONE);
  CHECK(seen.at("handle2") == 2);
  CHECK(seen.at("limit") == regs::ERR_MODULE_LIMIT);
  CHECK(seen.at("module_zero") == regs::ERR_UNKNOWN_MODULE);
  CHECK(seen.at("module_unknown") == regs::ERR_UNKNOWN_MODULE);
  CHECK(seen.at("name_empty") == regs::ERR_MODULE_SIZE);
  CHECK(seen.at("entry") == regs::ERR_UNKNOWN_ENTRY);
  CHECK(seen.at("param_size") == regs::ERR_PARAM_SIZE);
  CHECK(seen.at("param_host_memory") == regs::ERR_HOST_MEMORY);
  CHECK(seen.at("grid_zero") == regs::ERR_BAD_GRID);
  CHECK(seen.at("grid_x_big") == regs::ERR_BAD_GRID);
  CHECK(seen.at("block_big") == regs::ERR_BAD_GRID);
  CHECK(seen.at("shared_big") == regs::ERR_BAD_GRID);
  CHECK(seen.at("good") == regs::ERR_NONE);
  CHECK(seen.at("kernels_done") == 1);
  CHECK(seen.at("status") == 0);
  CHECK(top.device().gpu().kernel_runs().size() == 1);
  CHECK(top.protocol_violations() == 0);
}

TEST_CASE("soc a command while busy is refused and the running kernel completes", "[soc][errors]") {
  SocPlatform top("soc", test_config());
  std::map<std::string, uint64_t> seen;
  const std::string vecadd = read_text("workloads/vecadd/vecadd.ptx");
  const int n = 1 << 16;
  std::vector<float> c(n);
  top.run([&](HostCpu& cpu) {
    Regs r{cpu, top.config().regs_base, seen};
    GpuDriver drv(cpu, top.config().regs_base);
    drv.init();
    const uint32_t m = drv.load_module(vecadd);
    const uint64_t da = cpu.alloc(n * 4), db = cpu.alloc(n * 4), dc = cpu.alloc(n * 4);
    std::vector<float> a(n, 1.5f), b(n, 2.0f);
    cpu.write(da, a.data(), n * 4);
    cpu.write(db, b.data(), n * 4);
    const auto params = ParamBuffer().add(n).add(da).add(db).add(dc).bytes();
    r.wr(regs::KERNEL_MODULE, m);
    const uint64_t name = r.put("vecadd");
    r.wr(regs::KERNEL_NAME_ADDR_LO, static_cast<uint32_t>(name));
    r.wr(regs::KERNEL_NAME_ADDR_HI, static_cast<uint32_t>(name >> 32));
    r.wr(regs::KERNEL_NAME_SIZE, 6);
    r.wr(regs::GRID_X, n / 256);
    r.wr(regs::BLOCK_X, 256);
    const uint64_t p = r.put(std::string(params.begin(), params.end()));
    r.wr(regs::PARAM_ADDR_LO, static_cast<uint32_t>(p));
    r.wr(regs::PARAM_ADDR_HI, static_cast<uint32_t>(p >> 32));
    r.wr(regs::PARAM_SIZE, static_cast<uint32_t>(params.size()));
    r.wr(regs::COMMAND, regs::CMD_LAUNCH);
    cpu.irq_level();  // let the command start
    seen["busy"] = r.rd(regs::STATUS) & regs::STATUS_BUSY;
    r.wr(regs::COMMAND, regs::CMD_LAUNCH);
    r.wr(regs::COMMAND, regs::CMD_LOAD_MODULE);
    cpu.wait_irq(sc_core::sc_time(1, sc_core::SC_MS));  // the error's interrupt, at once
    seen["error_int"] = r.rd(regs::INT_STATUS);
    seen["busy_error"] = r.take_error();
    seen["still_busy"] = r.rd(regs::STATUS) & regs::STATUS_BUSY;
    cpu.wait_irq(sc_core::sc_time(100, sc_core::SC_MS));  // the kernel's completion
    seen["done_int"] = r.rd(regs::INT_STATUS);
    r.wr(regs::INT_STATUS, regs::INT_MASK);
    seen["kernels_done"] = r.rd(regs::KERNELS_DONE);
    seen["status_after"] = r.rd(regs::STATUS);
    cpu.read(dc, c.data(), n * 4);
  });
  INFO(top.host().failure());
  REQUIRE(top.host().failure().empty());
  CHECK(seen.at("busy") == regs::STATUS_BUSY);
  CHECK(seen.at("error_int") == regs::INT_ERROR);
  CHECK(seen.at("busy_error") == regs::ERR_BUSY);
  CHECK(seen.at("still_busy") == regs::STATUS_BUSY);
  CHECK(seen.at("done_int") == regs::INT_DONE);
  CHECK(seen.at("kernels_done") == 1);
  CHECK(seen.at("status_after") == 0);
  CHECK(top.device().gpu().kernel_runs().size() == 1);
  int wrong = 0;
  for (float v : c) wrong += v != 3.5f;
  CHECK(wrong == 0);
}

TEST_CASE("soc a kernel fault ends the run with a simulation error naming the access", "[soc][errors]") {
  SocPlatform top("soc", test_config());
  const std::string vecadd = read_text("workloads/vecadd/vecadd.ptx");
  std::string what;
  try {
    top.run([&](HostCpu& cpu) {
      GpuDriver drv(cpu, top.config().regs_base);
      drv.init();
      const int n = 256;
      const uint64_t da = cpu.alloc(n * 4), db = cpu.alloc(n * 4);
      KernelLaunch k;
      k.module = drv.load_module(vecadd);
      k.kernel = "vecadd";
      k.grid[0] = 1;
      k.block[0] = n;
      k.params = ParamBuffer().add(n).add(da).add(db).add(uint64_t{0x1000}).bytes();  // c outside host memory
      drv.launch(k);
    });
  } catch (const gpu::SimulationError& e) {
    what = e.what();
  }
  INFO(what);
  CHECK(what.find("out-of-bounds global write") != std::string::npos);
  CHECK(what.find("at address 0x1") != std::string::npos);
  CHECK(what.find("vecadd") != std::string::npos);
}

TEST_CASE("soc an endless kernel ends the run at the GPU's max_cycles", "[soc][errors]") {
  SocConfig cfg = test_config();
  cfg.gpu.max_cycles = 20000;
  SocPlatform top("soc", cfg);
  const std::string spin =
      ".version 6.0\n.target sm_50\n.address_size 64\n.visible .entry spin()\n{\n$L_top:\n\tbra $L_top;\n}\n";
  std::string what;
  try {
    top.run([&](HostCpu& cpu) {
      GpuDriver drv(cpu, top.config().regs_base);
      drv.init();
      KernelLaunch k;
      k.module = drv.load_module(spin);
      k.kernel = "spin";
      k.block[0] = 32;
      drv.launch(k);
    });
  } catch (const gpu::SimulationError& e) {
    what = e.what();
  }
  INFO(what);
  CHECK(what.find("exceeded max_cycles = 20000") != std::string::npos);
  CHECK(what.find("kernel 0 spin") != std::string::npos);
  CHECK(top.device().gpu().cycle() < 20000 + 65536);
}
