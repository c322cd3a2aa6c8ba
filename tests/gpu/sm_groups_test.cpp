// GPUs built from groups of SMs of different kinds (issue 16 point 5, seed 004's GPU-H):
// the sm_groups config (each group's sm read on top of the top-level sm, counts, kinds,
// the derived SM count), configs/gpu_t.json / gpu_h.json / gpu_i.json, and runs on a real
// GPU of two kinds: each SM built with its group's config, outputs verified on both kinds,
// ilp_tlp steering by the kernel's shape, and a kernel whose CTA fits only one kind.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gpu/run_summary.h"
#include "gpu/timing_backend.h"
#include "platforms/gpu_platform.h"
#include "runtime/runtime.h"
#include "vecadd_launch.h"

using namespace gputlm;
using Catch::Contains;

namespace {

gpu::GpuConfig load(const std::string& file, const std::vector<std::string>& overrides = {}) {
  auto src = config::ConfigSource::from_file(file);
  for (const auto& o : overrides) src.apply_override(o);
  return platforms::read_gpu_config(src);
}

std::string error_of(const std::string& file, const std::vector<std::string>& overrides) {
  try {
    load(file, overrides);
  } catch (const config::ConfigError& e) {
    return e.what();
  }
  return "";
}

// GPU-H made small for runs: 2 TLP + 2 ILP SMs, and the two kinds differ in what exists
// today (the TLP kind 32 lanes with the conventional scoreboard, the ILP kind the
// baseline's 8 lanes and barrel), so that each SM's config shows whose group built it.
std::vector<std::string> small_gpu_h(std::vector<std::string> more = {}) {
  std::vector<std::string> o = {"sm_groups.tlp.count=2", "sm_groups.ilp.count=2", "cta_scheduler.ctas_per_cycle=4",
                                "sm_groups.tlp.sm.exec.simd_width=32", "sm_groups.tlp.sm.scoreboard.policy=conventional",
                                "sm.scheduler.verify_repeats=true"};
  o.insert(o.end(), more.begin(), more.end());
  return o;
}

struct SmLog : gpu::CtaSchedulerListener {
  std::vector<std::set<uint32_t>> sms = std::vector<std::set<uint32_t>>(4);
  void cta_launched(const gpu::KernelRecord& r, uint32_t sm, uint64_t) override { sms.at(r.kernel->id).insert(sm); }
};

// vecadd on a GPU: c = a + b over n floats, launched with the given CTA shape; checks c.
struct VecaddRun {
  std::unique_ptr<runtime::Runtime> rt;
  gpu::Gpu* gpu = nullptr;
  runtime::ModuleId module{};
  SmLog log;
  struct Launch {
    int n;
    runtime::DevicePtr c;
  };
  std::vector<Launch> launches;
  runtime::DevicePtr a{}, b{};

  explicit VecaddRun(const gpu::GpuConfig& cfg) {
    auto backend = std::make_unique<gpu::TimingBackend>(cfg);
    gpu = &backend->gpu();
    rt = std::make_unique<runtime::Runtime>(std::move(backend));
    module = rt->load_module("workloads/vecadd/vecadd.ptx");
    std::vector<float> ha(1 << 16), hb(1 << 16);
    for (std::size_t i = 0; i < ha.size(); ++i) {
      ha[i] = static_cast<float>(i);
      hb[i] = static_cast<float>(2 * i);
    }
    a = rt->malloc(ha.size() * 4);
    b = rt->malloc(hb.size() * 4);
    rt->memcpy_to_device(a, ha.data(), ha.size() * 4);
    rt->memcpy_to_device(b, hb.data(), hb.size() * 4);
    gpu->cta_scheduler().add_listener(log);
  }
  uint32_t launch(uint32_t ctas, uint32_t threads, uint32_t stream, uint32_t shared_bytes = 0) {
    const int n = static_cast<int>(ctas * threads);
    const runtime::DevicePtr c = rt->malloc(static_cast<uint64_t>(n) * 4);
    const isa::LaunchParams p =
        gpu_test::vecadd_launch(rt->module(module), {ctas, 1, 1}, {threads, 1, 1}, n, a.addr, b.addr, c.addr);
    gpu::Gpu::LaunchOptions o;
    o.dispatch.stream = stream;
    o.registers_per_thread = 8;
    if (shared_bytes) o.static_shared_bytes = shared_bytes;
    launches.push_back({n, c});
    return gpu->launch(rt->module(module), p, o);
  }
  void run_and_check() {
    gpu->run();
    for (const Launch& l : launches) {
      std::vector<float> c(static_cast<std::size_t>(l.n));
      rt->memcpy_to_host(c.data(), l.c, c.size() * 4);
      for (std::size_t i = 0; i < c.size(); ++i) REQUIRE(c[i] == static_cast<float>(3 * i));
    }
  }
  std::set<std::string> kinds_of(uint32_t kernel) const {
    std::set<std::string> k;
    for (uint32_t s : log.sms.at(kernel)) k.insert(gpu->config().sm_kind(s));
    return k;
  }
};

}  // namespace

TEST_CASE("sm_groups config: each group's sm is read on top of the top-level sm", "[gpu][sm_groups]") {
  const gpu::GpuConfig c = load("configs/gpu_h.json", {"sm.registers=8192", "sm_groups.ilp.sm.registers=32768",
                                                      "sm_groups[1].sm.max_ctas=4"});
  REQUIRE(c.sm_groups.size() == 2);
  CHECK(c.sms == 38);  // derived: 20 + 18
  CHECK(c.sm_kinds() == [] {
    std::vector<std::string> k(20, "tlp");
    k.insert(k.end(), 18, "ilp");
    return k;
  }());
  CHECK(c.sm_config(0).registers == 8192);      // -p sm.registers reaches the TLP kind
  CHECK(c.sm_config(19).registers == 8192);
  CHECK(c.sm_config(20).registers == 32768);    // the group's own key wins
  CHECK(c.sm_config(20).max_ctas == 4);         // by index
  CHECK(c.sm_config(0).max_ctas == 8);
  CHECK(c.sm_config(37).exec.simd_width == 8);  // inherited from ilp_baseline's sm
  CHECK(c.sm_kind(19) == "tlp");
  CHECK(c.sm_kind(20) == "ilp");
  CHECK(c.interconnect.sm_ports == 38);
  // The count of a group by -p.
  CHECK(load("configs/gpu_h.json", {"sm_groups.ilp.count=10"}).sms == 30);
  CHECK(load("configs/gpu_h.json", {"sm_groups[0].count=4"}).sms == 22);
  // A config stating the sum is fine.
  CHECK(load("configs/gpu_h.json", {"sms=38"}).sms == 38);
}

TEST_CASE("sm_groups config errors name the key", "[gpu][sm_groups]") {
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups.ilp.sm.registrs=1"}),
             Contains("key 'sm_groups[1].sm.registrs': unknown key (did you mean 'registers'?)"));
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups.ilp.sm.exec.simd_width=6"}),
             Contains("key 'sm_groups[1].sm.exec.simd_width': value 6 is not a power of two"));
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups.ilp.count=0"}),
             Contains("key 'sm_groups[1].count': value 0 out of range"));
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups.ilp.count=-2"}), Contains("key 'sm_groups[1].count'"));
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups[1]={\"kind\":\"ilp\"}"}),
             Contains("key 'sm_groups[1].count': missing"));
  CHECK_THAT(error_of("configs/gpu_h.json", {"sms=30"}),
             Contains("key 'sms': 30 does not match the sm_groups' total of 38 SMs"));
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups.ilp.kind=tlp"}),
             Contains("key 'sm_groups[1].kind': \"tlp\" is also sm_groups[0].kind"));
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups[0].kind=\"\""}), Contains("key 'sm_groups[0].kind': missing"));
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups.big.count=1"}),
             Contains("key 'sm_groups' has no element 'big' (elements: tlp, ilp)"));
  // The steering policy is checked against the kinds the groups build.
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm_groups.ilp.kind=fast"}),
             Contains("key 'cta_scheduler.ilp_tlp.ilp_kind': no SM is of kind 'ilp'"));
  CHECK_THAT(error_of("configs/gpu_t.json", {"cta_scheduler.steering=ilp_tlp"}),
             Contains("key 'cta_scheduler.ilp_tlp.ilp_kind'"));
  CHECK_THAT(error_of("configs/gpu_t.json", {"sms=0"}), Contains("key 'sms': 0 SMs"));
  // Two kinds with ELF need one set of ELF parameters (the program points are per launch).
  CHECK_THAT(error_of("configs/gpu_h.json", {"sm.scheduler.policy=elf", "sm_groups.ilp.sm.scheduler.elf.max_pp=16"}),
             Contains("sm_groups[1].sm.scheduler.elf"));
}

TEST_CASE("gpu_t gpu_i and gpu_h configs are 004's equal-area GPUs with 3 memory modules per controller",
          "[gpu][sm_groups]") {
  const gpu::GpuConfig t = load("configs/gpu_t.json"), i = load("configs/gpu_i.json"), h = load("configs/gpu_h.json");
  CHECK(t.sms == 40);
  CHECK(t.sm_groups.empty());
  CHECK(t.cta_scheduler.steering == "all");
  CHECK(i.sms == 36);
  CHECK(i.cta_scheduler.steering == "all");
  CHECK(h.sms == 38);
  CHECK(h.cta_scheduler.steering == "ilp_tlp");
  CHECK(h.cta_scheduler.ilp_tlp.ilp_below_warps == 16);      // 004 V
  CHECK(h.cta_scheduler.ilp_tlp.ilp_max_threads == 32768);   // 004 V
  for (const gpu::GpuConfig* c : {&t, &i, &h}) {
    CHECK(c->l2.dram.chips_per_channel == 3);                // 004 V: memory modules 2 -> 3
    CHECK(c->partitions == 16);
    CHECK(c->cta_scheduler.ctas_per_cycle == c->sms);
    CHECK(std::abs(c->dram_bandwidth_gbs() - 307.2) < 0.01);  // 16 x 800 MHz x 2 x 4 B x 3
  }
  // The ILP SM: 004 §IV's bypassing, 8-entry scoreboard and static prediction on the baseline SM.
  REQUIRE(h.sm_groups.size() == 2);
  for (const sm::SmConfig* s : {&i.sm, &h.sm_groups[1].sm}) {
    CHECK(s->exec.forwarding == "alu");
    CHECK(s->scoreboard.policy == "ilp_commit");
    CHECK(s->scoreboard.ilp_commit.entries == 8);
    CHECK(s->branch.predictor == "static_btfn");
    CHECK(s->exec.simd_width == 8);
  }
  CHECK(h.sm_groups[0].sm.scoreboard.policy == "barrel");  // the TLP SM: the baseline's
  CHECK(h.sm_groups[0].sm.exec.forwarding == "none");
  CHECK(h.sm_groups[0].sm.branch.predictor == "none");
  // The summary names each kind with its SM ids.
  CHECK_THAT(h.summary(), Contains("kind tlp: 20 SMs (sm0-sm19)") && Contains("kind ilp: 18 SMs (sm20-sm37)"));
  CHECK_THAT(t.summary(), !Contains("kind "));
}

TEST_CASE("sm_groups listing shows each group's keys with this config's values", "[gpu][sm_groups]") {
  auto src = config::ConfigSource::from_file("configs/gpu_h.json");
  src.apply_override("sm_groups.ilp.sm.registers=8192");
  const platforms::PlatformInfo& info = platforms::find("ilp");
  REQUIRE(info.list_config_params);
  bool ilp_regs = false, tlp_kind = false, template_row = false;
  for (const config::ParamInfo& p : info.list_config_params(src)) {
    ilp_regs = ilp_regs || (p.path == "sm_groups[1].sm.registers" && p.default_value == "8192");
    tlp_kind = tlp_kind || (p.path == "sm_groups[0].kind" && p.default_value == "\"tlp\"");
    template_row = template_row || p.path.rfind("sm_groups[i]", 0) == 0;
  }
  CHECK(ilp_regs);
  CHECK(tlp_kind);
  CHECK_FALSE(template_row);
  // The platform's own listing (no config) shows what a group may set.
  bool list_row = false;
  for (const config::ParamInfo& p : info.list_params()) list_row = list_row || p.path == "sm_groups[i].count";
  CHECK(list_row);
}

TEST_CASE("gpu_top with two SM kinds builds each SM from its group and verifies outputs on both kinds",
          "[gpu][sm_groups]") {
  gpu::GpuConfig cfg = load("configs/gpu_h.json", small_gpu_h({"cta_scheduler.steering=all"}));
  VecaddRun r(cfg);
  for (uint32_t s = 0; s < 4; ++s) {
    const sm::SmConfig& c = r.gpu->sm(s).core().config();
    CHECK(c.exec.simd_width == (s < 2 ? 32u : 8u));
    CHECK(c.scoreboard.policy == (s < 2 ? "conventional" : "ilp_commit"));  // gpu_h's ILP SM
    CHECK(c.exec.forwarding == (s < 2 ? "none" : "alu"));
  }
  r.launch(32, 128, 0);
  r.run_and_check();
  CHECK(r.kinds_of(0) == std::set<std::string>{"tlp", "ilp"});
  // Each kind's share of the instructions, in the run summary.
  const gpu::RunSummary s = gpu::summarize(r.gpu->stats().to_json(stats::View::Total), cfg, 1000);
  REQUIRE(s.kinds.size() == 2);
  CHECK(s.kinds[0].kind == "tlp");
  CHECK(s.kinds[1].first_sm == 2);
  CHECK(s.kinds[0].warp_instructions > 0);
  CHECK(s.kinds[1].warp_instructions > 0);
  CHECK(s.kinds[0].warp_instructions + s.kinds[1].warp_instructions == s.warp_instructions);
  CHECK_THAT(gpu::format_summary(s), Contains("kind tlp") && Contains("2 SMs (sm2-sm3)"));
}

TEST_CASE("gpu_top with steering ilp_tlp sends a low-warp kernel to the ILP kind and a wide one to the TLP kind",
          "[gpu][sm_groups][steering]") {
  gpu::GpuConfig cfg = load("configs/gpu_h.json", small_gpu_h());
  VecaddRun r(cfg);
  // k0: 64-thread CTAs: 2 warps x 8 CTAs per TLP SM = 16 warps, not < 16, but 40 x 64 =
  //     2560 threads <= 32768 -> ILP (rule 2).
  // k1: 32-thread CTAs: 1 warp x 8 CTAs = 8 warps per SM < 16 -> ILP (rule 1), however
  //     many threads (1200 x 32 = 38400); the ILP SMs are busy with k0: it waits (when_busy).
  // k2: 256-thread CTAs: 8 warps x 4 CTAs = 32 warps, 160 x 256 = 40960 threads -> TLP.
  r.launch(40, 64, 0);
  r.launch(1200, 32, 1);
  r.launch(160, 256, 2);
  r.run_and_check();
  CHECK(r.kinds_of(0) == std::set<std::string>{"ilp"});
  CHECK(r.kinds_of(1) == std::set<std::string>{"ilp"});
  CHECK(r.kinds_of(2) == std::set<std::string>{"tlp"});
  const gpu::CtaScheduler& s = r.gpu->cta_scheduler();
  CHECK(s.record(1).admit_cycle >= s.record(0).end_cycle);   // disjoint: k1 waited for the ILP SMs
  CHECK(s.record(2).first_cta_cycle < s.record(0).end_cycle);  // k2 ran beside k0
}

TEST_CASE("gpu_top runs a kernel whose CTA fits one kind only on that kind", "[gpu][sm_groups]") {
  // 24 KB of shared memory per CTA: the TLP kind has 16 KB, the ILP kind 32 KB.
  gpu::GpuConfig cfg =
      load("configs/gpu_h.json", small_gpu_h({"cta_scheduler.steering=all", "sm_groups.ilp.sm.shared_bytes=32768"}));
  VecaddRun r(cfg);
  r.launch(16, 128, 0, 24 * 1024);
  r.run_and_check();
  CHECK(r.kinds_of(0) == std::set<std::string>{"ilp"});
}

TEST_CASE("gpu_top refuses a kernel that fits no kind at launch", "[gpu][sm_groups]") {
  gpu::GpuConfig cfg = load("configs/gpu_h.json", small_gpu_h({"sm_groups.ilp.sm.shared_bytes=32768"}));
  VecaddRun r(cfg);
  CHECK_THROWS_WITH(r.launch(4, 128, 0, 40 * 1024),
                    Contains("one CTA fits no kind of SM (tlp: shared memory 40960 > 16384; ilp: shared memory 40960 > "
                             "32768)"));
  // An explicit SM set on a kind where it does not fit.
  const isa::LaunchParams p =
      gpu_test::vecadd_launch(r.rt->module(r.module), {4, 1, 1}, {128, 1, 1}, 512, r.a.addr, r.b.addr, r.a.addr);
  gpu::Gpu::LaunchOptions o;
  o.dispatch.sm_set = {0, 1};
  o.static_shared_bytes = 24 * 1024;
  CHECK_THROWS_WITH(r.gpu->launch(r.rt->module(r.module), p, o),
      Contains("its SM set names sm0 (kind tlp), where one CTA does not fit"));
}

TEST_CASE("gpu_top steering to a kind where the CTA does not fit is an error, not a hang", "[gpu][sm_groups]") {
  // by_kind sends vecadd to the TLP kind, where 24 KB of shared memory does not fit.
  gpu::GpuConfig cfg = load("configs/gpu_h.json",
                            small_gpu_h({"cta_scheduler.steering=by_kind", "cta_scheduler.by_kind.default_kind=tlp",
                                         "sm_groups.ilp.sm.shared_bytes=32768"}));
  VecaddRun r(cfg);
  r.launch(4, 128, 0, 24 * 1024);
  CHECK_THROWS_WITH(r.gpu->run(), Contains("steering policy 'by_kind' chose SMs of kind 'tlp' for kernel") &&
                                      Contains("one CTA fits none of the chosen SMs"));
}
