// The SoC example: two kernels back to back from the host model with verified outputs,
// protocol checkers on every socket, DMI against b_transport, DMI invalidation.
#include "soc_test_util.h"

using namespace soc_test;

TEST_CASE("soc example runs vecadd then saxpy from the host model with verified outputs", "[soc]") {
  SocPlatform top("soc", test_config());
  ExampleResult r;
  const ExampleConfig ex = top.config().example;
  top.run([&](HostCpu& cpu) { run_example(cpu, top.config().regs_base, ex, r); });
  INFO(top.host().failure());
  REQUIRE(top.host().failure().empty());
  REQUIRE(r.done);
  CHECK(r.checked == 2 * 4096);
  CHECK(r.mismatches == 0);
  CHECK(r.vecadd_cycles > 0);
  CHECK(r.saxpy_cycles > 0);
  gpu::Gpu& g = top.device().gpu();
  REQUIRE(g.kernel_runs().size() == 2);
  CHECK(g.kernel_run(0).kernel == "vecadd");
  CHECK(g.kernel_run(1).kernel == "saxpy");
  CHECK(g.kernel_run(0).cycles == r.vecadd_cycles);
  CHECK(g.kernel_run(0).registers_per_thread == 14);  // workloads/vecadd/vecadd.resources.json
  CHECK(g.kernel_run(1).registers_per_thread > 0);
  CHECK(top.device().peek(regs::KERNELS_DONE) == 2);
  // Back to back: saxpy starts after vecadd ended, and the host took each interrupt at
  // the core cycle its kernel's last CTA finished (plus the driver's few register accesses).
  CHECK(g.kernel_run(1).start_cycle > g.kernel_run(0).end_cycle);
  for (int k = 0; k < 2; ++k) {
    const sc_core::sc_time end = g.core_clock().time_of(g.kernel_run(k).end_cycle);
    const sc_core::sc_time taken = k == 0 ? r.vecadd_done : r.saxpy_done;
    CHECK(taken >= end);
    CHECK(taken <= end + sc_core::sc_time(200, sc_core::SC_NS));
  }
  // The device is idle again and nothing is pending.
  CHECK((top.device().peek(regs::STATUS) & regs::STATUS_BUSY) == 0);
  CHECK(top.device().peek(regs::ERROR) == regs::ERR_NONE);
}

TEST_CASE("soc protocol checkers on every socket see traffic and zero violations", "[soc]") {
  SocConfig cfg = test_config();
  cfg.dram.dmi = false;  // every GPU global access crosses chk_gpu and chk_dram too
  SocPlatform top("soc", cfg);
  ExampleResult r;
  const ExampleConfig ex = top.config().example;
  top.run([&](HostCpu& cpu) { run_example(cpu, top.config().regs_base, ex, r); });
  REQUIRE(top.host().failure().empty());
  CHECK(r.mismatches == 0);
  REQUIRE(top.checkers().size() == 4);
  for (const auto& c : top.checkers()) {
    INFO(c->name());
    CHECK(c->checked_calls() > 0);
    CHECK(c->violations().empty());
    CHECK(c->in_flight() == 0);
  }
  CHECK(top.protocol_violations() == 0);
  // Global loads and stores of both kernels went through the GPU's socket.
  CHECK(top.device().host_memory().transport_accesses() >= 3 * 4096 * 4 / 4096);
}

namespace {
std::string run_example_child(bool dram_dmi, bool device_dmi) {
  SocConfig cfg = test_config();
  cfg.dram.dmi = dram_dmi;
  cfg.device.dmi = device_dmi;
  SocPlatform top("soc", cfg);
  ExampleResult r;
  const ExampleConfig ex = top.config().example;
  top.run([&](HostCpu& cpu) { run_example(cpu, top.config().regs_base, ex, r); });
  const auto& port = top.device().host_memory();
  std::ostringstream os;
  os << "failure=" << top.host().failure() << "\nmismatches=" << r.mismatches << "\nhash=" << r.output_hash
     << "\nvecadd=" << r.vecadd_cycles << "\nsaxpy=" << r.saxpy_cycles << "\ngrants=" << port.dmi_grants()
     << "\nmapped=" << port.mapped_pages() << "\ntransport=" << port.transport_accesses()
     << "\nviolations=" << top.protocol_violations() << "\n";
  return os.str();
}

std::map<std::string, std::string> parse(const std::string& s) {
  std::map<std::string, std::string> m;
  std::istringstream is(s);
  std::string line;
  while (std::getline(is, line)) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) m[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return m;
}
}  // namespace

TEST_CASE("soc DMI and b_transport paths give identical outputs and GPU cycles", "[soc][dmi]") {
  auto dmi = parse(in_child([] { return run_example_child(true, true); }));
  auto no_dram_dmi = parse(in_child([] { return run_example_child(false, true); }));
  auto no_device_dmi = parse(in_child([] { return run_example_child(true, false); }));
  for (auto* m : {&dmi, &no_dram_dmi, &no_device_dmi}) {
    CHECK((*m)["failure"].empty());
    CHECK((*m)["mismatches"] == "0");
    CHECK((*m)["violations"] == "0");
  }
  // The DMI run mapped host pages and then left the socket alone; the others never mapped.
  CHECK(std::stoull(dmi["grants"]) >= 1);
  CHECK(std::stoull(dmi["mapped"]) > 0);
  CHECK(std::stoull(dmi["transport"]) <= 4);
  for (auto* m : {&no_dram_dmi, &no_device_dmi}) {
    CHECK((*m)["grants"] == "0");
    CHECK((*m)["mapped"] == "0");
    CHECK(std::stoull((*m)["transport"]) > 100);
  }
  CHECK(dmi["hash"] == no_dram_dmi["hash"]);
  CHECK(dmi["hash"] == no_device_dmi["hash"]);
  CHECK(dmi["vecadd"] == no_dram_dmi["vecadd"]);
  CHECK(dmi["saxpy"] == no_dram_dmi["saxpy"]);
  CHECK(dmi["vecadd"] == no_device_dmi["vecadd"]);
  CHECK(dmi["saxpy"] == no_device_dmi["saxpy"]);
}

TEST_CASE("soc DMI invalidation between kernels unmaps host pages and the next kernel maps them again", "[soc][dmi]") {
  SocPlatform top("soc", test_config());
  const std::string ptx = read_text("workloads/vecadd/vecadd.ptx");
  const int n = 2048;
  std::vector<float> a(n), b(n), c1(n), c2(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.25f * static_cast<float>(i);
  }
  std::size_t mapped_before = 0, mapped_after_invalidate = 0;
  top.run([&](HostCpu& cpu) {
    GpuDriver drv(cpu, top.config().regs_base);
    drv.init();
    const uint64_t da = cpu.alloc(n * 4), db = cpu.alloc(n * 4), dc1 = cpu.alloc(n * 4), dc2 = cpu.alloc(n * 4);
    cpu.write(da, a.data(), n * 4);
    cpu.write(db, b.data(), n * 4);
    KernelLaunch k;
    k.module = drv.load_module(ptx);
    k.kernel = "vecadd";
    k.grid[0] = n / 256;
    k.block[0] = 256;
    k.params = ParamBuffer().add(n).add(da).add(db).add(dc1).bytes();
    drv.launch(k);
    mapped_before = top.device().host_memory().mapped_pages();
    top.dram().invalidate_dmi();
    mapped_after_invalidate = top.device().host_memory().mapped_pages();
    k.params = ParamBuffer().add(n).add(db).add(da).add(dc2).bytes();
    drv.launch(k);
    cpu.read(dc1, c1.data(), n * 4);
    cpu.read(dc2, c2.data(), n * 4);
  });
  REQUIRE(top.host().failure().empty());
  CHECK(mapped_before > 0);
  CHECK(mapped_after_invalidate == 0);
  const auto& port = top.device().host_memory();
  CHECK(port.invalidations() == 1);
  CHECK(port.dmi_grants() == 2);
  CHECK(port.mapped_pages() > 0);
  for (int i = 0; i < n; ++i) {
    CHECK(c1[i] == a[i] + b[i]);
    CHECK(c2[i] == b[i] + a[i]);
  }
}
